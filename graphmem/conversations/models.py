"""The data of conversations: turns, conversation state, what a review stored, a session's context."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, Field

from graphmem.agenda.models import CoreProfile, FutureTrigger
from graphmem.models import MemoryRecord

Role = Literal["user", "assistant"]


class Turn(BaseModel):
    """One message of a conversation, as stored in the graph."""

    id: str
    conversation_id: str
    seq: int = Field(description="1 for the conversation's first turn, then 2, 3...")
    role: Role
    text: str
    at: datetime
    processed: bool = Field(description="True once a review has extracted its memories")


class Conversation(BaseModel):
    """A conversation (session) and the counters of the memory nudge."""

    id: str
    user: str | None = None
    scope: str = Field(description="Where memories extracted from this conversation are stored")
    started_at: datetime
    last_turn_at: datetime
    open: bool
    ended_at: datetime | None = None
    turn_count: int = 0
    user_turns: int = 0
    turns_since_review: int = Field(
        default=0, description="User turns since the last review was scheduled; a review runs at N"
    )


LLM_REVIEW = "llm_review"


class TurnCost(BaseModel):
    """X6: what handling one turn cost (the review it schedules runs after the reply; a flush
    reports its own ``llm_calls``)."""

    tokens: int = Field(description="Estimated tokens of the turn's text (about 4 characters each)")
    llm_calls: int = Field(default=0, description="Language-model calls made while recording it")
    usd: float = 0.0
    ms: float = Field(description="Time spent recording it, in milliseconds")
    skipped: list[str] = Field(
        default_factory=list,
        description="Expensive steps left out for the budget (llm_review: the review runs offline)",
    )


class TurnResult(BaseModel):
    """A recorded turn, and whether it made a review due (the caller runs it after replying)."""

    turn: Turn
    review_scheduled: bool
    review_offline: bool = Field(
        default=False, description="The scheduled review runs without the language model (max_llm_calls)"
    )
    cost: TurnCost | None = None


class ReviewOutcome(BaseModel):
    """What one review (a nudge or a flush) did with a conversation's pending turns."""

    conversation_id: str
    turns_processed: int = Field(description="Pending turns reviewed and marked processed")
    stored: int = Field(description="Memories created or reinforced from them")
    lessons: int = Field(description="Of those, lessons (instruction memories from corrections)")
    llm_calls: int = 0


class FlushResult(ReviewOutcome):
    """A conversation ended: its pending turns flushed, then closed."""

    conversation: Conversation


class SessionContext(BaseModel):
    """What an agent loads at session start: the user's lessons, core facts, the memories due that
    day (W10) and the core profile (W13)."""

    user: str
    scope: str
    lessons: list[MemoryRecord] = Field(description="Active instruction memories, most important first")
    core_facts: list[MemoryRecord] = Field(
        description="The most important and strongest other active memories"
    )
    due: list[FutureTrigger] = Field(
        default_factory=list,
        description="Memories that named this day ahead of time, or a day at most due_window_days before",
    )
    profile: CoreProfile | None = Field(
        default=None, description="Identity, preferences, relationships, priorities (current memories only)"
    )
