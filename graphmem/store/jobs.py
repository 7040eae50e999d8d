"""Scheduled jobs in the graph: one ConsolidationJob node per job (lock, watermark) and a JobRun per run."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from graphmem.store.executor import QueryExecutor, Row, Transaction
from graphmem.store.records import native


@dataclass(frozen=True)
class JobState:
    """What the graph knows of one job."""

    name: str
    last_run_at: datetime | None
    last_status: str | None
    watermark: datetime | None
    locked_by: str | None = None
    locked_until: datetime | None = None
    last_duration_ms: int | None = None


class JobStore:
    """Locks, runs and watermarks of the consolidation jobs."""

    def __init__(self, executor: QueryExecutor) -> None:
        self._executor = executor

    def acquire(self, job: str, owner: str, now: datetime, until: datetime) -> JobState | None:
        """Take the job's lock until ``until``; None when another owner holds it."""

        def take(tx: Transaction) -> list[Row]:
            tx.run("jobs/lock_job_node", job=job, now=now)  # holds the node's lock until the end
            return tx.run("jobs/acquire_job_lock", job=job, owner=owner, now=now, until=until)

        rows = self._executor.write_unit(take, "acquire job lock")
        if not rows:
            return None
        row = native(rows[0])
        return JobState(row["name"], row["last_run_at"], None, row["watermark"], owner, until)

    def renew(self, job: str, owner: str, until: datetime) -> bool:
        """Extend the lock; False when it was lost (expired and taken by another owner)."""
        return bool(self._executor.write("jobs/renew_job_lock", job=job, owner=owner, until=until))

    def release(self, job: str, owner: str) -> None:
        """Give the lock up (no-op unless ``owner`` holds it)."""
        self._executor.write("jobs/release_job_lock", job=job, owner=owner)

    def start_run(
        self, job: str, run_id: str, owner: str, now: datetime, since: datetime | None, trigger: str
    ) -> None:
        """Record a run as started (runs the lock's previous holder left 'running' become 'interrupted')."""
        self._executor.write(
            "jobs/start_job_run", job=job, id=run_id, owner=owner, now=now, since=since, trigger=trigger
        )

    def finish_run(
        self,
        job: str,
        run_id: str,
        status: str,
        now: datetime,
        duration_ms: int,
        counts: Mapping[str, int],
        step_ms: Mapping[str, int],
        error: str | None,
    ) -> None:
        """Record how the run ended; a success moves the job's watermark to the run's start."""
        main = {
            k: int(counts.get(k, 0))
            for k in ("merged", "promoted", "extracted", "archived", "insights", "errors")
        }
        self._executor.write(
            "jobs/finish_job_run",
            job=job,
            id=run_id,
            status=status,
            now=now,
            duration_ms=duration_ms,
            counts=main,
            counts_json=json.dumps(dict(counts), sort_keys=True),
            step_ms_json=json.dumps(dict(step_ms)),
            error=error,
        )

    def jobs(self) -> dict[str, JobState]:
        """Every job the graph has seen, by name."""
        out: dict[str, JobState] = {}
        for raw in self._executor.read("jobs/list_jobs"):
            row = native(raw)
            out[row["name"]] = JobState(
                row["name"],
                row["last_run_at"],
                row["last_status"],
                row["watermark"],
                row["locked_by"],
                row["locked_until"],
                row["last_duration_ms"],
            )
        return out

    def recent_runs(self, limit: int = 20) -> list[dict[str, Any]]:
        """The latest runs, newest first, with their counts decoded."""
        runs: list[dict[str, Any]] = []
        for raw in self._executor.read("jobs/recent_runs", limit=limit):
            row: Row = native(raw)
            counts = row.pop("counts_json", None)
            row["counts"] = json.loads(counts) if counts else {}
            steps = row.pop("step_ms_json", None)
            row["step_ms"] = json.loads(steps) if steps else {}
            runs.append(row)
        return runs
