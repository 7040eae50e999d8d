"""Writes under contention on the real Neo4j: deadlocks are retried, one scope's writers never
store the same text twice, and writers to different scopes do not wait for each other."""

from __future__ import annotations

import threading
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import neo4j
import pytest
from neo4j.exceptions import Neo4jError

from graphmem.connect import Neo4jTarget
from graphmem.memory import Memory
from graphmem.models import MemoryInput
from graphmem.store.catalog import Catalog
from graphmem.store.executor import QueryExecutor, Transaction, is_transient

pytestmark = pytest.mark.integration

_TOUCH = """// Set a probe node's value (creating it), taking its write lock.
// mode: write
MERGE (p:ContentionProbe {key: $key})
SET p.value = coalesce(p.value, 0) + 1
RETURN p.value AS value
"""


@pytest.fixture
def probe_executor(neo4j_target: Neo4jTarget, tmp_path: Path) -> Iterator[QueryExecutor]:
    """An executor over a catalog of one probe query, on a driver that does not retry by itself."""
    (tmp_path / "probe").mkdir()
    (tmp_path / "probe" / "touch.cypher").write_text(_TOUCH, encoding="utf-8")
    driver = neo4j.GraphDatabase.driver(
        neo4j_target.uri,
        auth=(neo4j_target.user, neo4j_target.password),
        max_transaction_retry_time=0.0,  # so the executor's own retry is what saves the day
    )
    yield QueryExecutor(driver, Catalog(tmp_path), neo4j_target.database)
    driver.close()


def test_a_deadlock_between_two_writers_is_retried_and_both_commit(probe_executor: QueryExecutor) -> None:
    a, b = f"a-{uuid.uuid4().hex}", f"b-{uuid.uuid4().hex}"
    probe_executor.write("probe/touch", key=a)
    probe_executor.write("probe/touch", key=b)
    both_hold_one = threading.Barrier(2, timeout=10)
    first_attempt = {a: True, b: True}

    def crossing(first: str, second: str) -> int:
        def work(tx: Transaction) -> int:
            tx.run("probe/touch", key=first)
            if first_attempt[first]:  # the first attempt waits until the other holds its lock
                first_attempt[first] = False
                both_hold_one.wait()
            return int(tx.run("probe/touch", key=second)[0]["value"])

        return probe_executor.write_unit(work, "crossing")

    with ThreadPoolExecutor(2) as pool:
        one = pool.submit(crossing, a, b)
        two = pool.submit(crossing, b, a)
        one.result(timeout=60)
        two.result(timeout=60)
    values = {key: probe_executor.write("probe/touch", key=key)[0]["value"] for key in (a, b)}
    # created (1), then each crossing touched both once (3), then this read-back touch (4).
    assert values == {a: 4, b: 4}


def test_transient_errors_are_told_from_lasting_ones() -> None:
    deadlock = Neo4jError._hydrate_neo4j(code="Neo.TransientError.Transaction.DeadlockDetected", message="x")
    syntax = Neo4jError._hydrate_neo4j(code="Neo.ClientError.Statement.SyntaxError", message="x")
    wrapped = RuntimeError("result failed")
    wrapped.__cause__ = deadlock
    assert is_transient(deadlock)
    assert is_transient(wrapped)
    assert not is_transient(syntax)


def _active_texts(memory: Memory, scope: str) -> list[str]:
    result = memory.read_query(
        "MATCH (m:Memory) WHERE m.scope = $scope AND m.status = 'active' RETURN m.text AS text",
        {"scope": scope},
        [scope],
    )
    return sorted(str(row[0]) for row in result.rows)


def test_concurrent_near_duplicate_writers_in_one_scope_store_one_memory(memory: Memory, scope: str) -> None:
    texts = [
        "The staging database runs on port 5433.",
        "The staging database runs on port 5433",
        "the staging database runs on port 5433.",
    ] * 4

    with ThreadPoolExecutor(12) as pool:
        results = list(pool.map(lambda t: memory.remember(t, scope=scope), texts))

    assert len(_active_texts(memory, scope)) == 1
    assert sum(r.actions[:1] == ["created"] for r in results) == 1
    assert {r.memory.id for r in results} == {results[0].memory.id}


def test_concurrent_conflicting_writers_leave_one_current_belief(memory: Memory, scope: str) -> None:
    texts = ["Our deploy window is Tuesday.", "Our deploy window is Thursday."] * 4

    with ThreadPoolExecutor(8) as pool:
        list(pool.map(lambda t: memory.remember(t, scope=scope), texts))

    assert len(_active_texts(memory, scope)) == 1


def test_writers_to_different_scopes_all_store(memory: Memory) -> None:
    scopes = [f"/test/{uuid.uuid4().hex[:12]}" for _ in range(8)]

    with ThreadPoolExecutor(8) as pool:
        results = list(
            pool.map(lambda s: memory.remember("The build cache lives on disk two.", scope=s), scopes)
        )

    assert all(r.actions[:1] == ["created"] for r in results)
    assert {r.memory.scope for r in results} == set(scopes)


def test_concurrent_writers_written_together_each_get_their_own_answer(memory: Memory) -> None:
    scopes = [f"/test/{uuid.uuid4().hex[:12]}" for _ in range(12)]
    memory.remember("Ana's desk is in room 12.", scope=scopes[0])
    texts = ["Ana's desk is in room 12."] + [f"Desk {i} stands by the north window." for i in range(1, 12)]

    with ThreadPoolExecutor(12) as pool:  # concurrent writes to different scopes share a transaction
        results = list(pool.map(lambda i: memory.remember(texts[i], scope=scopes[i]), range(12)))

    assert results[0].actions == ["reinforced"]  # the same as it would be alone
    assert all(r.actions == ["created"] for r in results[1:])  # not duplicates of each other
    assert [(r.memory.scope, r.memory.text) for r in results] == list(zip(scopes, texts, strict=True))
    assert all(_active_texts(memory, s) == [t] for s, t in zip(scopes, texts, strict=True))


def test_texts_equal_but_for_case_and_punctuation_are_one_memory(memory: Memory, scope: str) -> None:
    variants = [
        "Room 4 has a broken projector.",
        "Room 4 has a broken projector",
        "ROOM 4 HAS A BROKEN PROJECTOR!",
    ]
    results = [memory.remember(text, scope=scope) for text in variants]
    batch = memory.remember_batch(
        [MemoryInput(text=t, scope=scope) for t in ["room 4 has a broken projector"] * 2]
    )

    assert [r.actions[0] for r in results] == ["created", "reinforced", "reinforced"]
    assert [r.actions[0] for r in batch] == ["reinforced", "duplicate"]
    assert len(_active_texts(memory, scope)) == 1
