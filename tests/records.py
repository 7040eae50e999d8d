"""Stored-memory records for tests that stand in for the write path without a graph (the queue
and group-commit tests give the caller what a write would answer)."""

from __future__ import annotations

from datetime import UTC, datetime

from graphmem.models import MemoryInput, MemoryRecord


def record_of(item: MemoryInput) -> MemoryRecord:
    """The active episodic record a write of ``item`` answers with; its id is its text."""
    now = datetime.now(UTC)
    return MemoryRecord(
        id=item.text,
        text=item.text,
        layer="episodic",
        scope=item.scope or "/",
        categories=[],
        importance=0.5,
        confidence=1.0,
        strength=1.0,
        status="active",
        created_at=now,
        occurred_at=now,
    )
