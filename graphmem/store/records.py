"""Turning what Neo4j returns into graphmem's models."""

from __future__ import annotations

import json
from typing import Any

from neo4j.time import Date, DateTime

from graphmem.models import MemoryRecord


def native(value: Any) -> Any:
    """Neo4j temporal values as Python datetimes, recursively through lists and maps."""
    if isinstance(value, (DateTime, Date)):
        return value.to_native()
    if isinstance(value, list):
        return [native(v) for v in value]
    if isinstance(value, dict):
        return {k: native(v) for k, v in value.items()}
    return value


def memory_fields(props: dict[str, Any]) -> dict[str, Any]:
    """The fields of a MemoryRecord from a memory node's property map (``m {.*, embedding: null}``)."""
    data: dict[str, Any] = native(props)
    raw_meta = data.pop("metadata_json", None)
    data.pop("embedding", None)
    data["metadata"] = json.loads(raw_meta) if raw_meta else {}
    data.setdefault("categories", [])
    return data


def to_memory(props: dict[str, Any]) -> MemoryRecord:
    """A MemoryRecord from a memory node's property map."""
    return MemoryRecord.model_validate(memory_fields(props))
