"""The entity aggregate: every read and write of ``Entity`` nodes and ``MENTIONS`` edges goes through here.

Entities are merged on ``(scope, key)`` (``key`` is :func:`graphmem.entities.names.entity_key` of
the name) and carry graphiti's property names besides graphmem's: ``uuid`` (= ``id``),
``group_id`` (from the scope), ``name``, ``summary``, ``name_embedding`` and ``created_at``, so that
graphiti's searches and dedup read graphmem's entities and graphiti's ``EntityNode.save`` keeps
graphmem's own properties (it carries unknown properties through as attributes). graphiti also
writes those attributes as JSON into its dedup prompts, so every extra property must be a plain
string, number or list: no temporal values besides ``created_at`` (which graphiti owns).

graphmem's ``MENTIONS`` edges (Memory -> Entity) carry no ``uuid`` or ``group_id``: graphiti's
edge reads match on those, so they never mistake graphmem's edges for their own
``Episodic -> Entity`` ones.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from graphmem.entities.names import group_id_for_scope
from graphmem.models import EntityRecord
from graphmem.scopes import scope_filter
from graphmem.store.executor import QueryExecutor, Transaction

DEFAULT_CANDIDATES_PER_SCOPE = 2000


@dataclass(frozen=True)
class StoredEntity:
    """An entity of a scope, as resolution needs it (``key`` is None for one graphiti made)."""

    scope: str
    id: str
    key: str | None
    name: str
    kind: str | None
    name_embedding: NDArray[np.float32] | None


@dataclass(frozen=True)
class EntityNeighbour:
    """A memory that mentions entities the given memories mention."""

    memory_id: str
    shared_entities: list[str]


def _vector(raw: Any) -> NDArray[np.float32] | None:
    if not raw:
        return None
    vector = np.asarray(raw, dtype=np.float32)
    norm = float(np.linalg.norm(vector))
    return vector / norm if norm > 0 else None


class EntityStore:
    """Reads and writes entity nodes through the catalog's ``entities/`` queries."""

    def __init__(self, executor: QueryExecutor) -> None:
        self._executor = executor

    def candidates(
        self,
        scopes: Sequence[str],
        *,
        per_scope: int = DEFAULT_CANDIDATES_PER_SCOPE,
        tx: Transaction | None = None,
    ) -> dict[str, list[StoredEntity]]:
        """The stored entities of each scope (newest first, at most ``per_scope``); read in ``tx``
        when given (the write transaction the links go into), else in a read transaction of its own."""
        wanted = sorted(set(scopes))
        found: dict[str, list[StoredEntity]] = {scope: [] for scope in wanted}
        if not wanted:
            return found
        params: dict[str, Any] = {
            "scopes": [{"scope": s, "group_id": group_id_for_scope(s)} for s in wanted],
            "limit": per_scope,
        }
        if tx is not None:
            rows = tx.run("entities/find_candidates", **params)
        else:
            rows = self._executor.read("entities/find_candidates", **params)
        for row in rows:
            found[row["scope"]].append(
                StoredEntity(
                    scope=row["scope"],
                    id=row["id"],
                    key=row["key"],
                    name=row["name"],
                    kind=row["kind"],
                    name_embedding=_vector(row["name_embedding"]),
                )
            )
        return found

    @staticmethod
    def link(tx: Transaction, mentions: Sequence[dict[str, Any]]) -> int:
        """Merge the mentioned entities and create ``(memory)-[:MENTIONS]->(entity)`` edges; returns how many.

        Each row holds ``memory_id, scope, key, name, name_embedding, kind, entity_id, group_id,
        seen_at`` and optionally ``adopt`` (the id of a graphiti entity to give this scope and key
        first). A row whose memory does not exist is skipped.
        """
        if not mentions:
            return 0
        adopt = [{"id": m["adopt"], "scope": m["scope"], "key": m["key"]} for m in mentions if m.get("adopt")]
        if adopt:
            tx.run("entities/adopt_entities", rows=adopt)
        fields = (
            "memory_id",
            "scope",
            "key",
            "name",
            "name_embedding",
            "kind",
            "entity_id",
            "group_id",
            "seen_at",
        )
        rows = [{f: m[f] for f in fields} for m in mentions]
        result = tx.run("entities/link_mentions", rows=rows)
        return int(result[0]["linked"]) if result else 0

    @staticmethod
    def link_episode(tx: Transaction, memory_id: str, episode_uuid: str) -> bool:
        """Link a memory to the ``Episodic`` node graphiti made of it; False when either is missing."""
        rows = tx.run("entities/link_episode", memory_id=memory_id, episode_uuid=episode_uuid)
        return bool(rows and int(rows[0]["linked"]))

    def neighbours(
        self,
        memory_ids: Sequence[str],
        *,
        scope: str | None = None,
        statuses: Sequence[str] = ("active",),
        limit: int = 50,
    ) -> list[EntityNeighbour]:
        """Memories of the ``scope`` subtree sharing entities with ``memory_ids``, most shared first."""
        if not memory_ids:
            return []
        exact, prefix = scope_filter(scope)
        rows = self._executor.read(
            "entities/find_neighbours",
            memory_ids=list(memory_ids),
            statuses=list(statuses),
            scope=exact,
            scope_prefix=prefix,
            limit=limit,
        )
        return [EntityNeighbour(memory_id=r["id"], shared_entities=list(r["entities"])) for r in rows]

    def list_entities(self, scope: str | None = None, *, limit: int = 1000) -> list[EntityRecord]:
        """The entities of the ``scope`` subtree (every entity for None), most mentioned first."""
        exact, prefix = scope_filter(scope)
        rows = self._executor.read("entities/list_entities", scope=exact, scope_prefix=prefix, limit=limit)
        return [EntityRecord.model_validate(r) for r in rows]
