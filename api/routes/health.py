"""Health: is graphmem up, is Neo4j reachable, how much is remembered."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from graphmem.api.deps import MemoryDep, sees_every_tenant
from graphmem.models import HealthReport

router = APIRouter(tags=["health"])


@router.get("/health", response_model=HealthReport, responses={503: {"model": HealthReport}})
def health(memory: MemoryDep, request: Request) -> JSONResponse:
    """200 when Neo4j answers, 503 when it does not (no API key needed).

    The counts cover every tenant's memories, so they are given only when the API is open or the
    request carries a key bound to no scope; otherwise ``counts`` is empty."""
    report = memory.health()
    if not sees_every_tenant(request):
        report = report.model_copy(update={"counts": {}})
    code = 503 if report.status == "unavailable" else 200
    return JSONResponse(status_code=code, content=report.model_dump(mode="json"))
