"""D1 decay written back: pages of memories with the facts their strength depends on, and the writes."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from graphmem.store.executor import QueryExecutor
from graphmem.store.records import native


@dataclass(frozen=True)
class StrengthFacts:
    """What one memory's D1 strength is a function of (see ``decay/strength_page``)."""

    id: str
    strength: float  # at its last use
    used: datetime  # its last use; entering this graph counts as one
    spaced: int
    pinned: bool
    fade: float
    faded_at: datetime | None
    decayed: float | None  # what the last decay pass wrote


class DecayStore:
    """Reads active memories in id order and records their decayed strength."""

    def __init__(self, executor: QueryExecutor) -> None:
        self._executor = executor

    def pages(self, page: int, floor: float) -> Iterator[list[StrengthFacts]]:
        """Every active memory not yet faded down to ``floor``, ``page`` at a time, in id order."""
        after = ""
        while True:
            found = self._executor.read("decay/strength_page", after=after, page=page, floor=floor)
            rows = [native(r) for r in found]
            if not rows:
                return
            yield [
                StrengthFacts(
                    id=r["id"],
                    strength=float(r["strength"] if r["strength"] is not None else 1.0),
                    used=r["used"],
                    spaced=int(r["spaced"]),
                    pinned=bool(r["pinned"]),
                    fade=float(r["fade"]),
                    faded_at=r["faded_at"],
                    decayed=None if r["decayed"] is None else float(r["decayed"]),
                )
                for r in rows
            ]
            after = rows[-1]["id"]

    def write(self, rows: Sequence[dict[str, Any]], now: datetime) -> int:
        """Record ``rows`` ({id, used_ms: its last use as read, epoch ms; strength}); returns how many
        were written (a memory used again since it was read is skipped)."""
        if not rows:
            return 0
        return int(self._executor.write("decay/write_strengths", rows=list(rows), now=now)[0]["written"])
