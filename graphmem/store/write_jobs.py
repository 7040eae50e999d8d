"""W12 background batches kept in Neo4j: recorded before the 202, resumed after a crash.

Each accepted batch is a ``:WriteJob`` node holding its items until it is written. The process
that accepted it holds a lease, renewed while the job waits; a job whose lease ran out (its
process died) is taken over by the next process that starts.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Sequence
from datetime import timedelta

from graphmem.clock import Clock
from graphmem.models import MemoryInput
from graphmem.store.executor import QueryExecutor, Row
from graphmem.store.records import native
from graphmem.write.queue import WriteJob

# How long a process's claim on its pending jobs lasts without renewal.
LEASE = timedelta(seconds=60)


def _job(row: Row) -> WriteJob:
    return WriteJob(
        id=row["id"],
        items=int(row["items"]),
        scopes=frozenset(row["scopes"] or []),
        status=row.get("status") or "queued",
        submitted_at=native(row["submitted_at"]),
        finished_at=native(row.get("finished_at")),
        created=int(row.get("created") or 0),
        reinforced=int(row.get("reinforced") or 0),
        error=row.get("error"),
    )


class WriteJobStore:
    """The journal of background batches (``cypher/write_jobs/``); one instance per process."""

    def __init__(self, executor: QueryExecutor, clock: Clock, owner: str | None = None) -> None:
        self._executor = executor
        self._clock = clock
        self._owner = owner or uuid.uuid4().hex

    def record(self, job: WriteJob, items: Sequence[MemoryInput]) -> None:
        """Keep an accepted batch and its items (before the caller hears 202)."""
        self._executor.write(
            "write_jobs/record_write_job",
            id=job.id,
            items=job.items,
            items_json=json.dumps([item.model_dump(mode="json", exclude_none=True) for item in items]),
            scopes=sorted(job.scopes),
            submitted_at=job.submitted_at,
            owner=self._owner,
            lease_until=self._clock.now() + LEASE,
        )

    def claim(self, job_id: str) -> bool:
        """Mark the job running for this process; False when another process has taken it over."""
        now = self._clock.now()
        rows = self._executor.write(
            "write_jobs/claim_write_job", id=job_id, owner=self._owner, now=now, lease_until=now + LEASE
        )
        return bool(rows)

    def renew(self, job_ids: Sequence[str]) -> None:
        """Extend this process's lease on its pending jobs."""
        if job_ids:
            self._executor.write(
                "write_jobs/renew_write_jobs",
                ids=list(job_ids),
                owner=self._owner,
                lease_until=self._clock.now() + LEASE,
            )

    def finish(self, job: WriteJob) -> None:
        """Record a finished job's outcome (its items are dropped)."""
        self._executor.write(
            "write_jobs/finish_write_job",
            id=job.id,
            status=job.status,
            created=job.created,
            reinforced=job.reinforced,
            error=job.error,
            finished_at=job.finished_at,
        )

    def get(self, job_id: str) -> WriteJob | None:
        """A job's state as the graph has it; None when unknown."""
        rows = self._executor.read("write_jobs/get_write_job", id=job_id)
        return _job(rows[0]) if rows else None

    def take_over(self, limit: int = 1000) -> list[tuple[WriteJob, list[MemoryInput]]]:
        """The unfinished jobs of dead processes (lease run out), now leased to this one."""
        now = self._clock.now()
        rows = self._executor.write(
            "write_jobs/resumable_write_jobs",
            now=now,
            owner=self._owner,
            lease_until=now + LEASE,
            limit=limit,
        )
        return [
            (_job(row), [MemoryInput.model_validate(item) for item in json.loads(row["items_json"] or "[]")])
            for row in rows
        ]
