"""W12 background batches are kept in Neo4j: a crash loses no 202, any process can tell their state."""

from __future__ import annotations

import time
from datetime import datetime, timedelta

from fastapi.testclient import TestClient

from graphmem.api.app import create_app
from graphmem.clock import SystemClock
from graphmem.config import Settings
from graphmem.connect import Neo4jTarget, open_memory
from graphmem.embedding.base import Embedder
from graphmem.memory import Memory
from graphmem.models import MemoryInput
from graphmem.store.executor import QueryExecutor
from graphmem.store.write_jobs import LEASE, WriteJobStore
from graphmem.write.queue import WriteJob


class _Past(SystemClock):
    """A clock far enough back that whatever it leases has run out by now."""

    def now(self) -> datetime:
        return super().now() - 2 * LEASE - timedelta(seconds=1)


def _count(memory: Memory, scope: str) -> int:
    result = memory.read_query(
        "MATCH (m:Memory) WHERE m.scope = $scope RETURN count(m)", {"scope": scope}, [scope]
    )
    return int(result.rows[0][0])


def _wait_done(client: TestClient, job_id: str) -> dict[str, object]:
    for _ in range(600):  # up to a minute: the first write of a process loads its language models
        state: dict[str, object] = client.get(f"/v1/memories/batch/{job_id}").json()
        if state["status"] in ("done", "failed"):
            return state
        time.sleep(0.1)
    raise AssertionError(f"job {job_id} never finished: {state}")


def test_a_batch_a_crashed_process_accepted_is_written_at_the_next_start(memory: Memory, scope: str) -> None:
    executor: QueryExecutor = memory._executor  # the crashed process's journal, on the same graph
    dead = WriteJobStore(executor, _Past(), owner="crashed-process")
    items = [
        MemoryInput(text="Mira's badge number is 7781.", scope=scope),
        MemoryInput(text="Mira parks on level 3.", scope=scope),
    ]
    job = WriteJob(id=f"crashed-{scope.rsplit('/', 1)[-1]}", items=2, scopes=frozenset({scope}))
    dead.record(job, items)  # accepted (202), then the process died before writing it

    with TestClient(create_app(memory, flush_idle_minutes=None)) as client:  # the next start
        state = _wait_done(client, job.id)

    assert state["status"] == "done" and state["created"] == 2
    assert _count(memory, scope) == 2


def test_any_process_reads_a_background_batch_state_from_the_graph(
    memory: Memory, neo4j_target: Neo4jTarget, embedder: Embedder, scope: str
) -> None:
    items = [{"text": "The cafeteria closes at 3pm on Fridays.", "scope": scope}]
    with TestClient(create_app(memory, flush_idle_minutes=None)) as one:
        job_id = one.post("/v1/memories/batch", params={"background": "true"}, json={"items": items}).json()[
            "job_id"
        ]
        assert _wait_done(one, job_id)["status"] == "done"

    with (
        open_memory(Settings(), neo4j_target, embedder=embedder) as other_memory,
        TestClient(create_app(other_memory, flush_idle_minutes=None)) as other,
    ):
        state = other.get(f"/v1/memories/batch/{job_id}").json()

    assert state["status"] == "done" and state["created"] == 1 and state["items"] == 1
