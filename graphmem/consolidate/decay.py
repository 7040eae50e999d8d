"""D1 written back: the nightly pass records each memory's decayed strength in the graph.

Recall ranks by the strength of the moment (computed at read time), but what is hidden (below
0.1) and what C4 may archive are decided in queries, which read stored properties. This pass
stores ``decayed_strength``: the strength at the last use, faded by the time since (D1, with C1's
fade from when the memory was distilled; pinned memories never fade).

Time counts from the last use, and a memory entering this graph counts as used then
(``last_accessed_at`` starts at ``created_at``), never from ``occurred_at``: an import of a
conversation from 2023 is as fresh on its first night as what was said today, and fades from
then on like anything else left unused. The strength is taken as of the start of the run's UTC
day and rounded to 0.001, so a second run the same day writes nothing; a memory used again
after it was read is left for the next run.
"""

from __future__ import annotations

from datetime import datetime, time

from graphmem.consolidate.context import RunContext
from graphmem.dynamics.decay import HIDDEN_BELOW, STRENGTH_FLOOR, decayed_strength
from graphmem.store.decay import DecayStore, StrengthFacts

STEP = "D1 decay"
DIGITS = 3


def day_start(now: datetime) -> datetime:
    """Midnight at the start of ``now``'s day, in ``now``'s time zone."""
    return datetime.combine(now.date(), time(0), tzinfo=now.tzinfo)


def strength_on(facts: StrengthFacts, when: datetime) -> float:
    """D1: the memory's strength at ``when``, rounded as stored."""
    value = decayed_strength(
        facts.strength,
        facts.used,
        max(when, facts.used),
        facts.spaced,
        pinned=facts.pinned,
        fade=facts.fade,
        faded_at=facts.faded_at,
    )
    return round(value, DIGITS)


class DecayPass:
    """Write every active memory's decayed strength where it changed."""

    def __init__(self, store: DecayStore, page: int) -> None:
        self._store = store
        self._page = page

    def run(self, ctx: RunContext) -> None:
        """Record the strengths as of the start of the run's day; count what was written and hidden."""
        when = day_start(ctx.now)
        seen = 0
        for page in self._store.pages(self._page, STRENGTH_FLOOR):  # at the floor nothing changes
            rows = []
            for facts in page:
                value = strength_on(facts, when)
                before = facts.decayed if facts.decayed is not None else round(facts.strength, DIGITS)
                if value != before:
                    used_ms = round(facts.used.timestamp() * 1000)
                    rows.append({"id": facts.id, "used_ms": used_ms, "strength": value})
                    if value < HIDDEN_BELOW <= before:
                        ctx.counts["hidden"] += 1
            ctx.counts["decayed"] += self._store.write(rows, ctx.now)
            seen += len(page)
            ctx.heartbeat()
            ctx.progress(STEP, seen, None)
