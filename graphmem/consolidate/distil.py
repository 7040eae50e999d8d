"""Distilling a cluster into one statement: a language model when there is one, else extractive.

The extractive fallback names what the cluster is about (the entities its members share and, for
a topic, the words rare in its scope that they share: graphmem.consolidate.topic_terms), how many
memories it holds and over what time, and quotes its most central statements in the order they
happened, so nothing is invented offline.
"""

from __future__ import annotations

import logging
import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from pydantic import BaseModel, Field

from graphmem.consolidate.topic_terms import ScopeWords, topic_terms
from graphmem.errors import LLMError
from graphmem.llm.base import LLM, Usage

log = logging.getLogger(__name__)

Kind = Literal["semantic", "schema", "insight"]
PROMPT_MEMBERS = 20
PROMPT_TEXT_CHARS = 400
SUMMARY_CHARS = 600
EXTRACTIVE_ENTITIES = 3  # entities named in an extractive summary's head
EXTRACTIVE_STATEMENTS = 2  # central statements it quotes (one more from six members on)
REPLACED = "(earlier, since replaced by a later statement) "  # how a superseded episode is shown

SYSTEMS: dict[Kind, str] = {
    "semantic": (
        "You consolidate an AI assistant's long-term memory. The numbered memories below are episodes "
        "about one topic, each adding something new. Write ONE or TWO self-contained sentences that "
        "say what the topic is and the durable knowledge the episodes add up to (who, what, and the "
        "stable details). Use only what the memories say; no speculation."
    ),
    "schema": (
        "You consolidate an AI assistant's long-term memory. The numbered statements below are "
        "knowledge about one person or team. Write ONE sentence stating the behavioural pattern they "
        "show, e.g. 'prioritises engineering readiness over market timing'. Use only what they support."
    ),
    "insight": (
        "You archive an AI assistant's old memories. The numbered memories below are unused and about "
        "to be archived. Write ONE sentence keeping the insight worth remembering from all of them."
    ),
}


class Distilled(BaseModel):
    """The model's answer: one statement."""

    text: str = Field(min_length=1, max_length=1000, description="one self-contained sentence")


@dataclass(frozen=True)
class Member:
    """A cluster member as the distiller sees it."""

    id: str
    text: str
    similarity: float  # to the cluster centroid
    entities: tuple[str, ...] = ()
    replaced: bool = False  # superseded by a later statement: part of the story, no longer current
    occurred: datetime | None = None  # when it happened (the summary's quotes follow time)
    scope: str = ""  # its scope (where the rarity of a shared word is measured)


@dataclass(frozen=True)
class Distillation:
    """The statement, what it cost, and (extractive) the members it quotes, most central first."""

    text: str
    usage: Usage
    extractive: bool
    quoted: tuple[str, ...] = ()  # ids; empty for a model's statement


def shared_entities(members: Sequence[Member], share: float = 0.5) -> list[str]:
    """Entities mentioned by at least ``share`` of the members (and by two or more), most shared first."""
    counts = Counter(name for m in members for name in set(m.entities))
    need = max(2, math.ceil(share * len(members)))
    return [name for name, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])) if n >= need]


def central(members: Sequence[Member], k: int) -> list[Member]:
    """The ``k`` members closest to the cluster's centroid, most central first; those a later
    statement replaced come after every current one (a summary states what holds now)."""
    return sorted(members, key=lambda m: (m.replaced, -m.similarity, m.id))[:k]


def _sentence(text: str) -> str:
    return text.strip().rstrip(".;")


def extractive(kind: Kind, members: Sequence[Member], words: ScopeWords | None = None) -> str:
    """A summary that invents nothing: what the cluster is about (the entities several members
    share; with ``words``, the rare words they share too), how many memories it holds and over what
    time, and its most central statements, within SUMMARY_CHARS.

    Two central statements (three for a cluster of six or more) rather than one copied episode:
    episodes of one topic each add something new. They are quoted in the order they happened
    (a story read backwards, 'First loaf came out dense; User started a sourdough starter', is
    hard to follow).
    """
    return quoting(kind, members, words)[0]


