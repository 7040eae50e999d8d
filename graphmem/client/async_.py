"""The asyncio Python client of graphmem's REST API."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping, Sequence
from datetime import date, datetime
from types import TracebackType
from typing import Any, Literal, Self, TypeVar, overload

import httpx

from graphmem.agenda.models import FutureTrigger
from graphmem.agents.models import AgentQuery, CypherResult
from graphmem.api.schemas import BatchResponse, ExtractRequest, QueuedBatch, TurnRequest, WriteJobStatus
from graphmem.client import _calls as calls
from graphmem.client._calls import BatchItem, build
from graphmem.client._retry import RetryPolicy, delay_after_exception, delay_after_response
from graphmem.client._transport import Call, api_base, client_headers, error_from_response, unreachable
from graphmem.consolidate.models import ConsolidateRequest, ConsolidationReport, HealthDetail, JobName
from graphmem.conversations.models import Conversation, FlushResult, Role, SessionContext, TurnResult
from graphmem.models import (
    DecisionRecord,
    ExtractResult,
    Feedback,
    FeedbackResult,
    ForgetFilter,
    HealthReport,
    Layer,
    MemoryDetail,
    MemoryInput,
    MemoryPatch,
    MemoryRecord,
    RecallQuery,
    RecallResult,
    WriteResult,
)
from graphmem.scopetree import ScopeNode

T = TypeVar("T")
Intent = Literal["decision", "research", "tasks", "chat"]


class AsyncClient:
    """graphmem over HTTP for asyncio: :class:`~graphmem.client.Client` with ``await``-able methods.

    ``AsyncClient("http://127.0.0.1:8000", api_key="...")``; use it with ``async with`` or await
    :meth:`close`. Arguments are validated before sending (InvalidInputError, as the server would).
    Errors, retries (which requests are resent, and when) and ``transport`` / ``sleep`` (an async
    function, for tests) are as for :class:`~graphmem.client.Client`.
    """

    def __init__(
        self,
        url: str,
        api_key: str | None = None,
        *,
        timeout: float = 30.0,
        retries: int = 3,
        retry: RetryPolicy | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.base_url = api_base(url)
        self._policy = retry or RetryPolicy(retries=retries)
        self._sleep = sleep
        self._http = httpx.AsyncClient(
            base_url=self.base_url, headers=client_headers(api_key), timeout=timeout, transport=transport
        )

    def __repr__(self) -> str:
        return f"AsyncClient({self.base_url!r})"

    async def close(self) -> None:
        """Close the connection pool."""
        await self._http.aclose()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, error: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.close()

    async def _call(self, call: Call[T]) -> T:
        attempt = 0
        while True:
            delay: float | None
            try:
                response = await self._http.request(
                    call.method, call.path, json=call.json, params=call.params
                )
            except httpx.TransportError as e:
                delay = delay_after_exception(e, attempt, self._policy, call.idempotent)
                if delay is None:
                    raise unreachable(e, call, self.base_url, attempt + 1) from e
            else:
                if response.is_success or response.status_code in call.answers:
                    return call.parse(response)
                delay = delay_after_response(response, attempt, self._policy, call.idempotent)
                if delay is None:
                    raise error_from_response(response)
            await self._sleep(delay)
            attempt += 1

    # Memories

    async def remember(
        self,
        text: str,
        *,
        scope: str | None = None,
        categories: list[str] | None = None,
        importance: float | None = None,
        occurred_at: datetime | None = None,
        source: str | None = None,
        metadata: dict[str, Any] | None = None,
    ) -> WriteResult:
        """Remember one text; ``actions`` says what the write did (created, reinforced, superseded:<id>)."""
        item = build(
            MemoryInput,
            text=text,
            scope=scope,
            categories=categories,
            importance=importance,
            occurred_at=occurred_at,
            source=source,
            metadata=metadata,
        )
        return await self._call(calls.remember(item))

    @overload
    async def remember_batch(
        self, items: Sequence[BatchItem], background: Literal[False] = False
    ) -> BatchResponse: ...
    @overload
    async def remember_batch(self, items: Sequence[BatchItem], background: Literal[True]) -> QueuedBatch: ...
    @overload
    async def remember_batch(
        self, items: Sequence[BatchItem], background: bool
    ) -> BatchResponse | QueuedBatch: ...
    async def remember_batch(
        self, items: Sequence[BatchItem], background: bool = False
    ) -> BatchResponse | QueuedBatch:
        """Remember up to 1000 items in one transaction (results in input order).

        With ``background=True`` the batch is queued and a :class:`QueuedBatch` returned at once;
        follow it with :meth:`batch_job`. Items are MemoryInput, texts, or dicts like the REST body.
        """
        if background:
            return await self._call(calls.remember_background(items))
        return await self._call(calls.remember_batch(items))

    async def batch_job(self, job_id: str) -> WriteJobStatus:
        """What became of a background batch; NotFoundError if the id is unknown."""
        return await self._call(calls.batch_job(job_id))

    async def get(self, memory_id: str) -> MemoryDetail:
        """One memory with its SUPERSEDES history and derived_from ids; NotFoundError if unknown."""
        return await self._call(calls.get(memory_id))

    async def update(
        self,
        memory_id: str,
        patch: MemoryPatch | None = None,
        *,
        text: str | None = None,
        scope: str | None = None,
        categories: list[str] | None = None,
        importance: float | None = None,
        metadata: dict[str, Any] | None = None,
        pinned: bool | None = None,
    ) -> MemoryRecord:
        """Change fields of a memory (a MemoryPatch, or the fields as keywords); NotFoundError if unknown."""
        if patch is None:
            patch = build(
                MemoryPatch,
                text=text,
                scope=scope,
                categories=categories,
                importance=importance,
                metadata=metadata,
                pinned=pinned,
            )
        return await self._call(calls.update(memory_id, patch))

    async def delete(self, memory_id: str) -> None:
        """Delete one memory and its edges; NotFoundError if unknown."""
        await self._call(calls.delete(memory_id))

    async def forget(
        self,
        what: ForgetFilter | None = None,
        *,
        ids: list[str] | None = None,
        scope: str | None = None,
        categories: list[str] | None = None,
        older_than: datetime | None = None,
    ) -> int:
        """Delete every memory matching all given filters; returns how many were deleted."""
        if what is None:
            what = build(ForgetFilter, ids=ids, scope=scope, categories=categories, older_than=older_than)
        return await self._call(calls.forget(what))

    # Recall, feedback, extraction, decisions

    async def recall(
        self,
        query: str | RecallQuery,
        *,
        scope: str | None = None,
        scopes: list[str] | None = None,
        limit: int | None = None,
        layers: list[Layer] | None = None,
        include_superseded: bool | None = None,
        recent_context: list[str] | None = None,
        intent: Intent | None = None,
        as_of: datetime | None = None,
        reinforce: bool | None = None,
        categories: list[str] | None = None,
    ) -> RecallResult:
        """The memories that best answer ``query``, with a confidence and the evidence gaps."""
        if isinstance(query, str):
            query = build(
                RecallQuery,
                query=query,
                scope=scope,
                scopes=scopes,
                limit=limit,
                layers=layers,
                include_superseded=include_superseded,
                recent_context=recent_context,
                intent=intent,
                as_of=as_of,
                reinforce=reinforce,
                categories=categories,
            )
        return await self._call(calls.recall(query))

    async def feedback(
        self, response: str, injected_ids: list[str], used_ids: list[str] | None = None
    ) -> FeedbackResult:
        """Echo/fizzle: memories the answer used gain retrieval priority, ignored ones lose a little."""
        what = build(Feedback, response=response, injected_ids=injected_ids, used_ids=used_ids)
        return await self._call(calls.feedback(what))

    async def extract(
        self, text: str, *, store: bool = False, scope: str | None = None, speaker: str | None = None
    ) -> ExtractResult:
        """The atomic facts in ``text``; with ``store`` each is also remembered under ``scope``."""
        request = build(ExtractRequest, text=text, store=store, scope=scope, speaker=speaker)
        return await self._call(calls.extract(request))

    async def decisions(
        self, *, topic: str | None = None, domain: str | None = None, scope: str | None = None
    ) -> list[DecisionRecord]:
        """Decisions matching a topic, domain and scope, newest first (superseded ones included)."""
        return await self._call(calls.decisions(topic, domain, scope))

    # Conversations and sessions

    async def record_turn(
        self,
        session_id: str,
        role: Role,
        text: str,
        *,
        user: str | None = None,
        scope: str | None = None,
        at: datetime | None = None,
        max_llm_calls: int | None = None,
    ) -> TurnResult:
        """Record one turn of a conversation (created on its first turn); reviews run on the server."""
        turn = build(
            TurnRequest, role=role, text=text, user=user, scope=scope, at=at, max_llm_calls=max_llm_calls
        )
        return await self._call(calls.record_turn(session_id, turn))

    async def end_conversation(self, session_id: str) -> FlushResult:
        """End a conversation: its pending turns are reviewed and stored now, then it is closed."""
        return await self._call(calls.end_conversation(session_id))

    async def conversation(self, session_id: str) -> Conversation:
        """A conversation's state; NotFoundError if unknown."""
        return await self._call(calls.conversation(session_id))

    async def session_start(
        self,
        user: str,
        *,
        scope: str | None = None,
        core_limit: int = 20,
        on: date | None = None,
        due_window_days: int | None = None,
        profile_chars: int | None = None,
    ) -> SessionContext:
        """What to load at session start: lessons, core facts, the memories due ``on`` (default
        today) and the core profile within ``profile_chars`` characters."""
        return await self._call(
            calls.session_start(user, scope, core_limit, on, due_window_days, profile_chars)
        )

    async def triggers(
        self, *, scope: str | None = None, start: date | None = None, end: date | None = None
    ) -> list[FutureTrigger]:
        """Forward triggers due from ``start`` to ``end`` (both included) about current memories."""
        return await self._call(calls.triggers(scope, start, end))

    async def scopes(self, under: str = "/") -> ScopeNode:
        """The scope tree below ``under`` with memory counts per scope and per branch."""
        return await self._call(calls.scopes(under))

    # Operations

    async def health(self) -> HealthReport:
        """Whether the server and its Neo4j are up, with counts (an unreachable Neo4j is a report too)."""
        return await self._call(calls.health())

    async def health_report(self) -> HealthDetail:
        """Memories per layer, status and category, staleness, weekly growth and consolidation job runs."""
        return await self._call(calls.health_report())

    async def consolidate(self, jobs: Sequence[JobName] | None = None) -> ConsolidationReport:
        """Run consolidation jobs now (``nightly``, ``weekly``, ``monthly``; None: all three).

        JobBusyError (409) when another process runs every job asked for.
        """
        request = build(ConsolidateRequest, jobs=None if jobs is None else list(jobs))
        return await self._call(calls.consolidate(request))

    # Graph queries for agents

    async def cypher(
        self,
        query: str,
        params: Mapping[str, Any] | None = None,
        *,
        scopes: Sequence[str] | None = None,
        limit: int | None = None,
        timeout: float | None = None,
    ) -> CypherResult:
        """Run one read-only Cypher statement with ``$parameters``, confined to ``scopes`` (also ``$scopes``).

        ForbiddenQueryError (403) when it could write or calls what is not allowed, InvalidQueryError
        (400) when Neo4j cannot run it, QueryTimeoutError (408) past ``timeout`` seconds.
        """
        return await self._call(calls.cypher(query, params, scopes, limit, timeout))

    async def cypher_queries(self) -> list[AgentQuery]:
        """The ready-made read queries: name, what each returns, the parameters it takes."""
        return await self._call(calls.cypher_queries())

    async def run_query(
        self,
        name: str,
        params: Mapping[str, Any] | None = None,
        *,
        scopes: Sequence[str] | None = None,
        limit: int | None = None,
    ) -> CypherResult:
        """Run a ready-made query by name; NotFoundError for an unknown name."""
        return await self._call(calls.run_query(name, params, scopes, limit))
