"""Conversation sessions: record turns (W8 counter), review, end and flush them (W11), start them (W9/W13).

The nudge counter lives on the ``Conversation`` node, so it survives a restart; the caller runs
the review a turn made due after replying (the REST API uses a background task).
"""

from __future__ import annotations

import logging
import re
import threading
import time
import zlib
from contextlib import nullcontext
from datetime import datetime, timedelta

from graphmem.clock import Clock
from graphmem.conversations.lessons import LessonDetector
from graphmem.conversations.models import (
    LLM_REVIEW,
    Conversation,
    FlushResult,
    ReviewOutcome,
    Role,
    SessionContext,
    TurnCost,
    TurnResult,
)
from graphmem.conversations.review import ConversationReviewer, ReviewLimits, WriteBatch
from graphmem.errors import InvalidInputError, NotFoundError, TextTooLongError
from graphmem.llm.base import LLM
from graphmem.llm.budget import without_model
from graphmem.recall.budget import estimate_tokens
from graphmem.scopes import normalize_scope
from graphmem.store.conversations import ConversationStore
from graphmem.store.executor import QueryExecutor
from graphmem.tenancy import check_writable
from graphmem.write.extract import FactExtractor
from graphmem.write.remember import WriteLimits

log = logging.getLogger(__name__)

DEFAULT_NUDGE_EVERY = 10
_NAME = re.compile(r"^[\w.@:+\-]{1,128}$")
_ROLES = ("user", "assistant")
_LOCK_STRIPES = 64
REVIEW_LLM_CALLS = 2  # a nudge review: lessons, then the facts of its (up to 20) user turns


def check_name(value: str, what: str) -> str:
    """``value`` if it can be one segment of a scope path (ids, user names); else InvalidInputError."""
    if not _NAME.match(value):
        raise InvalidInputError(
            f"Invalid {what} {value!r}: use 1-128 letters, digits and . _ @ : + - (no spaces or slashes)."
        )
    return value


def default_scope(conversation_id: str, user: str | None) -> str:
    """Where a conversation's memories go unless told: ``/user/<user>``, else ``/conversations/<id>``."""
    return f"/user/{user}" if user else f"/conversations/{conversation_id}"


def user_scope(user: str) -> str:
    """The scope of a user's memories (``/user/<user>``)."""
    return f"/user/{check_name(user, 'user')}"


