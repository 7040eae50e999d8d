"""The heartbeat that keeps consolidation on schedule inside a long-running process (the API server).

At start-up it runs every overdue job ("never assume cron ran"), then checks again every
``interval``. It never raises: a failed check is logged and retried on the next beat.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from datetime import timedelta

from graphmem.consolidate.models import ConsolidationReport
from graphmem.errors import GraphmemError

log = logging.getLogger(__name__)


class ConsolidationScheduler:
    """A daemon thread calling ``run_overdue`` at start and on every beat until stopped."""

    def __init__(self, run_overdue: Callable[[str], ConsolidationReport], interval: timedelta) -> None:
        self._run_overdue = run_overdue
        self._interval = interval
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.beats = 0

    def start(self) -> None:
        """Start beating (the first beat, the start-up catch-up, happens at once)."""
        if self._thread is not None:
            return
        self._thread = threading.Thread(target=self._loop, name="graphmem-consolidation", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 30.0) -> None:
        """Stop after the current job step finishes (waits up to ``timeout`` seconds)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)

    def _loop(self) -> None:
        trigger = "startup"
        while not self._stop.is_set():
            try:
                report = self._run_overdue(trigger)
                for run in report.runs:
                    log.info("consolidation %s (%s): %s %s", run.job, trigger, run.status, run.counts)
            except GraphmemError as e:
                log.warning("overdue consolidation jobs not run (%s): %s", trigger, e)
            except Exception:  # the heartbeat must survive anything a job throws
                log.exception("overdue consolidation jobs failed (%s)", trigger)
            self.beats += 1
            trigger = "heartbeat"
            self._stop.wait(self._interval.total_seconds())
