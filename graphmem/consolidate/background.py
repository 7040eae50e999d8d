"""Consolidation requests run in a thread of their own, so no caller waits for a whole run.

Each request gets an id; its state (running, then its report) is kept in this process for the
last ``keep`` requests. The job runs themselves are recorded in the graph as always (JobRun), so
a restart loses only the request's handle, never what the run did.
"""

from __future__ import annotations

import threading
import uuid
from collections import OrderedDict
from collections.abc import Callable, Sequence
from datetime import datetime

from graphmem.consolidate.models import ConsolidationReport, ConsolidationRun, JobName
from graphmem.errors import JobBusyError, NotFoundError

JOB_NAMES: tuple[JobName, ...] = ("nightly", "weekly", "monthly")
RunJobs = Callable[[Sequence[JobName] | None, str], ConsolidationReport]


class BackgroundRuns:
    """Starts consolidation requests in threads and answers for their state."""

    def __init__(self, run_jobs: RunJobs, now: Callable[[], datetime], keep: int = 200) -> None:
        self._run_jobs = run_jobs
        self._now = now
        self._keep = keep
        self._runs: OrderedDict[str, ConsolidationRun] = OrderedDict()
        self._threads: dict[str, threading.Thread] = {}
        self._lock = threading.Lock()

    def start(self, jobs: Sequence[JobName] | None, trigger: str = "api") -> ConsolidationRun:
        """Start running ``jobs`` (default all) in a thread; returns the request's state at once."""
        run = ConsolidationRun(
            id=str(uuid.uuid4()),
            state="running",
            jobs=list(jobs) if jobs is not None else list(JOB_NAMES),
            trigger=trigger,
            started_at=self._now(),
        )
        thread = threading.Thread(target=self._work, args=(run.id, jobs, trigger), daemon=True)
        with self._lock:
            self._runs[run.id] = run
            self._threads[run.id] = thread
            while len(self._runs) > self._keep:
                oldest, state = next(iter(self._runs.items()))
                if state.state == "running":
                    break
                del self._runs[oldest]
        thread.start()
        return run

    def get(self, run_id: str) -> ConsolidationRun:
        """The state of request ``run_id``; raises NotFoundError for an id this process never started."""
        with self._lock:
            run = self._runs.get(run_id)
        if run is None:
            raise NotFoundError(
                f"no consolidation run {run_id!r} in this process (ids are kept for the last "
                f"{self._keep} requests and lost on restart; GET /v1/health/report lists recent job runs)"
            )
        return run

    def join(self, timeout: float | None = None) -> bool:
        """Wait for every running request; False when some still run after ``timeout`` seconds."""
        with self._lock:
            threads = list(self._threads.values())
        for thread in threads:
            thread.join(timeout)
        return not any(t.is_alive() for t in threads)

    def _work(self, run_id: str, jobs: Sequence[JobName] | None, trigger: str) -> None:
        update: dict[str, object]
        try:
            report = self._run_jobs(jobs, trigger)
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
        with self._lock:
            self._runs[run_id] = self._runs[run_id].model_copy(update={**update, "finished_at": self._now()})
            self._threads.pop(run_id, None)
