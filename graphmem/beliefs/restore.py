"""Parsing a statement, and reading again the statements the small English model misreads for want
of a subject: a diary note that drops its "I" ("Joined Stripe in May."), and a present-tense verb
read as a plural noun after a name ("Sanne cycles to work"). Parses are cached per text, in the
cache the forward-trigger pass reads too (graphmem.language).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from graphmem.beliefs.subjects import word_form
from graphmem.language import parse, parse_all, tag_all

# the parts of speech a subject's noun phrase is made of ("The team's CI", "Omar's son Khalid")
_NOUN_PHRASE = frozenset({"DET", "PROPN", "NOUN", "ADJ", "PART", "X"})


def parse_doc(text: str) -> Any:
    """spaCy's parse of ``text`` (cached, shared with the forward-trigger pass: see graphmem.language)."""
    return parse(text)


def parse_docs(texts: Iterable[str]) -> None:
    """Parse the ``texts`` not cached yet in one pass through spaCy's ``pipe`` and cache them:
    batched, a text costs about half what a call of its own does, and the parses are the same."""
    parse_all(texts)


def tag_docs(texts: Iterable[str]) -> None:
    """:func:`parse_docs` without the entity recogniser, for texts parsed ahead of a reader that may
    not need their entities (graphmem.language gives them on first use, the same as a full parse's)."""
    tag_all(texts)


def with_diary_subject(text: str, note: bool = False) -> str:
    """A diary note with its first person put back ("Joined Stripe in May." -> "I joined Stripe
    in May.", "Using Vim now." -> "I'm using Vim now."): English drops the "I" of a note about
    oneself, and the small model then misreads the capitalised verb as a name. The restored reading
    is kept only when the parser takes "I" as the subject of a past or progressive main verb, so a
    request ("Take care!"), a fragment ("Standup at 9.") or a "key: value" ``note`` stays as it
    was."""
    if note:
        return text
    for candidate, tags in zip(diary_readings(text), ({"VBD", "VBN"}, {"VBG", "VBN"}), strict=False):
        restored = parse_doc(candidate)
        root = next((t for t in restored if t.dep_ == "ROOT"), None)
        if (
            root is not None
            and root.tag_ in tags
            and any(c.dep_ in {"nsubj", "nsubjpass"} and c.i == 0 for c in root.children)
        ):
            return candidate
    return text


def diary_readings(text: str) -> list[str]:
    """``text`` with "I" and with "I'm" put before it when its parse has no subject (the readings
    :func:`with_diary_subject` tries, in order), else none."""
    doc = parse_doc(text)
    if any(t.dep_ in {"nsubj", "nsubjpass", "expl", "csubj"} for t in doc):
        return []
    lowered = text[:1].lower() + text[1:]
    return ["I " + lowered, "I'm " + lowered]


def named_subject(text: str) -> tuple[str, frozenset[str], str] | None:
    """(subject key, its nouns, text with a pronoun for it) of a statement whose verb the model
    read as a plural noun after the subject ("Sanne cycles to work": "Sanne" a modifier of the noun
    "cycles"; "The team's CI runs on Jenkins"): with "She" in place of the subject the verb is read
    as a verb. None when the parse has a subject already, or the pronoun does not make the word
    after the subject a verb in the present tense."""
    doc = parse_doc(text)
    if any(t.dep_ in {"nsubj", "nsubjpass", "expl", "csubj"} for t in doc):
        return None
    end = next((t.i for t in doc if t.pos_ not in _NOUN_PHRASE or t.tag_ == "NNS"), 0)
    phrase = [t for t in doc[:end] if t.pos_ != "DET"]
    if not phrase or end >= len(doc) or not doc[end].lower_.endswith("s") or doc[end].lower_ == "'s":
        return None
    with_pronoun = "She " + text[doc[end].idx :]
    restored = parse_doc(with_pronoun)
    root = next((t for t in restored if t.dep_ == "ROOT"), None)
    if root is None or root.i != 1 or root.tag_ != "VBZ" or restored[0].dep_ != "nsubj":
        return None
    mark = next((i for i, t in enumerate(phrase) if t.tag_ == "POS"), None)
    nouns = [word_form(t) for t in phrase[mark + 1 if mark is not None else 0 :]]
    owner = " ".join(word_form(t) for t in phrase[:mark]) if mark is not None else ""
    key = f"{owner}'s {' '.join(nouns)}" if owner else " ".join(nouns)
    return key, frozenset(nouns), with_pronoun
