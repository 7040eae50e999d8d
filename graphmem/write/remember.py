"""W1 + W4: remembering texts as episodic memories, one or a batch, with near-duplicate handling."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass

from graphmem.clock import Clock
from graphmem.dynamics.reinforcement import is_spaced, reinforce
from graphmem.embedding.base import Embedder
from graphmem.errors import InvalidInputError, TextTooLongError
from graphmem.models import MemoryInput, MemoryRecord, WriteResult
from graphmem.scopes import ROOT
from graphmem.store.memories import MemoryStore, NewMemory, StoredDuplicate
from graphmem.write.dedup import batch_duplicates

DEFAULT_IMPORTANCE = 0.5
DEFAULT_CONFIDENCE = 1.0
INITIAL_STRENGTH = 1.0


@dataclass(frozen=True)
class WriteLimits:
    """Bounds and thresholds of the write path."""

    max_text_bytes: int = 32 * 1024
    max_batch_items: int = 1000
    batch_duplicate_cosine: float = 0.98
    store_duplicate_cosine: float = 0.98


def check_inputs(items: Sequence[MemoryInput], limits: WriteLimits) -> None:
    """Raise before anything is written when the batch or one of its texts is too large."""
    if not items:
        raise InvalidInputError("Give at least one item to remember.")
    if len(items) > limits.max_batch_items:
        raise InvalidInputError(
            f"A batch holds at most {limits.max_batch_items} items; split these {len(items)} into several."
        )
    for i, item in enumerate(items):
        size = len(item.text.encode("utf-8"))
        if size > limits.max_text_bytes:
            raise TextTooLongError(
                f"Item {i}: text is {size} bytes, over the limit of {limits.max_text_bytes} "
                "(GRAPHMEM_MAX_TEXT_BYTES); split it or use /v1/extract."
            )


def _or_default(value: float | None, default: float) -> float:
    return default if value is None else value


class RememberPipeline:
    """Validates, embeds, de-duplicates and stores memories."""

    def __init__(self, store: MemoryStore, embedder: Embedder, clock: Clock, limits: WriteLimits) -> None:
        self._store = store
        self._embedder = embedder
        self._clock = clock
        self._limits = limits

    def remember(self, items: Sequence[MemoryInput]) -> list[WriteResult]:
        """Store each item (or reinforce its stored near-duplicate); results in input order.

        The whole batch is one transaction: on any error nothing is written.
        """
        check_inputs(items, self._limits)
        now = self._clock.now()
        embeddings = self._embedder.embed([item.text for item in items])
        scopes = [item.scope or ROOT for item in items]
        owners = batch_duplicates(embeddings, scopes, self._limits.batch_duplicate_cosine)
        kept = [i for i, owner in enumerate(owners) if owner is None]
        new = [
            NewMemory(
                id=str(uuid.uuid4()),
                text=items[i].text,
                scope=scopes[i],
                categories=items[i].categories or [],
                importance=_or_default(items[i].importance, DEFAULT_IMPORTANCE),
                confidence=DEFAULT_CONFIDENCE,
                strength=INITIAL_STRENGTH,
                created_at=now,
                occurred_at=items[i].occurred_at or now,
                source=items[i].source,
                metadata=items[i].metadata or {},
                embedding=embeddings[i].tolist(),
            )
            for i in kept
        ]

        def plan(duplicates: list[StoredDuplicate]) -> list[dict[str, object]]:
            rows = []
            for dup in duplicates:
                hours = (
                    0.0
                    if dup.last_accessed_at is None
                    else (now - dup.last_accessed_at).total_seconds() / 3600
                )
                rows.append(
                    {
                        "index": dup.index,
                        "id": dup.id,
                        "strength": reinforce(dup.strength, hours),
                        "accessed_at": now,
                        "spaced_access_count": dup.spaced_access_count + (1 if is_spaced(hours) else 0),
                    }
                )
            return rows

        created, reinforced = self._store.write_batch(
            new, duplicate_cosine=self._limits.store_duplicate_cosine, plan_reinforcement=plan
        )
        by_item: dict[int, WriteResult] = {}
        for position, item_index in enumerate(kept):
            if position in reinforced:
                by_item[item_index] = WriteResult(memory=reinforced[position], actions=["reinforced"])
            else:
                by_item[item_index] = WriteResult(memory=created[position], actions=["created"])
        results = []
        for i, owner in enumerate(owners):
            if owner is None:
                results.append(by_item[i])
            else:
                memory: MemoryRecord = by_item[owner].memory
                results.append(WriteResult(memory=memory, actions=["duplicate"]))
        return results
