"""D2 + D3 on retrieval: what a recall returns is reinforced (spacing-aware) and becomes labile for
six hours (at most ten memories per recall). Written in the background so recall stays fast."""

from __future__ import annotations

import logging
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timedelta
from typing import Any

from graphmem.clock import Clock
from graphmem.dynamics.decay import decayed_strength
from graphmem.dynamics.reinforcement import is_spaced, reinforce
from graphmem.errors import GraphmemError
from graphmem.models import Recalled
from graphmem.store.memories import MemoryDynamicsStore

log = logging.getLogger(__name__)

LABILITY_WINDOW = timedelta(hours=6)
MAX_LABILE = 10


def touch_rows(results: list[Recalled], now: datetime) -> list[dict[str, Any]]:
    """The reinforcement of each recalled memory: decay to now, then the spacing-aware gain."""
    rows = []
    for position, r in enumerate(results):
        last = r.last_accessed_at or r.occurred_at
        hours = max(0.0, (now - last).total_seconds() / 3600)
        current = decayed_strength(r.strength, last, now, 0, pinned=r.pinned)
        rows.append(
            {
                "id": r.id,
                "strength": reinforce(current, hours),
                "accessed_at": now,
                "spaced": 1 if is_spaced(hours) else 0,
                "labile": position < MAX_LABILE,
                "labile_until": now + LABILITY_WINDOW,
            }
        )
    return rows


class RetrievalReinforcer:
    """Reinforces recalled memories on one background thread; failures are logged, never raised."""

    def __init__(self, store: MemoryDynamicsStore, clock: Clock) -> None:
        self._store = store
        self._clock = clock
        self._pool: ThreadPoolExecutor | None = None

    def submit(self, results: list[Recalled]) -> None:
        """Queue the reinforcement of ``results``."""
        if not results:
            return
        if self._pool is None:
            self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="graphmem-reinforce")
        self._pool.submit(self._touch, results)

    def flush(self) -> None:
        """Wait for queued reinforcements (tests, shutdown)."""
        if self._pool is not None:
            self._pool.shutdown(wait=True)
            self._pool = None

    def _touch(self, results: list[Recalled]) -> None:
        try:
            self._store.touch(touch_rows(results, self._clock.now()))
        except GraphmemError as e:
            log.warning("recalled memories were not reinforced: %s", e)
