"""Candidate search over memories: vector (ANN and exact), fulltext and graph neighbourhood, all
filtered inside Cypher (scopes, layers, status, time). A recall is two or three round trips,
auto-commit reads (recall/search.py)."""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, NamedTuple, TypeVar

import numpy as np

from graphmem.models import MemoryRecord
from graphmem.store.executor import QueryExecutor, Row, Transaction
from graphmem.store.fulltext import keyword_params
from graphmem.store.memories import cosine_from_index_score
from graphmem.store.pool_rows import RECORD_TIMES as RECORD_TIMES
from graphmem.store.pool_rows import DetailRows
from graphmem.store.pool_rows import Facts as Facts
from graphmem.store.pool_rows import ranking_facts as ranking_facts
from graphmem.store.records import instant

MIN_VISIBLE_STRENGTH = 0.1
T = TypeVar("T")


@dataclass(frozen=True)
class SearchFilter:
    """Which memories a search may return."""

    scopes: list[tuple[str, str]] | None  # (path, path + "/"); None reads every scope
    statuses: list[str]
    layers: Sequence[str] | None
    as_of: datetime | None = None
    categories: Sequence[str] | None = None  # X5 domain filter: at least one of them

    def paths(self) -> list[str] | None:
        """The scope paths asked for; None reads every scope."""
        return None if self.scopes is None else [p for p, _ in self.scopes]

    def params(self) -> dict[str, Any]:
        """The filter as Cypher parameters."""
        return {
            "scopes": None if self.scopes is None else [{"path": p, "prefix": x} for p, x in self.scopes],
            "statuses": self.statuses,
            "layers": None if self.layers is None else list(self.layers),
            "min_strength": MIN_VISIBLE_STRENGTH,
            "as_of": self.as_of,
            "categories": None if self.categories is None else list(self.categories),
        }


class Candidate(NamedTuple):
    """A memory found by one retriever (by id), with that retriever's raw score and the memory's
    cosine similarity to the query (the vector score itself for vector candidates)."""

    id: str
    score: float
    facts: Facts
    cosine: float
    text: str


@dataclass(frozen=True)
class Details:
    """What a recall reads of its candidate pool after ranking: records, lineage and conflicts."""

    records: Mapping[str, MemoryRecord]
    lineage: dict[str, set[str]]  # derived memory -> its sources in the pool
    copies: frozenset[str]  # derived memories that are extractive (offline copies of a source)
    contradictions: list[tuple[str, str]]  # CONTRADICTS (newer, older) within the pool


class Records(Mapping[str, MemoryRecord]):
    """Records of detail rows by id, each built when first read (a recall reads the records of a
    pool of a few hundred memories and returns ten)."""

    def __init__(self, rows: Mapping[str, Row]) -> None:
        self._rows = rows
        self._built: dict[str, MemoryRecord] = {}

    def __getitem__(self, memory_id: str) -> MemoryRecord:
        found = self._built.get(memory_id)
        if found is None:
            row = self._rows[memory_id]
            found = self._built[memory_id] = _record(row["memory"], row["times"])
        return found

    def __contains__(self, memory_id: object) -> bool:
        return memory_id in self._rows

    def __iter__(self) -> Iterator[str]:
        return iter(self._rows)

    def __len__(self) -> int:
        return len(self._rows)


@dataclass(frozen=True)
class Surroundings:
    """What the graph holds around one memory in its episode: each neighbour's cosine to the
    query and to the memory, their cosines among themselves, and their texts."""

    to_query: tuple[float, ...]
    to_memory: tuple[float, ...]
    among: tuple[tuple[float, ...], ...]
    texts: tuple[str, ...]


@dataclass(frozen=True)
class Pool:
    """The detail rows of a recall's whole candidate pool and its neighbours (read with the
    neighbourhood), from which the details of any part of it are taken without another round trip."""

    rows: Mapping[str, Row]
    # each candidate's episode context (recall/episode_context.py); candidates in no episode absent
    surroundings: dict[str, Surroundings] = field(default_factory=dict)
    # each candidate's mean cosine to the other candidates (recall/hubs.py); empty when not read
    centrality: dict[str, float] = field(default_factory=dict)

    def details(self, ids: Sequence[str]) -> Details:
        """What ``SearchStore.details(ids)`` reads, for ``ids`` within the pool: lineage and
        conflicts among ``ids`` only, records of every memory of the pool."""
        among = set(ids)
        lineage: dict[str, set[str]] = {}
        copies = set()
        contradictions = []
        for memory_id in ids:
            row = self.rows.get(memory_id)
            if row is None:
                continue
            sources = {s for s in row["sources"] if s in among}
            if sources:
                lineage[memory_id] = sources
                if row["extractive"]:
                    copies.add(memory_id)
            contradictions += [(memory_id, b) for b in row["contradicts"] if b in among]
        return Details(Records(self.rows), lineage, frozenset(copies), contradictions)


