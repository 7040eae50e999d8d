"""D1 decay written back: pages of memories with the facts their strength depends on, and the writes."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from graphmem.errors import StoreError
from graphmem.store.executor import QueryExecutor, Row
from graphmem.store.records import utc_instant


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
            if not found:
                return
            yield [self._facts(r) for r in found]
            after = found[-1]["id"]

    @staticmethod
    def _facts(row: Row) -> StrengthFacts:
        used = utc_instant(row["used_s"], row["used_us"])
        if used is None:
            raise StoreError(f"memory {row['id']} has no created_at; rewrite it with one")
        return StrengthFacts(
            id=row["id"],
            strength=float(row["strength"] if row["strength"] is not None else 1.0),
            used=used,
            spaced=int(row["spaced"]),
            pinned=bool(row["pinned"]),
            fade=float(row["fade"]),
            faded_at=utc_instant(row["faded_s"], row["faded_us"]),
            decayed=None if row["decayed"] is None else float(row["decayed"]),
        )

    def write(self, rows: Sequence[dict[str, Any]], now: datetime) -> int:
        """Record ``rows`` ({id, used_ms: its last use as read, epoch ms; strength}); returns how many
        were written (a memory used again since it was read is skipped)."""
        if not rows:
            return 0
        return int(self._executor.write("decay/write_strengths", rows=list(rows), now=now)[0]["written"])