def quoting(
    kind: Kind, members: Sequence[Member], words: ScopeWords | None = None
) -> tuple[str, list[Member]]:
    """The extractive summary (see :func:`extractive`) and the members it quotes, most central first."""
    about = _about(members, words)
    size = f"{len(members)} memories" + (f", {span}" if (span := _span(members)) else "")
    head = f"{', '.join(about)} ({size})" if about else size
    if kind == "schema":
        head = f"Recurring pattern across {head}"
    elif kind == "insight":
        head = f"Kept from {len(members)} archived memories" + (f" about {', '.join(about)}" if about else "")
    quoted: list[Member] = []
    used = len(head) + 2
    for member in central(members, EXTRACTIVE_STATEMENTS if len(members) < 6 else EXTRACTIVE_STATEMENTS + 1):
        piece = _sentence(member.text)
        if quoted and used + len(piece) + 2 > SUMMARY_CHARS:
            break
        quoted.append(member)
        used += len(piece) + 2
    timed = all(m.occurred is not None for m in quoted)
    told = sorted(quoted, key=lambda m: (m.occurred, m.id)) if timed else quoted
    picked = [_sentence(m.text) for m in told]
    text = f"{head}: {'; '.join(picked)}."
    return (text if len(text) <= SUMMARY_CHARS else text[: SUMMARY_CHARS - 1] + "…"), quoted


def _about(members: Sequence[Member], words: ScopeWords | None) -> list[str]:
    """What ``members`` are about (see graphmem.consolidate.topic_terms)."""
    scope = members[0].scope if members else ""
    return topic_terms(
        [m.text for m in members], [m.entities for m in members], EXTRACTIVE_ENTITIES, words, scope
    )


def _span(members: Sequence[Member]) -> str:
    """The days the members happened over ('3 March to 9 May 2025'), or '' when a date is unknown."""
    days = [m.occurred for m in members if m.occurred is not None]
    if not days or len(days) < len(members):
        return ""
    first, last = min(days), max(days)
    if first.date() == last.date():
        return _day(first)
    start = f"{first.day} {first:%B}" if first.year == last.year else _day(first)
    return f"{start} to {_day(last)}"


def _day(at: datetime) -> str:
    return f"{at.day} {at:%B %Y}"


class Distiller:
    """Writes the statement of a semantic memory, schema or insight from its members."""

    def __init__(self, llm: LLM) -> None:
        self._llm = llm

    def distil(self, kind: Kind, members: Sequence[Member], words: ScopeWords | None = None) -> Distillation:
        """One statement for ``members``; the extractive fallback when no model answers (naming
        the rare words they share, measured in ``words``)."""
        if not members:
            raise ValueError("a cluster needs members")
        if self._llm.available:
            ranked = central(members, PROMPT_MEMBERS)
            prompt = "\n".join(
                f"{i + 1}. {REPLACED if m.replaced else ''}{m.text[:PROMPT_TEXT_CHARS]}"
                for i, m in enumerate(ranked)
            )
            about = _about(members, words)
            if about:
                prompt += f"\n\nThey share: {', '.join(about)}."
            try:
                reply = self._llm.structured(
                    task=f"consolidate_{kind}",
                    system=SYSTEMS[kind],
                    prompt=prompt,
                    output=Distilled,
                    max_tokens=256,
                )
                return Distillation(reply.value.text.strip(), reply.usage, extractive=False)
            except LLMError as e:
                log.info("consolidation falls back to an extractive %s statement: %s", kind, e)
        text, quoted = quoting(kind, members, words)
        return Distillation(text, Usage(), extractive=True, quoted=tuple(m.id for m in quoted))


def category_summary(category: str, items: int, texts: Sequence[str]) -> str:
    """C5 (extractive): the category, its size and its strongest memories, within SUMMARY_CHARS."""
    head = f"{category} ({items} active): "
    parts: list[str] = []
    used = len(head)
    for text in texts:
        piece = text.strip().rstrip(".")
        if used + len(piece) + 2 > SUMMARY_CHARS and parts:
            break
        parts.append(piece)
        used += len(piece) + 2
    return head + "; ".join(parts) + "."
