"""Adapters that plug W6 entity linking and W7 decision recording into the write path."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from graphmem.decisions.recorder import DecisionRecorder
from graphmem.entities.linker import EntityLinker
from graphmem.llm.base import Usage
from graphmem.store.executor import Transaction
from graphmem.store.memories import NewMemory


class EntityLinking:
    """New memories MENTION the entities they name (deduplicated within their scope)."""

    def __init__(self, linker: EntityLinker) -> None:
        self._linker = linker

    def plan(
        self, memories: Sequence[NewMemory], speakers: Sequence[str | None], tx: Transaction | None = None
    ) -> tuple[list[dict[str, Any]], Usage]:
        """Mention rows for the new memories (the stored entities read in ``tx`` when given)."""
        return self._linker.plan(
            [(m.id, m.text, m.scope, s) for m, s in zip(memories, speakers, strict=True)], tx
        )

    def read_ahead(self, texts: Sequence[tuple[str, datetime]]) -> None:
        """Parse the texts as entity extraction reads them, beside the embedding (outside the
        transaction; the belief check's reading of a text that leaves something finds them too)."""
        self._linker.read_ahead([text for text, _ in texts])

    def write(self, tx: Transaction, rows: list[dict[str, Any]]) -> None:
        """MERGE the entities and MENTIONS edges."""
        EntityLinker.write(tx, rows)


class DecisionRecording:
    """Decisions stated in new memories become Decision nodes; reversals supersede older ones."""

    def __init__(self, recorder: DecisionRecorder) -> None:
        self._recorder = recorder

    def plan(
        self, memories: Sequence[NewMemory], speakers: Sequence[str | None], tx: Transaction | None = None
    ) -> tuple[list[dict[str, Any]], Usage]:
        """Decision rows for the new memories that state a decision (stored ones read in ``tx``)."""
        return self._recorder.plan([(m.id, m.text, m.scope, m.occurred_at) for m in memories], tx)

    def write(self, tx: Transaction, rows: list[dict[str, Any]]) -> None:
        """Create the decisions and their SUPERSEDES edges."""
        DecisionRecorder.write(tx, rows)
