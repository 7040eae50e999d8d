"""The data an agent gets at session start beyond lessons: due memories (W10) and the core profile (W13)."""

from __future__ import annotations

from datetime import date, datetime

from pydantic import BaseModel, Field

from graphmem.models import MemoryRecord


class FutureTrigger(BaseModel):
    """W10: a day a memory named ahead of when it happened ("next Friday"), and that memory."""

    id: str
    due_on: date = Field(description="The day the memory's text names")
    scope: str = Field(description="The memory's scope")
    created_at: datetime
    memory: MemoryRecord


class ProfileLine(BaseModel):
    """One current memory in the core profile."""

    id: str
    text: str


class CoreProfile(BaseModel):
    """W13: a small always-in-context profile of a user, drawn from their current memories only.

    Each section lists the strongest, most important memories of its kind, newest first among
    equals, all sections together within ``chars`` characters of text.
    """

    identity: list[ProfileLine] = Field(default_factory=list, description="Who they are: home, work, facts")
    preferences: list[ProfileLine] = Field(default_factory=list, description="What they like and dislike")
    relationships: list[ProfileLine] = Field(default_factory=list, description="The people in their life")
    priorities: list[ProfileLine] = Field(default_factory=list, description="Current plans and decisions")
    chars: int = Field(description="Characters of text the profile holds (at most the budget)")
    computed_at: datetime
