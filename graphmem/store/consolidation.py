"""The graph side of consolidation: neighbourhoods from the vector index, and the atomic write of each step.

Every write here is one transaction that either happens whole or not at all, and is guarded so
that repeating it (a resumed job, a second run) changes nothing.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import numpy as np
from numpy.typing import NDArray

from graphmem.errors import StoreError
from graphmem.store.executor import QueryExecutor, Row
from graphmem.store.memories import cosine_from_index_score
from graphmem.store.records import epoch_seconds, native, utc_instant

Neighbours = dict[str, list[tuple[str, float]]]


@dataclass(frozen=True)
class MemberRow:
    """A memory as consolidation reads it."""

    id: str
    scope: str
    text: str
    embedding: NDArray[np.float32]
    status: str
    categories: list[str]
    importance: float
    confidence: float
    strength: float
    occurred_at: datetime
    pinned: bool
    derived_by: str | None
    entities: tuple[str, ...]
    layer: str = "episodic"


@dataclass(frozen=True)
class TopicSignals:
    """What ties memories into topics besides their vectors (see ``topic_signals``)."""

    occurred: dict[str, float]  # id -> occurred_at, epoch seconds
    entities: dict[str, tuple[str, ...]]  # id -> keys of the entities it mentions
    mentions: dict[str, int]  # entity key -> memories of its scope, layer and status mentioning it
    follows: list[tuple[str, str]]  # (a, b): b follows a in an episode (NEXT)
    texts: dict[str, str] = field(default_factory=dict)  # id -> text (its words tie topics too)
    scopes: dict[str, str] = field(default_factory=dict)  # id -> scope (words are rare within one)
    # id -> what ConsolidationStore.members needs of it (read with the signals: C1 reads a memory once)
    details: dict[str, Row] = field(default_factory=dict)


@dataclass(frozen=True)
class DerivedMemory:
    """A semantic memory, schema or insight about to be created."""

    id: str
    text: str
    layer: str
    kind: str
    scope: str
    categories: list[str]
    importance: float
    confidence: float
    occurred_at: datetime
    metadata: dict[str, Any]
    embedding: list[float]

    def row(self) -> dict[str, Any]:
        """The $memory map the Cypher file takes."""
        return {
            "id": self.id,
            "text": self.text,
            "layer": self.layer,
            "kind": self.kind,
            "scope": self.scope,
            "categories": self.categories,
            "importance": self.importance,
            "confidence": self.confidence,
            "occurred_at": self.occurred_at,
            "metadata_json": json.dumps(self.metadata, ensure_ascii=False, sort_keys=True),
            "extractive": bool(self.metadata.get("extractive", False)),
            "embedding": self.embedding,
        }


@dataclass(frozen=True)
class SourceLink:
    """A source of a derived memory: how typical it is, and how much it fades."""

    id: str
    similarity: float
    gamma: float

    def row(self) -> dict[str, Any]:
        return {"id": self.id, "similarity": self.similarity, "gamma": self.gamma}


def _member(row: Row, embedding: NDArray[np.float32]) -> MemberRow:
    """A memory as consolidation reads it, from its row (``member_details`` or ``topic_signals``)."""
    occurred = utc_instant(row["occurred_s"], row["occurred_us"])
    if occurred is None:
        raise StoreError(f"memory {row['id']} has no occurred_at; rewrite it with one")
    return MemberRow(
        id=row["id"],
        scope=row["scope"],
        text=row["text"],
        embedding=embedding,
        status=row["status"],
        categories=list(row["categories"] or []),
        importance=float(row["importance"] if row["importance"] is not None else 0.5),
        confidence=float(row["confidence"] if row["confidence"] is not None else 1.0),
        strength=float(row["strength"] if row["strength"] is not None else 1.0),
        occurred_at=occurred,
        pinned=bool(row["pinned"]),
        derived_by=row["derived_by"],
        entities=tuple(row["entities"] or ()),
        layer=row["layer"],
    )


class ConsolidationStore:
    """Reads and writes of the consolidation passes."""

    def __init__(self, executor: QueryExecutor) -> None:
        self._executor = executor

    # Reading.

    def changed_ids(self, layer: str, since: datetime | None, page: int) -> Iterator[list[tuple[str, str]]]:
        """Pages of (id, scope) of active memories of ``layer`` created or changed since ``since``."""
        after = ""
        while True:
            rows = self._executor.read(
                "consolidate/changed_memories", layer=layer, since=since, after=after, page=page
            )
            if not rows:
                return
            yield [(r["id"], r["scope"]) for r in rows]
            after = rows[-1]["id"]

    def neighbours(
        self,
        ids: Sequence[str],
        *,
        k: int,
        candidates: int,
        min_cosine: float,
        status: str,
        history: bool = False,
    ) -> Neighbours:
        """The k nearest of each memory among memories of its scope and layer with ``status`` (and
        its history: see :meth:`scope_vectors`)."""
        rows = self._executor.read(
            "consolidate/nearest_neighbours",
            ids=list(ids),
            k=k,
            candidates=candidates,
            min_score=(1.0 + min_cosine) / 2.0,
            status=status,
            history=history,
        )
        return {
            row["id"]: [(n["id"], cosine_from_index_score(float(n["score"]))) for n in row["neighbours"]]
            for row in rows
        }

    def scope_sizes(
        self, scopes: Sequence[str], layer: str, status: str, history: bool = False
    ) -> dict[str, int]:
        """How many memories of ``layer`` and ``status`` (and history) each scope holds."""
        rows = self._executor.read(
            "consolidate/scope_sizes", scopes=list(scopes), layer=layer, status=status, history=history
        )
        return {r["scope"]: int(r["n"]) for r in rows}

    def layer_size(self, layer: str, status: str, history: bool = False) -> int:
        """How many memories of ``layer`` and ``status`` (and history) the graph holds."""
        rows = self._executor.read("consolidate/layer_size", layer=layer, status=status, history=history)
        return int(rows[0]["n"])

    def scopes_vectors(
        self, scopes: Sequence[str], layer: str, status: str, history: bool = False
    ) -> dict[str, tuple[list[str], NDArray[np.float32]]]:
        """Per scope of ``scopes`` (in one read): the ids, in id order, and vectors of every memory
        of ``layer`` and ``status`` in it (a scope holding none is left out).

        With ``history``, memories superseded by a later statement count too (not those merged
        into another or refined by a restatement): the episodes a topic's story is made of.
        """
        rows = self._executor.read(
            "consolidate/scopes_vectors", scopes=list(scopes), layer=layer, status=status, history=history
        )
        grouped: dict[str, list[Row]] = {}
        for row in rows:
            grouped.setdefault(row["scope"], []).append(row)
        return {
            scope: (
                [r["id"] for r in found],
                np.asarray([r["embedding"] for r in found], dtype=np.float32).reshape(len(found), -1),
            )
            for scope, found in grouped.items()
        }

    def topic_signals(
        self,
        ids: Sequence[str],
        status: str,
        page: int = 2000,
        history: bool = False,
        owner_keys: Sequence[str] = (),
        derived_layer: str = "semantic",
        derived_kind: str = "cluster",
    ) -> TopicSignals:
        """Occurrence times, mentioned entities (with their mention counts in the scope) and NEXT
        links of the given memories, read in pages (``history``: superseded memories count too;
        entities keyed ``owner_keys``, the memories' owner, are left out); and in ``details``, what
        :meth:`members` needs of each (the derived memory of ``derived_layer`` and ``derived_kind``
        it feeds), so that a topic's members are not read again."""
        signals = TopicSignals({}, {}, {}, [])
        for start in range(0, len(ids), page):
            chunk = list(ids[start : start + page])
            rows = self._executor.read(
                "consolidate/topic_signals",
                ids=chunk,
                status=status,
                history=history,
                owner_keys=list(owner_keys),
                derived_layer=derived_layer,
                derived_kind=derived_kind,
            )
            for raw in rows:
                row = dict(raw)
                at = epoch_seconds(row["occurred_s"], row["occurred_us"])
                signals.occurred[row["id"]] = at if at is not None else 0.0
                keys = []
                for entity in row["entities"] or []:
                    keys.append(entity["key"])
                    signals.mentions[entity["key"]] = int(entity["mentions"])
                signals.entities[row["id"]] = tuple(sorted(set(keys)))
                signals.follows.extend((row["id"], b) for b in row["next"] or [])
                signals.texts[row["id"]] = row["text"]
                signals.scopes[row["id"]] = row["scope"]
                signals.details[row["id"]] = {**row, "entities": row["names"]}
        return signals

    def members(
        self,
        ids: Sequence[str],
        derived_layer: str,
        derived_kind: str = "cluster",
        vectors: Mapping[str, NDArray[np.float32]] | None = None,
        details: Mapping[str, Row] | None = None,
    ) -> dict[str, MemberRow]:
        """Text, vector and fields of each memory, and the active derived memory (layer, kind) it feeds.

        Vectors already at hand (``vectors``) are not read again, nor memories whose fields are
        (``details``: as :meth:`topic_signals` read them, for the same layer and kind).
        """
        known = dict(vectors or {})
        missing = [i for i in ids if i not in known]
        if missing:
            for row in self._executor.read("consolidate/memory_vectors", ids=missing):
                known[row["id"]] = np.asarray(row["embedding"], dtype=np.float32)
        held = details or {}
        rows = [held[i] for i in ids if i in held]
        unread = [i for i in ids if i not in held]
        if unread:
            rows += self._executor.read(
                "consolidate/member_details",
                ids=unread,
                derived_layer=derived_layer,
                derived_kind=derived_kind,
            )
        return {row["id"]: _member(row, known[row["id"]]) for row in rows}

    def archived_ids(self, layer: str, page: int) -> Iterator[list[tuple[str, str]]]:
        """Pages of archived memories of ``layer`` that no insight summarises yet."""
        after = ""
        while True:
            rows = self._executor.read(
                "consolidate/archived_to_summarise", layer=layer, after=after, page=page
            )
            if not rows:
                return
            yield [(r["id"], r["scope"]) for r in rows]
            after = rows[-1]["id"]

    # Writing: each call is one transaction.

    def create_derived(
        self,
        clusters: Sequence[tuple[DerivedMemory, Sequence[SourceLink]]],
        *,
        min_sources: int,
        source_statuses: Sequence[str],
        now: datetime,
        run_id: str,
    ) -> dict[str, int]:
        """Create each derived memory from its sources still eligible (one transaction for all).

        Returns id -> sources linked for the memories made; a cluster with too few eligible
        sources left (a resumed or repeated run) makes nothing.
        """
        if not clusters:
            return {}
        rows = self._executor.write(
            "consolidate/create_derived_memories",
            clusters=[{"memory": m.row(), "sources": [s.row() for s in links]} for m, links in clusters],
            min_sources=min_sources,
            source_statuses=list(source_statuses),
            now=now,
            run_id=run_id,
        )
        return {r["id"]: int(r["sources"]) for r in rows}

    def attach(
        self,
        attachments: Sequence[tuple[str, Sequence[SourceLink]]],
        now: datetime,
        run_id: str,
        source_statuses: Sequence[str] = ("active",),
    ) -> int:
        """Add sources (still of a status in ``source_statuses``) to existing derived memories (one
        transaction); returns how many were new."""
        if not attachments:
            return 0
        rows = self._executor.write(
            "consolidate/attach_sources",
            attachments=[{"derived_id": d, "sources": [s.row() for s in links]} for d, links in attachments],
            source_statuses=list(source_statuses),
            now=now,
            run_id=run_id,
        )
        return int(rows[0]["attached"] or 0) if rows else 0

    def merge(
        self, pairs: Sequence[tuple[str, str, float]], now: datetime, run_id: str
    ) -> list[tuple[str, str]]:
        """Merge each (winner, loser, cosine) in one transaction; returns the pairs that still qualified."""
        if not pairs:
            return []
        rows = self._executor.write(
            "consolidate/merge_memories",
            pairs=[{"winner": w, "loser": lo, "similarity": c} for w, lo, c in pairs],
            now=now,
            run_id=run_id,
        )
        return [(r["winner"], r["loser"]) for r in rows]

    def archive_candidates(self, cutoff: datetime) -> list[Row]:
        """Active, unpinned memories unused since ``cutoff``."""
        return [native(r) for r in self._executor.read("consolidate/archive_candidates", cutoff=cutoff)]

    def archive(self, rows: Sequence[dict[str, Any]], now: datetime, run_id: str) -> list[str]:
        """Archive the memories whose row cutoff they are still behind; returns the archived ids."""
        result = self._executor.write("consolidate/archive_memories", rows=list(rows), now=now, run_id=run_id)
        return [r["id"] for r in result]

    def mark_cold(self, cutoff: datetime, now: datetime) -> int:
        """Archived memories unused since ``cutoff`` go cold; returns how many."""
        return int(self._executor.write("consolidate/mark_cold", cutoff=cutoff, now=now)[0]["cold"])

    # C5, C6, C7.

    def category_members(self, per_category: int) -> list[Row]:
        """Per scope and category: the count and the strongest active memories."""
        return self._executor.read("consolidate/category_members", per_category=per_category)

    def upsert_summary(
        self,
        scope: str,
        category: str,
        summary_id: str,
        text: str,
        items: int,
        member_ids: list[str],
        now: datetime,
    ) -> bool:
        """Write one category summary; True when its text or count changed."""
        rows = self._executor.write(
            "consolidate/upsert_category_summary",
            scope=scope,
            category=category,
            id=summary_id,
            text=text,
            items=items,
            member_ids=member_ids,
            now=now,
        )
        return bool(rows and rows[0]["changed"])

    def drop_summaries_except(self, keep: list[list[str]]) -> int:
        """Delete summaries of (scope, category) pairs not in ``keep``."""
        return int(self._executor.write("consolidate/stale_category_summaries", keep=keep)[0]["removed"])

    def priority_profiles(self) -> list[Row]:
        """Per scope, the attention weight of each category."""
        return self._executor.read("consolidate/priority_profile")

    def snapshots_before(self, before: datetime) -> dict[str, Row]:
        """Per scope, the newest priority snapshot taken at or before ``before``."""
        return {
            r["scope"]: native(r) for r in self._executor.read("consolidate/snapshot_before", before=before)
        }

    def save_snapshots(self, rows: list[dict[str, Any]], now: datetime, run_id: str) -> int:
        """Record priority snapshots; returns how many."""
        if not rows:
            return 0
        result = self._executor.write(
            "consolidate/create_priority_snapshots", rows=rows, now=now, run_id=run_id
        )
        return int(result[0]["snapshots"])

    def to_reembed(self, model: str, after: str, page: int) -> list[Row]:
        """The next page of memories whose vector another model made."""
        return self._executor.read("consolidate/memories_to_reembed", model=model, after=after, page=page)

    def count_to_reembed(self, model: str) -> int:
        """How many memories still wait for a vector of ``model``."""
        return int(self._executor.read("consolidate/count_to_reembed", model=model)[0]["remaining"])

    def set_embeddings(self, rows: list[dict[str, Any]], model: str) -> int:
        """Store re-made vectors."""
        return int(self._executor.write("consolidate/set_embeddings", rows=rows, model=model)[0]["updated"])

    # Health report.

    def health_rows(
        self, now: datetime, since: datetime
    ) -> tuple[list[Row], list[Row], list[Row], list[Row]]:
        """In one read: counts by layer/status, by category/status, staleness buckets, weekly growth."""

        def work(tx: Any) -> tuple[list[Row], list[Row], list[Row], list[Row]]:
            return (
                tx.run("consolidate/health_layers"),
                tx.run("consolidate/health_counts"),
                tx.run("consolidate/health_staleness", now=now),
                tx.run("consolidate/health_growth", since=since),
            )

        return self._executor.read_unit(work, "health report")
