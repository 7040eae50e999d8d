"""The Memory facade: the one object agents use; it owns every operation, storage stays hidden."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Sequence
from datetime import date, datetime, timedelta
from functools import partial
from typing import Any

import networkx as nx

from graphmem.agenda.models import CoreProfile, FutureTrigger
from graphmem.agenda.profile import DEFAULT_PROFILE_CHARS, ProfileBuilder
from graphmem.agenda.triggers import DEFAULT_DUE_WINDOW_DAYS, TriggerLinking, TriggerStore
from graphmem.agents.models import AgentQuery, CypherResult
from graphmem.agents.readonly import DEFAULT_ROW_LIMIT, DEFAULT_TIMEOUT_SECONDS, ReadOnlyCypher
from graphmem.beliefs.change_cue import ChangeCue
from graphmem.beliefs.relation import RelationJudge
from graphmem.beliefs.resolver import BeliefChecker, BeliefSettings
from graphmem.beliefs.statements import speaker_in
from graphmem.clock import Clock
from graphmem.consolidate.context import Progress, no_progress
from graphmem.consolidate.jobs import Consolidator
from graphmem.consolidate.models import ConsolidationReport, HealthDetail, JobName
from graphmem.consolidate.report import health_detail
from graphmem.consolidate.scheduler import ConsolidationScheduler
from graphmem.consolidate.settings import ConsolidationSettings
from graphmem.conversations.models import (
    Conversation,
    FlushResult,
    ReviewOutcome,
    Role,
    SessionContext,
    TurnResult,
)
from graphmem.conversations.sessions import DEFAULT_NUDGE_EVERY, conversation_sessions
from graphmem.decisions.recorder import DecisionRecorder
from graphmem.embedding.base import Embedder
from graphmem.entities.episodes import EpisodeSource, EpisodeWorker
from graphmem.entities.linker import EntityLinker
from graphmem.errors import (
    DatabaseUnavailableError,
    GraphmemError,
    JobBusyError,
    NotFoundError,
    ScopeForbiddenError,
)
from graphmem.graph.subgraph import subgraph
from graphmem.keys import ApiKeys
from graphmem.llm.base import LLM
from graphmem.llm.budget import BudgetedLLM
from graphmem.llm.none import NoLLM
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
from graphmem.recall.budget import SUB_QUERIES, tight_budget, within_budget
from graphmem.recall.feedback import FeedbackLoop
from graphmem.recall.reinforce import RetrievalReinforcer
from graphmem.recall.search import Recaller, RecallSettings
from graphmem.scopes import confine, normalize_scope, require_visible
from graphmem.scopetree import ScopeNode, scope_tree
from graphmem.store.consolidation import ConsolidationStore
from graphmem.store.consolidation_requests import ConsolidationRequestStore
from graphmem.store.decisions import DecisionStore
from graphmem.store.entities import EntityStore
from graphmem.store.executor import QueryExecutor
from graphmem.store.idempotency import IdempotencyStore
from graphmem.store.keys import ApiKeyStore
from graphmem.store.memories import MemoryDynamicsStore, MemoryStore
from graphmem.store.schema import apply_schema, check_embedding_model
from graphmem.store.search import SearchStore
from graphmem.store.write_jobs import WriteJobStore
from graphmem.tenancy import (
    check_writable,
    confined,
    current_allowed,
    current_writable,
    narrow_to,
    within,
    writes_refused,
)
from graphmem.write.extract import FactExtractor, check_extract_input
from graphmem.write.fields import FieldInference
from graphmem.write.group import GroupCommit
from graphmem.write.links import DecisionRecording, EntityLinking
from graphmem.write.queue import RECALL_DRAIN_TIMEOUT, WriteJob, WriteQueue
from graphmem.write.remember import GraphLinker, RememberPipeline, WriteLimits, check_inputs

log = logging.getLogger(__name__)

# The nightly job turns the pending turns of conversations idle this long into memories.
NIGHTLY_FLUSH_IDLE = timedelta(minutes=30)


class Memory:
    """Long-term memory in a Neo4j graph: remember, recall, inspect, correct and forget.

    Build it with :func:`graphmem.open_memory` (from settings) or directly from its parts.
    Every method raises a :class:`graphmem.errors.GraphmemError` subclass on failure.

    Tenancy: the operations take ``allowed``, the scopes the caller may touch (an API key's
    binding; None: all). Inside, every query that reads or writes memories filters on them in
    Cypher (``$allowed``, see :mod:`graphmem.tenancy`): a memory outside them answers as an
    unknown id, and a write into a scope outside them raises ScopeForbiddenError.
    """

    def __init__(
        self,
        executor: QueryExecutor,
        embedder: Embedder,
        clock: Clock,
        llm: LLM | None = None,
        limits: WriteLimits | None = None,
        beliefs: BeliefSettings | None = None,
        episodes: EpisodeWorker | None = None,
        recall: RecallSettings | None = None,
        consolidation: ConsolidationSettings | None = None,
    ) -> None:
        self._executor = executor
        self._embedder = embedder
        self._clock = clock
        self._llm: LLM = BudgetedLLM(llm or NoLLM())  # X6: a review under budget skips the model
        self._limits = limits or WriteLimits()
        self._store = MemoryStore(executor)
        dynamics = MemoryDynamicsStore(executor)
        self._feedback = FeedbackLoop(dynamics)
        self._reinforcer = RetrievalReinforcer(dynamics, clock)
        self._episodes = episodes
        checker = BeliefChecker(self._llm, beliefs, RelationJudge(embedder), ChangeCue(embedder), embedder)
        self._trigger_linking = TriggerLinking()
        linkers: list[GraphLinker] = [
            # Offline entity extraction on the write path (no model call per write); with a model
            # configured, graphiti extracts entities and facts from the same memories afterwards.
            EntityLinking(EntityLinker(NoLLM(), embedder, EntityStore(executor), clock=clock)),
            DecisionRecording(DecisionRecorder(self._llm, embedder, DecisionStore(executor), clock=clock)),
            self._trigger_linking,  # W10: a memory naming a future day gets a FutureTrigger
        ]
        self._writer = RememberPipeline(
            self._store, embedder, clock, self._limits, checker, FieldInference(self._llm), linkers
        )
        # Concurrent writes share a transaction; not with a model, whose one call per batch would
        # then label several callers' items together (and charge them to one of them).
        self._group = (
            None
            if self._llm.available
            else GroupCommit(self._writer.remember, max_items=self._limits.max_batch_items)
        )
        self._triggers = TriggerStore(executor)
        self._profiles = ProfileBuilder(executor)
        self._recaller = Recaller(SearchStore(executor), embedder, recall, clock)
        self._extractor = FactExtractor(self._llm)
        self._sessions = conversation_sessions(executor, self._llm, self.remember_batch, clock, self._limits)
        self._write_queue = WriteQueue(self.remember_batch, journal=WriteJobStore(executor, clock))
        self._ready = False
        self._needs_reembed = False
        self._consolidator = Consolidator(
            executor,
            embedder,
            self._llm,
            clock,
            consolidation,
            flush_conversations=lambda: self.flush_idle_conversations(NIGHTLY_FLUSH_IDLE),
            needs_reembed=lambda: self._needs_reembed,
            on_reembedded=self._reembedded,
        )
        self._lock = threading.Lock()
        self.idempotency = IdempotencyStore(executor)  # the API's Idempotency-Key records

    def prepare(self) -> None:
        """Apply the schema and check the embedder against the graph (idempotent, done once)."""
        if self._ready:
            return
        with self._lock:
            if self._ready:
                return
            apply_schema(self._executor)
            self._needs_reembed = check_embedding_model(
                self._executor, self._embedder.model_name, self._embedder.dimension
            )
            self._ready = True

    def remember(
        self,
        text: str,
        *,
        scope: str | None = None,
        categories: list[str] | None = None,
        importance: float | None = None,
        occurred_at: datetime | None = None,
        source: str | None = None,
        metadata: dict[str, Any] | None = None,
        allowed: Sequence[str] | None = None,
    ) -> WriteResult:
        """Remember one text as an episodic memory (or reinforce its stored near-duplicate)."""
        item = MemoryInput(
            text=text,
            scope=scope,
            categories=categories,
            importance=importance,
            occurred_at=occurred_at,
            source=source,
            metadata=metadata,
        )
        return self.remember_batch([item], allowed=allowed)[0]

    def remember_batch(
        self, items: Sequence[MemoryInput], *, allowed: Sequence[str] | None = None
    ) -> list[WriteResult]:
        """Remember many items in one transaction; results in input order.

        Raises ScopeForbiddenError when an item's scope lies outside ``allowed``."""
        check_inputs(items, self._limits)
        with confined(allowed):
            for item in items:
                check_writable(item.scope)
            self.prepare()
            if self._group is None:
                results = self._writer.remember(items)
            else:
                results = self._group.write(items, None if allowed is None else tuple(allowed))
        if self._episodes is not None:  # graphiti, with a model: after the commit, off the write path
            self._episodes.submit(
                [
                    EpisodeSource(
                        r.memory.id,
                        r.memory.text,
                        r.memory.scope,
                        r.memory.occurred_at,
                        speaker_in(item.metadata),
                    )
                    for item, r in zip(items, results, strict=True)
                    if r.actions[:1] == ["created"]
                ]
            )
        return results

    def recall(
        self,
        query: str,
        *,
        scope: str | None = None,
        limit: int = 10,
        layers: list[Layer] | None = None,
        include_superseded: bool = False,
        reinforce: bool = True,
        max_tokens: int | None = None,
        categories: list[str] | None = None,
        allowed: Sequence[str] | None = None,
    ) -> RecallResult:
        """The memories that best answer ``query`` (current beliefs only unless asked); with
        ``reinforce=False`` it only looks, and strengthens nothing it returns; with ``categories``
        only memories holding one of them (X5 domain filter)."""
        request = RecallQuery(
            query=query,
            scope=scope,
            limit=limit,
            layers=layers,
            include_superseded=include_superseded,
            reinforce=reinforce,
            max_tokens=max_tokens,
            categories=categories,
        )
        return self.recall_query(request, allowed=allowed)

    def prefetch_recall(self, request: RecallQuery) -> None:
        """Start computing the query vector of ``request`` in the background, for a
        :meth:`recall_query` of it that follows (a server calls this as the request arrives).
        Reads nothing and raises nothing: an embedding error surfaces in the recall."""
        self._recaller.prefetch(request)

    def recall_query(self, request: RecallQuery, *, allowed: Sequence[str] | None = None) -> RecallResult:
        """Recall from a prepared :class:`RecallQuery` (after pending background writes of its scope),
        cut to ``max_tokens`` and with its ``cost`` (X6).

        With ``allowed``, a broader scope asked for (``/``, ``/user``) is narrowed to the allowed
        ones, and the queries read nothing outside them."""
        started = time.perf_counter()
        if not self._write_queue.drain(request.scope, RECALL_DRAIN_TIMEOUT):
            log.warning("recall proceeds while background writes to %s are still pending", request.scope)
        self.prepare()
        with confined(allowed):
            answer = self._recaller.recall(_narrowed(request, current_allowed()))
        skipped = [SUB_QUERIES] if tight_budget(request.max_tokens, request.limit) else []
        answer = within_budget(answer, request.max_tokens, (time.perf_counter() - started) * 1000, skipped)
        if request.reinforce:
            self._reinforcer.submit(answer.results)  # D2 + D3, off the request path
        return answer

    def feedback(self, feedback: Feedback, *, allowed: Sequence[str] | None = None) -> FeedbackResult:
        """R7: echo (used memories gain priority) and fizzle (ignored ones lose a little); ids
        outside ``allowed`` are skipped like unknown ones."""
        self.prepare()
        with confined(allowed):
            return self._feedback.apply(feedback)

    def settle(self) -> None:
        """Wait for background reinforcement of recalled memories (tests and shutdown)."""
        self._reinforcer.flush()

    def get(self, memory_id: str, *, allowed: Sequence[str] | None = None) -> MemoryDetail:
        """One memory with its SUPERSEDES history and lineage; NotFoundError if unknown (or outside
        ``allowed``)."""
        self.prepare()
        with confined(allowed):
            return self._store.get(memory_id)

    def update(
        self, memory_id: str, patch: MemoryPatch, *, allowed: Sequence[str] | None = None
    ) -> MemoryRecord:
        """Change fields of a memory (a new text is re-embedded and its forward triggers are
        computed again); NotFoundError if unknown (or outside ``allowed``), ScopeForbiddenError
        when moving it outside ``allowed``."""
        if patch.text is not None:
            check_inputs([MemoryInput(text=patch.text)], self._limits)
        with confined(allowed):
            if patch.scope is not None:
                check_writable(patch.scope)
            self.prepare()
            embedding = None if patch.text is None else self._embedder.embed_one(patch.text).tolist()
            now = self._clock.now()
            retrigger = None if patch.text is None else partial(self._trigger_linking.replace, now=now)
            try:
                return self._store.update(memory_id, patch, embedding, now, retrigger)
            except NotFoundError:
                self._refuse_if_readable(memory_id)
                raise

    def delete(self, memory_id: str, *, allowed: Sequence[str] | None = None) -> None:
        """Delete one memory and its edges; NotFoundError if unknown (or outside ``allowed``)."""
        self.prepare()
        with confined(allowed):
            try:
                self._store.delete(memory_id)
            except NotFoundError:
                self._refuse_if_readable(memory_id)
                raise

    def _refuse_if_readable(self, memory_id: str) -> None:
        """X5: a memory the caller reads but may not change (another agent's space of its tenant)
        is ScopeForbiddenError, not an unknown id; returns when it is unknown to the caller too."""
        if current_allowed() == current_writable():
            return
        try:
            scope = self._store.get(memory_id).scope
        except NotFoundError:
            return
        raise ScopeForbiddenError(writes_refused(scope, current_writable() or []))

    def forget(self, what: ForgetFilter, *, allowed: Sequence[str] | None = None) -> int:
        """Delete every memory matching all given filters (and inside ``allowed``); returns how many."""
        self.prepare()
        with confined(allowed):
            return self._store.forget(what)

    def health(self) -> HealthReport:
        """Whether Neo4j answers, with counts; never raises for an unreachable database."""
        embedding = {"model": self._embedder.model_name, "dimension": self._embedder.dimension}
        try:
            self._executor.ping()
            self.prepare()
            counts = self._store.counts()
        except DatabaseUnavailableError as e:
            return HealthReport(
                status="unavailable",
                neo4j={"reachable": False, "error": str(e)},
                counts={},
                embedding=embedding,
            )
        embedding["needs_reembed"] = self._needs_reembed
        status = "degraded" if self._needs_reembed else "ok"
        return HealthReport(status=status, neo4j={"reachable": True}, counts=counts, embedding=embedding)

    # Consolidation (C1-C8).

    def consolidate(
        self,
        jobs: Sequence[JobName] | None = None,
        *,
        progress: Progress = no_progress,
        trigger: str = "manual",
        allowed: Sequence[str] | None = None,
    ) -> ConsolidationReport:
        """Run consolidation jobs now (default nightly, weekly and monthly), overdue or not.

        ``progress(step, done, total)`` is called as steps advance. Raises JobBusyError when every
        job asked for is running in another process, ScopeForbiddenError for a caller confined
        to scopes (consolidation works on the whole graph: an operator's task).
        """
        _operator_only(allowed, "Consolidation")
        self.prepare()
        report = self._consolidator.run(jobs, trigger=trigger, progress=progress)
        if report.runs and all(r.status == "busy" for r in report.runs):
            names = ", ".join(r.job for r in report.runs)
            raise JobBusyError(f"{names} already running in another process; retry when it has finished.")
        return report

    def check_operator(self, allowed: Sequence[str] | None, what: str) -> None:
        """ScopeForbiddenError when ``allowed`` confines the caller to scopes: ``what`` covers every
        tenant's memories (consolidation, the health report)."""
        _operator_only(allowed, what)

    def run_overdue_jobs(self, trigger: str = "heartbeat") -> ConsolidationReport:
        """Run every job whose last run is older than its interval ("never assume cron ran")."""
        self.prepare()
        return self._consolidator.run_overdue(trigger=trigger)

    def consolidation_schedule(self, interval: timedelta) -> ConsolidationScheduler:
        """A heartbeat (not yet started) that runs overdue jobs at start and every ``interval``."""
        return ConsolidationScheduler(self.run_overdue_jobs, interval)

    def health_report(self, *, allowed: Sequence[str] | None = None) -> HealthDetail:
        """Active / archived / cold counts per layer and category, staleness, growth, job runs.

        Raises ScopeForbiddenError for a caller confined to scopes (it counts every tenant's)."""
        _operator_only(allowed, "The health report")
        self.prepare()
        return health_detail(ConsolidationStore(self._executor), self._consolidator)

    def _reembedded(self) -> None:
        self._needs_reembed = False

    # Conversations (W8 nudge, W9 lessons, W11 flush, W13 core profile) and background writes (W12).

    def record_turn(
        self,
        session_id: str,
        role: Role,
        text: str,
        *,
        user: str | None = None,
        scope: str | None = None,
        at: datetime | None = None,
        nudge_every: int = DEFAULT_NUDGE_EVERY,
        max_llm_calls: int | None = None,
        allowed: Sequence[str] | None = None,
    ) -> TurnResult:
        """Record a turn; when ``review_scheduled``, run :meth:`review_conversation` after replying.

        Memories go to ``scope``, default ``/user/<user>``, else ``/conversations/<session_id>``.
        Raises NotFoundError for a conversation outside ``allowed``, ScopeForbiddenError when a new
        conversation's scope lies outside them.
        """
        self.prepare()
        with confined(allowed):
            try:
                return self._sessions.record_turn(
                    session_id,
                    role,
                    text,
                    user=user,
                    scope=scope,
                    at=at,
                    nudge_every=nudge_every,
                    max_llm_calls=max_llm_calls,
                )
            except NotFoundError:
                self._sessions.check_writable_conversation(session_id)
                raise

    def review_conversation(self, session_id: str, *, offline: bool = False) -> ReviewOutcome | None:
        """The memory nudge: store what the pending turns hold (``offline``: without the language
        model, X6). Never raises; None when it failed."""
        try:
            self.prepare()
        except GraphmemError as e:
            log.warning("memory review of %s skipped: %s", session_id, e)
            return None
        return self._sessions.review_quietly(session_id, offline=offline)

    def end_conversation(self, session_id: str, *, allowed: Sequence[str] | None = None) -> FlushResult:
        """Flush the pending turns into memories and close the conversation; NotFoundError if
        unknown (or outside ``allowed``)."""
        self.prepare()
        with confined(allowed):
            self._sessions.check_writable_conversation(session_id)
            return self._sessions.end(session_id)

    def conversation(self, session_id: str, *, allowed: Sequence[str] | None = None) -> Conversation:
        """A conversation's state (open, counters); NotFoundError if unknown (or outside ``allowed``)."""
        self.prepare()
        with confined(allowed):
            return self._sessions.get(session_id)

    def flush_idle_conversations(self, idle: timedelta) -> int:
        """End open conversations idle for longer than ``idle`` (a crash's leftovers); never raises."""
        try:
            self.prepare()
        except GraphmemError as e:
            log.warning("idle conversations not flushed: %s", e)
            return 0
        return self._sessions.flush_idle(idle)

    def session_start(
        self,
        user: str,
        *,
        scope: str | None = None,
        core_limit: int = 20,
        on: date | None = None,
        due_window_days: int = DEFAULT_DUE_WINDOW_DAYS,
        profile_chars: int = DEFAULT_PROFILE_CHARS,
        allowed: list[str] | None = None,
    ) -> SessionContext:
        """What to load at session start (scope default ``/user/<user>``): lessons, core facts, the
        memories due ``on`` (default today) or overdue by at most ``due_window_days`` (W10), and
        the core profile within ``profile_chars`` characters (W13), read within ``allowed`` scopes.

        Raises InvalidInputError for a bad user, scope, window or budget.
        """
        self.prepare()
        with confined(allowed):
            context = self._sessions.session_start(user, scope=scope, core_limit=core_limit)
        allowed = confine(allowed)
        require_visible(context.scope, allowed)
        day = on or self._clock.now().date()
        due = self._triggers.due(day, window_days=due_window_days, scope=context.scope, allowed=allowed)
        profile = self._profiles.profile(
            context.scope, chars=profile_chars, allowed=allowed, now=self._clock.now()
        )
        return context.model_copy(update={"due": due, "profile": profile})

    def profile(
        self, scope: str, *, chars: int = DEFAULT_PROFILE_CHARS, allowed: list[str] | None = None
    ) -> CoreProfile:
        """W13 on demand: the core profile of the ``scope`` subtree from its current memories."""
        self.prepare()
        where, allowed = normalize_scope(scope), confine(allowed)
        require_visible(where, allowed)
        return self._profiles.profile(where, chars=chars, allowed=allowed, now=self._clock.now())

    def triggers(
        self,
        *,
        scope: str | None = None,
        start: date | None = None,
        end: date | None = None,
        allowed: list[str] | None = None,
    ) -> list[FutureTrigger]:
        """W10: forward triggers due from ``start`` to ``end`` (both included; None: open) about
        current memories of the ``scope`` subtree, soonest first. InvalidInputError if end < start."""
        self.prepare()
        where, allowed = normalize_scope(scope), confine(allowed)
        require_visible(where, allowed)
        return self._triggers.between(start, end, scope=where, allowed=allowed)

    def scope_tree(self, under: str | None = None, *, allowed: list[str] | None = None) -> ScopeNode:
        """R8: the scope hierarchy below ``under`` (default ``/``) with memory counts per scope and
        per branch, by layer and status, within ``allowed`` scopes (None: all). Raises
        InvalidInputError for a bad path, NotFoundError for a scope outside ``allowed``."""
        self.prepare()
        return scope_tree(self._executor, under, allowed)

    def subgraph(
        self, scope: str | None = None, *, as_of: datetime | None = None, allowed: list[str] | None = None
    ) -> nx.MultiDiGraph:
        """The ``scope`` subtree's memories, entities and decisions with their edges (no embeddings)
        as a ``networkx.MultiDiGraph``, as it stood at ``as_of`` (None: now). Raises
        InvalidInputError for a bad scope, NotFoundError for a scope outside ``allowed``."""
        self.prepare()
        return subgraph(self._executor, scope, as_of, allowed)

    def remember_background(
        self, items: Sequence[MemoryInput], *, allowed: Sequence[str] | None = None
    ) -> WriteJob:
        """Validate a batch, record it in the graph and write it in the background; recall waits for
        it (same scope). A crash loses nothing: the next start resumes it.

        Raises what validation raises, ScopeForbiddenError for an item outside ``allowed``,
        WriteQueueFullError when too many jobs are waiting, and DatabaseUnavailableError when it
        cannot be recorded (then it was not accepted).
        """
        check_inputs(items, self._limits)
        with confined(allowed):
            for item in items:
                check_writable(item.scope)
        self.prepare()
        return self._write_queue.submit(items)

    def resume_background_writes(self) -> int:
        """Queue the background batches a dead process accepted but never wrote; returns how many."""
        self.prepare()
        return self._write_queue.resume()

    def write_job(self, job_id: str, *, allowed: Sequence[str] | None = None) -> WriteJob:
        """A background write's state; NotFoundError if unknown, or if it wrote outside ``allowed``."""
        job = self._write_queue.job(job_id)
        with confined(allowed):
            scopes = current_allowed()
        if not all(within(s, scopes) for s in job.scopes):
            raise NotFoundError(f"No background write job has id {job_id!r}.")
        return job

    def drain_writes(self, scope: str | None = None, timeout: float = RECALL_DRAIN_TIMEOUT) -> bool:
        """Wait for pending background writes under ``scope`` (None: all); False if ``timeout`` ran out."""
        return self._write_queue.drain(scope, timeout)

    def extract(
        self,
        text: str,
        *,
        store: bool = False,
        scope: str | None = None,
        speaker: str | None = None,
        allowed: Sequence[str] | None = None,
    ) -> ExtractResult:
        """W2: the atomic, self-contained facts in ``text`` (I/my as ``speaker``, else 'the user').

        With ``store``, each fact is remembered under ``scope`` in one batch (belief updates run).
        Raises InvalidInputError for blank text or a bad scope, TextTooLongError over the limit.
        """
        scope = check_extract_input(text, scope, self._limits.max_text_bytes)
        if store:
            with confined(allowed):
                check_writable(scope)
        facts, usage = self._extractor.extract(text, speaker=speaker)
        stored: list[WriteResult] | None = None
        if store:
            items = [
                MemoryInput(
                    text=f.text, scope=scope, categories=f.categories or None, importance=f.importance
                )
                for f in facts
            ]
            stored = self.remember_batch(items, allowed=allowed) if items else []
        calls = usage.calls + sum(r.llm_calls for r in stored or [])
        return ExtractResult(facts=[f.text for f in facts], stored=stored, llm_calls=calls)

    def decisions(
        self,
        *,
        topic: str | None = None,
        domain: str | None = None,
        scope: str | None = None,
        allowed: Sequence[str] | None = None,
    ) -> list[DecisionRecord]:
        """W7: the decision ledger of the ``scope`` subtree, newest first, superseded ones included.

        ``topic`` matches decisions whose text, choice or reasoning holds each of its words
        (case-insensitive); ``domain`` one of engineering, infra, product, hiring, finance,
        marketing, personal, general. Raises InvalidInputError for a bad scope.
        """
        self.prepare()
        with confined(allowed):
            return DecisionStore(self._executor).find(topic=topic, domain=domain, scope=scope)

    def consolidation_requests(self) -> ConsolidationRequestStore:
        """Background consolidation requests kept in the graph (POST /v1/consolidate's run ids)."""
        return ConsolidationRequestStore(self._executor)

    def api_keys(self) -> ApiKeys:
        """The stored API keys (``graphmem keys``): create, list, revoke."""
        return ApiKeys(ApiKeyStore(self._executor), self._clock)

    # X4: graph queries from agents (rules and limits in graphmem.agents.readonly).

    def read_query(
        self,
        query: str,
        params: dict[str, Any] | None = None,
        scopes: list[str] | None = None,
        *,
        limit: int = DEFAULT_ROW_LIMIT,
        timeout: float = DEFAULT_TIMEOUT_SECONDS,
        graph_only: bool = False,
    ) -> CypherResult:
        """Run an agent's read-only Cypher in ``scopes`` (default ``/``, passed as ``$scopes``).

        Rows holding a node or edge outside the scopes are withheld; ``graph_only`` refuses plain
        values, which carry no scope to check. Raises ForbiddenQueryError for a query that could
        write or calls a procedure outside the allow-list, InvalidQueryError when Neo4j rejects
        it, QueryTimeoutError past ``timeout`` seconds, InvalidInputError for bad arguments.
        """
        self.prepare()
        return ReadOnlyCypher(self._executor).run(
            query, params, scopes, limit=limit, timeout=timeout, graph_only=graph_only
        )

    def agent_queries(self) -> list[AgentQuery]:
        """The ready-made read queries agents can run with :meth:`agent_query`."""
        return ReadOnlyCypher(self._executor).ready_made()

    def agent_query(
        self,
        name: str,
        params: dict[str, Any] | None = None,
        scopes: list[str] | None = None,
        *,
        limit: int = DEFAULT_ROW_LIMIT,
    ) -> CypherResult:
        """Run the ready-made query ``name`` (see :meth:`agent_queries`) in ``scopes`` (default ``/``).

        Raises NotFoundError for an unknown name, InvalidInputError when ``params`` do not match.
        """
        self.prepare()
        return ReadOnlyCypher(self._executor).run_ready_made(name, params, scopes, limit=limit)


def _operator_only(allowed: Sequence[str] | None, what: str) -> None:
    """Refuse a whole-graph operation to a caller confined to scopes."""
    with confined(allowed):
        if current_allowed() is not None or current_writable() is not None:
            raise ScopeForbiddenError(
                f"{what} covers every tenant's memories; use an API key not bound to scopes."
            )


def _narrowed(request: RecallQuery, allowed: list[str] | None) -> RecallQuery:
    """``request`` with the scopes it asks for narrowed to ``allowed`` (a broader one replaced by the
    allowed ones below it); as asked when unrestricted or when nothing of it is allowed (the
    queries' ``$allowed`` filter then finds nothing)."""
    if allowed is None:
        return request
    asked = [*([request.scope] if request.scope is not None else []), *(request.scopes or [])] or ["/"]
    kept = narrow_to(asked, allowed)
    if not kept:
        return request
    return request.model_copy(update={"scope": None, "scopes": list(kept)})
