"""Candidate search over memories: vector (ANN and exact) and fulltext, filtered inside Cypher."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from graphmem.models import MemoryRecord
from graphmem.store.executor import QueryExecutor, Transaction
from graphmem.store.memories import cosine_from_index_score
from graphmem.store.records import to_memory

MIN_VISIBLE_STRENGTH = 0.1


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
            "layers": self.layers,
            "min_strength": MIN_VISIBLE_STRENGTH,
        }


@dataclass(frozen=True)
class Candidate:
    """A memory found by one retriever, with that retriever's raw score."""

    memory: MemoryRecord
    score: float


@dataclass(frozen=True)
class Candidates:
    """What each retriever found, best first."""

    vector: list[Candidate]
    fulltext: list[Candidate]


class SearchStore:
    """Runs the ``search/`` queries; all retrievers of one recall share one read transaction."""

    def __init__(self, executor: QueryExecutor) -> None:
        self._executor = executor

    def candidates(
        self,
        embedding: list[float],
        lucene: str | None,
        where: SearchFilter,
        *,
        k: int,
        limit: int,
        min_results: int,
    ) -> Candidates:
        """Vector and fulltext candidates in one read transaction.

        The ANN index returns the global top ``k`` before filtering; when a narrow scope leaves
        fewer than ``min_results`` of them, an exact scan of that scope takes over, so a small tenant in
        a large graph still gets its own best memories.
        """

        def work(tx: Transaction) -> Candidates:
            params = where.params()
            rows = tx.run("search/vector_candidates", embedding=embedding, k=k, limit=limit, **params)
            if len(rows) < min_results and where.scope is not None:
                rows = tx.run("search/exact_vector_candidates", embedding=embedding, limit=limit, **params)
            vector = [
                Candidate(to_memory(r["memory"]), cosine_from_index_score(float(r["score"]))) for r in rows
            ]
            fulltext: list[Candidate] = []
            if lucene:
                found = tx.run("search/fulltext_candidates", text=lucene, k=k, limit=limit, **params)
                fulltext = [Candidate(to_memory(r["memory"]), float(r["score"])) for r in found]
            return Candidates(vector=vector, fulltext=fulltext)

        return self._executor.read_unit(work, "recall_candidates")
