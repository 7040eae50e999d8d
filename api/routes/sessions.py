"""Session start: what an agent loads before the first turn (lessons and core facts)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from api.deps import AllowedDep, MemoryDep
from api.schemas import ERROR_RESPONSES
from graphmem.conversations.models import SessionContext

router = APIRouter(tags=["sessions"], responses=ERROR_RESPONSES)


@router.get("/sessions/start", response_model=SessionContext)
def session_start(
    memory: MemoryDep,
    allowed: AllowedDep,
    user: Annotated[str, Query(min_length=1, max_length=128, description="Whose session starts")],
    scope: Annotated[str | None, Query(description="Default /user/<user>")] = None,
    core_limit: Annotated[int, Query(ge=0, le=100)] = 20,
) -> SessionContext:
    """The user's lessons (active instruction memories from their corrections) and core facts (their
    most important and strongest other memories), to put in the agent's context."""
    return memory.session_start(user, scope=scope, core_limit=core_limit, allowed=allowed)
