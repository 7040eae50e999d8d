"""The data graphmem reads and writes: pure pydantic models, no behaviour beyond validation."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    Strict,
    StrictBool,
    model_validator,
)

from graphmem.scopes import MAX_SCOPE_LENGTH, SCOPE_PATTERN, normalize_scope

Layer = Literal["episodic", "semantic", "schema"]
Status = Literal["active", "superseded", "archived", "cold"]
Tag = Literal["uncertain", "stale", "conflict"]


MAX_METADATA_BYTES = 64 * 1024
"""The most metadata one memory carries, serialised as JSON."""

# C0 control characters and DEL, except tab, line feed and carriage return.
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def _aware(value: datetime) -> datetime:
    """Naive times are taken as UTC; every time is stored in UTC."""
    if value.tzinfo is None:
        return value.replace(tzinfo=UTC)
    try:
        return value.astimezone(UTC)
    except OverflowError as e:  # year 1 at +05:00 is before the first representable instant
        raise ValueError("time out of range: use a year between 1 and 9999 (in UTC)") from e


def _no_control(value: str) -> str:
    found = _CONTROL.search(value)
    if found:
        raise ValueError(
            f"contains the control character U+{ord(found.group()):04X} at position {found.start()}: "
            "remove NUL and control characters (tab and line breaks are fine)"
        )
    return value


def _bounded_metadata(value: dict[str, Any]) -> dict[str, Any]:
    try:
        size = len(json.dumps(value, default=str).encode("utf-8"))
    except (TypeError, ValueError) as e:  # circular, or keys JSON cannot hold
        raise ValueError("metadata must be a JSON object") from e
    if size > MAX_METADATA_BYTES:
        raise ValueError(
            f"metadata is {size} bytes as JSON, over the limit of {MAX_METADATA_BYTES}: keep large "
            "documents elsewhere and store a reference to them"
        )
    return value


def _clean_categories(value: list[str]) -> list[str]:
    seen: dict[str, None] = {}
    for item in value:
        name = _no_control(item.strip().lower())
        if not name or len(item) > 64:
            raise ValueError("categories must be non-empty strings of at most 64 characters")
        seen.setdefault(name, None)
    return list(seen)


def _not_blank(value: str) -> str:
    if not value.strip():
        raise ValueError("must contain something besides white space")
    return value


def _not_a_number(value: object) -> object:
    # A number would be read as seconds since 1970: a time is ISO-8601 text (as the OpenAPI says).
    if isinstance(value, int | float):
        raise ValueError("give a time as ISO-8601 text, e.g. 2024-05-01T09:00:00Z")
    return value


def json_integer(value: object) -> object:
    """A JSON integer as given (3 or 3.0); ValueError for text or a boolean."""
    # JSON's integers include 3.0 (a lax int takes it, and refuses 3.5); never text or a boolean.
    if isinstance(value, bool | str):
        raise ValueError("give a whole number (not text, not true or false)")
    return value


JsonInt = Annotated[int, Strict(False), BeforeValidator(json_integer)]
"""A whole number as JSON has it (3 or 3.0), in a strict model. Bounds on an optional one go in
its Annotated before the validator (``Annotated[int, Strict(False), Field(ge=1), BeforeValidator(
json_integer)] | None``), or the OpenAPI loses them."""

TokenBudget = Annotated[int, Strict(False), Field(ge=1, le=1_000_000), BeforeValidator(json_integer)]

# The OpenAPI states what the validators accept, so clients (and schemathesis) can tell.
_ALLOWED_CHARS = r"[^\x00-\x08\x0b\x0c\x0e-\x1f\x7f]"
CLEAN_TEXT_PATTERN = rf"^{_ALLOWED_CHARS}*$"
NON_BLANK_PATTERN = rf"^{_ALLOWED_CHARS}*[^\s\x00-\x08\x0b\x0c\x0e-\x1f\x7f]{_ALLOWED_CHARS}*$"

CleanText = Annotated[
    str, AfterValidator(_no_control), Field(json_schema_extra={"pattern": CLEAN_TEXT_PATTERN})
]
"""Text without NUL or other control characters (tab and line breaks allowed)."""
NonBlank = Annotated[
    str,
    AfterValidator(_not_blank),
    AfterValidator(_no_control),
    Field(json_schema_extra={"pattern": NON_BLANK_PATTERN}),
]
"""Text that is more than white space, without control characters."""
Metadata = Annotated[dict[str, Any], AfterValidator(_bounded_metadata)]
"""A JSON object of at most MAX_METADATA_BYTES serialised."""
ScopePath = Annotated[
    str,
    AfterValidator(normalize_scope),
    Field(json_schema_extra={"pattern": SCOPE_PATTERN, "maxLength": MAX_SCOPE_LENGTH}),
]
"""A scope path, normalised ('/user/alice'); InvalidInputError-style message when malformed."""
_CategoryName = Annotated[str, Field(json_schema_extra={"pattern": NON_BLANK_PATTERN, "maxLength": 64})]
Categories = Annotated[list[_CategoryName], AfterValidator(_clean_categories)]
"""Category names, lower-cased and de-duplicated."""
UtcDatetime = Annotated[
    datetime, BeforeValidator(_not_a_number), AfterValidator(_aware), Strict(False)  # ISO-8601 text
]
"""A time in UTC (ISO-8601 text or a datetime); naive times are taken as UTC."""


class MemoryInput(BaseModel):
    """One memory to remember. Unset fields get defaults (or are inferred by the write path)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    text: NonBlank = Field(min_length=1, description="What to remember, in plain language.")
    scope: ScopePath | None = Field(default=None, description="Scope path, e.g. /user/alice; default /.")
    categories: Categories | None = Field(default=None, max_length=32)
    importance: float | None = Field(default=None, ge=0.0, le=1.0)
    occurred_at: UtcDatetime | None = Field(
        default=None, description="When it happened or was said; default: now. Naive times are UTC."
    )
    source: CleanText | None = Field(default=None, max_length=256)
    metadata: Metadata | None = Field(default=None, description="Any JSON object up to 64 KiB.")


