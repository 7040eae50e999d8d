"""Candidate search over memories: vector (ANN and exact), fulltext and graph neighbourhood, all
filtered inside Cypher (scopes, layers, status, time). One recall is one read transaction."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypeVar

from graphmem.models import MemoryRecord
from graphmem.store.executor import QueryExecutor, Row, Transaction
from graphmem.store.memories import cosine_from_index_score
from graphmem.store.records import to_memory

MIN_VISIBLE_STRENGTH = 0.1
T = TypeVar("T")


@dataclass(frozen=True)
class SearchFilter:
    """Which memories a search may return."""

    scopes: list[tuple[str, str]] | None  # (path, path + "/"); None reads every scope
    statuses: list[str]
    layers: Sequence[str] | None
    as_of: datetime | None = None

    def params(self) -> dict[str, Any]:
        """The filter as Cypher parameters."""
        return {
            "scopes": None if self.scopes is None else [{"path": p, "prefix": x} for p, x in self.scopes],
            "statuses": self.statuses,
            "layers": None if self.layers is None else list(self.layers),
            "min_strength": MIN_VISIBLE_STRENGTH,
            "as_of": self.as_of,
        }


@dataclass(frozen=True)
class Facts:
    """The scalar properties ranking needs (cheap to read, unlike whole records)."""

    importance: float
    strength: float
    layer: str
    categories: tuple[str, ...]
    occurred: float
    accessed: float
    spaced: int
    priority: float
    pinned: bool
    fade: float = 1.0
    faded_at: float | None = None  # when consolidation set ``fade`` (epoch seconds)
    status: str = "active"


@dataclass(frozen=True)
class Candidate:
    """A memory found by one retriever (by id), with that retriever's raw score and the memory's
    cosine similarity to the query (the vector score itself for vector candidates)."""

    id: str
    score: float
    facts: Facts
    cosine: float
    text: str


@dataclass(frozen=True)
class Neighbour:
    """A memory next to a recall seed in the graph, and the edge that leads there."""

    seed_id: str
    via: str
    id: str
    facts: Facts
    cosine: float
    text: str
    mentioned_by: int = 0  # for MENTIONS: how many memories mention the rarest entity shared


def _facts(row: Row) -> Facts:
    return Facts(
        importance=float(row["importance"] if row["importance"] is not None else 0.5),
        strength=float(row["strength"] if row["strength"] is not None else 1.0),
        layer=str(row["layer"]),
        categories=tuple(row["categories"] or ()),
        occurred=float(row["occurred"] or 0),
        accessed=float(row["accessed"] or 0),
        spaced=int(row["spaced"] or 0),
        priority=float(row["priority"] or 0.0),
        pinned=bool(row["pinned"]),
        fade=float(row.get("fade") or 1.0),
        faded_at=float(row["faded_at"]) if row.get("faded_at") is not None else None,
        status=str(row.get("status") or "active"),
    )


def _similarity(value: object) -> float:
    """Cosine from ``vector.similarity.cosine`` ((1 + cos) / 2); 0 for a memory without embedding."""
    return cosine_from_index_score(float(value)) if isinstance(value, int | float) else 0.0


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

        The ANN index returns the global top ``k`` before filtering; when narrow scopes leave
        fewer than ``min_results`` of them, an exact scan of those scopes takes over, so a small
        tenant in a large graph still gets its own best memories.
        """
        params = where.params()
        rows = tx.run("search/vector_candidates", embedding=embedding, k=k, limit=limit, **params)
        if len(rows) < min_results and where.scopes is not None:
            rows = tx.run("search/exact_vector_candidates", embedding=embedding, limit=limit, **params)
        found = []
        for r in rows:
            cosine = cosine_from_index_score(float(r["score"]))
            found.append(Candidate(r["id"], cosine, _facts(r), cosine, str(r["text"])))
        return found

    @staticmethod
    def fulltext(
        tx: Transaction, lucene: str, embedding: list[float], where: SearchFilter, *, k: int, limit: int
    ) -> list[Candidate]:
        """Best BM25 matches of a Lucene query, each with its cosine similarity to ``embedding``."""
        rows = tx.run(
            "search/fulltext_candidates", text=lucene, embedding=embedding, k=k, limit=limit, **where.params()
        )
        return [
            Candidate(r["id"], float(r["score"]), _facts(r), _similarity(r["similarity"]), str(r["text"]))
            for r in rows
        ]

    @staticmethod
    def neighbourhood(
        tx: Transaction,
        seeds: list[str],
        embedding: list[float],
        where: SearchFilter,
        *,
        max_entity_mentions: int,
    ) -> list[Neighbour]:
        """Memories one edge away from the seeds: NEXT, DERIVED_FROM, SUPERSEDES (both ways), and
        memories sharing an entity that at most ``max_entity_mentions`` memories mention (a rare,
        telling entity; a speaker named in every turn says nothing)."""
        if not seeds:
            return []
        rows = tx.run(
            "search/expand_neighbourhood",
            seeds=seeds,
            embedding=embedding,
            max_entity_mentions=max_entity_mentions,
            **where.params(),
        )
        return [
            Neighbour(
                r["seed"],
                r["via"],
                r["id"],
                _facts(r),
                _similarity(r["similarity"]),
                str(r["text"]),
                int(r["mentioned_by"] or 0),
            )
            for r in rows
        ]

    @staticmethod
    def fetch(tx: Transaction, ids: list[str]) -> dict[str, MemoryRecord]:
        """The full records of ``ids`` (only the few a recall returns: hydrating records is costly)."""
        if not ids:
            return {}
        records = [to_memory(r["memory"]) for r in tx.run("search/fetch_memories", ids=ids)]
        return {m.id: m for m in records}

    @staticmethod
    def lineage(tx: Transaction, ids: list[str]) -> tuple[dict[str, set[str]], frozenset[str]]:
        """For each derived memory among ``ids``, its sources among ``ids``; and which of those
        derived memories are extractive (offline copies of a source rather than distilled)."""
        if len(ids) < 2:
            return {}, frozenset()
        rows = list(tx.run("search/lineage_among", ids=ids))
        sources = {r["derived"]: set(r["sources"]) for r in rows}
        return sources, frozenset(r["derived"] for r in rows if r["extractive"])

    @staticmethod
    def contradictions(tx: Transaction, ids: list[str]) -> list[tuple[str, str]]:
        """CONTRADICTS edges (newer, older) among ``ids``."""
        if len(ids) < 2:
            return []
        return [(r["a"], r["b"]) for r in tx.run("search/contradictions_among", ids=ids)]
