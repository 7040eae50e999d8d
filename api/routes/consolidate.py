"""Consolidation: run the sleep jobs (in the background, or waiting with ``?wait=true``), follow a
run, and the health report of the graph."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request, Response

from graphmem.api.deps import AllowedDep, MemoryDep
from graphmem.api.schemas import ERROR_RESPONSES, ConsolidateBody
from graphmem.consolidate.background import BackgroundRuns
from graphmem.consolidate.models import (
    ConsolidationReport,
    ConsolidationRun,
    HealthDetail,
)

router = APIRouter(tags=["consolidation"], responses=ERROR_RESPONSES)


def _runs(request: Request) -> BackgroundRuns:
    runs: BackgroundRuns = request.app.state.consolidation_runs
    return runs


@router.post(
    "/consolidate",
    response_model=ConsolidationRun | ConsolidationReport,
    status_code=202,
    responses={
        200: {"model": ConsolidationReport, "description": "With ?wait=true: the run is over, its report"},
        409: {"description": "With ?wait=true: every job asked for is running in another process"},
    },
)
def consolidate(
    memory: MemoryDep,
    allowed: AllowedDep,
    http: Request,
    response: Response,
    request: ConsolidateBody | None = None,
    wait: Annotated[bool, Query(description="answer with the report once the run is over")] = False,
) -> ConsolidationRun | ConsolidationReport:
    """Run the given jobs now (default nightly, weekly and monthly).

    Answers 202 at once with the run's id; ``GET /v1/consolidate/runs/{id}`` gives its state and,
    once over, its report. With ``?wait=true`` the request waits and answers 200 with the report
    (409 when every job asked for is running in another process).

    Nightly: flush idle conversations, merge near-duplicates (C3), cluster episodes into semantic
    memories (C1). Weekly: category summaries (C5), archiving with insights (C4), schemas (C2),
    priority drift (C6). Monthly: re-embedding if the model changed (C7), cold storage.
    """
    jobs = request.jobs if request is not None else None
    if wait:
        response.status_code = 200
        return memory.consolidate(jobs, trigger="api", allowed=allowed)
    memory.check_operator(allowed, "Consolidation")
    return _runs(http).start(jobs, trigger="api")


@router.get("/consolidate/runs/{run_id}", response_model=ConsolidationRun)
def consolidation_run(run_id: str, http: Request, allowed: AllowedDep, memory: MemoryDep) -> ConsolidationRun:
    """The state of a consolidation request started with ``POST /v1/consolidate``, and its report
    once over, whichever server process started it (404 for an unknown id)."""
    memory.check_operator(allowed, "Consolidation")
    return _runs(http).get(run_id, allowed)


@router.get("/health/report", response_model=HealthDetail)
def health_report(memory: MemoryDep, allowed: AllowedDep) -> HealthDetail:
    """Active / archived / cold memories per layer and category, staleness, weekly growth, job runs."""
    return memory.health_report(allowed=allowed)
