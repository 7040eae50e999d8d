"""One builder per REST route: validate the arguments with the server's own models, describe the call.

Arguments are checked here, before anything is sent, with the same pydantic models the server
validates with; a bad argument raises :class:`~graphmem.errors.InvalidInputError` with the
message the server would have given.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date
from typing import Any, TypeVar
from urllib.parse import quote

import httpx
from pydantic import BaseModel, TypeAdapter, ValidationError

from graphmem.agenda.models import FutureTrigger
from graphmem.agents.models import AgentQuery, CypherResult
from graphmem.api.schemas import (
    BatchRequest,
    BatchResponse,
    DecisionsResponse,
    ExtractRequest,
    ForgetResponse,
    QueuedBatch,
    TurnRequest,
    WriteJobStatus,
)
from graphmem.client._transport import Call, model_parser, no_content
from graphmem.consolidate.models import ConsolidateRequest, ConsolidationReport, HealthDetail
from graphmem.conversations.models import Conversation, FlushResult, SessionContext, TurnResult
from graphmem.errors import APIError, InvalidInputError
from graphmem.models import (
    DecisionRecord,
    ExtractResult,
    Feedback,
    FeedbackResult,
    ForgetFilter,
    HealthReport,
    MemoryDetail,
    MemoryInput,
    MemoryPatch,
    MemoryRecord,
    RecallQuery,
    RecallResult,
    WriteResult,
)
from graphmem.scopetree import ScopeNode

M = TypeVar("M", bound=BaseModel)

BatchItem = MemoryInput | str | Mapping[str, Any]
"""One item of a batch: a MemoryInput, a bare text, or a dict shaped like the REST body."""


class _QueryList(BaseModel):
    """The answer of ``GET /v1/cypher/queries``."""

    queries: list[AgentQuery]


def build(model: type[M], **fields: Any) -> M:
    """``model`` from the fields that are not None; InvalidInputError in the server's words if invalid."""
    try:
        return model.model_validate({k: v for k, v in fields.items() if v is not None})
    except ValidationError as e:
        raise InvalidInputError(describe(e)) from e


def describe(error: ValidationError) -> str:
    """A validation error as the server words it: ``Invalid request: field: problem; ...``."""
    parts = []
    for item in error.errors():
        where = ".".join(str(p) for p in item.get("loc", ()))
        parts.append(f"{where or 'body'}: {item.get('msg', 'invalid')}")
    return "Invalid request: " + "; ".join(parts)


def _body(model: BaseModel) -> Any:
    return model.model_dump(mode="json", exclude_unset=True)


def _segment(value: str) -> str:
    if not value:
        raise InvalidInputError("An id must not be empty.")
    return quote(value, safe="")


def _batch_items(items: Sequence[BatchItem]) -> BatchRequest:
    if isinstance(items, str | bytes):
        raise InvalidInputError("remember_batch takes a list of items, not one text; use remember.")
    rows = [{"text": i} if isinstance(i, str) else i for i in items]
    return build(BatchRequest, items=rows)


# Memories


def remember(item: MemoryInput) -> Call[WriteResult]:
    """``POST /v1/memories``."""
    return Call("POST", "/memories", model_parser(WriteResult), json=_body(item))


def remember_batch(items: Sequence[BatchItem]) -> Call[BatchResponse]:
    """``POST /v1/memories/batch``, written before the answer."""
    return Call("POST", "/memories/batch", model_parser(BatchResponse), json=_body(_batch_items(items)))


def remember_background(items: Sequence[BatchItem]) -> Call[QueuedBatch]:
    """``POST /v1/memories/batch?background=true``, queued and answered at once (202)."""
    return Call(
        "POST",
        "/memories/batch",
        model_parser(QueuedBatch),
        json=_body(_batch_items(items)),
        params={"background": "true"},
    )


def batch_job(job_id: str) -> Call[WriteJobStatus]:
    """``GET /v1/memories/batch/{job_id}``."""
    path = f"/memories/batch/{_segment(job_id)}"
    return Call("GET", path, model_parser(WriteJobStatus), idempotent=True)


def get(memory_id: str) -> Call[MemoryDetail]:
    """``GET /v1/memories/{id}``."""
    return Call("GET", f"/memories/{_segment(memory_id)}", model_parser(MemoryDetail), idempotent=True)


def update(memory_id: str, patch: MemoryPatch) -> Call[MemoryRecord]:
    """``PATCH /v1/memories/{id}``."""
    return Call("PATCH", f"/memories/{_segment(memory_id)}", model_parser(MemoryRecord), json=_body(patch))


def delete(memory_id: str) -> Call[None]:
    """``DELETE /v1/memories/{id}``."""
    return Call("DELETE", f"/memories/{_segment(memory_id)}", no_content)


def forget(what: ForgetFilter) -> Call[int]:
    """``POST /v1/forget``; the answer is how many memories were deleted."""
    parse = model_parser(ForgetResponse)
    return Call("POST", "/forget", lambda r: parse(r).deleted, json=_body(what))


# Recall, feedback, extraction, decisions


def recall(query: RecallQuery) -> Call[RecallResult]:
    """``POST /v1/recall`` (a read: safe to resend)."""
    return Call("POST", "/recall", model_parser(RecallResult), json=_body(query), idempotent=True)


def feedback(what: Feedback) -> Call[FeedbackResult]:
    """``POST /v1/feedback``."""
    return Call("POST", "/feedback", model_parser(FeedbackResult), json=_body(what))


