"""Consolidation: run the sleep jobs now, and the health report of the graph."""

from __future__ import annotations

from fastapi import APIRouter

from api.deps import AllowedDep, MemoryDep
from graphmem.consolidate.models import ConsolidateRequest, ConsolidationReport, HealthDetail

router = APIRouter(tags=["consolidation"])


@router.post("/consolidate", response_model=ConsolidationReport)
def consolidate(
    memory: MemoryDep, allowed: AllowedDep, request: ConsolidateRequest | None = None
) -> ConsolidationReport:
    """Run the given jobs now (default nightly, weekly and monthly) and report their counts.

    Nightly: flush idle conversations, merge near-duplicates (C3), cluster episodes into semantic
    memories (C1). Weekly: category summaries (C5), archiving with insights (C4), schemas (C2),
    priority drift (C6). Monthly: re-embedding if the model changed (C7), cold storage.
    A job another process is running reports ``busy``; 409 when all of them are.
    """
    jobs = request.jobs if request is not None else None
    return memory.consolidate(jobs, trigger="api", allowed=allowed)


@router.get("/health/report", response_model=HealthDetail)
def health_report(memory: MemoryDep, allowed: AllowedDep) -> HealthDetail:
    """Active / archived / cold memories per layer and category, staleness, weekly growth, job runs."""
    return memory.health_report(allowed=allowed)
