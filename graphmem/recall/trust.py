"""R5 trust pass: tag what the caller should not take at face value."""

from __future__ import annotations

from collections.abc import Collection, Iterable
from datetime import datetime, timedelta

from graphmem.models import MemoryRecord, Recalled, Tag

UNCERTAIN_BELOW = 0.3


def in_conflict(returned: Collection[str], edges: Iterable[tuple[str, str]]) -> set[str]:
    """The memories of ``returned`` joined to another of them by a CONTRADICTS edge ``edges``."""
    return {m for a, b in edges if a in returned and b in returned and a != b for m in (a, b)}


def trust_tags(record: MemoryRecord, conflict: bool, now: datetime, stale_after: timedelta) -> list[Tag]:
    """The tags of one result: ``uncertain`` (confidence < 0.3), ``stale`` (unconfirmed for
    ``stale_after``), ``conflict`` (``conflict``: in conflict with another result)."""
    tags: list[Tag] = []
    if record.confidence < UNCERTAIN_BELOW:
        tags.append("uncertain")
    confirmed = max(record.occurred_at, record.last_accessed_at or record.occurred_at)
    if now - confirmed > stale_after:
        tags.append("stale")
    if conflict:
        tags.append("conflict")
    return tags


def trust_pass(
    results: list[Recalled], edges: Iterable[tuple[str, str]], now: datetime, stale_after: timedelta
) -> list[Recalled]:
    """Tag results ``uncertain`` (confidence < 0.3), ``stale`` (unconfirmed for ``stale_after``) and
    ``conflict`` (joined to another result by a CONTRADICTS edge, i.e. judged in conflict when the
    later one was written). Tags never reorder: results stay in score order."""
    conflicted = in_conflict({r.id for r in results}, edges)
    tagged = []
    for r in results:
        tags = [*r.tags, *trust_tags(r, r.id in conflicted, now, stale_after)]
        tagged.append(r.model_copy(update={"tags": list(dict.fromkeys(tags))}))
    return tagged