def extract(request: ExtractRequest) -> Call[ExtractResult]:
    """``POST /v1/extract`` (safe to resend unless it stores)."""
    return Call(
        "POST", "/extract", model_parser(ExtractResult), json=_body(request), idempotent=not request.store
    )


def decisions(topic: str | None, domain: str | None, scope: str | None) -> Call[list[DecisionRecord]]:
    """``GET /v1/decisions``."""
    params = {k: v for k, v in {"topic": topic, "domain": domain, "scope": scope}.items() if v is not None}
    parse = model_parser(DecisionsResponse)
    return Call("GET", "/decisions", lambda r: parse(r).decisions, params=params, idempotent=True)


# Conversations and sessions


def record_turn(session_id: str, turn: TurnRequest) -> Call[TurnResult]:
    """``POST /v1/conversations/{session_id}/turns``."""
    path = f"/conversations/{_segment(session_id)}/turns"
    return Call("POST", path, model_parser(TurnResult), json=_body(turn))


def end_conversation(session_id: str) -> Call[FlushResult]:
    """``POST /v1/conversations/{session_id}/end``."""
    return Call("POST", f"/conversations/{_segment(session_id)}/end", model_parser(FlushResult))


def conversation(session_id: str) -> Call[Conversation]:
    """``GET /v1/conversations/{session_id}``."""
    path = f"/conversations/{_segment(session_id)}"
    return Call("GET", path, model_parser(Conversation), idempotent=True)


def session_start(
    user: str,
    scope: str | None,
    core_limit: int,
    on: date | None = None,
    due_window_days: int | None = None,
    profile_chars: int | None = None,
) -> Call[SessionContext]:
    """``GET /v1/sessions/start``."""
    params: dict[str, str | int | bool] = {"user": user, "core_limit": core_limit}
    if scope is not None:
        params["scope"] = scope
    if on is not None:
        params["on"] = on.isoformat()
    if due_window_days is not None:
        params["due_window_days"] = due_window_days
    if profile_chars is not None:
        params["profile_chars"] = profile_chars
    return Call("GET", "/sessions/start", model_parser(SessionContext), params=params, idempotent=True)


_TRIGGERS = TypeAdapter(list[FutureTrigger])


def triggers(scope: str | None, start: date | None, end: date | None) -> Call[list[FutureTrigger]]:
    """``GET /v1/triggers``."""
    given = {
        "scope": scope,
        "from": start.isoformat() if start else None,
        "to": end.isoformat() if end else None,
    }
    params: dict[str, str | int | bool] = {k: v for k, v in given.items() if v is not None}

    def parse(response: httpx.Response) -> list[FutureTrigger]:
        try:
            return _TRIGGERS.validate_json(response.content)
        except ValidationError as e:
            raise APIError(
                f"The answer of GET /v1/triggers does not fit: {e}", status=response.status_code
            ) from e

    return Call("GET", "/triggers", parse, params=params, idempotent=True)


def scopes(under: str) -> Call[ScopeNode]:
    """``GET /v1/scopes``."""
    return Call("GET", "/scopes", model_parser(ScopeNode), params={"under": under}, idempotent=True)


# Operations


def health() -> Call[HealthReport]:
    """``GET /v1/health``; its 503 (Neo4j unreachable) is a report, not an error."""
    return Call("GET", "/health", model_parser(HealthReport), idempotent=True, answers=frozenset({503}))


def health_report() -> Call[HealthDetail]:
    """``GET /v1/health/report``."""
    return Call("GET", "/health/report", model_parser(HealthDetail), idempotent=True)


def consolidate(request: ConsolidateRequest) -> Call[ConsolidationReport]:
    """``POST /v1/consolidate?wait=true`` (not resent after a timeout: the jobs may be running)."""
    return Call(
        "POST",
        "/consolidate",
        model_parser(ConsolidationReport),
        json=_body(request),
        params={"wait": "true"},
    )


# Graph queries for agents (read-only on the server: safe to resend)


def _query_body(params: Mapping[str, Any] | None, scopes: Sequence[str] | None, **rest: Any) -> Any:
    body: dict[str, Any] = {k: v for k, v in rest.items() if v is not None}
    if params is not None:
        body["params"] = dict(params)
    if scopes is not None:
        if isinstance(scopes, str):
            scopes = [scopes]
        body["scopes"] = list(scopes)
    return body


def cypher(
    query: str,
    params: Mapping[str, Any] | None,
    scopes: Sequence[str] | None,
    limit: int | None,
    timeout: float | None,
) -> Call[CypherResult]:
    """``POST /v1/cypher``."""
    if not query.strip():
        raise InvalidInputError("Give a Cypher query to run.")
    body = _query_body(params, scopes, query=query, limit=limit, timeout=timeout)
    return Call("POST", "/cypher", model_parser(CypherResult), json=body, idempotent=True)


def cypher_queries() -> Call[list[AgentQuery]]:
    """``GET /v1/cypher/queries``."""
    parse = model_parser(_QueryList)
    return Call("GET", "/cypher/queries", lambda r: parse(r).queries, idempotent=True)


def run_query(
    name: str, params: Mapping[str, Any] | None, scopes: Sequence[str] | None, limit: int | None
) -> Call[CypherResult]:
    """``POST /v1/cypher/queries/{name}``."""
    path = f"/cypher/queries/{_segment(name)}"
    body = _query_body(params, scopes, limit=limit)
    return Call("POST", path, model_parser(CypherResult), json=body, idempotent=True)
