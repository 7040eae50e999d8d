"""D3 reconsolidation: a memory recalled in the last six hours is labile, and a new statement that
restates it with a qualification refines it ("I prefer async" -> "I prefer async, except for
urgent issues") without an explicit contradiction."""

from __future__ import annotations

from datetime import datetime

from graphmem.beliefs.parse import sentence_count
from graphmem.beliefs.statements import Statement

MIN_REFINE_COSINE = 0.7
MIN_KEPT_SHARE = 0.8
QUALIFIERS = frozenset({"except", "unless", "only", "but", "when", "if", "usually", "mostly", "sometimes"})


def refines(
    old: Statement, new: Statement, cosine: float, labile_until: datetime | None, now: datetime
) -> bool:
    """Whether ``new`` refines the labile memory ``old``: it keeps most of its words and adds more,
    or a qualification, while the retrieval window is open."""
    if labile_until is None or labile_until < now or cosine < MIN_REFINE_COSINE:
        return False
    if not (old.atomic and new.atomic) or not old.content or sentence_count(new.body) > 1:
        return False
    kept = len(old.content & new.content) / len(old.content)
    added = new.content - old.content
    return kept >= MIN_KEPT_SHARE and bool(added) and (bool(new.words & QUALIFIERS) or len(added) >= 2)
