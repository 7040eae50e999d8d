"""W9: user corrections in conversation turns become lessons (behavioural instructions).

"Don't start replies with 'Got it'", "stop using emojis", "no, I meant Lisbon", "I prefer tea over
coffee", "please always answer in French", "that's wrong, the meeting is on Tuesday": each becomes
one short instruction memory, loaded at every session start.

Two paths: an offline detector (patterns over each sentence, no model), and, when a language model
is configured, one call that reads the turns the offline cue words flag and writes the lessons;
any model failure falls back to the offline result.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel, Field

from graphmem.errors import LLMError
from graphmem.llm.base import LLM, Usage

log = logging.getLogger(__name__)

LESSON_CATEGORIES = ["instruction", "lesson"]
LESSON_IMPORTANCE = 0.8

_SENTENCES = re.compile(r"(?<=[.!?;])\s+|\n+")
_TRAILING = " \t.,;:!?-\u2013\u2014"
_LEAD = r"^(?:(?:ok(?:ay)?|well|and|also|so|hey)[,!]?\s+)*"
_PLEASE = r"(?:please[,]?\s+)?(?:just\s+)?"
_DONT = re.compile(_LEAD + _PLEASE + r"(?:don'?t|do\s+not)\s+(?P<rest>.+)$", re.IGNORECASE)
_STOP = re.compile(_LEAD + _PLEASE + r"stop\s+(?P<rest>\w+ing\b.*)$", re.IGNORECASE)
_ALWAYS_NEVER = re.compile(_LEAD + _PLEASE + r"(?P<word>always|never)\s+(?P<rest>.+)$", re.IGNORECASE)
_FROM_NOW_ON = re.compile(
    _LEAD + r"(?:from\s+now\s+on,?|in\s+(?:the\s+)?future,|next\s+time,)\s+" + _PLEASE + r"(?P<rest>.+)$",
    re.IGNORECASE,
)
_MEANT = re.compile(
    _LEAD + r"(?:(?:no|nope|actually|sorry)[,.!]*\s+)*i\s+meant\s+(?!to\b)(?P<rest>.+)$", re.IGNORECASE
)
_BARE_CORRECTION = re.compile(r"^(?:no|nope|wrong)[,.!]*$", re.IGNORECASE)
_WRONG = re.compile(
    _LEAD
    + r"(?:no[,.!]*\s+)?that(?:'s|\s+is|\s+was)\s+(?:just\s+)?(?:wrong|incorrect|not\s+right|not\s+correct|"
    r"not\s+true|not\s+what\s+i\s+(?:said|asked|meant))(?P<rest>.*)$",
    re.IGNORECASE,
)
_PREFER = re.compile(
    r"\bi\s+(?:really\s+|much\s+|strongly\s+|generally\s+|usually\s+)?prefer\s+(?P<x>.+?)\s+"
    r"(?:over|to|rather\s+than|instead\s+of)\s+(?P<y>.+)$",
    re.IGNORECASE,
)
_RATHER = re.compile(r"\bi(?:'d|\s+would)\s+rather\s+(?P<x>.+?)\s+than\s+(?P<y>.+)$", re.IGNORECASE)
_HATE_WHEN = re.compile(
    r"\bi\s+(?:really\s+)?(?:hate|can'?t\s+stand|dislike|don'?t\s+like)\s+(?:it\s+)?when\s+you\s+(?P<rest>.+)$",
    re.IGNORECASE,
)
# Sentence-initial "don't ..." that are not instructions about the assistant's behaviour.
_NOT_INSTRUCTIONS = re.compile(
    r"^(?:worry|know|mind|care|think|bother|get\s+me\s+wrong|forget|remember|understand|have|need|"
    r"see|get\s+it|believe|recall)\b",
    re.IGNORECASE,
)
_NOT_ALWAYS = re.compile(r"^(?:mind|been|had|have|again|ever|once)\b", re.IGNORECASE)
# Words that make a turn worth showing the model; a turn without any cannot hold a correction.
_CUES = re.compile(
    r"\b(?:don'?t|do\s+not|never|always|stop|prefer|rather|meant|wrong|incorrect|not\s+right|instead|"
    r"hate|can'?t\s+stand|dislike|please|from\s+now\s+on|in\s+(?:the\s+)?future|next\s+time|no)\b",
    re.IGNORECASE,
)

Kind = Literal["dont", "stop", "always", "never", "from_now_on", "meant", "wrong", "prefer", "llm"]


@dataclass(frozen=True)
class Lesson:
    """One lesson drawn from one user turn."""

    text: str
    turn_index: int
    kind: Kind


def _clean(fragment: str) -> str:
    return fragment.strip().rstrip(_TRAILING).strip()


def _sentence(text: str) -> str:
    text = text.strip()
    return text[:1].upper() + text[1:] + ("" if text.endswith(("?", "!", ".")) else ".")


def sentences(text: str) -> list[str]:
    """The sentences of a turn, roughly: split after . ! ? ; and at line breaks."""
    return [s.strip() for s in _SENTENCES.split(text) if s.strip()]


def lesson_from_sentence(sentence: str, subject: str) -> tuple[str, Kind] | None:
    """The lesson one sentence teaches (its text and kind), or None when it holds no correction.

    ``subject`` names the user in third-person lessons ("Alice prefers tea over coffee").
    """
    if sentence.rstrip().endswith("?"):
        return None  # a question asks; it does not correct
    for pattern, kind in ((_MEANT, "meant"), (_WRONG, "wrong")):
        match = pattern.match(sentence)
        if match:
            rest = _clean(match.group("rest").lstrip(" ,.;:!-\u2013\u2014"))
            if not rest:
                return None  # "that's wrong." alone teaches nothing that outlives the session
            if kind == "meant":
                return _sentence(f"{subject} corrected a misunderstanding: they meant {rest}"), "meant"
            return f"Correction from {subject}: {_sentence(rest)}", "wrong"
    match = _HATE_WHEN.search(sentence)
    if match and _clean(match.group("rest")):
        return _sentence(f"Don't {_clean(match.group('rest'))}"), "dont"
    match = _PREFER.search(sentence) or _RATHER.search(sentence)
    if match and _clean(match.group("x")) and _clean(match.group("y")):
        verb = "prefers" if match.re is _PREFER else "would rather"
        joint = "over" if match.re is _PREFER else "than"
        x, y = _clean(match.group("x")), _clean(match.group("y"))
        return _sentence(f"{subject} {verb} {x} {joint} {y}"), "prefer"
    return _imperative(sentence)


def _imperative(sentence: str) -> tuple[str, Kind] | None:
    match = _FROM_NOW_ON.match(sentence)
    if match and _clean(match.group("rest")):
        return _sentence(_clean(match.group("rest"))), "from_now_on"
    match = _DONT.match(sentence)
    if match and _clean(match.group("rest")) and not _NOT_INSTRUCTIONS.match(match.group("rest")):
        return _sentence(f"Don't {_clean(match.group('rest'))}"), "dont"
    match = _STOP.match(sentence)
    if match:
        return _sentence(f"Stop {_clean(match.group('rest'))}"), "stop"
    match = _ALWAYS_NEVER.match(sentence)
    rest = _clean(match.group("rest")) if match else ""
    if match and len(rest.split()) >= 2 and not _NOT_ALWAYS.match(rest):
        word = match.group("word").lower()
        kind: Kind = "always" if word == "always" else "never"
        return _sentence(f"{word} {rest}"), kind
    return None


def detect_offline(texts: Sequence[str], subject: str = "The user") -> list[Lesson]:
    """Lessons in user turns by pattern, in turn order; each sentence teaches at most one."""
    found: list[Lesson] = []
    for index, text in enumerate(texts):
        parts = sentences(text)
        i = 0
        while i < len(parts):
            hit = lesson_from_sentence(parts[i], subject)
            if hit is None and i + 1 < len(parts) and _bare_correction(parts[i]):
                # "That's wrong. The meeting is on Tuesday.": the correction is the next sentence.
                hit = lesson_from_sentence(f"{parts[i]} {parts[i + 1]}", subject)
                i += hit is not None
            if hit is not None:
                found.append(Lesson(text=hit[0], turn_index=index, kind=hit[1]))
            i += 1
    return found


def _bare_correction(sentence: str) -> bool:
    match = _WRONG.match(sentence)
    return bool(_BARE_CORRECTION.match(sentence) or (match and not _clean(match.group("rest"))))


def has_cue(text: str) -> bool:
    """Whether a turn holds a word a correction needs (cheap filter before any model call)."""
    return _CUES.search(text) is not None


class LessonDraft(BaseModel):
    """One lesson the model found."""

    turn: int = Field(description="The number of the turn it comes from")
    text: str = Field(min_length=1, description="The lesson as one short instruction or preference")


class LessonReply(BaseModel):
    """Every lesson in the turns; empty when there is none (the common case)."""

    lessons: list[LessonDraft] = Field(default_factory=list)


SYSTEM = (
    "You read messages a user sent to an AI assistant and pick out corrections of the assistant's "
    "behaviour that should hold in future conversations: things to stop or avoid ('don't start "
    "replies with X'), things to always or never do, preferences between options ('prefers X over "
    "Y'), and corrections of a misunderstanding or a wrong fact. Write each as one short "
    "self-contained sentence: an imperative for behaviour ('Don't start replies with \"Got it\".'), "
    "third person naming the user for preferences and facts ('{subject} prefers tea over coffee.'). "
    "Ignore ordinary requests, questions and small talk. Most messages hold no lesson: then return "
    "an empty list."
)


class LessonDetector:
    """Finds lessons in user turns: the language model when configured, else (or on failure) offline."""

    def __init__(self, llm: LLM) -> None:
        self._llm = llm

    def detect(self, texts: Sequence[str], *, subject: str | None = None) -> tuple[list[Lesson], Usage]:
        """Lessons in ``texts`` (the user turns, oldest first) and the model usage they cost.

        Never raises for a model failure: the offline detector answers instead.
        """
        who = subject or "The user"
        offline = detect_offline(texts, who)
        flagged = [i for i, text in enumerate(texts) if has_cue(text)]
        if not self._llm.available or not flagged:
            return offline, Usage()
        prompt = "\n".join(f"[{i}] {texts[i]}" for i in flagged)
        try:
            reply = self._llm.structured(
                task="lessons",
                system=SYSTEM.replace("{subject}", who),
                prompt=prompt,
                output=LessonReply,
                max_tokens=512,
            )
        except LLMError as e:
            log.warning("lesson detection falls back to the offline patterns: %s", e)
            return offline, Usage(calls=1)
        known = set(flagged)
        lessons = [
            Lesson(text=_sentence(_clean(d.text)), turn_index=d.turn, kind="llm")
            for d in reply.value.lessons
            if d.turn in known and _clean(d.text)
        ]
        return lessons, reply.usage
