"""C8: the nightly, weekly and monthly jobs, each run under a lock in the graph and recorded as a JobRun.

"Never assume cron ran": :meth:`Consolidator.run_overdue` runs every job whose last run is older
than its interval, at start-up and on every heartbeat. Two processes never run one job at once:
the ConsolidationJob node holds a lease that the running process renews as it goes; a process
that dies leaves a lease that expires, and the next run marks the dead run 'interrupted'. Every
step writes in small transactions guarded to be idempotent, and the watermark (what has been
consolidated) only moves when a run succeeds, so an interrupted run is resumed by the next one:
nothing is half-merged, nothing is done twice.
"""

from __future__ import annotations

import contextlib
import logging
import os
import socket
import time
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from datetime import datetime
from typing import get_args

from graphmem.clock import Clock
from graphmem.consolidate.archive import Archiving
from graphmem.consolidate.context import Progress, RunContext, no_progress
from graphmem.consolidate.decay import DecayPass
from graphmem.consolidate.distil import Distiller
from graphmem.consolidate.drift import PriorityDrift
from graphmem.consolidate.merge import Merging
from graphmem.consolidate.models import ConsolidationReport, JobName, JobRunRecord, RunStatus
from graphmem.consolidate.promote import SCHEMA, SEMANTIC, Promotion
from graphmem.consolidate.reembed import Reembedding
from graphmem.consolidate.settings import ConsolidationSettings
from graphmem.consolidate.summaries import CategorySummaries
from graphmem.embedding.base import Embedder
from graphmem.errors import DatabaseUnavailableError, JobLockLostError
from graphmem.llm.base import LLM
from graphmem.store.consolidation import ConsolidationStore
from graphmem.store.decay import DecayStore
from graphmem.store.executor import QueryExecutor
from graphmem.store.jobs import JobState, JobStore

log = logging.getLogger(__name__)

JOBS: tuple[JobName, ...] = get_args(JobName)


def process_owner() -> str:
    """A name for this process's locks: host, pid and a random tag."""
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


