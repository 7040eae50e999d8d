"""W12: background writes. A small in-process queue with one worker thread.

Callers hand over a batch and get a job id at once; the worker writes the batches one after the
other, in submission order. Recall calls :meth:`WriteQueue.drain` first, so a caller reads its own
writes: it waits (bounded) until no queued or running job touches the scope it reads.
With a :class:`WriteJournal` (the graph), a batch is recorded before it is accepted, a job whose
write finds Neo4j unreachable waits and is tried again, and :meth:`WriteQueue.resume` picks up
what a dead process accepted but never wrote; without one, queued jobs die with the process.
"""

from __future__ import annotations

import functools
import logging
import threading
import time
import uuid
from collections import OrderedDict, deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Literal, Protocol

from graphmem.errors import DatabaseUnavailableError, GraphmemError, NotFoundError, WriteQueueFullError
from graphmem.models import MemoryInput, WriteResult
from graphmem.scopes import ROOT

log = logging.getLogger(__name__)

# How long recall waits for pending background writes of its scope before reading what is there.
RECALL_DRAIN_TIMEOUT = 10.0

JobStatus = Literal["queued", "running", "done", "failed"]
WriteBatch = Callable[[Sequence[MemoryInput]], list[WriteResult]]


@dataclass(frozen=True)
class WriteJob:
    """A batch handed to the queue, and what became of it."""

    id: str
    items: int
    scopes: frozenset[str]
    status: JobStatus = "queued"
    submitted_at: datetime = field(default_factory=lambda: datetime.now(UTC))
    finished_at: datetime | None = None
    created: int = 0
    reinforced: int = 0
    error: str | None = None


class WriteJournal(Protocol):
    """Where accepted jobs are kept so that no crash loses them (see graphmem.store.write_jobs)."""

    def record(self, job: WriteJob, items: Sequence[MemoryInput]) -> None:
        """Keep an accepted job and its items."""
        ...

    def claim(self, job_id: str) -> bool:
        """Mark the job running here; False when another process has taken it over."""
        ...

    def renew(self, job_ids: Sequence[str]) -> None:
        """Extend this process's lease on its pending jobs."""
        ...

    def finish(self, job: WriteJob) -> None:
        """Record a finished job's outcome."""
        ...

    def get(self, job_id: str) -> WriteJob | None:
        """A job's state as kept; None when unknown."""
        ...

    def take_over(self) -> list[tuple[WriteJob, list[MemoryInput]]]:
        """Unfinished jobs of dead processes, now this process's."""
        ...


# While Neo4j is unreachable a job waits this long (doubling, up to the cap) before the next try.
OUTAGE_FIRST_WAIT = 1.0
OUTAGE_MAX_WAIT = 15.0
# How often the worker renews its lease on pending jobs (well inside the journal's lease).
RENEW_EVERY = 20.0


def scope_covers(reader: str | None, written: str) -> bool:
    """Whether a recall over ``reader`` (None: everything) can see a memory written to ``written``."""
    if reader is None or reader == ROOT:
        return True
    return written == reader or written.startswith(reader.rstrip("/") + "/")


