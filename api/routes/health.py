"""Health: is graphmem up, is Neo4j reachable, how much is remembered."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from graphmem.api.deps import MemoryDep
from graphmem.models import HealthReport

router = APIRouter(tags=["health"])


@router.get("/health", response_model=HealthReport, responses={503: {"model": HealthReport}})
def health(memory: MemoryDep) -> JSONResponse:
    """200 with counts when Neo4j answers, 503 when it does not (no API key needed)."""
    report = memory.health()
    code = 503 if report.status == "unavailable" else 200
    return JSONResponse(status_code=code, content=report.model_dump(mode="json"))
