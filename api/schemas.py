"""HTTP request and response bodies (the library's models are reused where they fit)."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime
from typing import Annotated, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, Strict, StrictBool, field_validator

from graphmem.consolidate.models import ConsolidateRequest
from graphmem.conversations.models import Role
from graphmem.models import (
    CleanText,
    DecisionRecord,
    MemoryInput,
    NonBlank,
    UtcDatetime,
    WriteResult,
    json_integer,
)
from graphmem.scopes import MAX_SCOPE_LENGTH, SCOPE_PATTERN

# Parameters checked by the library (InvalidInputError, 422), described here for the OpenAPI.
SCOPE_SCHEMA: dict[str, object] = {"pattern": SCOPE_PATTERN, "maxLength": MAX_SCOPE_LENGTH}
NAME_PATTERN = r"^[\w.@:+\-]{1,128}$"  # a user or session id: one segment of a scope path
ScopeText = Annotated[str, Field(json_schema_extra=SCOPE_SCHEMA)]
NAME_SCHEMA: dict[str, object] = {"pattern": NAME_PATTERN}
UserName = Annotated[str, Field(json_schema_extra=NAME_SCHEMA)]
CallBudget = Annotated[int, Strict(False), Field(ge=0, le=1000), BeforeValidator(json_integer)]
_DAY = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def iso_day(value: object) -> object:
    """A day as ``YYYY-MM-DD`` only (not a number of seconds since 1970)."""
    if isinstance(value, str) and not _DAY.match(value):
        raise ValueError("give the day as YYYY-MM-DD, e.g. 2024-05-01")
    return value


IsoDay = Annotated[date, BeforeValidator(iso_day), Field(json_schema_extra={"pattern": _DAY.pattern})]


class ErrorDetail(BaseModel):
    """What went wrong and what to change."""

    code: str
    message: str


class ErrorBody(BaseModel):
    """Every error response."""

    error: ErrorDetail


class ConsolidateBody(ConsolidateRequest):
    """Which jobs to run now; an unknown field is refused (a typo such as ``job`` would otherwise
    run every job)."""

    model_config = ConfigDict(extra="forbid", strict=True)


class BatchRequest(BaseModel):
    """Many memories in one transaction."""

    model_config = ConfigDict(extra="forbid", strict=True)

    items: list[MemoryInput] = Field(min_length=1, max_length=1000)


class BatchResponse(BaseModel):
    """One result per item, in input order, and the language-model calls the whole batch cost."""

    results: list[WriteResult]
    llm_calls: int = 0


class ForgetResponse(BaseModel):
    """How many memories were deleted."""

    deleted: int


BAD_BODY = "A body that is not JSON (or not UTF-8)"
ERROR_RESPONSES: dict[int | str, dict[str, object]] = {
    status: {"model": ErrorBody, "description": text}
    for status, text in {
        400: BAD_BODY,
        401: "Missing or wrong API key",
        403: "Outside the scopes your API key is bound to",
        404: "Unknown id (or another tenant's)",
        413: "Text over the configured limit",
        422: "Invalid request",
        503: "Neo4j unreachable",
    }.items()
}


class TurnRequest(BaseModel):
    """One turn of a conversation (W8); the conversation is created on its first turn."""

    model_config = ConfigDict(extra="forbid", strict=True)

    role: Role
    text: NonBlank = Field(min_length=1, description="What was said.")
    user: UserName | None = Field(
        default=None,
        max_length=128,
        description="Who the user is; their first person becomes this name, memories go to /user/<user>.",
    )
    scope: ScopeText | None = Field(
        default=None, description="Where this conversation's memories go (set on the first turn)."
    )
    at: UtcDatetime | None = Field(
        default=None, description="When it was said; default now. Naive times are UTC."
    )
    max_llm_calls: CallBudget | None = Field(
        default=None,
        description=(
            "X6 budget: language-model calls the review this turn schedules may make; below what "
            "a review needs (2), it runs offline, without the model (cost.skipped: llm_review)."
        ),
    )

    @field_validator("at")
    @classmethod
    def _utc(cls, value: datetime | None) -> datetime | None:
        if value is None or value.tzinfo is not None:
            return value
        return value.replace(tzinfo=UTC)


class QueuedBatch(BaseModel):
    """A batch accepted for writing in the background; recall of its scope waits for it."""

    queued: int = Field(description="How many items were queued")
    job_id: str


class WriteJobStatus(BaseModel):
    """What became of a background batch."""

    job_id: str
    status: Literal["queued", "running", "done", "failed"]
    items: int
    created: int = 0
    reinforced: int = 0
    error: str | None = None
    submitted_at: datetime
    finished_at: datetime | None = None


class ExtractRequest(BaseModel):
    """Raw text to turn into atomic facts, optionally stored as memories."""

    model_config = ConfigDict(extra="forbid", strict=True)

    text: NonBlank = Field(min_length=1, description="A conversation turn, a document or a tool's output.")
    store: StrictBool = Field(default=False, description="Also remember each fact (one batch write).")
    scope: ScopeText | None = Field(default=None, description="Scope of the stored facts, e.g. /user/alice.")
    speaker: CleanText | None = Field(
        default=None, max_length=128, description="Who 'I' is in the text; default: the user."
    )


class DecisionsResponse(BaseModel):
    """The decision ledger's matches, newest first (superseded decisions included, with their links)."""

    decisions: list[DecisionRecord]
