"""Turning what Neo4j returns into graphmem's models."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

from neo4j.time import Date, DateTime

from graphmem.models import MemoryRecord


def native(value: Any) -> Any:
    """Neo4j temporal values as Python datetimes, recursively through lists and maps."""
    if isinstance(value, (DateTime, Date)):
        return value.to_native()
    if isinstance(value, list):
        if value and isinstance(value[0], float):  # a vector: numbers all through, nothing to convert
            return value
        return [native(v) for v in value]
    if isinstance(value, dict):
        return {k: native(v) for k, v in value.items()}
    return value


EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def epoch_seconds(seconds: int | None, microsecond: int | None) -> float | None:
    """A DateTime read as Cypher's ``.epochSeconds`` and ``.microsecond``, as ``datetime.timestamp()``
    gives it (None for null).

    The driver turns each DateTime into its own type through a time zone lookup and then a Python
    datetime: about 0.1 ms of CPU a value, and a first nightly at 50k memories reads 200,000 of them
    (C1's times, C1's members, D1's last uses). Two integers cost nothing.
    """
    if seconds is None:
        return None
    return (seconds * 10**6 + (microsecond or 0)) / 10**6  # exactly as timedelta.total_seconds()


def utc_instant(seconds: int | None, microsecond: int | None) -> datetime | None:
    """The UTC datetime of Cypher's ``.epochSeconds`` and ``.microsecond`` (see ``epoch_seconds``)."""
    if seconds is None:
        return None
    return EPOCH + timedelta(seconds=seconds, microseconds=microsecond or 0)


def instant(parts: list[int] | None) -> datetime | None:
    """A datetime from Cypher's ``[t.epochSeconds, t.nanosecond, t.offsetSeconds]`` (None for null)."""
    if parts is None:
        return None
    seconds, nanosecond, offset = parts
    zone = UTC if not offset else timezone(timedelta(seconds=offset))
    return datetime.fromtimestamp(seconds, zone).replace(microsecond=nanosecond // 1000)


# The times a memory created by memories/create_memories comes back with, each as Cypher's
# ``[t.epochSeconds, t.nanosecond, t.offsetSeconds]`` (:func:`instant`) instead of a DateTime.
CREATED_TIMES = ("created_at", "occurred_at", "last_accessed_at")


def created_memory(props: dict[str, Any]) -> MemoryRecord:
    """A MemoryRecord from the map memories/create_memories returns: its node's properties, the
    times of :data:`CREATED_TIMES` as epoch parts. The driver builds each DateTime through a time
    zone lookup, about 0.1 ms of CPU a value, three a memory: a batch of 500 spent about as much
    on them as on the rest of reading its rows back; the parts give the same instants."""
    return to_memory({**props, **{name: instant(props.get(name)) for name in CREATED_TIMES}})


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
