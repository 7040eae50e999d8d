"""Idempotency records of concurrent requests, claimed and completed together in one transaction.

Every write request under an Idempotency-Key claims its key before it runs and keeps its answer
after: two small transactions of its own, each costing Neo4j more (begin, commit, a log flush)
than the one row it writes. Fifty concurrent writers spent about as much of Neo4j's time on
those as on the memories themselves. Here a request hands its claim or answer over and waits;
while one transaction is running, the ones that arrive wait, and the next transaction takes them
all (answers first, so a repeat waiting for a key's answer gets it). A request alone goes straight
through: nothing waits on a timer. Each claim is decided as it would be alone (the same statement,
a row per request, in arrival order); when a shared transaction fails, each request runs its own
again by itself, so its own error reaches it.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime

from graphmem.store.idempotency import Claim, ClaimRequest, IdempotencyStore, StoredAnswer

# At most this many claims and answers share one transaction.
MAX_ROWS = 500


@dataclass(eq=False)
class _Pending:
    """One request's claim (``request``) or answer (``answer`` to ``claim``), waiting or done."""

    request: ClaimRequest | None = None
    claim: Claim | None = None
    answer: StoredAnswer | None = None
    result: Claim | None = None
    done: bool = False
    alone: bool = False  # its shared transaction failed: the request runs it again by itself


class IdempotencyBatches:
    """Claims and answers of concurrent requests in shared transactions; safe to share between threads."""

    def __init__(
        self,
        store: IdempotencyStore,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
        max_rows: int = MAX_ROWS,
    ) -> None:
        self._store = store
        self._clock = clock
        self._max_rows = max_rows
        self._free = threading.Condition()
        self._waiting: list[_Pending] = []
        self._running = False

    def claim(self, request: ClaimRequest) -> Claim:
        """Claim the request's key (see :meth:`IdempotencyStore.claim`); raises what that raises."""
        pending = self._settle(_Pending(request=request))
        if pending.alone:
            return self._store.settle([request], [], self._clock())[0]
        assert pending.result is not None
        return pending.result

    def complete(self, claim: Claim, answer: StoredAnswer) -> None:
        """Keep the answer of a claimed request (see :meth:`IdempotencyStore.complete`)."""
        pending = self._settle(_Pending(claim=claim, answer=answer))
        if pending.alone:
            self._store.settle([], [(claim, answer)], self._clock())

    def _settle(self, pending: _Pending) -> _Pending:
        """Wait until ``pending`` is settled, by a transaction this caller runs or another one."""
        with self._free:
            self._waiting.append(pending)
            self._free.wait_for(lambda: pending.done or not self._running)
            if pending.done:
                return pending
            batch = self._waiting[: self._max_rows]
            self._waiting = self._waiting[self._max_rows :]
            self._running = True
        try:
            self._run(batch)
        finally:
            with self._free:
                self._running = False
                for member in batch:
                    member.done = True
                self._free.notify_all()
        return pending

    def _run(self, batch: list[_Pending]) -> None:
        claims = [p for p in batch if p.request is not None]
        answers = [p for p in batch if p.request is None]
        if len(batch) == 1:  # alone: its error is its own
            results = self._settle_now(claims, answers)
        else:
            try:
                results = self._settle_now(claims, answers)
            except Exception:  # each runs its own again, alone, and hears its own error
                for member in batch:
                    member.alone = True
                return
        for p, result in zip(claims, results, strict=True):
            p.result = result

    def _settle_now(self, claims: list[_Pending], answers: list[_Pending]) -> list[Claim]:
        return self._store.settle(
            [p.request for p in claims if p.request is not None],
            [(p.claim, p.answer) for p in answers if p.claim is not None and p.answer is not None],
            self._clock(),
        )
