"""The Memory facade: the one object agents use; it owns every operation, storage stays hidden."""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from graphmem.beliefs.resolver import BeliefChecker, BeliefSettings
from graphmem.clock import Clock
from graphmem.embedding.base import Embedder
from graphmem.errors import DatabaseUnavailableError
from graphmem.llm.base import LLM
from graphmem.llm.none import NoLLM
from graphmem.models import (
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
from graphmem.recall.search import Recaller
from graphmem.store.executor import QueryExecutor
from graphmem.store.memories import MemoryStore
from graphmem.store.schema import apply_schema, check_embedding_model
from graphmem.store.search import SearchStore
from graphmem.write.remember import RememberPipeline, WriteLimits, check_inputs

log = logging.getLogger(__name__)


class Memory:
    """Long-term memory in a Neo4j graph: remember, recall, inspect, correct and forget.

    Build it with :func:`graphmem.open_memory` (from settings) or directly from its parts.
    Every method raises a :class:`graphmem.errors.GraphmemError` subclass on failure.
    """

    def __init__(
        self,
        executor: QueryExecutor,
        embedder: Embedder,
        clock: Clock,
        llm: LLM | None = None,
        limits: WriteLimits | None = None,
        beliefs: BeliefSettings | None = None,
    ) -> None:
        self._executor = executor
        self._embedder = embedder
        self._clock = clock
        self._llm: LLM = llm or NoLLM()
        self._limits = limits or WriteLimits()
        self._store = MemoryStore(executor)
        checker = BeliefChecker(self._llm, beliefs)
        self._writer = RememberPipeline(self._store, embedder, clock, self._limits, checker)
        self._recaller = Recaller(SearchStore(executor), embedder)
        self._ready = False
        self._needs_reembed = False
        self._lock = threading.Lock()

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
        return self.remember_batch([item])[0]

    def remember_batch(self, items: Sequence[MemoryInput]) -> list[WriteResult]:
        """Remember many items in one transaction; results in input order."""
        check_inputs(items, self._limits)
        self.prepare()
        return self._writer.remember(items)

    def recall(
        self,
        query: str,
        *,
        scope: str | None = None,
        limit: int = 10,
        layers: list[Layer] | None = None,
        include_superseded: bool = False,
    ) -> RecallResult:
        """The memories that best answer ``query`` (current beliefs only unless asked)."""
        request = RecallQuery(
            query=query, scope=scope, limit=limit, layers=layers, include_superseded=include_superseded
        )
        return self.recall_query(request)

    def recall_query(self, request: RecallQuery) -> RecallResult:
        """Recall from a prepared :class:`RecallQuery`."""
        self.prepare()
        return self._recaller.recall(request)

    def get(self, memory_id: str) -> MemoryDetail:
        """One memory with its SUPERSEDES history and lineage; NotFoundError if unknown."""
        self.prepare()
        return self._store.get(memory_id)

    def update(self, memory_id: str, patch: MemoryPatch) -> MemoryRecord:
        """Change fields of a memory (a new text is re-embedded); NotFoundError if unknown."""
        if patch.text is not None:
            check_inputs([MemoryInput(text=patch.text)], self._limits)
        self.prepare()
        embedding = None if patch.text is None else self._embedder.embed_one(patch.text).tolist()
        return self._store.update(memory_id, patch, embedding, self._clock.now())

    def delete(self, memory_id: str) -> None:
        """Delete one memory and its edges; NotFoundError if unknown."""
        self.prepare()
        self._store.delete(memory_id)

    def forget(self, what: ForgetFilter) -> int:
        """Delete every memory matching all given filters; returns how many were deleted."""
        self.prepare()
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