class Consolidator:
    """Runs the consolidation jobs against one graph."""

    def __init__(
        self,
        executor: QueryExecutor,
        embedder: Embedder,
        llm: LLM,
        clock: Clock,
        settings: ConsolidationSettings | None = None,
        *,
        flush_conversations: Callable[[], int] | None = None,
        needs_reembed: Callable[[], bool] = lambda: False,
        on_reembedded: Callable[[], None] = lambda: None,
    ) -> None:
        self.settings = settings or ConsolidationSettings()
        s = self.settings
        self._clock = clock
        self._jobs = JobStore(executor)
        store = ConsolidationStore(executor)
        distiller = Distiller(llm)
        self._merge = Merging(store, s)
        self._semantic = Promotion(store, embedder, distiller, s, replace(SEMANTIC, eps=s.semantic_eps))
        self._schema = Promotion(store, embedder, distiller, s, replace(SCHEMA, eps=s.schema_eps))
        self._archive = Archiving(store, embedder, distiller, s)
        self._summaries = CategorySummaries(store)
        self._decay = DecayPass(DecayStore(executor), s.small_page)
        self._drift = PriorityDrift(store, s.drift_after_days)
        self._reembed = Reembedding(store, executor, embedder)
        self._flush = flush_conversations
        self._needs_reembed = needs_reembed
        self._on_reembedded = on_reembedded
        self._owner = process_owner()

    def clock_now(self) -> datetime:
        """The consolidation clock's now."""
        return self._clock.now()

    @property
    def jobs_store(self) -> JobStore:
        """Where job state lives (for the health report)."""
        return self._jobs

    def overdue(
        self, now: datetime | None = None, known: Mapping[str, JobState] | None = None
    ) -> list[JobName]:
        """Jobs never run, or whose last run is older than their interval (``known``: the jobs as read)."""
        now = now or self._clock.now()
        known = self._jobs.jobs() if known is None else known
        due: list[JobName] = []
        for name in JOBS:
            state = known.get(name)
            if (
                state is None
                or state.last_run_at is None
                or state.last_run_at + self.settings.intervals[name] <= now
            ):
                due.append(name)
        return due

    def run_overdue(
        self, *, trigger: str = "heartbeat", progress: Progress = no_progress
    ) -> ConsolidationReport:
        """Run every overdue job (the catch-up at start-up and on each heartbeat)."""
        due = self.overdue()
        return self.run(due, trigger=trigger, progress=progress) if due else ConsolidationReport(runs=[])

    def run(
        self,
        jobs: Sequence[JobName] | None = None,
        *,
        trigger: str = "manual",
        progress: Progress = no_progress,
    ) -> ConsolidationReport:
        """Run ``jobs`` (default all) now, in schedule order; a job another process runs is 'busy'."""
        wanted = [j for j in JOBS if jobs is None or j in jobs]
        return ConsolidationReport(runs=[self._run_one(job, trigger, progress) for job in wanted])

    def _run_one(self, job: JobName, trigger: str, progress: Progress) -> JobRunRecord:
        s = self.settings
        now = self._clock.now()
        state = self._jobs.acquire(job, self._owner, now, now + s.lock_lease)
        if state is None:
            return JobRunRecord(
                job=job, status="busy", trigger=trigger, error=f"{job} is running in another process"
            )
        run_id = str(uuid.uuid4())
        since = None if state.watermark is None else state.watermark - s.watermark_slack
        started = time.monotonic()
        renewed = [time.monotonic()]

        def heartbeat() -> None:
            if time.monotonic() - renewed[0] < s.lock_lease.total_seconds() / 3:
                return
            if not self._jobs.renew(job, self._owner, self._clock.now() + s.lock_lease):
                raise JobLockLostError(f"the {job} job's lock was taken over; this run stops")
            renewed[0] = time.monotonic()

        ctx = RunContext(run_id, job, now, since, heartbeat, progress)
        step_ms: dict[str, int] = {}
        status: RunStatus = "succeeded"
        error: str | None = None
        try:
            self._jobs.start_run(job, run_id, self._owner, now, since, trigger)
            for step, work in self._steps(job):
                step_started = time.monotonic()
                try:
                    work(ctx)
                except (DatabaseUnavailableError, JobLockLostError):
                    raise
                except Exception as e:  # one failed step must not stop the others; the run is retried
                    log.exception("consolidation step %s of %s failed", step, job)
                    ctx.counts["errors"] += 1
                    status, error = "failed", f"{step}: {type(e).__name__}: {e}"
                finally:
                    step_ms[step] = int((time.monotonic() - step_started) * 1000)
        except (DatabaseUnavailableError, JobLockLostError) as e:
            status, error = "failed", str(e)
            ctx.counts["errors"] += 1
        duration_ms = int((time.monotonic() - started) * 1000)
        finished = self._clock.now()
        try:
            self._jobs.finish_run(job, run_id, status, finished, duration_ms, ctx.counts, step_ms, error)
        except DatabaseUnavailableError as e:
            log.warning("could not record the end of %s run %s: %s", job, run_id, e)
        finally:
            with contextlib.suppress(DatabaseUnavailableError):  # else the lease expires by itself
                self._jobs.release(job, self._owner)
        return JobRunRecord(
            job=job,
            status=status,
            run_id=run_id,
            trigger=trigger,
            started_at=now,
            finished_at=finished,
            duration_ms=duration_ms,
            counts=dict(ctx.counts),
            step_ms=step_ms,
            llm_calls=ctx.llm_calls,
            cost_usd=round(ctx.cost_usd, 6),
            error=error,
        )

    def _steps(self, job: JobName) -> list[tuple[str, Callable[[RunContext], None]]]:
        if job == "nightly":
            return [
                ("extract", self._extract),
                ("C3 merge", self._merge.run),
                ("C1 episodic→semantic", self._semantic.run),
                ("D1 decay", self._decay.run),
            ]
        if job == "weekly":
            return [
                ("C5 category summaries", self._summaries.run),
                ("C4 archive", self._archive.archive),
                ("C4 insights", self._archive.summarise),
                ("C2 semantic→schema", self._schema.run),
                ("C6 priority drift", self._drift.run),
            ]
        return [
            ("C7 re-embed", self._reembed_step),
            ("C4 cold storage", self._archive.cold),
        ]

    def _extract(self, ctx: RunContext) -> None:
        if self._flush is not None:
            ctx.counts["extracted"] += self._flush()

    def _reembed_step(self, ctx: RunContext) -> None:
        if self._reembed.run(ctx, self._needs_reembed()):
            self._on_reembedded()