class ConversationSessions:
    """Records turns, runs reviews (one at a time per conversation), ends and flushes conversations."""

    def __init__(
        self,
        store: ConversationStore,
        reviewer: ConversationReviewer,
        clock: Clock,
        max_text_bytes: int,
        review_calls: int = 0,
    ) -> None:
        self._store = store
        self._reviewer = reviewer
        # X6: what one nudge review asks the model (0: no model); a turn whose budget is below it
        # has its review run offline.
        self._review_calls = review_calls
        self._clock = clock
        self._max_text_bytes = max_text_bytes
        # Striped locks: a nudge review and a flush of one conversation never run at once (in this
        # process), which would store the same pending turns twice.
        self._locks = [threading.Lock() for _ in range(_LOCK_STRIPES)]

    def record_turn(
        self,
        conversation_id: str,
        role: Role,
        text: str,
        *,
        user: str | None = None,
        scope: str | None = None,
        at: datetime | None = None,
        nudge_every: int = DEFAULT_NUDGE_EVERY,
        max_llm_calls: int | None = None,
    ) -> TurnResult:
        """Store one turn; ``review_scheduled`` is True on every ``nudge_every``-th user turn.

        X6: the answer says what the turn cost; with ``max_llm_calls`` below what a review calls,
        the review it schedules is to run offline (``review_offline``; run it with
        ``review(..., offline=True)``). Raises InvalidInputError for a bad id, user, scope, role,
        empty text or a negative budget, TextTooLongError for a text over the write limit.
        """
        started = time.perf_counter()
        if max_llm_calls is not None and max_llm_calls < 0:
            raise InvalidInputError("max_llm_calls must be 0 or more.")
        check_name(conversation_id, "session id")
        if user is not None:
            check_name(user, "user")
        if role not in _ROLES:
            raise InvalidInputError(f"Invalid role {role!r}: use 'user' or 'assistant'.")
        if not text.strip():
            raise InvalidInputError("A turn needs a text besides white space.")
        size = len(text.encode("utf-8"))
        if size > self._max_text_bytes:
            raise TextTooLongError(
                f"The turn's text is {size} bytes, over the limit of {self._max_text_bytes} "
                "(GRAPHMEM_MAX_TEXT_BYTES)."
            )
        if nudge_every < 1:
            raise InvalidInputError("nudge_every must be at least 1.")
        where = normalize_scope(scope or default_scope(conversation_id, user))
        check_writable(where)
        recorded = self._store.record_turn(
            conversation_id,
            role=role,
            text=text,
            at=at or self._clock.now(),
            user=user,
            scope=where,
            nudge_every=nudge_every,
        )
        offline = recorded.review_due and max_llm_calls is not None and max_llm_calls < self._review_calls
        cost = TurnCost(
            tokens=estimate_tokens(text),
            ms=round((time.perf_counter() - started) * 1000, 1),
            skipped=[LLM_REVIEW] if offline else [],
        )
        return TurnResult(
            turn=recorded.turn, review_scheduled=recorded.review_due, review_offline=offline, cost=cost
        )

    def get(self, conversation_id: str) -> Conversation:
        """The conversation's state; NotFoundError for an unknown id."""
        found = self._store.get(conversation_id)
        if found is None:
            raise NotFoundError(f"No conversation has id {conversation_id!r}.")
        return found

    def check_writable_conversation(self, conversation_id: str) -> None:
        """ScopeForbiddenError for a conversation the caller reads but may not change (X5: another
        agent's of its tenant); returns for one it may change or does not see."""
        found = self._store.get(conversation_id)
        if found is not None:
            check_writable(found.scope)

    def review(self, conversation_id: str, *, offline: bool = False) -> ReviewOutcome:
        """Store what the pending turns hold and mark them processed (``offline``: without the
        language model); NotFoundError for an unknown id."""
        with self._lock(conversation_id), without_model() if offline else nullcontext():
            outcome = self._reviewer.review(conversation_id)
        if outcome is None:
            raise NotFoundError(f"No conversation has id {conversation_id!r}.")
        return outcome

    def review_quietly(self, conversation_id: str, *, offline: bool = False) -> ReviewOutcome | None:
        """The nudge review: like :meth:`review`, but a failure is logged and None returned, never raised."""
        try:
            outcome = self.review(conversation_id, offline=offline)
        except Exception:  # best effort by design (W8): the user already has their reply
            log.warning("memory review of conversation %s failed", conversation_id, exc_info=True)
            return None
        log.info(
            "memory review of %s: %d turns, %d memories stored (%d lessons)",
            conversation_id,
            outcome.turns_processed,
            outcome.stored,
            outcome.lessons,
        )
        return outcome

    def end(self, conversation_id: str) -> FlushResult:
        """Flush the pending turns, then close the conversation; NotFoundError for an unknown id.

        A later turn reopens it. Raises what the review raises; the conversation then stays open.
        """
        with self._lock(conversation_id):
            outcome = self._reviewer.review(conversation_id)
            if outcome is None:
                raise NotFoundError(f"No conversation has id {conversation_id!r}.")
            closed = self._store.close(conversation_id, self._clock.now())
        if closed is None:  # deleted between the flush and the close
            raise NotFoundError(f"No conversation has id {conversation_id!r}.")
        return FlushResult(**outcome.model_dump(), conversation=closed)

    def flush_idle(self, idle: timedelta, *, limit: int = 1000) -> int:
        """End the open conversations whose last turn is older than ``idle``: what a crash left open.

        Returns how many were ended; failures are logged, never raised (this runs at start-up).
        """
        try:
            stale = self._store.idle_open(self._clock.now() - idle, limit=limit)
        except Exception:
            log.warning("could not list idle conversations to flush", exc_info=True)
            return 0
        ended = 0
        for conversation_id in stale:
            try:
                result = self.end(conversation_id)
            except Exception:
                log.warning("flushing idle conversation %s failed", conversation_id, exc_info=True)
                continue
            ended += 1
            log.info("flushed idle conversation %s: %d memories stored", conversation_id, result.stored)
        return ended

    def session_start(
        self, user: str, *, scope: str | None = None, lesson_limit: int = 50, core_limit: int = 20
    ) -> SessionContext:
        """The user's lessons and core facts to load at session start (scope default ``/user/<user>``)."""
        check_name(user, "user")
        where = normalize_scope(scope or user_scope(user))
        return SessionContext(
            user=user,
            scope=where,
            lessons=self._store.lessons(where, limit=lesson_limit),
            core_facts=self._store.core_facts(where, limit=core_limit),
        )

    def _lock(self, conversation_id: str) -> threading.Lock:
        return self._locks[zlib.crc32(conversation_id.encode("utf-8")) % _LOCK_STRIPES]


def conversation_sessions(
    executor: QueryExecutor, llm: LLM, write: WriteBatch, clock: Clock, limits: WriteLimits
) -> ConversationSessions:
    """The sessions service over ``executor``, extracting with ``llm`` and storing through ``write``."""
    reviewer = ConversationReviewer(
        ConversationStore(executor),
        FactExtractor(llm),
        LessonDetector(llm),
        write,
        clock,
        ReviewLimits(max_text_bytes=limits.max_text_bytes, max_batch_items=limits.max_batch_items),
    )
    # A nudge review asks the model once for lessons and once per chunk of user turns.
    calls = REVIEW_LLM_CALLS if llm.available else 0
    return ConversationSessions(
        ConversationStore(executor), reviewer, clock, limits.max_text_bytes, review_calls=calls
    )
