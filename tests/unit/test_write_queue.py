"""W12: the background write queue (one worker, read-your-writes drain per scope)."""

from __future__ import annotations

import threading
from collections.abc import Sequence

import pytest

from graphmem.errors import NotFoundError, WriteQueueFullError
from graphmem.models import MemoryInput, WriteResult
from graphmem.write.queue import WriteQueue, scope_covers
from tests.records import record_of


class GatedWriter:
    """Writes nothing until released; records the batches in the order it got them."""

    def __init__(self, fail_on: str | None = None) -> None:
        self.gate = threading.Event()
        self.batches: list[list[str]] = []
        self.fail_on = fail_on

    def __call__(self, items: Sequence[MemoryInput]) -> list[WriteResult]:
        self.gate.wait(10)
        texts = [i.text for i in items]
        self.batches.append(texts)
        if self.fail_on in texts:
            raise RuntimeError("neo4j went away")
        return [WriteResult(memory=record_of(i), actions=["created"]) for i in items]


def items(scope: str, *texts: str) -> list[MemoryInput]:
    return [MemoryInput(text=t, scope=scope) for t in texts]


@pytest.mark.parametrize(
    ("reader", "written", "covered"),
    [
        (None, "/user/a", True),
        ("/", "/user/a", True),
        ("/user/a", "/user/a", True),
        ("/user/a", "/user/a/health", True),
        ("/user/a", "/user/ab", False),
        ("/user/a/health", "/user/a", False),
    ],
)
def test_scope_covers(reader: str | None, written: str, covered: bool) -> None:
    assert scope_covers(reader, written) is covered


def test_jobs_run_in_order_and_drain_waits_for_them() -> None:
    writer = GatedWriter()
    queue = WriteQueue(writer)
    first = queue.submit(items("/user/a", "one", "two"))
    second = queue.submit(items("/user/a", "three"))
    assert first.status == "queued" and first.items == 2
    assert queue.drain("/user/a", timeout=0.05) is False  # still held at the gate
    writer.gate.set()
    assert queue.drain("/user/a", timeout=5) is True
    assert writer.batches == [["one", "two"], ["three"]]
    done = queue.job(first.id)
    assert done.status == "done" and done.created == 2 and done.finished_at is not None
    assert queue.job(second.id).status == "done"


def test_drain_only_waits_for_the_scope_it_reads() -> None:
    writer = GatedWriter()
    queue = WriteQueue(writer)
    queue.submit(items("/user/b", "held"))
    assert queue.drain("/user/a", timeout=0.01) is True
    assert queue.pending("/user") == 1 and queue.pending(None) == 1
    writer.gate.set()
    assert queue.drain(None, timeout=5) is True


def test_a_failed_job_is_reported_and_the_worker_goes_on() -> None:
    writer = GatedWriter(fail_on="bad")
    writer.gate.set()
    queue = WriteQueue(writer)
    failed = queue.submit(items("/s", "bad"))
    fine = queue.submit(items("/s", "good"))
    assert queue.drain("/s", timeout=5)
    assert queue.job(failed.id).status == "failed"
    assert "neo4j went away" in (queue.job(failed.id).error or "")
    assert queue.job(fine.id).status == "done"


def test_a_full_queue_refuses_more() -> None:
    writer = GatedWriter()
    queue = WriteQueue(writer, max_pending=1)
    queue.submit(items("/s", "a"))
    with pytest.raises(WriteQueueFullError):
        queue.submit(items("/s", "b"))
    writer.gate.set()
    assert queue.close(timeout=5) is True
    with pytest.raises(WriteQueueFullError):
        queue.submit(items("/s", "c"))


def test_unknown_and_forgotten_jobs() -> None:
    writer = GatedWriter()
    writer.gate.set()
    queue = WriteQueue(writer, keep_finished=1)
    old = queue.submit(items("/s", "a"))
    assert queue.drain(None, timeout=5)
    new = queue.submit(items("/s", "b"))
    assert queue.drain(None, timeout=5)
    assert queue.job(new.id).status == "done"
    with pytest.raises(NotFoundError):
        queue.job(old.id)
    with pytest.raises(NotFoundError):
        queue.job("nope")


def test_constructing_the_queue_starts_no_thread() -> None:
    before = threading.active_count()
    WriteQueue(GatedWriter())
    assert threading.active_count() == before


def test_a_job_waits_out_an_outage_instead_of_failing(monkeypatch: pytest.MonkeyPatch) -> None:
    from graphmem import errors
    from graphmem.write import queue as queue_module

    monkeypatch.setattr(queue_module, "OUTAGE_FIRST_WAIT", 0.01)
    writer = GatedWriter()
    writer.gate.set()
    outages = [errors.DatabaseUnavailableError("neo4j down"), errors.DatabaseUnavailableError("still down")]

    def flaky(items: Sequence[MemoryInput]) -> list[WriteResult]:
        if outages:
            raise outages.pop(0)
        return writer(items)

    queue = WriteQueue(flaky)
    job = queue.submit([MemoryInput(text="kept through the outage", scope="/a")])
    assert queue.drain(None, 10)
    assert queue.job(job.id).status == "done"
    assert writer.batches == [["kept through the outage"]]
