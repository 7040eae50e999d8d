"""W8/W11: reviewing a conversation's pending turns and storing what is worth remembering.

A review reads the turns no review has processed yet, draws lessons from the user's corrections
(W9) and facts, preferences, instructions and routines from what the user said (the fact
extractor), stores them in the conversation's scope, and only then marks the turns processed: a
review that fails leaves its turns pending for the next review or the session flush.

Only user turns are mined. The assistant's turns are the assistant's own claims, not things the
user said about themselves; they are marked processed with the rest.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from graphmem.clock import Clock
from graphmem.conversations.lessons import LESSON_CATEGORIES, LESSON_IMPORTANCE, Lesson, LessonDetector
from graphmem.conversations.models import Conversation, ReviewOutcome, Turn
from graphmem.models import MemoryInput, WriteResult
from graphmem.store.conversations import ConversationStore
from graphmem.write.extract import ExtractedFact, FactExtractor

WriteBatch = Callable[[Sequence[MemoryInput]], list[WriteResult]]


@dataclass(frozen=True)
class ReviewLimits:
    """How much one review reads and writes at a time."""

    turns_per_pass: int = 200  # pending turns read per pass; a flush runs passes until none is left
    turns_per_extraction: int = 20  # user turns given to the extractor in one text
    chars_per_extraction: int = 6000
    max_text_bytes: int = 32 * 1024  # longer memory texts are dropped, not allowed to fail the batch
    max_batch_items: int = 1000


def conversation_source(conversation_id: str) -> str:
    """The ``source`` of memories drawn from a conversation."""
    return f"conversation:{conversation_id}"


def same_text_key(text: str) -> str:
    """What two texts share when they say the same in the same words (case, spacing, end mark aside)."""
    return " ".join(text.casefold().split()).rstrip(" .!?;:")


def extraction_chunks(turns: Sequence[Turn], limits: ReviewLimits) -> Iterator[list[Turn]]:
    """User turns grouped into consecutive runs the extractor reads as one text each."""
    chunk: list[Turn] = []
    size = 0
    for turn in turns:
        if chunk and (
            len(chunk) >= limits.turns_per_extraction or size + len(turn.text) > limits.chars_per_extraction
        ):
            yield chunk
            chunk, size = [], 0
        chunk.append(turn)
        size += len(turn.text) + 1
    if chunk:
        yield chunk


class ConversationReviewer:
    """Turns a conversation's pending turns into memories (the nudge review and the session flush)."""

    def __init__(
        self,
        store: ConversationStore,
        extractor: FactExtractor,
        lessons: LessonDetector,
        write: WriteBatch,
        clock: Clock,
        limits: ReviewLimits | None = None,
    ) -> None:
        self._store = store
        self._extractor = extractor
        self._lessons = lessons
        self._write = write
        self._clock = clock
        self._limits = limits or ReviewLimits()

    def review(self, conversation_id: str) -> ReviewOutcome | None:
        """Review every pending turn (in passes); None for an unknown conversation.

        Raises what the store, the extractor or the write path raise; the turns of a failed pass
        stay pending.
        """
        total = ReviewOutcome(conversation_id=conversation_id, turns_processed=0, stored=0, lessons=0)
        while True:
            pending = self._store.pending(conversation_id, limit=self._limits.turns_per_pass)
            if pending is None:
                return None
            if not pending.turns:
                return total
            outcome = self._review_pass(pending.conversation, pending.turns)
            total = ReviewOutcome(
                conversation_id=conversation_id,
                turns_processed=total.turns_processed + outcome.turns_processed,
                stored=total.stored + outcome.stored,
                lessons=total.lessons + outcome.lessons,
                llm_calls=total.llm_calls + outcome.llm_calls,
            )
            if len(pending.turns) < self._limits.turns_per_pass:
                return total

    def _review_pass(self, conversation: Conversation, turns: list[Turn]) -> ReviewOutcome:
        user_turns = [t for t in turns if t.role == "user"]
        found, usage = self._lessons.detect([t.text for t in user_turns], subject=conversation.user)
        items = [self._lesson_input(conversation, user_turns[lesson.turn_index], lesson) for lesson in found]
        taught = {user_turns[lesson.turn_index].id for lesson in found}
        seen = {same_text_key(item.text) for item in items}
        for chunk in extraction_chunks(user_turns, self._limits):
            facts, cost = self._extractor.extract("\n".join(t.text for t in chunk), speaker=conversation.user)
            usage += cost
            # The lesson detector already wrote this chunk's corrections; the extractor's own
            # instructions for it would repeat them in other words.
            has_lessons = any(t.id in taught for t in chunk)
            for fact in facts:
                key = same_text_key(fact.text)
                if not key or key in seen or (has_lessons and "instruction" in fact.categories):
                    continue
                seen.add(key)
                items.append(self._fact_input(conversation, chunk, fact))
        items = [i for i in items if len(i.text.encode("utf-8")) <= self._limits.max_text_bytes]
        results: list[WriteResult] = []
        for start in range(0, len(items), self._limits.max_batch_items):
            results += self._write(items[start : start + self._limits.max_batch_items])
        self._store.mark_processed(conversation.id, [t.id for t in turns], self._clock.now())
        stored = [r for r in results if "duplicate" not in r.actions]
        return ReviewOutcome(
            conversation_id=conversation.id,
            turns_processed=len(turns),
            stored=len(stored),
            lessons=sum(1 for r in stored if "lesson" in r.memory.categories),
            llm_calls=usage.calls + sum(r.llm_calls for r in results),
        )

    @staticmethod
    def _lesson_input(conversation: Conversation, turn: Turn, lesson: Lesson) -> MemoryInput:
        return MemoryInput(
            text=lesson.text,
            scope=conversation.scope,
            categories=list(LESSON_CATEGORIES),
            importance=LESSON_IMPORTANCE,
            occurred_at=turn.at,
            source=conversation_source(conversation.id),
            metadata=_metadata(conversation, [turn], {"lesson_kind": lesson.kind}),
        )

    @staticmethod
    def _fact_input(conversation: Conversation, chunk: list[Turn], fact: ExtractedFact) -> MemoryInput:
        categories = list(dict.fromkeys(c.strip().lower() for c in fact.categories if c.strip()))
        importance = fact.importance
        if "instruction" in categories:  # an instruction the detector missed is a lesson all the same
            categories.append("lesson")
            importance = max(importance or 0.0, LESSON_IMPORTANCE)
        return MemoryInput(
            text=fact.text.strip(),
            scope=conversation.scope,
            categories=list(dict.fromkeys(categories)) or None,
            importance=importance,
            occurred_at=chunk[-1].at,
            source=conversation_source(conversation.id),
            metadata=_metadata(conversation, chunk, {}),
        )


def _metadata(conversation: Conversation, turns: list[Turn], extra: dict[str, object]) -> dict[str, object]:
    data: dict[str, object] = {
        "conversation_id": conversation.id,
        "turn_seqs": [t.seq for t in turns],
        **extra,
    }
    if conversation.user:
        data["speaker"] = conversation.user
    return data