class Neighbour(NamedTuple):
    """A memory next to a recall seed in the graph, and the edge that leads there."""

    seed_id: str
    via: str
    id: str
    facts: Facts
    cosine: float
    text: str
    mentioned_by: int = 0  # for MENTIONS: how many memories mention the rarest entity shared


def facts_of(row: Row) -> Facts:
    """The ranking facts of a candidate row (the columns every search query returns)."""
    return ranking_facts(
        row["importance"],
        row["strength"],
        row["layer"],
        row["categories"],
        row["occurred"],
        row["accessed"],
        row["spaced"],
        row["priority"],
        row["pinned"],
        row.get("fade"),
        row.get("faded_at"),
        row.get("status"),
    )


def _times(values: list[list[int] | None]) -> dict[str, datetime | None]:
    return {name: instant(v) for name, v in zip(RECORD_TIMES, values, strict=True)}


def _record(memory: dict[str, Any], times: list[list[int] | None]) -> MemoryRecord:
    """A record from the details query: its values are plain (times come as epoch parts), so the
    recursive conversion of driver values that ``to_memory`` does is skipped."""
    data = {**memory, **_times(times)}
    raw = data.pop("metadata_json", None)
    data["metadata"] = json.loads(raw) if raw else {}
    return MemoryRecord.model_validate(data)


def _similarity(value: object) -> float:
    """Cosine from ``vector.similarity.cosine`` ((1 + cos) / 2); 0 for a memory without embedding."""
    return cosine_from_index_score(float(value)) if isinstance(value, int | float) else 0.0


class SearchStore:
    """Runs the ``search/`` queries of a recall (each its own auto-commit read, in one session)."""

    def __init__(self, executor: QueryExecutor) -> None:
        self._executor = executor

    def read(self, work: Callable[[Transaction], T]) -> T:
        """Run ``work``'s queries in one session, each an auto-commit read (QueryExecutor.read_statements)."""
        return self._executor.read_statements(work, "recall")

    @staticmethod
    def candidates(
        tx: Transaction,
        embedding: list[float],
        lucene: str | None,
        where: SearchFilter,
        *,
        k: int,
        limit: int,
        min_results: int,
        text_k: int,
        text_limit: int,
    ) -> tuple[list[Candidate], list[Candidate]]:
        """Vector and fulltext candidates in one round trip: (vector, fulltext), best first.

        The ANN index answers before the scope filter, so scopes holding too small a share of the
        graph for its top ``k`` to hold ``min_results`` of theirs (a user of 1,000 memories among
        100k) are scanned exactly at once; otherwise the ANN index answers, and the exact scan
        takes over when fewer than ``min_results`` of its answers are in scope.
        """
        rows = tx.run(
            "search/recall_candidates",
            embedding=embedding,
            k=k,
            limit=limit,
            min_results=min_results,
            text_k=text_k,
            text_limit=text_limit,
            **keyword_params(lucene, where.paths()),
            **where.params(),
        )
        vector: list[Candidate] = []
        fulltext: list[Candidate] = []
        for r in rows:
            if r["retriever"] == "vector":
                cosine = cosine_from_index_score(float(r["score"]))
                vector.append(Candidate(r["id"], cosine, facts_of(r), cosine, str(r["text"])))
            else:
                fulltext.append(
                    Candidate(
                        r["id"], float(r["score"]), facts_of(r), _similarity(r["similarity"]), str(r["text"])
                    )
                )
        return vector, fulltext

    @staticmethod
    def details(tx: Transaction, ids: list[str]) -> Details:
        """Records of ``ids`` with DERIVED_FROM and CONTRADICTS edges among them, in one round trip
        (the pool a recall chooses its results from: it reads them once, before choosing)."""
        if not ids:
            return Details({}, {}, frozenset(), [])
        rows = tx.run("search/recall_details", ids=ids)
        records = Records({r["memory"]["id"]: r for r in rows})
        lineage = {r["memory"]["id"]: set(r["sources"]) for r in rows if r["sources"]}
        copies = frozenset(r["memory"]["id"] for r in rows if r["extractive"] and r["sources"])
        contradictions = [(r["memory"]["id"], b) for r in rows for b in r["contradicts"]]
        return Details(records, lineage, copies, contradictions)

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
            found.append(Candidate(r["id"], cosine, facts_of(r), cosine, str(r["text"])))
        return found

    @staticmethod
    def neighbourhood(
        tx: Transaction, expansion: Expansion, embedding: list[float], where: SearchFilter
    ) -> tuple[list[Neighbour], Pool]:
        """Memories one edge away from the seeds: NEXT, SUPERSEDES (both ways, and up a belief
        chain), and memories sharing an entity that at most ``max_entity_mentions`` memories
        mention (a rare, telling entity; a speaker named in every turn says nothing); and in the
        same round trip, the detail rows of the pool (the candidates) and of those neighbours, and
        the episode context of ``context_of`` (at most ``per_memory`` neighbours each)."""
        rows = tx.run(
            "search/expand_with_details", embedding=embedding, **expansion.params(), **where.params()
        )
        return neighbourhood_of(rows[0])


