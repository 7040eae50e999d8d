"""D2 + D3 on retrieval: what a recall returns is reinforced (spacing-aware) and becomes labile for
six hours (at most ten memories per recall). Written in the background so recall stays fast."""

from __future__ import annotations

import logging
import threading
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
_TIMES = ("accessed_at", "labile_until")
COALESCE_SECONDS = 0.25  # reinforcements submitted within this time are written together


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
    """Reinforces recalled memories on a background thread; failures are logged, never raised.

    The reinforcement of each recall is computed for the moment it was submitted, and the
    reinforcements submitted within ``coalesce`` seconds are written in one transaction. One
    write per recall competed with the recalls that followed it (for the interpreter lock and
    for Neo4j) and added about 6 ms to a REST recall's median at 10k memories (load 7); pooled,
    that cost is paid once per batch instead. Written in submission order, so the graph ends as
    it would after one write per recall.
    """

    def __init__(
        self, store: MemoryDynamicsStore, clock: Clock, *, coalesce: float = COALESCE_SECONDS
    ) -> None:
        self._store = store
        self._clock = clock
        self._coalesce = coalesce
        self._pending: list[tuple[list[Recalled], datetime]] = []
        self._cond = threading.Condition()
        self._worker: threading.Thread | None = None
        self._busy = False  # a batch is being written
        self._urgent = False  # flush() waits: write what is pending now

    def submit(self, results: list[Recalled]) -> None:
        """Queue the reinforcement of ``results`` (as of now)."""
        if not results:
            return
        now = self._clock.now()
        with self._cond:
            self._pending.append((results, now))
            if self._worker is None:
                self._worker = threading.Thread(target=self._run, name="graphmem-reinforce", daemon=True)
                self._worker.start()

    def flush(self) -> None:
        """Write what is queued now and wait until it is written (tests, shutdown)."""
        with self._cond:
            self._urgent = True
            self._cond.notify_all()
            self._cond.wait_for(lambda: self._worker is None)
            self._urgent = False

    def _run(self) -> None:
        """Write batches until nothing is pending, then end (the next submit starts a new thread)."""
        while True:
            with self._cond:
                self._cond.wait_for(lambda: self._urgent, timeout=self._coalesce)
                batch, self._pending = self._pending, []
                if not batch:
                    self._worker = None
                    self._cond.notify_all()
                    return
            self._touch(batch)

    def _touch(self, batch: list[tuple[list[Recalled], datetime]]) -> None:
        try:
            rows = [row for results, now in batch for row in touch_rows(results, now)]
            # As ISO-8601 text, read back by the query: the driver packs datetimes in pure Python.
            self._store.touch([{**r, **{k: r[k].isoformat() for k in _TIMES}} for r in rows])
        except GraphmemError as e:
            log.warning("recalled memories were not reinforced: %s", e)
        except Exception:  # the thread must live on to end itself, and flush() must not hang
            log.exception("recalled memories were not reinforced")
