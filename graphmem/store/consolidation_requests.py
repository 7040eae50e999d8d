"""Consolidation requests run in the background, kept in the graph (``cypher/jobs/*consolidation_request*``).

A ``:ConsolidationRequest`` node holds a request's state and, once over, its report, so any API
process against the same Neo4j answers ``GET /v1/consolidate/runs/{id}`` for a run another
process started. Each request is bound to the scope it works on (``/``: the whole graph), and
is read only by a caller whose scopes hold that scope.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from graphmem.consolidate.models import ConsolidationReport, ConsolidationRun
from graphmem.scopes import ROOT
from graphmem.store.executor import QueryExecutor
from graphmem.store.records import native


class ConsolidationRequestStore:
    """Record, finish and read background consolidation requests."""

    def __init__(self, executor: QueryExecutor, owner: str = "") -> None:
        self._executor = executor
        self._owner = owner

    def record(self, run: ConsolidationRun, lease_until: datetime, scope: str = ROOT) -> None:
        """Keep a request just started (before its id is handed out), leased until ``lease_until``."""
        self._executor.write(
            "jobs/record_consolidation_request",
            id=run.id,
            jobs=list(run.jobs),
            trigger=run.trigger,
            scope=scope,
            started_at=run.started_at,
            owner=self._owner,
            lease_until=lease_until,
        )

    def renew(self, run_id: str, lease_until: datetime) -> None:
        """Extend the lease of a request this process still runs."""
        self._executor.write("jobs/renew_consolidation_request", id=run_id, lease_until=lease_until)

    def finish(self, run: ConsolidationRun) -> None:
        """Record how the request ended (state, finish time, report or error)."""
        self._executor.write(
            "jobs/finish_consolidation_request",
            id=run.id,
            state=run.state,
            finished_at=run.finished_at,
            report_json=run.report.model_dump_json() if run.report is not None else None,
            error=run.error,
        )

    def get(
        self, run_id: str, now: datetime, allowed: Sequence[str] | None = None
    ) -> ConsolidationRun | None:
        """Request ``run_id`` if it exists and ``allowed`` (None: every scope) holds its scope; one
        left 'running' with its lease run out before ``now`` reads as 'interrupted'."""
        rows = self._executor.read(
            "jobs/consolidation_request",
            id=run_id,
            now=now,
            allowed=None if allowed is None else list(allowed),
        )
        if not rows:
            return None
        row = native(rows[0])
        report = row.pop("report_json", None)
        return ConsolidationRun(
            **row, report=ConsolidationReport.model_validate_json(report) if report else None
        )