@dataclass(frozen=True)
class Expansion:
    """What a recall reads around its best candidates (:meth:`SearchStore.neighbourhood`): the
    seeds to expand, the whole candidate pool whose records it reads, and the candidates read in
    their episode context. Two recalls that choose the same expansion read the same rows."""

    seeds: tuple[str, ...]
    pool: tuple[str, ...]
    context_of: tuple[str, ...]
    max_entity_mentions: int
    per_memory: int = 4

    def params(self) -> dict[str, Any]:
        """The expansion as Cypher parameters."""
        return {
            "seeds": list(self.seeds),
            "pool": list(self.pool),
            "context_of": list(self.context_of),
            "max_entity_mentions": self.max_entity_mentions,
            "per_memory": self.per_memory,
        }


def centrality_of(ids: Sequence[str], vectors: np.ndarray) -> dict[str, float]:
    """Each memory's mean cosine to the others (``vectors``: their unit-length embeddings, one row
    per id); empty when there are fewer than two."""
    if len(ids) < 2:
        return {}
    to_others = vectors @ vectors.sum(axis=0) - np.einsum("ij,ij->i", vectors, vectors)
    return {m: float(total) / (len(ids) - 1) for m, total in zip(ids, to_others.tolist(), strict=True)}


def centrality_from_sums(
    ids: Sequence[str],
    to_total: Sequence[float | None],
    from_origin: Sequence[float],
    total_from_origin: float | None,
) -> dict[str, float]:
    """What :func:`centrality_of` gives, from what the graph computes of the embeddings instead
    of the embeddings themselves (cypher/search/expand_with_details.cypher): each one's
    ``vector.similarity.cosine`` to their sum (``to_total``; None for a zero vector) and
    ``vector.similarity.euclidean`` from the origin (``from_origin``, 1 / (1 + |v|^2)), and the
    sum's from the origin. A memory's dot product with the others is its dot product with the sum
    less its own square; Neo4j computes the similarities in single precision, so the centralities
    agree with :func:`centrality_of` to about 1e-7. Empty when there are fewer than two."""
    if len(ids) < 2 or total_from_origin is None:
        return {}
    total_norm = math.sqrt(max(0.0, 1.0 / total_from_origin - 1.0))
    out = {}
    for memory_id, similarity, distance in zip(ids, to_total, from_origin, strict=True):
        square = max(0.0, 1.0 / distance - 1.0)
        cosine = 0.0 if similarity is None else cosine_from_index_score(similarity)
        dot = cosine * math.sqrt(square) * total_norm
        out[memory_id] = (dot - square) / (len(ids) - 1)
    return out


def neighbourhood_of(row: Row) -> tuple[list[Neighbour], Pool]:
    """The neighbours, pool rows (:class:`DetailRows`), episode contexts and centralities of an
    expansion's row (its columns ``neighbours``, ``details``, ``around`` and ``centres``, what the
    graph computed of the candidates' embeddings for :func:`centrality_from_sums`). A cached
    recall's check makes its own from the cache (store/scope_vectors.py ``checked``)."""
    # a detail row is a list as GRAPH_DETAIL_COLUMNS, its text last; a neighbour's facts and text
    # come with its detail row
    values = {str(d[0]): d for d in row["details"]}
    details = DetailRows(values, {m: str(d[-1]) for m, d in values.items()})
    neighbours = [
        Neighbour(
            r["seed"],
            r["via"],
            r["id"],
            details.facts(r["id"]),
            _similarity(r["similarity"]),
            details.text(r["id"]),
            int(r["mentioned_by"] or 0),
        )
        for r in row["neighbours"]
    ]
    surroundings = {
        str(r["id"]): Surroundings(
            to_query=tuple(_similarity(v) for v in r["to_query"]),
            to_memory=tuple(_similarity(v) for v in r["to_memory"]),
            among=tuple(tuple(_similarity(v) for v in near) for near in r["among"]),
            texts=tuple(str(t) for t in r["texts"]),
        )
        for r in row["around"]
    }
    centres = row.get("centres") or {}
    centrality = centrality_from_sums(
        [str(i) for i in centres.get("ids") or []],
        centres.get("to_total") or [],
        centres.get("from_origin") or [],
        centres.get("total_from_origin"),
    )
    return neighbours, Pool(details, surroundings, centrality)
