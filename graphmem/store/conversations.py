"""The conversation aggregate: ``Conversation`` and ``Turn`` nodes, and the session-start reads."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from graphmem.conversations.models import Conversation, Role, Turn
from graphmem.errors import NotFoundError
from graphmem.models import MemoryRecord
from graphmem.scopes import scope_filter
from graphmem.store.executor import QueryExecutor
from graphmem.store.records import native, to_memory

# Below this strength a memory is hidden from recall (D1), so it is not loaded at session start either.
VISIBLE_STRENGTH = 0.1


@dataclass(frozen=True)
class RecordedTurn:
    """A stored turn, its conversation after the turn, and whether a review became due."""

    turn: Turn
    conversation: Conversation
    review_due: bool


@dataclass(frozen=True)
class PendingTurns:
    """A conversation and its turns not yet reviewed, oldest first."""

    conversation: Conversation
    turns: list[Turn]


def _conversation(props: dict[str, object]) -> Conversation:
    return Conversation.model_validate(native(props))


def _turn(props: dict[str, object]) -> Turn:
    return Turn.model_validate(native(props))


class ConversationStore:
    """Reads and writes conversations and turns through the catalog's ``conversations/`` queries."""

    def __init__(self, executor: QueryExecutor) -> None:
        self._executor = executor

    def record_turn(
        self,
        conversation_id: str,
        *,
        role: Role,
        text: str,
        at: datetime,
        user: str | None,
        scope: str,
        nudge_every: int,
    ) -> RecordedTurn:
        """Append a turn (creating the conversation on its first turn) and count it towards a review.

        When the turn brings the user-turn counter to ``nudge_every`` the counter is reset in the
        same transaction and ``review_due`` is True, so one review is scheduled exactly once.
        Raises NotFoundError when the conversation exists outside the caller's allowed scopes.
        """
        rows = self._executor.write(
            "conversations/record_turn",
            conversation_id=conversation_id,
            turn_id=str(uuid.uuid4()),
            role=role,
            text=text,
            at=at,
            user=user,
            scope=scope,
            nudge_every=nudge_every,
        )
        if not rows:
            raise NotFoundError(f"No conversation has id {conversation_id!r}.")
        row = rows[0]
        return RecordedTurn(
            turn=_turn(row["turn"]),
            conversation=_conversation(row["conversation"]),
            review_due=bool(row["review_due"]),
        )

    def get(self, conversation_id: str) -> Conversation | None:
        """The conversation, or None for an unknown id."""
        rows = self._executor.read("conversations/get_conversation", conversation_id=conversation_id)
        return _conversation(rows[0]["conversation"]) if rows else None

    def pending(self, conversation_id: str, *, limit: int = 10_000) -> PendingTurns | None:
        """The conversation and up to ``limit`` of its unprocessed turns, oldest first; None if unknown."""
        rows = self._executor.read(
            "conversations/pending_turns", conversation_id=conversation_id, limit=limit
        )
        if not rows:
            return None
        row = rows[0]
        return PendingTurns(
            conversation=_conversation(row["conversation"]), turns=[_turn(t) for t in row["turns"]]
        )

    def mark_processed(self, conversation_id: str, turn_ids: Sequence[str], now: datetime) -> int:
        """Mark turns as reviewed; returns how many were marked."""
        if not turn_ids:
            return 0
        rows = self._executor.write(
            "conversations/mark_turns_processed",
            conversation_id=conversation_id,
            turn_ids=list(turn_ids),
            now=now,
        )
        return int(rows[0]["marked"]) if rows else 0

    def close(self, conversation_id: str, now: datetime) -> Conversation | None:
        """Close the conversation; None for an unknown id."""
        rows = self._executor.write(
            "conversations/close_conversation", conversation_id=conversation_id, now=now
        )
        return _conversation(rows[0]["conversation"]) if rows else None

    def idle_open(self, before: datetime, *, limit: int = 1000) -> list[str]:
        """Ids of open conversations whose last turn is older than ``before``, oldest first."""
        rows = self._executor.read("conversations/idle_open_conversations", before=before, limit=limit)
        return [str(r["conversation_id"]) for r in rows]

    def lessons(self, scope: str, *, limit: int) -> list[MemoryRecord]:
        """Active instruction memories of the ``scope`` subtree, most important first."""
        return self._memories("sessions/list_lessons", scope, limit)

    def core_facts(self, scope: str, *, limit: int) -> list[MemoryRecord]:
        """The most important and strongest active non-instruction memories of the ``scope`` subtree."""
        return self._memories("sessions/list_core_facts", scope, limit)

    def _memories(self, name: str, scope: str, limit: int) -> list[MemoryRecord]:
        value, prefix = scope_filter(scope)
        # The root scope reads everything: '' matches every scope both ways.
        rows = self._executor.read(
            name,
            scope=value or "/",
            scope_prefix=prefix or "/",
            min_strength=VISIBLE_STRENGTH,
            limit=limit,
        )
        return [to_memory(r["memory"]) for r in rows]
