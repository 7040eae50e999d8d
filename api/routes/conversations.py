"""Conversations: record turns (the memory nudge runs after the reply), end and flush, inspect."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, BackgroundTasks, Path, Request, status

from graphmem.api.deps import AllowedDep, MemoryDep
from graphmem.api.schemas import ERROR_RESPONSES, NAME_SCHEMA, TurnRequest
from graphmem.conversations.models import Conversation, FlushResult, TurnResult

SessionId = Annotated[str, Path(description="The conversation's id", json_schema_extra=NAME_SCHEMA)]
router = APIRouter(tags=["conversations"], responses=ERROR_RESPONSES)


@router.post(
    "/conversations/{session_id}/turns", status_code=status.HTTP_201_CREATED, response_model=TurnResult
)
def record_turn(
    session_id: SessionId,
    body: TurnRequest,
    memory: MemoryDep,
    allowed: AllowedDep,
    request: Request,
    background: BackgroundTasks,
) -> TurnResult:
    """Record one turn. Every N user turns (`review_scheduled`) the pending turns are reviewed for
    facts, preferences, instructions, routines and lessons after this response is sent; a failed
    review is logged and its turns stay pending for the next review or the flush."""
    result = memory.record_turn(
        session_id,
        body.role,
        body.text,
        user=body.user,
        scope=body.scope,
        at=body.at,
        nudge_every=request.app.state.nudge_every_user_turns,
        max_llm_calls=body.max_llm_calls,
        allowed=allowed,
    )
    if result.review_scheduled:
        background.add_task(memory.review_conversation, session_id, offline=result.review_offline)
    return result


@router.post("/conversations/{session_id}/end", response_model=FlushResult)
def end_conversation(session_id: SessionId, memory: MemoryDep, allowed: AllowedDep) -> FlushResult:
    """End the session: extract and store its pending turns now, then close it (a new turn reopens it)."""
    return memory.end_conversation(session_id, allowed=allowed)


@router.get("/conversations/{session_id}", response_model=Conversation)
def get_conversation(session_id: SessionId, memory: MemoryDep, allowed: AllowedDep) -> Conversation:
    """A conversation's state: open or closed, turn counts, user turns until the next review."""
    return memory.conversation(session_id, allowed=allowed)
