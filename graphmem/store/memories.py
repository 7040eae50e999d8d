"""The memory aggregate: every read and write of ``Memory`` nodes goes through here."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, TypeVar, cast

import numpy as np

from graphmem.errors import NotFoundError
from graphmem.models import ForgetFilter, HistoryEntry, InPartEntry, MemoryDetail, MemoryPatch, MemoryRecord
from graphmem.scopes import scope_filter
from graphmem.store.executor import QueryExecutor, Row, Transaction
from graphmem.store.records import created_memory, instant, memory_fields, native, to_memory
from graphmem.store.similar import similar_rows
from graphmem.store.write_vectors import ScopeVectors

T = TypeVar("T")


@dataclass(frozen=True)
class NewMemory:
    """A memory ready to be created: validated, defaulted and embedded."""

    id: str
    text: str
    scope: str
    categories: list[str]
    importance: float
    confidence: float
    strength: float
    created_at: datetime
    occurred_at: datetime
    source: str | None
    metadata: dict[str, Any]
    embedding: list[float]
    status: str = "active"

    def row(self, index: int) -> dict[str, Any]:
        """The parameter row the Cypher files take."""
        return {
            "index": index,
            "id": self.id,
            "text": self.text,
            "scope": self.scope,
            "categories": self.categories,
            "importance": self.importance,
            "confidence": self.confidence,
            "strength": self.strength,
            "created_at": self.created_at,
            "occurred_at": self.occurred_at,
            "source": self.source,
            "metadata_json": json.dumps(self.metadata, ensure_ascii=False, sort_keys=True),
            "embedding": self.embedding,
            "status": self.status,
        }


@dataclass(frozen=True)
class StoredNeighbour:
    """An active memory of the same scope similar to a new one."""

    id: str
    text: str
    cosine: float
    occurred_at: datetime
    strength: float
    confidence: float
    last_accessed_at: datetime | None
    spaced_access_count: int
    metadata: dict[str, Any]
    labile_until: datetime | None = None
    # its unit vector (the belief check's pair model reads it); None when the lookup had none
    embedding: np.ndarray | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class Reinforcement:
    """A stored memory seen again: its new strength and spaced-access count."""

    id: str
    strength: float
    spaced_access_count: int
    accessed_at: datetime


@dataclass(frozen=True)
class Supersession:
    """A newer belief replacing an older one."""

    winner_id: str
    loser_id: str
    reason: str
    strength: float
    loser_strength: float
    detected_at: datetime
    contradicts: bool = True  # False for a refinement (D3): replaced, not proven wrong
    # True where the newer belief changes only some of what the older says: a CONTRADICTS edge
    # marked in_part, no SUPERSEDES, and the older memory stays current (beliefs/in_part.py)
    in_part: bool = False


@dataclass(frozen=True)
class EpisodeHead:
    """A new memory that may continue an episode already stored (same scope and source, written
    between ``since`` and its own ``occurred_at``)."""

    id: str
    scope: str
    source: str | None
    occurred_at: datetime
    since: datetime


@dataclass(frozen=True)
class WriteOutcome:
    """What one write transaction stored."""

    created: list[MemoryRecord]
    reinforced: dict[str, MemoryRecord]


def _neighbour(raw: dict[str, Any]) -> StoredNeighbour:
    """A similar memory from a row of memories/find_similar or memories/neighbour_details, its
    times as [epoch seconds, nanosecond, offset] (store/records.py ``instant``: the driver's
    DateTimes cost a batch's write more CPU than reading the rest of these rows)."""
    meta = raw.get("metadata_json")
    return StoredNeighbour(
        id=raw["id"],
        text=raw["text"],
        cosine=cosine_from_index_score(float(raw["score"])),
        occurred_at=cast(datetime, instant(raw["occurred_at"])),  # every memory has one
        strength=float(raw["strength"] if raw["strength"] is not None else 1.0),
        confidence=float(raw["confidence"] if raw["confidence"] is not None else 1.0),
        last_accessed_at=instant(raw["last_accessed_at"]),
        spaced_access_count=int(raw["spaced_access_count"] or 0),
        metadata=json.loads(meta) if meta else {},
        labile_until=instant(raw.get("labile_until")),
        embedding=None if raw.get("embedding") is None else np.asarray(raw["embedding"], dtype=np.float32),
    )


def cosine_from_index_score(score: float) -> float:
    """Neo4j's cosine vector index reports (1 + cos) / 2; this gives the cosine back."""
    return 2.0 * score - 1.0


def index_score_from_cosine(cosine: float) -> float:
    """The vector index score that corresponds to a cosine similarity."""
    return (1.0 + cosine) / 2.0


class MemoryStore:
    """Reads and writes memory nodes through the catalog's ``memories/`` queries."""

    def __init__(self, executor: QueryExecutor) -> None:
        self._executor = executor
        self._vectors = ScopeVectors()

    def similar(
        self, probes: Sequence[tuple[str, list[float]]], *, min_cosine: float, k: int = 10
    ) -> list[list[StoredNeighbour]]:
        """For each (scope, embedding) probe, the similar active memories of that scope, best first."""
        return self._executor.read_unit(
            lambda tx: self.similar_in(tx, probes, min_cosine=min_cosine, k=k), "similar"
        )

    @staticmethod
    def similar_in(
        tx: Transaction, probes: Sequence[tuple[str, list[float]]], *, min_cosine: float, k: int = 10
    ) -> list[list[StoredNeighbour]]:
        """:meth:`similar` inside the caller's transaction (after :meth:`lock_scopes`, it sees every
        memory committed by the writers before it)."""
        rows = similar_rows(tx, probes, min_score=index_score_from_cosine(min_cosine), k=k)
        return [[_neighbour(n) for n in native(found)] for found in rows]

    def lock_and_find_similar(
        self,
        tx: Transaction,
        probes: Sequence[tuple[str, list[float]]],
        *,
        min_cosine: Sequence[float],
        k: int = 10,
    ) -> list[list[StoredNeighbour]]:
        """Take the write lock of each probe's scope (as :meth:`lock_scopes` does), then find its
        similar memories (as :meth:`similar_in` does), the lock and the read in one round trip (the
        scope vectors this store holds are not sent again: ``store.write_vectors``); ``min_cosine``
        holds one floor per probe."""
        scores = [index_score_from_cosine(c) for c in min_cosine]
        rows = similar_rows(tx, probes, min_score=scores, k=k, lock=self._vectors)
        return [[_neighbour(n) for n in native(found)] for found in rows]

    @staticmethod
    def lock_scopes(tx: Transaction, scopes: Sequence[str]) -> None:
        """Take the write lock of each scope (its ``:ScopeLock`` node) until ``tx`` ends.

        Writers to one scope then check duplicates and beliefs one after the other, each seeing
        what the previous one stored; writers to other scopes are not held up. Locks are taken in
        sorted order, so two batches over the same scopes cannot deadlock on them.
        """
        if scopes:
            tx.run("locks/lock_scopes", scopes=sorted(set(scopes)))

    def write(self, work: Callable[[Transaction], T], label: str = "remember_batch") -> T:
        """Run ``work`` in one write transaction (run again whole on a transient error)."""
        return self._executor.write_unit(work, label)

    def apply(
        self,
        create: Sequence[NewMemory],
        reinforce: Sequence[Reinforcement],
        supersede: Sequence[Supersession],
        sequence: Sequence[tuple[str, str]] = (),
        after: Sequence[Callable[[Transaction], None]] = (),
        heads: Sequence[EpisodeHead] = (),
    ) -> WriteOutcome:
        """Create, reinforce and supersede in one transaction of its own (see :meth:`apply_in`)."""
        return self.write(lambda tx: self.apply_in(tx, create, reinforce, supersede, sequence, after, heads))

    @staticmethod
    def apply_in(
        tx: Transaction,
        create: Sequence[NewMemory],
        reinforce: Sequence[Reinforcement],
        supersede: Sequence[Supersession],
        sequence: Sequence[tuple[str, str]] = (),
        after: Sequence[Callable[[Transaction], None]] = (),
        heads: Sequence[EpisodeHead] = (),
    ) -> WriteOutcome:
        """Create, reinforce and supersede inside ``tx``: all of it, or nothing. ``heads``
        (new memories that start a run of their batch) continue the episode stored before them."""
        created: list[MemoryRecord] = []
        if create:
            rows = [item.row(i) for i, item in enumerate(create)]
            created = [created_memory(r["memory"]) for r in tx.run("memories/create_memories", rows=rows)]
        reinforced: dict[str, MemoryRecord] = {}
        if reinforce:
            rows = [
                {
                    "index": i,
                    "id": r.id,
                    "strength": r.strength,
                    "accessed_at": r.accessed_at,
                    "spaced_access_count": r.spaced_access_count,
                }
                for i, r in enumerate(reinforce)
            ]
            for out in tx.run("memories/reinforce_memories", rows=rows):
                record = to_memory(out["memory"])
                reinforced[record.id] = record
        whole = [vars(s) for s in supersede if not s.in_part]
        if whole:
            tx.run("beliefs/apply_supersessions", rows=whole)
        in_part = [vars(s) for s in supersede if s.in_part]
        if in_part:
            tx.run("beliefs/apply_contradictions_in_part", rows=in_part)
        if heads:
            new_ids = [item.id for item in create]
            tx.run("memories/link_episode_heads", heads=[vars(h) for h in heads], new_ids=new_ids)
        if sequence:
            tx.run("memories/link_sequence", pairs=[{"before": a, "after": b} for a, b in sequence])
        for step in after:
            step(tx)
        return WriteOutcome(created=created, reinforced=reinforced)

    def get(self, memory_id: str) -> MemoryDetail:
        """One memory with its history; raises NotFoundError for an unknown id."""
        rows = self._executor.read("memories/get_memory", id=memory_id)
        if not rows:
            raise NotFoundError(f"No memory has id {memory_id!r}.")
        row = rows[0]
        history = [HistoryEntry.model_validate(native(h)) for h in row["newer"] + row["older"]]
        history.sort(
            key=lambda h: (
                h.relation != "superseded_by",
                -h.depth if h.relation == "superseded_by" else h.depth,
            )
        )
        in_part = [InPartEntry.model_validate(native(c)) for c in row["in_part"]]
        in_part.sort(key=lambda c: c.occurred_at, reverse=True)
        return MemoryDetail.model_validate(
            {
                **memory_fields(row["memory"]),
                "history": history,
                "in_part": in_part,
                "derived_from": row["derived_from"],
            }
        )

    def update(
        self,
        memory_id: str,
        patch: MemoryPatch,
        embedding: list[float] | None,
        now: datetime,
        then: Callable[[Transaction, MemoryRecord], None] | None = None,
    ) -> MemoryRecord:
        """Apply ``patch`` (and the new text's embedding), then ``then`` on the updated memory, in
        one transaction; raises NotFoundError for an unknown id."""
        metadata = (
            None if patch.metadata is None else json.dumps(patch.metadata, ensure_ascii=False, sort_keys=True)
        )

        def work(tx: Transaction) -> MemoryRecord:
            rows = tx.run(
                "memories/update_memory",
                id=memory_id,
                text=patch.text,
                scope=patch.scope,
                categories=patch.categories,
                importance=patch.importance,
                metadata_json=metadata,
                embedding=embedding,
                pinned=patch.pinned,
                now=now,
            )
            if not rows:
                raise NotFoundError(f"No memory has id {memory_id!r}.")
            record = to_memory(rows[0]["memory"])
            if then is not None:
                then(tx, record)
            return record

        return self._executor.write_unit(work, "memories/update_memory")

    def delete(self, memory_id: str) -> None:
        """Delete one memory and its edges; raises NotFoundError for an unknown id."""
        rows = self._executor.write("memories/delete_memory", id=memory_id)
        if not rows or int(rows[0]["deleted"]) == 0:
            raise NotFoundError(f"No memory has id {memory_id!r}.")

    def forget(self, what: ForgetFilter) -> int:
        """Delete every memory matching all of the filter's fields; returns how many."""
        scope, prefix = scope_filter(what.scope) if what.scope is not None else (None, None)
        rows = self._executor.write(
            "memories/forget_memories",
            ids=what.ids,
            scope=scope,
            scope_prefix=prefix,
            categories=what.categories,
            older_than=what.older_than,
        )
        return int(rows[0]["deleted"]) if rows else 0

    def counts(self) -> dict[str, Any]:
        """Memories by layer and status, plus entity and decision counts."""
        rows: list[Row] = self._executor.read("meta/count_nodes")
        row = rows[0]
        by_status: dict[str, int] = {}
        by_layer: dict[str, int] = {}
        total = 0
        for group in row["memories"]:
            n = int(group["n"])
            if n == 0:
                continue
            total += n
            by_status[group["status"]] = by_status.get(group["status"], 0) + n
            by_layer[group["layer"]] = by_layer.get(group["layer"], 0) + n
        return {
            "memories": total,
            "by_status": by_status,
            "by_layer": by_layer,
            "entities": int(row["entities"]),
            "decisions": int(row["decisions"]),
        }


class MemoryDynamicsStore:
    """Writes that memory dynamics make: retrieval reinforcement (D2, D3) and priority (R7)."""

    def __init__(self, executor: QueryExecutor) -> None:
        self._executor = executor

    def texts(self, ids: Sequence[str]) -> dict[str, str]:
        """The texts of the memories ``ids`` (unknown ids are left out)."""
        return {r["id"]: r["text"] for r in self._executor.read("memories/find_texts", ids=list(ids))}

    def adjust_priority(self, deltas: dict[str, float], *, floor: float, ceiling: float) -> None:
        """Add each delta to its memory's retrieval priority, clamped to [floor, ceiling]."""
        rows = [{"id": memory_id, "delta": delta} for memory_id, delta in deltas.items()]
        self._executor.write("memories/adjust_priority", rows=rows, floor=floor, ceiling=ceiling)

    def touch(self, rows: list[dict[str, Any]]) -> None:
        """Record retrievals: new strength, access time and count, spaced count, lability."""
        if rows:
            self._executor.write("memories/touch_recalled", rows=rows)
