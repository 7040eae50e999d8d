"""R5 trust pass: tag what the caller should not take at face value."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta

from graphmem.models import Recalled

UNCERTAIN_BELOW = 0.3


def trust_pass(
    results: list[Recalled], edges: Iterable[tuple[str, str]], now: datetime, stale_after: timedelta
) -> list[Recalled]:
    """Tag results ``uncertain`` (confidence < 0.3), ``stale`` (unconfirmed for ``stale_after``) and
    ``conflict`` (joined to another result by a CONTRADICTS edge, i.e. judged in conflict when the
    later one was written). Tags never reorder: results stay in score order."""
    returned = {r.id for r in results}
    in_conflict = {m for a, b in edges if a in returned and b in returned and a != b for m in (a, b)}
    tagged = []
    for r in results:
        tags = list(r.tags)
        if r.confidence < UNCERTAIN_BELOW:
            tags.append("uncertain")
        confirmed = max(r.occurred_at, r.last_accessed_at or r.occurred_at)
        if now - confirmed > stale_after:
            tags.append("stale")
        if r.id in in_conflict:
            tags.append("conflict")
        tagged.append(r.model_copy(update={"tags": list(dict.fromkeys(tags))}))
    return tagged