class MemoryRecord(BaseModel):
    """A stored memory as callers see it (every graph property but the embedding)."""

    id: str
    text: str
    layer: Layer
    scope: str
    categories: list[str]
    importance: float
    confidence: float
    strength: float
    status: Status
    created_at: datetime
    occurred_at: datetime
    last_accessed_at: datetime | None = None
    updated_at: datetime | None = None
    access_count: int = 0
    pinned: bool = False
    source: str | None = None
    metadata: dict[str, Any] = Field(default_factory=dict)


class WriteResult(BaseModel):
    """What one remembered item became: the memory, and what the write did."""

    memory: MemoryRecord
    actions: list[str] = Field(
        description="created, reinforced (a near-duplicate existed), duplicate (dropped inside "
        "its batch), superseded:<id> (this write replaced that belief), superseded_by:<id> (this "
        "statement was already outdated by a newer stored one), contradicts:<id>"
    )
    llm_calls: int = Field(default=0, description="language-model calls this item cost")


class HistoryEntry(BaseModel):
    """One neighbour on a memory's SUPERSEDES chain."""

    id: str
    text: str
    status: Status
    occurred_at: datetime
    relation: Literal["supersedes", "superseded_by"]
    depth: int


class InPartEntry(BaseModel):
    """A memory that contradicts this one only in part (news changed one of the things it says), or
    one this memory contradicts in part; neither is retired by it."""

    id: str
    text: str
    status: Status
    occurred_at: datetime
    relation: Literal["contradicts_in_part", "contradicted_in_part_by"]
    reason: str | None = None


class MemoryDetail(MemoryRecord):
    """A memory with its belief history and lineage."""

    history: list[HistoryEntry] = Field(default_factory=list)
    in_part: list[InPartEntry] = Field(
        default_factory=list,
        description="memories that contradict this one only in part, or that it contradicts in part, "
        "newest first",
    )
    derived_from: list[str] = Field(default_factory=list)


class Recalled(MemoryRecord):
    """A memory returned by recall, with its score and why it matched."""

    score: float
    tags: list[Tag] = Field(default_factory=list)
    match_reasons: list[str] = Field(default_factory=list)


class RecallQuery(BaseModel):
    """A recall request."""

    model_config = ConfigDict(extra="forbid", strict=True)

    query: NonBlank = Field(min_length=1, max_length=4096)
    scope: ScopePath | None = Field(default=None, description="Only this scope and below.")
    scopes: list[ScopePath] | None = Field(
        default=None, max_length=16, description="A slice: several scope branches read in one query."
    )
    limit: JsonInt = Field(default=10, ge=1, le=100)
    layers: list[Layer] | None = None
    include_superseded: StrictBool = False
    recent_context: list[str] | None = Field(
        default=None,
        max_length=20,
        description="Recent turns; blended into the query (0.6 query, 0.4 context).",
    )
    intent: Literal["decision", "research", "tasks", "chat"] | None = Field(
        default=None, description="Boosts the layers and categories that intent needs."
    )
    as_of: UtcDatetime | None = Field(
        default=None, description="Answer with what was believed at this time (default: the current truth)."
    )
    categories: Categories | None = Field(
        default=None,
        max_length=32,
        description=(
            "X5 domain filter: only memories holding at least one of these categories (e.g. "
            "'engineering' when an agent reads what the other agents of its tenant learnt)."
        ),
    )
    reinforce: StrictBool = Field(
        default=True,
        description=(
            "Strengthen what is returned (spacing effect, D2/D3). False only looks: for dashboards, "
            "audits and evaluations that must not change what they measure."
        ),
    )
    max_tokens: TokenBudget | None = Field(
        default=None,
        description="X6: the returned memories' texts fit in this many tokens (about 4 characters each).",
    )


