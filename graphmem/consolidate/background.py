"""Consolidation requests run in a thread of their own, so no caller waits for a whole run.

Each request gets an id; its state (running, then its report) is kept in the graph as a
``:ConsolidationRequest`` node, so a request started through one API process can be followed
through any other against the same Neo4j. The process running a request renews a lease on it
every ``LEASE / 4``; a request whose process died reads as 'interrupted' once its lease has run
out (its job runs say how far it came: JobRun records; the next run resumes from there).
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta

from graphmem.consolidate.models import ConsolidationReport, ConsolidationRun, JobName
from graphmem.errors import JobBusyError, NotFoundError
from graphmem.store.consolidation_requests import ConsolidationRequestStore

JOB_NAMES: tuple[JobName, ...] = ("nightly", "weekly", "monthly")
RunJobs = Callable[[Sequence[JobName] | None, str], ConsolidationReport]
LEASE = timedelta(minutes=2)  # a request not renewed for this long was left by a process that stopped


class BackgroundRuns:
    """Starts consolidation requests in threads; their state lives in the graph."""

    def __init__(
        self,
        run_jobs: RunJobs,
        now: Callable[[], datetime],
        store: ConsolidationRequestStore,
        lease: timedelta = LEASE,
    ) -> None:
        self._run_jobs = run_jobs
        self._now = now
        self._store = store
        self._lease = lease
        self._threads: dict[str, threading.Thread] = {}
        self._lock = threading.Lock()

    def start(self, jobs: Sequence[JobName] | None, trigger: str = "api") -> ConsolidationRun:
        """Record the request and start running ``jobs`` (default all) in a thread; returns its
        state at once."""
        run = ConsolidationRun(
            id=str(uuid.uuid4()),
            state="running",
            jobs=list(jobs) if jobs is not None else list(JOB_NAMES),
            trigger=trigger,
            started_at=self._now(),
        )
        # consolidation works on the whole graph: bound to the root scope
        self._store.record(run, lease_until=run.started_at + self._lease)
        thread = threading.Thread(target=self._work, args=(run, jobs), daemon=True)
        with self._lock:
            self._threads[run.id] = thread
        thread.start()
        return run

    def get(self, run_id: str, allowed: Sequence[str] | None = None) -> ConsolidationRun:
        """The state of request ``run_id``, started by any process; NotFoundError for an id the
        graph does not hold, or one outside the caller's ``allowed`` scopes."""
        run = self._store.get(run_id, self._now(), allowed)
        if run is None:
            raise NotFoundError(
                f"no consolidation run {run_id!r}: use the id POST /v1/consolidate answered with "
                "(GET /v1/health/report lists recent job runs)"
            )
        return run

    def join(self, timeout: float | None = None) -> bool:
        """Wait for every request this process runs; False when some still run after ``timeout`` s."""
        with self._lock:
            threads = list(self._threads.values())
        for thread in threads:
            thread.join(timeout)
        return not any(t.is_alive() for t in threads)

    def _renew(self, run_id: str, done: threading.Event) -> None:
        """Renew the request's lease every quarter lease until ``done`` (a failed renewal is tried
        again at the next beat: the lease outlasts three missed ones)."""
        while not done.wait(self._lease.total_seconds() / 4):
            try:
                self._store.renew(run_id, self._now() + self._lease)
            except Exception:  # the database may be back at the next beat
                continue

    def _work(self, run: ConsolidationRun, jobs: Sequence[JobName] | None) -> None:
        update: dict[str, object]
        done = threading.Event()
        threading.Thread(target=self._renew, args=(run.id, done), daemon=True).start()
        try:
            report = self._run_jobs(jobs, run.trigger)
            failed = [r for r in report.runs if r.status == "failed"]
            update = {
                "state": "failed" if failed else "succeeded",
                "report": report,
                "error": "; ".join(f"{r.job}: {r.error}" for r in failed) or None,
            }
        except JobBusyError as e:
            update = {"state": "busy", "error": str(e)}
        except Exception as e:  # a background thread records its failure instead of losing it
            update = {"state": "failed", "error": f"{type(e).__name__}: {e}"}
        finally:
            done.set()  # the lease stops being renewed however the run ended
        try:
            self._store.finish(run.model_copy(update={**update, "finished_at": self._now()}))
        finally:
            with self._lock:
                self._threads.pop(run.id, None)
