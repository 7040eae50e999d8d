"""W2 extract: raw text (a conversation turn, a document, a tool output) to atomic, self-contained facts.

With a language model, one call per chunk of text (a turn or a short document is one chunk) returns
the facts with categories and importance. Without one, or when a call fails, the deterministic
reader in :mod:`graphmem.write.decompose` splits, resolves and filters the text instead.
"""

from __future__ import annotations

import logging

from pydantic import BaseModel, Field

from graphmem.errors import InvalidInputError, LLMError, LLMUnavailableError, TextTooLongError
from graphmem.llm.base import LLM, Usage
from graphmem.scopes import normalize_scope
from graphmem.write.decompose import decompose

log = logging.getLogger(__name__)

CHUNK_CHARS = 8000
"""Text longer than this goes to the model in several calls, cut between paragraphs."""
EXTRACT_MAX_TOKENS = 4096
MAX_FACT_CHARS = 2000
MAX_CATEGORIES = 8
CATEGORIES = (
    "fact",
    "preference",
    "instruction",
    "routine",
    "decision",
    "work",
    "health",
    "relationship",
    "hobby",
    "plan",
    "event",
)

SYSTEM = (
    "You extract long-term memories for an AI assistant from raw text: a conversation turn, a "
    "transcript, a document or a tool's output.\n"
    "Return every fact worth remembering as one short, atomic, self-contained statement:\n"
    "- one piece of information per fact; split compound sentences into separate facts.\n"
    "- each fact must make sense alone, months later: write the speaker's name given in the prompt "
    "(else 'the user') for I/me/my, and name people, places and things instead of he/she/it/that.\n"
    "- keep dates, numbers, names and qualifiers ('usually', 'since 2021', 'next Friday') exactly; "
    "do not convert relative dates.\n"
    "- keep facts about people, projects and the world, preferences, instructions for the assistant "
    "('always...', 'never...'), decisions, plans, routines and events.\n"
    "- skip greetings, thanks, small talk, filler, questions, the assistant's own offers and "
    "pleasantries, and anything only true inside this conversation.\n"
    "- never invent or infer beyond the text; when nothing is worth remembering, return no facts.\n"
    f"Categories, one or more per fact: {', '.join(CATEGORIES)}. Importance from 0 (trivia) to 1 "
    "(must never be forgotten): about 0.3 for passing remarks, 0.5 for ordinary facts, 0.6 for "
    "preferences, 0.7-0.8 for instructions, decisions and health, 0.9 and above for safety."
)


class ExtractedFact(BaseModel):
    """One atomic, self-contained fact taken from a text."""

    text: str = Field(description="the fact as one self-contained sentence")
    categories: list[str] = Field(
        default_factory=list, description=f"one or more of: {', '.join(CATEGORIES)}"
    )
    importance: float | None = Field(
        default=None, ge=0.0, le=1.0, description="0 trivia .. 1 must never be forgotten"
    )


class Extraction(BaseModel):
    """The facts a language model found in a text, in the order they appear."""

    facts: list[ExtractedFact] = Field(default_factory=list)


class FactExtractor:
    """Turns raw text into facts: the language model when one is configured, else the offline reader."""

    def __init__(self, llm: LLM) -> None:
        self._llm = llm

    def extract(self, text: str, *, speaker: str | None = None) -> tuple[list[ExtractedFact], Usage]:
        """The facts in ``text`` (first person as ``speaker``, else 'the user') and what they cost.

        Never raises for a failed model call: that chunk is read offline instead and the failure
        is logged. Blank text has no facts.
        """
        if not text.strip():
            return [], Usage()
        if not self._llm.available:
            return offline_facts(text, speaker), Usage()
        facts: list[ExtractedFact] = []
        usage = Usage()
        for chunk in chunks(text, CHUNK_CHARS):
            found, cost = self._ask(chunk, speaker)
            facts += found
            usage += cost
        return _unique(facts), usage

    def _ask(self, chunk: str, speaker: str | None) -> tuple[list[ExtractedFact], Usage]:
        """One model call for ``chunk``; its offline facts when the call fails."""
        who = speaker.strip() if speaker and speaker.strip() else "the user"
        prompt = f"Speaker (write for I/me/my): {who}\n\nTEXT:\n<<<\n{chunk}\n>>>"
        try:
            reply = self._llm.structured(
                task="extract", system=SYSTEM, prompt=prompt, output=Extraction, max_tokens=EXTRACT_MAX_TOKENS
            )
        except LLMUnavailableError as e:
            log.warning("extraction falls back to the offline reader: %s", e)
            return offline_facts(chunk, speaker), Usage()
        except LLMError as e:
            log.warning("extraction falls back to the offline reader: %s", e)
            return offline_facts(chunk, speaker), Usage(calls=1)
        return [f for f in (_clean(fact) for fact in reply.value.facts) if f is not None], reply.usage


def check_extract_input(text: str, scope: str | None, max_bytes: int) -> str | None:
    """The normalised ``scope`` once ``text`` and ``scope`` are fit to extract from.

    Raises InvalidInputError for blank text or a malformed scope, TextTooLongError when ``text``
    is over ``max_bytes`` (GRAPHMEM_MAX_TEXT_BYTES).
    """
    if not text.strip():
        raise InvalidInputError("text must contain something besides white space.")
    size = len(text.encode("utf-8"))
    if size > max_bytes:
        raise TextTooLongError(
            f"text is {size} bytes, over the limit of {max_bytes} (GRAPHMEM_MAX_TEXT_BYTES); "
            "split it into several extract requests."
        )
    return None if scope is None else normalize_scope(scope)


def offline_facts(text: str, speaker: str | None = None) -> list[ExtractedFact]:
    """The deterministic reading of ``text``: facts without categories or importance."""
    return [ExtractedFact(text=fact) for fact in decompose(text, speaker)]


def chunks(text: str, size: int) -> list[str]:
    """``text`` in pieces of at most ``size`` characters, cut between paragraphs, then lines,
    then words; a single word longer than ``size`` is cut where it must be."""
    if len(text) <= size:
        return [text]
    for separator in ("\n\n", "\n", " "):
        parts = text.split(separator)
        if len(parts) > 1:
            return _pack(parts, separator, size)
    return [text[i : i + size] for i in range(0, len(text), size)]


def _pack(parts: list[str], separator: str, size: int) -> list[str]:
    packed: list[str] = []
    current = ""
    for part in parts:
        candidate = f"{current}{separator}{part}" if current else part
        if len(candidate) <= size:
            current = candidate
            continue
        if current:
            packed.append(current)
        if len(part) > size:
            packed += chunks(part, size)
            current = ""
        else:
            current = part
    if current:
        packed.append(current)
    return [p for p in packed if p.strip()]


def _clean(fact: ExtractedFact) -> ExtractedFact | None:
    """A model's fact tidied: single spaces, known-shape categories; None when empty."""
    text = " ".join(fact.text.split())[:MAX_FACT_CHARS]
    if not text:
        return None
    categories = list(dict.fromkeys(c.strip().lower() for c in fact.categories if c.strip()))
    categories = categories[:MAX_CATEGORIES]
    return ExtractedFact(text=text, categories=categories, importance=fact.importance)


def _unique(facts: list[ExtractedFact]) -> list[ExtractedFact]:
    seen: set[str] = set()
    kept = []
    for fact in facts:
        key = fact.text.lower().rstrip(".")
        if key not in seen:
            seen.add(key)
            kept.append(fact)
    return kept