class WriteQueue:
    """Writes batches in the background, one at a time; safe to share between threads.

    The worker thread starts with the first job (constructing the queue does nothing).
    """

    def __init__(
        self,
        write: WriteBatch,
        *,
        max_pending: int = 1000,
        keep_finished: int = 1000,
        journal: WriteJournal | None = None,
    ) -> None:
        self._write = write
        self._journal = journal
        self._max_pending = max_pending
        self._keep_finished = keep_finished
        self._cond = threading.Condition()
        self._queue: deque[tuple[str, list[MemoryInput]]] = deque()
        self._jobs: OrderedDict[str, WriteJob] = OrderedDict()
        self._pending: set[str] = set()
        self._worker: threading.Thread | None = None
        self._closed = False

    def submit(self, items: Sequence[MemoryInput]) -> WriteJob:
        """Queue a batch (already validated by the caller) and return its job at once.

        Raises WriteQueueFullError when ``max_pending`` jobs are already waiting.
        """
        scopes = frozenset(item.scope or ROOT for item in items)
        job = WriteJob(id=str(uuid.uuid4()), items=len(items), scopes=scopes)
        with self._cond:
            self._check_room()
        if self._journal is not None:  # kept before it is accepted: a crash from here on loses nothing
            self._journal.record(job, items)
        self._enqueue(job, list(items))
        return job

    def resume(self) -> int:
        """Queue the jobs a dead process accepted but never wrote (from the journal); returns how many."""
        if self._journal is None:
            return 0
        taken = self._journal.take_over()
        for job, items in taken:
            log.info("resuming background write %s (%d items)", job.id, job.items)
            self._enqueue(replace(job, status="queued"), items)
        return len(taken)

    def _check_room(self) -> None:
        if self._closed:
            raise WriteQueueFullError("The write queue is shut down; write synchronously instead.")
        if len(self._pending) >= self._max_pending:
            raise WriteQueueFullError(
                f"{len(self._pending)} background writes are already waiting; retry later "
                "or write synchronously."
            )

    def _enqueue(self, job: WriteJob, items: list[MemoryInput]) -> None:
        with self._cond:
            self._jobs[job.id] = job
            self._pending.add(job.id)
            self._queue.append((job.id, items))
            self._start_worker()
            self._cond.notify_all()

    def job(self, job_id: str) -> WriteJob:
        """The job's current state (this process's, else the journal's, so any process can tell);
        NotFoundError when unknown (or long finished and forgotten)."""
        with self._cond:
            job = self._jobs.get(job_id)
        if job is None and self._journal is not None:
            job = self._journal.get(job_id)
        if job is None:
            raise NotFoundError(f"No background write job has id {job_id!r}.")
        return job

    def pending(self, scope: str | None = None) -> int:
        """How many queued or running jobs write somewhere a recall over ``scope`` reads."""
        with self._cond:
            return self._count_pending(scope)

    def drain(self, scope: str | None, timeout: float) -> bool:
        """Wait until no queued or running job writes under ``scope`` (None: any job).

        Returns False when ``timeout`` seconds passed first; the caller then reads what is there.
        """
        with self._cond:
            if threading.current_thread() is self._worker:
                return self._count_pending(scope) == 0  # the worker must never wait for itself
            return self._cond.wait_for(lambda: self._count_pending(scope) == 0, timeout)

    def close(self, timeout: float) -> bool:
        """Refuse new jobs, wait up to ``timeout`` seconds for the queued ones; True if all were written."""
        with self._cond:
            self._closed = True
            self._cond.notify_all()
        deadline = time.monotonic() + timeout
        done = self.drain(None, timeout)
        worker = self._worker
        if worker is not None:
            worker.join(max(0.0, deadline - time.monotonic()))
        return done

    def _count_pending(self, scope: str | None) -> int:
        return sum(
            1 for job_id in self._pending if any(scope_covers(scope, s) for s in self._jobs[job_id].scopes)
        )

    def _start_worker(self) -> None:
        if self._worker is None or not self._worker.is_alive():
            self._worker = threading.Thread(target=self._run, name="graphmem-write-queue", daemon=True)
            self._worker.start()

    def _run(self) -> None:
        renewed = time.monotonic()
        while True:
            with self._cond:
                self._cond.wait_for(lambda: bool(self._queue) or self._closed, RENEW_EVERY)
                if not self._queue and self._closed:
                    return  # closed and empty
                pending = list(self._pending)
                job = self._queue.popleft() if self._queue else None
            if self._journal is not None and time.monotonic() - renewed >= RENEW_EVERY:
                renewed = time.monotonic()
                self._journaled(functools.partial(self._journal.renew, pending))
            if job is not None:
                self._execute(*job)

    def _execute(self, job_id: str, items: list[MemoryInput]) -> None:
        wait = OUTAGE_FIRST_WAIT
        while True:
            try:
                if self._journal is not None and not self._journal.claim(job_id):
                    self._drop(job_id)  # another process took it over and writes it
                    return
                with self._cond:
                    self._update(job_id, status="running")
                results = self._write(items)
                break
            except DatabaseUnavailableError as e:  # an outage: the job waits, it is not lost
                with self._cond:
                    closed = self._closed
                if closed:  # shutting down: the journal keeps it for the next start
                    log.warning("background write %s left for the next start: %s", job_id, e)
                    self._drop(job_id)
                    return
                log.warning("background write %s waits %.0fs for Neo4j: %s", job_id, wait, e)
                time.sleep(wait)
                wait = min(OUTAGE_MAX_WAIT, wait * 2)
            except Exception as e:  # a background job must never kill the worker
                log.warning("background write %s failed: %s", job_id, e, exc_info=True)
                self._finish(job_id, status="failed", error=f"{type(e).__name__}: {e}")
                return
        created = sum(1 for r in results if "created" in r.actions)
        reinforced = sum(1 for r in results if "reinforced" in r.actions)
        self._finish(job_id, status="done", created=created, reinforced=reinforced)

    def _journaled(self, action: Callable[[], object]) -> bool:
        """Run a journal update, a few times through an outage; False if it never got through."""
        wait = OUTAGE_FIRST_WAIT
        for _ in range(5):
            try:
                action()
                return True
            except GraphmemError as e:
                log.warning("background write journal not updated (%s); retrying in %.0fs", e, wait)
                time.sleep(wait)
                wait = min(OUTAGE_MAX_WAIT, wait * 2)
        return False

    def _drop(self, job_id: str) -> None:
        with self._cond:
            self._pending.discard(job_id)
            self._jobs.pop(job_id, None)
            self._cond.notify_all()

    def _finish(self, job_id: str, **changes: object) -> None:
        with self._cond:
            self._update(job_id, finished_at=datetime.now(UTC), **changes)
            outcome = self._jobs[job_id]
        if self._journal is not None:
            self._journaled(functools.partial(self._journal.finish, outcome))
        with self._cond:
            self._pending.discard(job_id)
            finished = [j for j in self._jobs if j not in self._pending]
            for old in finished[: max(0, len(finished) - self._keep_finished)]:
                del self._jobs[old]
            self._cond.notify_all()

    def _update(self, job_id: str, **changes: object) -> None:
        self._jobs[job_id] = replace(self._jobs[job_id], **changes)  # type: ignore[arg-type]
