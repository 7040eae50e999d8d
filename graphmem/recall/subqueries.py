"""R4: splitting a complex query into sub-queries for a deeper search when confidence is low."""

from __future__ import annotations

import re

from graphmem.recall.lucene import lucene_query

_SPLIT = re.compile(r"[,;?]|\band\b|\bbut\b|\bor\b|\bthen\b|\bafter\b|\bbefore\b|\bwhile\b", re.IGNORECASE)
MIN_TERMS = 2


def sub_queries(query: str, budget: int = 3) -> list[str]:
    """Up to ``budget`` clauses of ``query`` that each say something (two content words or more).

    Empty when the query is a single clause: splitting it would only repeat the search.
    """
    parts = [p.strip() for p in _SPLIT.split(query)]
    useful = [
        p
        for p in parts
        if p and (terms := lucene_query(p)) is not None and len(terms.split(" OR ")) >= MIN_TERMS
    ]
    return useful[:budget] if len(useful) > 1 else []
