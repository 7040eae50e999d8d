"""Idempotency records of concurrent requests settled together: each request gets the answer it
would get alone (real Neo4j)."""

from __future__ import annotations

import threading
import uuid
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime

import pytest

from graphmem.api.idempotency_batches import IdempotencyBatches
from graphmem.errors import GraphmemError
from graphmem.memory import Memory
from graphmem.store.idempotency import Claim, ClaimRequest, IdempotencyStore, StoredAnswer

ROUTE = "POST /v1/memories"


def _request(key: str, body_hash: str = "h1") -> ClaimRequest:
    return ClaimRequest(caller="tests", key=key, route=ROUTE, body_hash=body_hash)


def test_one_transaction_settles_answers_before_claims_each_as_alone(memory: Memory) -> None:
    store, now = memory.idempotency, datetime.now(UTC)
    first, other = f"k-{uuid.uuid4()}", f"k-{uuid.uuid4()}"
    done = store.claim("tests", first, ROUTE, "h1", now)
    answer = StoredAnswer(201, '{"ok": true}', {"content-type": "application/json"})
    fresh = f"k-{uuid.uuid4()}"
    claims = store.settle(
        [_request(first), _request(first, "h2"), _request(fresh), _request(fresh), _request(other)],
        [(done, answer)],
        now,
    )
    # The answer was kept before the claims: a repeat of its key gets it back at once.
    assert claims[0].state == "replay" and claims[0].answer == answer
    assert claims[1].state == "mismatch" and claims[1].route == ROUTE
    # The same new key twice in one transaction: the first runs, the second is told it is running.
    assert [claims[2].state, claims[3].state] == ["claimed", "in_progress"]
    assert claims[4].state == "claimed"


def test_concurrent_requests_each_claim_and_complete_their_own_key(memory: Memory) -> None:
    batches = IdempotencyBatches(memory.idempotency)
    keys = [f"k-{uuid.uuid4()}" for _ in range(40)]
    start = threading.Barrier(20)

    def request(key: str) -> tuple[Claim, Claim]:
        if keys.index(key) < 20:
            start.wait()  # the first twenty arrive together, so they share transactions
        claim = batches.claim(_request(key))
        assert claim.state == "claimed"
        batches.complete(claim, StoredAnswer(201, f'{{"key": "{key}"}}', {}))
        return claim, batches.claim(_request(key))

    with ThreadPoolExecutor(20) as pool:
        results = list(pool.map(request, keys))
    for key, (claim, repeat) in zip(keys, results, strict=True):
        assert repeat.state == "replay" and repeat.record_id == claim.record_id
        assert repeat.answer is not None and repeat.answer.body == f'{{"key": "{key}"}}'


class _FailingFor(IdempotencyStore):
    """A store whose transactions fail whenever they hold the poisoned key's claim."""

    def __init__(self, real: IdempotencyStore, poisoned: str) -> None:
        self.__dict__.update(real.__dict__)
        self._poisoned = poisoned
        self.calls: list[int] = []

    def settle(
        self, claims: Sequence[ClaimRequest], answers: Sequence[tuple[Claim, StoredAnswer]], now: datetime
    ) -> list[Claim]:
        self.calls.append(len(claims) + len(answers))
        if any(c.key == self._poisoned for c in claims):
            raise GraphmemError("this key's claim fails")
        return super().settle(claims, answers, now)


def test_a_failing_shared_transaction_fails_only_the_request_that_broke_it(memory: Memory) -> None:
    keys = [f"k-{uuid.uuid4()}" for _ in range(12)]
    store = _FailingFor(memory.idempotency, poisoned=keys[5])
    batches = IdempotencyBatches(store)
    start = threading.Barrier(len(keys))

    def request(key: str) -> str:
        start.wait()
        try:
            return batches.claim(_request(key)).state
        except GraphmemError as e:
            return str(e)

    with ThreadPoolExecutor(len(keys)) as pool:
        states = list(pool.map(request, keys))
    assert states[5] == "this key's claim fails"
    assert states[:5] + states[6:] == ["claimed"] * 11
    assert max(store.calls) > 1  # some of them did share a transaction


def test_a_request_alone_hears_its_own_error(memory: Memory) -> None:
    key = f"k-{uuid.uuid4()}"
    batches = IdempotencyBatches(_FailingFor(memory.idempotency, poisoned=key))
    with pytest.raises(GraphmemError, match="this key's claim fails"):
        batches.claim(_request(key))
    assert batches.claim(_request(f"k-{uuid.uuid4()}")).state == "claimed"
