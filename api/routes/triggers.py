"""W10 forward triggers: the memories that named a future day, by the day they are due."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from graphmem.agenda.models import FutureTrigger
from graphmem.api.deps import KeyScopesDep, MemoryDep
from graphmem.api.schemas import ERROR_RESPONSES, SCOPE_SCHEMA, IsoDay

router = APIRouter(tags=["triggers"], responses=ERROR_RESPONSES)


@router.get("/triggers", response_model=list[FutureTrigger])
def list_triggers(
    memory: MemoryDep,
    bound: KeyScopesDep,
    scope: Annotated[
        str | None,
        Query(description="A scope subtree (default: all you may read)", json_schema_extra=SCOPE_SCHEMA),
    ] = None,
    start: Annotated[IsoDay | None, Query(alias="from", description="First day, YYYY-MM-DD")] = None,
    end: Annotated[IsoDay | None, Query(alias="to", description="Last day, YYYY-MM-DD (included)")] = None,
) -> list[FutureTrigger]:
    """Forward triggers due between ``from`` and ``to`` (both optional) about current memories,
    soonest first; a superseded or deleted memory's trigger is gone with it."""
    return memory.triggers(scope=scope, start=start, end=end, allowed=bound)
