"""HTTP request and response bodies (the library's models are reused where they fit)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from graphmem.models import MemoryInput, WriteResult


class ErrorDetail(BaseModel):
    """What went wrong and what to change."""

    code: str
    message: str


class ErrorBody(BaseModel):
    """Every error response."""

    error: ErrorDetail


class BatchRequest(BaseModel):
    """Many memories in one transaction."""

    model_config = ConfigDict(extra="forbid")

    items: list[MemoryInput] = Field(min_length=1, max_length=1000)


class BatchResponse(BaseModel):
    """One result per item, in input order."""

    results: list[WriteResult]


class ForgetResponse(BaseModel):
    """How many memories were deleted."""

    deleted: int


ERROR_RESPONSES: dict[int | str, dict[str, object]] = {
    status: {"model": ErrorBody, "description": text}
    for status, text in {
        401: "Missing or wrong API key",
        404: "Unknown id",
        413: "Text over the configured limit",
        422: "Invalid request",
        503: "Neo4j unreachable",
    }.items()
}
