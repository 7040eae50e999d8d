"""Decisions: the ledger of what was decided, why, and what reversed it."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from graphmem.api.deps import AllowedDep, MemoryDep
from graphmem.api.schemas import ERROR_RESPONSES, SCOPE_SCHEMA, DecisionsResponse
from graphmem.decisions.detect import Domain

router = APIRouter(tags=["decisions"], responses=ERROR_RESPONSES)


@router.get("/decisions", response_model=DecisionsResponse)
def decisions(
    memory: MemoryDep,
    allowed: AllowedDep,
    topic: Annotated[
        str | None, Query(max_length=500, description="Words that must all occur in the decision.")
    ] = None,
    domain: Annotated[Domain | None, Query(description="Only decisions of this domain.")] = None,
    scope: Annotated[
        str | None, Query(description="Only this scope and below.", json_schema_extra=SCOPE_SCHEMA)
    ] = None,
) -> DecisionsResponse:
    """Decisions matching a topic, domain and scope, newest first; superseded ones say what replaced them."""
    found = memory.decisions(topic=topic or None, domain=domain, scope=scope, allowed=allowed)
    return DecisionsResponse(decisions=found)