class RecallCost(BaseModel):
    """X6: what a recall cost."""

    tokens: int = Field(description="Estimated tokens of the returned memories' texts")
    llm_calls: int = 0
    usd: float = 0.0
    ms: float = Field(description="Time spent answering, in milliseconds")
    cut: int = Field(default=0, description="Matching memories left out to fit max_tokens")
    skipped: list[str] = Field(
        default_factory=list,
        description="Expensive steps left out to keep within the budget (sub_queries: the deeper search)",
    )


class RecallResult(BaseModel):
    """The answer to a recall: ranked memories, an overall confidence, and what was not found."""

    results: list[Recalled]
    confidence: float
    evidence_gaps: list[str] = Field(default_factory=list)
    cost: RecallCost | None = None


class MemoryPatch(BaseModel):
    """Fields to change on a memory; unset fields stay as they are."""

    model_config = ConfigDict(extra="forbid", strict=True, json_schema_extra={"minProperties": 1})

    text: NonBlank | None = Field(default=None, min_length=1)
    scope: ScopePath | None = None
    categories: Categories | None = Field(default=None, max_length=32)
    importance: float | None = Field(default=None, ge=0.0, le=1.0)
    metadata: Metadata | None = Field(default=None, description="Any JSON object up to 64 KiB.")
    pinned: StrictBool | None = Field(default=None, description="A pinned memory never decays or archives.")

    @model_validator(mode="after")
    def _something(self) -> MemoryPatch:
        if not self.model_fields_set:
            raise ValueError("give at least one of text, scope, categories, importance, metadata, pinned")
        return self


class ForgetFilter(BaseModel):
    """Which memories to forget: every given filter must match (at least one is required)."""

    model_config = ConfigDict(
        extra="forbid",
        strict=True,  # a number is no text and a boolean no number, as the OpenAPI says
        json_schema_extra={  # at least one filter that is not null
            "anyOf": [
                {"required": [name], "properties": {name: {"not": {"type": "null"}}}}
                for name in ("ids", "scope", "categories", "older_than")
            ]
        },
    )

    ids: list[str] | None = Field(default=None, max_length=10_000)
    scope: ScopePath | None = None
    categories: Categories | None = None
    older_than: UtcDatetime | None = Field(
        default=None, description="Forget memories that occurred before this time."
    )

    @model_validator(mode="after")
    def _at_least_one(self) -> ForgetFilter:
        if self.ids is None and self.scope is None and self.categories is None and self.older_than is None:
            raise ValueError("give at least one of ids, scope, categories, older_than")
        return self


class HealthReport(BaseModel):
    """Whether graphmem and its Neo4j are up, with counts."""

    status: Literal["ok", "degraded", "unavailable"]
    neo4j: dict[str, Any]
    counts: dict[str, Any]
    embedding: dict[str, Any] = Field(default_factory=dict)


class EntityRecord(BaseModel):
    """An entity memories mention (graphiti's entities too, whose scope may still be unset)."""

    id: str
    name: str
    scope: str | None = None
    kind: str | None = None
    summary: str = ""
    group_id: str | None = None
    mentions: int = Field(default=0, description="How many memories mention the entity.")


DecisionStatus = Literal["active", "superseded"]


class DecisionRecord(BaseModel):
    """A decision from the ledger: what was decided, why, in which domain, and what replaced it."""

    id: str
    text: str = Field(description="The statement of the decision, as said.")
    choice: str = Field(default="", description="What was decided (the object of 'decided to ...').")
    reasoning: str = Field(default="", description="Why, when the text said so.")
    domain: str
    outcome: str | None = Field(default=None, description="How it turned out, once known.")
    decided_at: datetime
    status: DecisionStatus
    scope: str
    memory_id: str | None = Field(default=None, description="The memory the decision was recorded in.")
    supersedes: list[str] = Field(default_factory=list, description="Ids of the decisions this one reversed.")
    superseded_by: list[str] = Field(
        default_factory=list, description="Ids of the decisions that reversed it."
    )


class ExtractResult(BaseModel):
    """The facts extracted from a text, and what storing them did when asked to."""

    facts: list[str] = Field(description="Atomic, self-contained facts, in the order of the text.")
    stored: list[WriteResult] | None = Field(
        default=None, description="One write result per fact when store was asked for, else null."
    )
    llm_calls: int = Field(default=0, description="Language-model calls extraction and storing cost.")


class Feedback(BaseModel):
    """R7: which recalled memories an answer used (echo) and which it ignored (fizzle)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    response: CleanText = Field(min_length=1, max_length=64 * 1024, description="The answer the agent gave.")
    injected_ids: list[str] = Field(min_length=1, max_length=200, description="Memories given to the agent.")
    used_ids: list[str] | None = Field(
        default=None, description="Memories the answer used; default: judged by keyword overlap."
    )


class FeedbackResult(BaseModel):
    """How each injected memory's retrieval priority moved."""

    used: list[str]
    ignored: list[str]
