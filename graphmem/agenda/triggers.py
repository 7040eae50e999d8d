"""W10 forward triggers: written with the memories that name a future day, read back when due."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import date, timedelta
from typing import Any

from graphmem.agenda.dates import future_days_batch
from graphmem.agenda.models import FutureTrigger
from graphmem.errors import InvalidInputError
from graphmem.llm.base import Usage
from graphmem.scopes import scope_filter
from graphmem.store.executor import QueryExecutor, Transaction
from graphmem.store.memories import NewMemory
from graphmem.store.records import native, to_memory

DEFAULT_DUE_WINDOW_DAYS = 1
MAX_TRIGGERS = 1000


class TriggerLinking:
    """A write-path stage: each new current memory gets a FutureTrigger per future day it names."""

    def __init__(self, *, day_first: bool = True) -> None:
        self._day_first = day_first

    def plan(
        self, memories: Sequence[NewMemory], speakers: Sequence[str | None]
    ) -> tuple[list[dict[str, Any]], Usage]:
        """Trigger rows for the new memories (none for one that arrives already superseded)."""
        current = [m for m in memories if m.status == "active"]
        days = future_days_batch([(m.text, m.occurred_at) for m in current], day_first=self._day_first)
        rows = [
            {
                "id": str(uuid.uuid4()),
                "memory_id": m.id,
                "due_on": day,
                "scope": m.scope,
                "created_at": m.created_at,
            }
            for m, found in zip(current, days, strict=True)
            for day in found
        ]
        return rows, Usage()

    def write(self, tx: Transaction, rows: list[dict[str, Any]]) -> None:
        """Create the triggers inside the write transaction."""
        tx.run("agenda/create_triggers", rows=rows)


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
