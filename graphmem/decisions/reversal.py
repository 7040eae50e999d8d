"""W7: does a new decision reverse an older one of the same scope and domain? Pure functions.

Conservative: two decisions conflict when the new one names the old choice as replaced ("instead
of X", "switch from X", "drop X"); when both decide about the same object with opposite polarity
("use X" / "not use X"); when both choose known alternatives (two databases, two clouds); when
both fill the same slot with different objects ("use X for the main database" / "move to Y for
the main database", judged by the embedding of the choice with its object masked); or when the
belief judge (:func:`graphmem.beliefs.judge.judge`) finds their texts in conflict *and* they say
what the choice is for. Two bare choices of unrelated things ("use PostgreSQL", "use React") never
conflict.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rapidfuzz import fuzz

from graphmem.beliefs.judge import Verdict, judge
from graphmem.beliefs.statements import read_statement
from graphmem.entities.lexicon import PRODUCT_CATEGORIES, PRONOUNS, TIME_WORDS
from graphmem.entities.names import entity_key

_VERB = (
    r"(?:use|using|go\s+with|adopt|(?:go|switch|move|migrate)\s+back\s+to|revert\s+to|return\s+to|"
    r"switch\s+to|move\s+to|migrate\s+to|stick\s+with|standardi[sz]e\s+on|"
    r"keep|build|hire|buy|pick|choose|go\s+for|launch|run|host\s+on|deploy\s+on|deploy\s+to|rely\s+on|"
    r"resume|restart|start|continue|expand|increase|freeze|pause|stop|halt|cancel|delay|postpone|drop|"
    r"abandon|end|cut|reduce)"
)
_LEADING = re.compile(r"^(?:(?:not|no\s+longer|never)\s+)?(?:to\s+)?(?:" + _VERB + r"\s+)?", re.IGNORECASE)
_NEGATED = re.compile(
    r"^(?:not|no\s+longer|never|stop|stop\s+using|drop|abandon|freeze|pause|halt|cancel|delay|postpone|"
    r"end|cut|reduce)\b",
    re.IGNORECASE,
)
_SLOT_CUT = re.compile(
    r"\s+(?:for|as|in|on|at|over|instead|rather|from|to|with|until|by|across|throughout|into|this|next|"
    r"last|every|each|starting|before|after|because|since|so)\s+",
    re.IGNORECASE,
)
_REPLACED = re.compile(
    r"\b(?:instead\s+of|rather\s+than|over|(?:switch|switching|switched|move|moving|moved|migrate|"
    r"migrating|migrated)\s+(?:away\s+)?from|(?:drop|dropping|dropped|replace|replacing|replaced|ditch|"
    r"ditching|abandon|abandoning)|no\s+longer\s+(?:use|using)?|stop\s+using|away\s+from)\s+"
    r"(?:the\s+|our\s+|using\s+)?(?P<old>[\w.+#-]+(?:\s+(?-i:[A-Z])[\w.+#-]*)*)",
    re.IGNORECASE,
)
_QUANTIFIERS = frozenset(
    " ".join(
        (
            "a an the our my your their some more another one two three four five six seven eight nine ten",
            "few several many all",
        )
    ).split()
)
_WORD = re.compile(r"[A-Za-z0-9][\w.$%+-]*")
SAME_OBJECT_RATIO = 90.0
SLOT_COSINE = 0.85
PLACEHOLDER = "something"


@dataclass(frozen=True)
class DecisionFacts:
    """What the reversal check compares about one decision."""

    text: str
    choice: str
    object: str
    slot: str
    purpose: bool
    negated: bool
    replaced: frozenset[str]
    details: frozenset[str]
    """Dates, numbers and names in the slot ("March", "20", "Berlin"): a change of them is a reversal."""


def decision_facts(text: str, choice: str) -> DecisionFacts:
    """Read the decided object ("PostgreSQL" in "use PostgreSQL for the main database"), the slot
    ("use something for the main database"), the polarity, and the options the text says it replaces.
    """
    body = " ".join(choice.split())
    rest = _LEADING.sub("", body, count=1)
    cut = _SLOT_CUT.search(rest)
    obj = rest[: cut.start()] if cut else rest
    words = entity_key(obj).split()
    while words and (words[0] in _QUANTIFIERS or words[0].isdigit()):
        words = words[1:]
    object_key = " ".join(words)
    slot = body.replace(obj, PLACEHOLDER, 1) if obj else body
    replaced = frozenset(entity_key(m.group("old")) for m in _REPLACED.finditer(text or choice))
    return DecisionFacts(
        text=text,
        choice=body,
        object=object_key,
        slot=slot,
        purpose=cut is not None,
        negated=_NEGATED.search(body) is not None,
        replaced=frozenset(r for r in replaced if r),
        details=_details(slot),
    )


def _details(slot: str) -> frozenset[str]:
    found = set()
    for i, word in enumerate(_WORD.findall(slot)):
        lower = word.lower()
        if (
            word[0].isdigit()
            or lower in TIME_WORDS
            or (i > 0 and word[0].isupper() and lower not in PRONOUNS)
        ):
            found.add(lower)
    return frozenset(found)


def same_object(a: str, b: str) -> bool:
    """Whether two decided objects (keys) are the same thing, allowing small spelling differences."""
    return bool(a and b) and (a == b or fuzz.token_sort_ratio(a, b) >= SAME_OBJECT_RATIO)


def _alternatives(a: str, b: str) -> bool:
    return bool(PRODUCT_CATEGORIES.get(a, frozenset()) & PRODUCT_CATEGORIES.get(b, frozenset()))


def reverses(old: DecisionFacts, new: DecisionFacts, text_cosine: float, slot_cosine: float) -> Verdict:
    """Whether ``new`` reverses ``old`` (same scope and domain assumed), and why.

    ``text_cosine`` is the similarity of the two decision texts, ``slot_cosine`` that of their
    slots (choices with the object masked).
    """
    if old.object and any(same_object(old.object, r) for r in new.replaced):
        return Verdict(True, f"replaces {old.object}")
    if same_object(old.object, new.object):
        if old.negated != new.negated:
            return Verdict(True, "reversed")
        if old.details and new.details and not (old.details & new.details):
            return Verdict(True, "details changed")
        if old.purpose and new.purpose:
            verdict = judge(read_statement(old.text), read_statement(new.text), text_cosine)
            if verdict.conflict:
                return verdict
        return Verdict(False, "reaffirmed")
    if _alternatives(old.object, new.object):
        return Verdict(True, "different choice among alternatives")
    if old.purpose and new.purpose and slot_cosine >= SLOT_COSINE:
        return Verdict(True, "different choice for the same purpose")
    if old.purpose and new.purpose:
        verdict = judge(read_statement(old.text), read_statement(new.text), text_cosine)
        if verdict.conflict:
            return verdict
    return Verdict(False, "unrelated")
