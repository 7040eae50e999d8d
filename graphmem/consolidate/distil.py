"""Distilling a cluster into one statement: a language model when there is one, else extractive.

The extractive fallback keeps the member closest to the cluster's centroid (its most typical
statement) and adds the entities most members share, so nothing is invented offline.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel, Field

from graphmem.errors import LLMError
from graphmem.llm.base import LLM, Usage

log = logging.getLogger(__name__)

Kind = Literal["semantic", "schema", "insight"]
PROMPT_MEMBERS = 20
PROMPT_TEXT_CHARS = 400
SUMMARY_CHARS = 600

SYSTEMS: dict[Kind, str] = {
    "semantic": (
        "You consolidate an AI assistant's long-term memory. The numbered memories below are episodes "
        "about one topic. Write ONE self-contained sentence stating the durable knowledge they share "
        "(who, what, and any stable detail). Use only what the memories say; no speculation."
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


@dataclass(frozen=True)
class Distillation:
    """The statement and what it cost."""

    text: str
    usage: Usage
    extractive: bool


def shared_entities(members: Sequence[Member]) -> list[str]:
    """Entities mentioned by at least half of the members (and by two or more), most shared first."""
    counts = Counter(name for m in members for name in set(m.entities))
    need = max(2, (len(members) + 1) // 2)
    return [name for name, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])) if n >= need]


def extractive(kind: Kind, members: Sequence[Member]) -> str:
    """The most central member's text, plus the shared entities it does not name."""
    central = max(members, key=lambda m: (m.similarity, m.id))
    text = central.text.strip()
    extra = [e for e in shared_entities(members) if e.lower() not in text.lower()][:5]
    if extra:
        text = f"{text.rstrip('.')} (also about {', '.join(extra)})."
    if kind == "schema":
        return f"Recurring pattern across {len(members)} memories: {text}"
    if kind == "insight":
        return f"{text} (kept from {len(members)} archived memories)"
    return text


class Distiller:
    """Writes the statement of a semantic memory, schema or insight from its members."""

    def __init__(self, llm: LLM) -> None:
        self._llm = llm

    def distil(self, kind: Kind, members: Sequence[Member]) -> Distillation:
        """One statement for ``members``; the extractive fallback when no model answers."""
        if not members:
            raise ValueError("a cluster needs members")
        if self._llm.available:
            ranked = sorted(members, key=lambda m: (-m.similarity, m.id))[:PROMPT_MEMBERS]
            prompt = "\n".join(f"{i + 1}. {m.text[:PROMPT_TEXT_CHARS]}" for i, m in enumerate(ranked))
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
        return Distillation(extractive(kind, members), Usage(), extractive=True)


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
