"""What the MCP tools show of memories and decisions: the fields a model needs, nothing bulky."""

from __future__ import annotations

from typing import Any

from graphmem.models import DecisionRecord, MemoryRecord, Recalled

_MEMORY_FIELDS = ("id", "text", "scope", "layer", "status", "categories", "importance", "occurred_at")


def memory_view(memory: MemoryRecord) -> dict[str, Any]:
    """A memory as a tool shows it: id, text, scope, layer, status, categories, importance, when."""
    data = memory.model_dump(mode="json", include=set(_MEMORY_FIELDS))
    return {name: data[name] for name in _MEMORY_FIELDS}


def recalled_view(hit: Recalled) -> dict[str, Any]:
    """A recall result: the memory view plus its score and tags."""
    return {**memory_view(hit), "score": round(hit.score, 4), "tags": list(hit.tags)}


def decision_view(decision: DecisionRecord) -> dict[str, Any]:
    """A decision as a tool shows it (every field but the bookkeeping ones)."""
    return decision.model_dump(mode="json", exclude={"memory_id"})
