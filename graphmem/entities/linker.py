"""W6: linking memories to the entities they mention, in two steps: plan, then write.

:meth:`EntityLinker.plan` extracts mentions (one LLM call per batch, or offline), embeds their
names (one call), reads the entities of the scopes involved (one query: inside the write
transaction when it is given one, as the write path does, so under the scope locks and without a
transaction of its own) and resolves every mention to a stored or a new entity.
:meth:`EntityLinker.write` runs inside the transaction, after the memories are created, and only
merges and links.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime
from typing import Any

import numpy as np
from numpy.typing import NDArray

from graphmem.clock import Clock, SystemClock
from graphmem.embedding.base import Embedder
from graphmem.embedding.kept import KeptVectors
from graphmem.entities.extract import DEFAULT_TEXTS_PER_CALL, EntityExtractor, EntityMention, parse_ahead
from graphmem.entities.names import entity_key, group_id_for_scope
from graphmem.entities.resolve import KnownEntity, Resolution, ResolveSettings, resolve_mentions
from graphmem.llm.base import LLM, Usage
from graphmem.store.entities import EntityStore, StoredEntity
from graphmem.store.executor import Transaction

MemoryToLink = tuple[str, str, str, str | None]
"""(memory_id, text, scope, speaker): a memory whose mentions to link; speaker may be None."""


def _known(stored: Sequence[StoredEntity]) -> list[KnownEntity]:
    """The pool resolution starts from; a graphiti entity whose key graphmem already has is left out."""
    own = {e.key for e in stored if e.key is not None}
    known = []
    for e in stored:
        if e.key is None and entity_key(e.name) in own:
            continue
        key = e.key if e.key is not None else entity_key(e.name)
        if key:
            known.append(KnownEntity(key, e.name, e.kind, e.name_embedding, id=e.id, adopt=e.key is None))
            own.add(key)
    return known


class EntityLinker:
    """Plans and writes the ``MENTIONS`` links of a batch of memories (see the module docstring)."""

    def __init__(
        self,
        llm: LLM,
        embedder: Embedder,
        store: EntityStore,
        *,
        settings: ResolveSettings | None = None,
        clock: Clock | None = None,
        texts_per_call: int = DEFAULT_TEXTS_PER_CALL,
    ) -> None:
        self._extractor = EntityExtractor(llm, texts_per_call=texts_per_call)
        self._embedder = embedder
        self._store = store
        self._settings = settings or ResolveSettings()
        self._clock: Clock = clock or SystemClock()
        self._names = KeptVectors(embedder)

    def plan(
        self, memories: Sequence[MemoryToLink], tx: Transaction | None = None
    ) -> tuple[list[dict[str, Any]], Usage]:
        """The mention rows of ``memories`` for :meth:`write`, and what the LLM calls cost.

        One row per (memory, entity) with ``memory_id, scope, key, name, name_embedding, kind,
        entity_id, group_id, seen_at`` (and ``adopt`` for a graphiti entity). Reads Neo4j once
        (in ``tx`` when given: the write transaction the rows go into) and embeds once; raises
        DatabaseUnavailableError or EmbeddingError when those fail (an LLM failure falls back to
        the offline extractor).
        """
        if not memories:
            return [], Usage()
        texts = [m[1] for m in memories]
        mentions, usage = self._extractor.extract_batch(texts, [m[3] for m in memories])
        extracted = [(m[0], m[2], found) for m, found in zip(memories, mentions, strict=True)]
        return self.plan_mentions(extracted, tx), usage

    @staticmethod
    def read_ahead(texts: Sequence[str]) -> None:
        """Parse what :meth:`plan` will read of ``texts`` (spaCy, cached), before it is asked."""
        parse_ahead(texts)

    def plan_mentions(
        self, found: Sequence[tuple[str, str, Sequence[EntityMention]]], tx: Transaction | None = None
    ) -> list[dict[str, Any]]:
        """The rows for mentions already extracted, as ``(memory_id, scope, mentions)``: resolution only.

        Used by :meth:`plan` and by the graphiti bridge (whose entities are the mentions). Reads
        Neo4j once and embeds once.
        """
        vectors = self._name_vectors([mentions for _, _, mentions in found])
        stored = self._store.candidates([scope for _, scope, _ in found], tx=tx)
        seen_at = self._clock.now()
        rows: list[dict[str, Any]] = []
        for scope in sorted({scope for _, scope, _ in found}):
            pairs = [(mid, mention) for mid, s, mentions in found if s == scope for mention in mentions]
            resolutions = resolve_mentions(
                [mention for _, mention in pairs],
                [vectors.get(mention.name) for _, mention in pairs],
                _known(stored.get(scope, [])),
                self._settings,
            )
            rows += _rows(scope, pairs, resolutions, vectors, seen_at)
        return rows

    @staticmethod
    def write(tx: Transaction, rows: list[dict[str, Any]]) -> None:
        """Merge the planned entities and link the memories to them, inside the caller's transaction."""
        EntityStore.link(tx, rows)

    def _name_vectors(self, mentions: Sequence[Sequence[EntityMention]]) -> dict[str, NDArray[np.float32]]:
        """The vector of each name (the same few names, speakers first, recur in most batches)."""
        return self._names.vectors(sorted({m.name for found in mentions for m in found}))


def _rows(
    scope: str,
    pairs: Sequence[tuple[str, EntityMention]],
    resolutions: Sequence[Resolution],
    vectors: dict[str, NDArray[np.float32]],
    seen_at: datetime,
) -> list[dict[str, Any]]:
    """One row per distinct (memory, entity); a new entity gets one id, shared by all its rows."""
    rows: list[dict[str, Any]] = []
    done: set[tuple[str, str]] = set()
    new_ids: dict[str, str] = {}
    for (memory_id, _), r in zip(pairs, resolutions, strict=True):
        if (memory_id, r.key) in done:
            continue
        done.add((memory_id, r.key))
        stored = r.entity
        if stored is not None and stored.id is not None:
            entity_id = stored.id
        else:
            entity_id = new_ids.setdefault(r.key, str(uuid.uuid4()))
        vector = vectors.get(r.name)
        if vector is None:
            vector = vectors.get(r.mention.name)
        row: dict[str, Any] = {
            "memory_id": memory_id,
            "scope": scope,
            "key": r.key,
            "name": r.name,
            "name_embedding": None if vector is None else [float(x) for x in vector],
            "kind": r.kind,
            "entity_id": entity_id,
            "group_id": group_id_for_scope(scope),
            "seen_at": seen_at,
        }
        if stored is not None and stored.adopt:
            row["adopt"] = stored.id
        rows.append(row)
    return rows
