"""Which fulltext index a recall's keyword query asks, and the Lucene query it sends.

A recall in scopes asks ``memory_text_scoped`` (text and scope, English analyzer) for the
query's terms in the text field AND a phrase per scope path in the scope field, so the index
returns its best matches within the scopes instead of the scopes' share of its best over the
whole graph. The scope clause is boosted by 0: each hit's BM25 score is its text score alone,
as ``memory_text`` gives it. The analyzer reads ``/user/alice`` as the words "user alice", and
the phrase also matches sub-scopes (``/user/alice/work``) and paths that merely contain those
words (``/team/user/alice``): a superset, which the Cypher scope filter narrows.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

# Lucene's English stop words (EnglishAnalyzer.ENGLISH_STOP_WORDS_SET): a segment made of one of
# them leaves no word in the index.
_LUCENE_STOP_WORDS = frozenset(
    [
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "but",
        "by",
        "for",
        "if",
        "in",
        "into",
        "is",
        "it",
        "no",
        "not",
        "of",
        "on",
        "or",
        "such",
        "that",
        "the",
        "their",
        "then",
        "there",
        "these",
        "they",
        "this",
        "to",
        "was",
        "will",
        "with",
    ]
)
_PLAIN_SEGMENT = re.compile(r"[A-Za-z0-9]+")


def survives_analysis(scope: str) -> bool:
    """Whether the English analyzer surely keeps a word of ``scope``: one of its segments is
    plain ASCII letters and digits (one token, whatever its neighbours) and not a stop word.

    A phrase the analyzer empties is dropped from the query by Lucene's parser, which would
    drop that scope from an OR of scopes: such scopes are not filtered in the index at all.
    """
    return any(
        _PLAIN_SEGMENT.fullmatch(s) is not None and s.lower() not in _LUCENE_STOP_WORDS
        for s in scope.split("/")
    )


def _phrase(scope: str) -> str:
    return '"' + scope.replace("\\", "\\\\").replace('"', '\\"') + '"'


def keyword_params(lucene: str | None, scopes: Sequence[str] | None) -> dict[str, Any]:
    """The ``$text`` and ``$text_in_scopes`` parameters of a recall's fulltext candidates.

    ``lucene`` is the query's OR of words (None: no keyword search), ``scopes`` the scope paths
    asked (None: the whole graph, asked of ``memory_text`` as is). Scopes the analyzer could
    read as no word at all are searched as the whole graph (the Cypher filter keeps theirs).
    """
    if lucene is None or not scopes or not all(survives_analysis(s) for s in scopes):
        return {"text": lucene, "text_in_scopes": False}
    paths = " OR ".join(_phrase(s) for s in scopes)
    return {"text": f"text:({lucene}) AND scope:({paths})^0", "text_in_scopes": True}
