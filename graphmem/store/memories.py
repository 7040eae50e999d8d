"""The memory aggregate: every read and write of ``Memory`` nodes goes through here."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from graphmem.errors import NotFoundError
from graphmem.models import ForgetFilter, HistoryEntry, MemoryDetail, MemoryPatch, MemoryRecord
from graphmem.scopes import scope_filter
from graphmem.store.executor import QueryExecutor, Row, Transaction
from graphmem.store.records import memory_fields, native, to_memory


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
        }


@dataclass(frozen=True)
class StoredDuplicate:
    """An existing memory nearly identical to a new one."""

    index: int
    id: str
    cosine: float
    strength: float
    last_accessed_at: datetime | None
    spaced_access_count: int


ReinforcePlan = Callable[[list[StoredDuplicate]], list[dict[str, Any]]]


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

    def write_batch(
        self,
        items: Sequence[NewMemory],
        *,
        duplicate_cosine: float,
        plan_reinforcement: ReinforcePlan,
    ) -> tuple[dict[int, MemoryRecord], dict[int, MemoryRecord]]:
        """Create ``items`` in one transaction, reinforcing stored near-duplicates instead.

        Returns (created by item index, reinforced by item index). All or nothing.
        """

        def work(tx: Transaction) -> tuple[dict[int, MemoryRecord], dict[int, MemoryRecord]]:
            rows = [item.row(i) for i, item in enumerate(items)]
            duplicates = self._find_duplicates(tx, rows, duplicate_cosine)
            reinforced: dict[int, MemoryRecord] = {}
            if duplicates:
                for row in tx.run("memories/reinforce_memories", rows=plan_reinforcement(duplicates)):
                    reinforced[int(row["index"])] = to_memory(row["memory"])
            fresh = [row for row in rows if row["index"] not in reinforced]
            created: dict[int, MemoryRecord] = {}
            if fresh:
                result = tx.run("memories/create_memories", rows=fresh)
                for row, out in zip(fresh, result, strict=True):
                    created[int(row["index"])] = to_memory(out["memory"])
            return created, reinforced

        return self._executor.write_unit(work, "remember_batch")

    @staticmethod
    def _find_duplicates(tx: Transaction, rows: list[dict[str, Any]], cosine: float) -> list[StoredDuplicate]:
        probe = [{"index": r["index"], "scope": r["scope"], "embedding": r["embedding"]} for r in rows]
        found = tx.run(
            "memories/find_store_duplicates", rows=probe, k=10, min_score=index_score_from_cosine(cosine)
        )
        duplicates = []
        for row in found:
            best = native(row["best"])
            duplicates.append(
                StoredDuplicate(
                    index=int(row["index"]),
                    id=best["id"],
                    cosine=cosine_from_index_score(float(best["score"])),
                    strength=float(best["strength"] or 1.0),
                    last_accessed_at=best["last_accessed_at"],
                    spaced_access_count=int(best["spaced_access_count"] or 0),
                )
            )
        return duplicates

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
        return MemoryDetail.model_validate(
            {**memory_fields(row["memory"]), "history": history, "derived_from": row["derived_from"]}
        )

    def update(
        self, memory_id: str, patch: MemoryPatch, embedding: list[float] | None, now: datetime
    ) -> MemoryRecord:
        """Apply ``patch`` (and the new text's embedding); raises NotFoundError for an unknown id."""
        metadata = (
            None if patch.metadata is None else json.dumps(patch.metadata, ensure_ascii=False, sort_keys=True)
        )
        rows = self._executor.write(
            "memories/update_memory",
            id=memory_id,
            text=patch.text,
            scope=patch.scope,
            categories=patch.categories,
            importance=patch.importance,
            metadata_json=metadata,
            embedding=embedding,
            now=now,
        )
        if not rows:
            raise NotFoundError(f"No memory has id {memory_id!r}.")
        return to_memory(rows[0]["memory"])

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
