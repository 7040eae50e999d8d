"""W10 forward triggers: written with the memories that name a future day, read back when due."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import date, datetime, timedelta
from typing import Any

from graphmem.agenda.dates import future_days, future_days_batch
from graphmem.agenda.models import FutureTrigger
from graphmem.errors import InvalidInputError
from graphmem.llm.base import Usage
from graphmem.models import MemoryRecord
from graphmem.scopes import scope_filter
from graphmem.store.executor import QueryExecutor, Transaction
from graphmem.store.memories import NewMemory
from graphmem.store.records import native, to_memory

DEFAULT_DUE_WINDOW_DAYS = 1
MAX_TRIGGERS = 1000


def _trigger_row(memory_id: str, due_on: date, scope: str, created_at: datetime) -> dict[str, Any]:
    return {
        "id": str(uuid.uuid4()),
        "memory_id": memory_id,
        "due_on": due_on,
        "scope": scope,
        "created_at": created_at,
    }


class TriggerLinking:
    """A write-path stage: each new current memory gets a FutureTrigger per future day it names."""

    def __init__(self, *, day_first: bool = True) -> None:
        self._day_first = day_first

    def plan(
        self, memories: Sequence[NewMemory], speakers: Sequence[str | None], tx: Transaction | None = None
    ) -> tuple[list[dict[str, Any]], Usage]:
        """Trigger rows for the new memories (none for one that arrives already superseded); the
        texts alone decide them (``tx`` is not read)."""
        current = [m for m in memories if m.status == "active"]
        days = future_days_batch([(m.text, m.occurred_at) for m in current], day_first=self._day_first)
        rows = [
            _trigger_row(m.id, day, m.scope, m.created_at)
            for m, found in zip(current, days, strict=True)
            for day in found
        ]
        return rows, Usage()

    def read_ahead(self, texts: Sequence[tuple[str, datetime]]) -> None:
        """Find the future days of these (text, occurred_at) now; :meth:`plan` finds them cached."""
        future_days_batch(texts, day_first=self._day_first)

    def write(self, tx: Transaction, rows: list[dict[str, Any]]) -> None:
        """Create the triggers inside the write transaction."""
        tx.run("agenda/create_triggers", rows=rows)

    def replace(self, tx: Transaction, memory: MemoryRecord, now: datetime) -> None:
        """After a memory's text changed: its triggers become those the new text names (the old
        ones go, even when the new text names no future day)."""
        active = memory.status == "active"
        days = future_days(memory.text, memory.occurred_at, day_first=self._day_first) if active else []
        tx.run("agenda/delete_memory_triggers", memory_id=memory.id)
        if days:
            self.write(tx, [_trigger_row(memory.id, day, memory.scope, now) for day in days])


def check_window(start: date | None, end: date | None) -> None:
    """InvalidInputError when a window ends before it starts."""
    if start is not None and end is not None and end < start:
        raise InvalidInputError(
            f"'to' ({end}) is before 'from' ({start}): give a window that ends after it starts."
        )


class TriggerStore:
    """Reads forward triggers (current memories only, within the caller's scopes)."""

    def __init__(self, executor: QueryExecutor) -> None:
        self._executor = executor

    def between(
        self,
        start: date | None,
        end: date | None,
        *,
        scope: str | None,
        allowed: list[str] | None,
        limit: int = MAX_TRIGGERS,
    ) -> list[FutureTrigger]:
        """Triggers due from ``start`` to ``end`` (both included, None: open) in the ``scope`` subtree."""
        check_window(start, end)
        exact, prefix = scope_filter(scope)
        rows = self._executor.read(
            "agenda/list_triggers",
            scope=exact,
            scope_prefix=prefix,
            allowed=allowed,
            limit=limit,
            due_from=start,
            due_to=end,
        )
        return [
            FutureTrigger.model_validate({**native(r["trigger"]), "memory": to_memory(r["memory"])})
            for r in rows
        ]

    def due(
        self, on: date, *, window_days: int, scope: str, allowed: list[str] | None, limit: int = 50
    ) -> list[FutureTrigger]:
        """Triggers due on ``on`` or overdue by at most ``window_days`` days."""
        if window_days < 0:
            raise InvalidInputError("due_window_days must be 0 or more.")
        return self.between(on - timedelta(days=window_days), on, scope=scope, allowed=allowed, limit=limit)
