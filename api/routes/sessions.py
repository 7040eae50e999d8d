"""Session start: what an agent loads before the first turn (lessons, core facts, due memories, profile)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from graphmem.agenda.profile import DEFAULT_PROFILE_CHARS, MAX_PROFILE_CHARS
from graphmem.agenda.triggers import DEFAULT_DUE_WINDOW_DAYS
from graphmem.api.deps import AllowedDep, MemoryDep
from graphmem.api.schemas import ERROR_RESPONSES, NAME_SCHEMA, SCOPE_SCHEMA, IsoDay
from graphmem.conversations.models import SessionContext

router = APIRouter(tags=["sessions"], responses=ERROR_RESPONSES)


@router.get("/sessions/start", response_model=SessionContext)
def session_start(
    memory: MemoryDep,
    allowed: AllowedDep,
    user: Annotated[
        str,
        Query(min_length=1, max_length=128, description="Who starts", json_schema_extra=NAME_SCHEMA),
    ],
    scope: Annotated[
        str | None, Query(description="Default /user/<user>", json_schema_extra=SCOPE_SCHEMA)
    ] = None,
    core_limit: Annotated[int, Query(ge=0, le=100)] = 20,
    on: Annotated[IsoDay | None, Query(description="The day, YYYY-MM-DD (default today, UTC)")] = None,
    due_window_days: Annotated[
        int, Query(ge=0, le=366, description="Also return memories overdue by at most this many days")
    ] = DEFAULT_DUE_WINDOW_DAYS,
    profile_chars: Annotated[
        int, Query(ge=0, le=MAX_PROFILE_CHARS, description="Character budget of the core profile")
    ] = DEFAULT_PROFILE_CHARS,
) -> SessionContext:
    """The user's lessons (active instruction memories from their corrections), core facts (their
    most important and strongest other memories), the memories due that day (W10: they named it
    ahead of time, e.g. "next Friday") and the core profile (W13), to put in the agent's context."""
    return memory.session_start(
        user,
        scope=scope,
        core_limit=core_limit,
        on=on,
        due_window_days=due_window_days,
        profile_chars=profile_chars,
        allowed=allowed,
    )
