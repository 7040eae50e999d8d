"""Candidate search over memories: vector (ANN and exact), fulltext and graph neighbourhood, all
filtered inside Cypher. One recall is one read transaction of three or four queries."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from graphmem.models import MemoryRecord
from graphmem.store.executor import QueryExecutor, Transaction
from graphmem.store.memories import cosine_from_index_score
from graphmem.store.records import to_memory

MIN_VISIBLE_STRENGTH = 0.1
T = TypeVar("T")


@dataclass(frozen=True)
class SearchFilter:
    """Which memories a search may return."""

    scope: str | None
    scope_prefix: str | None
    statuses: list[str]
    layers: Sequence[str] | None

    def params(self) -> dict[str, Any]:
        """The filter as Cypher parameters."""
        return {
            "scope": self.scope,
            "scope_prefix": self.scope_prefix,
            "statuses": self.statuses,
            "layers": None if self.layers is None else list(self.layers),
            "min_strength": MIN_VISIBLE_STRENGTH,
        }


@dataclass(frozen=True)
class Candidate:
    """A memory found by one retriever (by id), with that retriever's raw score."""

    id: str
    score: float


@dataclass(frozen=True)
class Neighbour:
    """A memory next to a recall seed in the graph, and the edge that leads there."""

    seed_id: str
    via: str
    id: str


class SearchStore:
    """Runs the ``search/`` queries inside one read transaction per recall."""

    def __init__(self, executor: QueryExecutor) -> None:
        self._executor = executor

    def read(self, work: Callable[[Transaction], T]) -> T:
        """Run ``work`` in one read transaction."""
        return self._executor.read_unit(work, "recall")

    @staticmethod
    def vector(
        tx: Transaction, embedding: list[float], where: SearchFilter, *, k: int, limit: int, min_results: int
    ) -> list[Candidate]:
        """Nearest memories by embedding.

        The ANN index returns the global top ``k`` before filtering; when a narrow scope leaves
        fewer than ``min_results`` of them, an exact scan of that scope takes over, so a small
        tenant in a large graph still gets its own best memories.
        """
        params = where.params()
        rows = tx.run("search/vector_candidates", embedding=embedding, k=k, limit=limit, **params)
        if len(rows) < min_results and where.scope is not None:
            rows = tx.run("search/exact_vector_candidates", embedding=embedding, limit=limit, **params)
        return [Candidate(r["id"], cosine_from_index_score(float(r["score"]))) for r in rows]

    @staticmethod
    def fulltext(tx: Transaction, lucene: str, where: SearchFilter, *, k: int, limit: int) -> list[Candidate]:
        """Best BM25 matches of a Lucene query."""
        rows = tx.run("search/fulltext_candidates", text=lucene, k=k, limit=limit, **where.params())
        return [Candidate(r["id"], float(r["score"])) for r in rows]

    @staticmethod
    def neighbourhood(tx: Transaction, seeds: list[str], where: SearchFilter) -> list[Neighbour]:
        """Memories one NEXT or DERIVED_FROM edge away from the seeds."""
        if not seeds:
            return []
        rows = tx.run("search/expand_neighbourhood", seeds=seeds, **where.params())
        return [Neighbour(r["seed"], r["via"], r["id"]) for r in rows]

    @staticmethod
    def fetch(tx: Transaction, ids: list[str]) -> dict[str, MemoryRecord]:
        """The full records of ``ids`` (only the few a recall returns: hydrating records is costly)."""
        if not ids:
            return {}
        records = [to_memory(r["memory"]) for r in tx.run("search/fetch_memories", ids=ids)]
        return {m.id: m for m in records}
