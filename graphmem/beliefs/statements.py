"""Reading a statement the way the offline belief check needs: who it is about, which attribute,
which values, negated or not, and whether it announces a change or an addition.

Pure functions, no model: the lexicons below are the deterministic fallback's knowledge.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


def speaker_in(metadata: Mapping[str, Any] | None) -> str | None:
    """Who 'I' is in a memory's text, when its metadata says so (``{"speaker": "Ann"}``)."""
    speaker = (metadata or {}).get("speaker")
    return speaker if isinstance(speaker, str) and speaker.strip() else None


def lexicon(text: str) -> frozenset[str]:
    """A lexicon from a space-separated list of words."""
    return frozenset(text.split())


_SPEAKER = re.compile(r"^\s*([A-Z][\w.'-]{0,40}(?: [A-Z][\w.'-]{0,40})?)\s*:\s+")
# an aside in brackets after a note's key qualifies the key ("Decision (final): ..." is a decision)
_KEY_ASIDE = re.compile(r"^(\s*[^:()\n]{1,40}?)\s*\([^()\n]{1,30}\)\s*:(?=\s)")
_WORD = re.compile(r"[A-Za-z][A-Za-z'\-]*|\d+(?:[.,:]\d+)*(?:am|pm|k|m|%)?", re.UNICODE)

FIRST_PERSON = frozenset({"i", "me", "my", "mine", "myself", "i'm", "i've", "i'd", "i'll", "im"})
NEGATIONS = lexicon(
    "not no never don't doesn't didn't isn't aren't wasn't won't can't cannot dont doesnt isnt nobody "
    "nothing neither nor stopped quit anymore"
)
CHANGE_MARKERS = lexicon(
    "now moved move moving relocated migrated migrate switched switch changed change replaced instead "
    "anymore longer became become pushed postponed rescheduled delayed updated renamed new no-longer "
    "currently actually quit left joined stopped started transferred promoted rewritten rewrote "
    "rebuilt redesigned reassigned went upgraded downgraded"
)
ADDITIVE_MARKERS = frozenset({"also", "too", "another", "additionally", "addition", "both", "besides"})
STOPWORDS = lexicon(
    "a an the is are was were be been being am do does did has have had of to in on at for with by "
    "from as and or but so that this these those it its it's there their they them he she his her we "
    "our us you your which who whom what when where why how will would can could should shall may "
    "might must just very really quite about into over under than then also too well still yet"
)
# Attribute families. Single-valued ones hold one value at a time, so a different value replaces
# the old; multi-valued ones accumulate ("likes hiking" and "likes swimming" are both true).
SINGLE_VALUED: dict[str, frozenset[str]] = {
    "residence": lexicon(
        "live lives living lived moved move relocated reside resides based home hometown address"
    ),
    "employment": lexicon(
        "works work working employed employer job joined company hired position role title"
        # the job ends: "was laid off", "was made redundant", "got fired", "resigned"
        " laid redundant fired sacked resigned"
    ),
    "favourite": frozenset({"favorite", "favourite", "fave"}),
    "age": frozenset({"age", "old", "aged", "turned", "birthday", "born"}),
    "name": frozenset({"name", "named", "called", "renamed"}),
    "schedule": lexicon(
        "standup meeting deadline due scheduled rescheduled postponed pushed starts ends launch release ships"
    ),
    "technology": lexicon("runs migrated database stack hosted deployed switched version"),
    "status": lexicon("retired pregnant unemployed status"),
    "relationship": lexicon(
        "married single divorced engaged dating seeing boyfriend girlfriend partner husband wife fiancé"
    ),
    "diet": lexicon("diet vegetarian vegan pescatarian omnivore keto meat"),
    "manager": lexicon("manager boss reports report supervisor"),
    "contact": frozenset({"email", "phone", "number", "handle"}),
    "price": frozenset({"price", "costs", "cost", "budget", "rent", "pays", "paid"}),
    # what someone is paid is not what they pay: a salary does not replace a rent
    "income": frozenset({"salary"}),
}
MULTI_VALUED = lexicon(
    "like likes love loves enjoy enjoys enjoyed visited visit has have own owns speak speaks know "
    "knows read reads watched plays play friend friends hobby hobbies went go goes tried bought made "
    "include includes support supports eat eats collect collects attend attends "
    "freelance freelances volunteer volunteers consult consults contribute contributes"
)
VALUE_WORDS = lexicon(
    "red orange yellow green blue purple pink black white grey gray brown monday tuesday wednesday "
    "thursday friday saturday sunday january february march april may june july august september "
    "october november december morning afternoon evening night weekly daily monthly tea coffee "
    "vegetarian vegan remote onsite hybrid married single divorced engaged dating widowed retired "
    "pregnant unemployed"
)
# Nouns naming someone or something of the subject's ("my sister", "my dog"): a statement about
# the user's sister is not about the user.
RELATION_NOUNS = lexicon(
    "sister brother mother father mom dad mum wife husband partner son daughter kid kids child "
    "children friend neighbour neighbor boss manager colleague coworker cousin aunt uncle grandma "
    "grandpa grandmother grandfather girlfriend boyfriend dog cat pet team roommate parent parents "
    "grandson granddaughter grandchild grandchildren spouse fiance fiancé fiancee fiancée flatmate housemate"
)
# Subjects that say nothing about who: "we migrated...", "they moved...".
COLLECTIVE = frozenset({"we", "our", "us", "they", "their", "them", "it", "its", "there", "this", "that"})
_BE_HAVE = lexicon(
    "is are was were be been am has have had do does did will would can could should 's 'm 're got get gets"
)


def stem(word: str) -> str:
    """A crude stem so that 'lives', 'living' and 'lived' compare equal."""
    for suffix in ("ing", "ed", "es", "s"):
        if len(word) > len(suffix) + 2 and word.endswith(suffix):
            return word[: -len(suffix)]
    return word


# A statement longer than this, or a question, is conversation rather than an atomic fact: the
# offline check leaves it alone (extraction turns conversation into atomic facts first).
MAX_ATOMIC_WORDS = 30


@dataclass(frozen=True)
class Statement:
    """The parts of a statement the belief check compares."""

    text: str
    subject: str | None
    words: frozenset[str]
    content: frozenset[str]
    values: frozenset[str]
    negated: bool
    change: bool
    additive: bool
    families: frozenset[str]
    multi_valued: bool
    ordered_pair: tuple[str, str] | None
    subject_words: frozenset[str]
    speaker: str | None
    atomic: bool
    body: str = ""  # the text without a leading "Name:" speaker prefix


def _is_value(token: str, original: str, sentence_start: bool) -> bool:
    if token[0].isdigit() or token in VALUE_WORDS:
        return True
    return not sentence_start and original[:1].isupper() and token not in FIRST_PERSON


def _sentence_starts(body: str) -> list[bool]:
    """For each word of ``body``, whether it opens a sentence (so its capital says nothing)."""
    starts = []
    for m in _WORD.finditer(body):
        before = body[: m.start()].rstrip()
        starts.append(not before or before[-1] in '.!?:;-"(')
    return starts


def read_statement(text: str, speaker: str | None = None) -> Statement:
    """Analyse ``text``; first person resolves to ``speaker`` (or a 'Name:' prefix, else 'user')."""
    text = _KEY_ASIDE.sub(r"\1:", text)
    match = _SPEAKER.match(text)
    body = text[match.end() :] if match else text
    who = (speaker or (match.group(1) if match else None) or "user").lower()
    originals = _WORD.findall(body)
    starts = _sentence_starts(body)
    tokens = [w.lower() for w in originals]
    words: set[str] = set()
    values: set[str] = set()
    first_person = False
    for token, original, start in zip(tokens, originals, starts, strict=True):
        if token in FIRST_PERSON:
            first_person = True
            token = who
        words.add(token)
        if token not in STOPWORDS and token != who and _is_value(token, original, start):
            values.add(token)
    if "user" in words:
        first_person = True
    content = frozenset(stem(w) for w in words if w not in STOPWORDS and w not in NEGATIONS)
    values = {stem(v) if not v[0].isdigit() else v for v in values}
    families = frozenset(name for name, vocab in SINGLE_VALUED.items() if words & vocab)
    return Statement(
        text=text,
        subject=who if first_person else None,
        words=frozenset(words),
        content=content,
        values=frozenset(values),
        negated=bool(words & NEGATIONS),
        change=bool(words & CHANGE_MARKERS),
        additive=bool(words & ADDITIVE_MARKERS) or " as well" in body.lower(),
        families=families,
        multi_valued=bool(words & MULTI_VALUED) and not families,
        ordered_pair=_preference_pair(tokens),
        subject_words=_subject_words(tokens, who),
        speaker=(speaker or (match.group(1) if match else None) or "").lower() or None,
        atomic=len(tokens) <= MAX_ATOMIC_WORDS and "?" not in body,
        body=body,
    )


def _verb_like(token: str) -> bool:
    if token in _BE_HAVE or token in MULTI_VALUED or token in CHANGE_MARKERS or token in NEGATIONS:
        return True
    return any(token in vocab for vocab in SINGLE_VALUED.values()) and token not in RELATION_NOUNS


def _subject_words(tokens: list[str], who: str) -> frozenset[str]:
    """The content words before the first verb: 'my sister' -> {user, sister}; 'we' -> {}."""
    subject: set[str] = set()
    for token in tokens:
        if _verb_like(token):
            break
        if token in FIRST_PERSON:
            subject.add(who)
        elif token.endswith("'s"):
            subject.add(token[:-2])
        elif token not in STOPWORDS and token not in COLLECTIVE:
            subject.add(stem(token))
    return frozenset(subject)


def _preference_pair(tokens: list[str]) -> tuple[str, str] | None:
    """('tea', 'coffee') for 'prefers tea over coffee' / 'rather tea than coffee'."""
    for i, token in enumerate(tokens):
        if token in {"over", "than"} and 0 < i < len(tokens) - 1:
            before = [t for t in tokens[max(0, i - 3) : i] if t not in STOPWORDS]
            after = [t for t in tokens[i + 1 : i + 4] if t not in STOPWORDS]
            if (
                before
                and after
                and any(t.startswith(("prefer", "rather", "better", "more")) for t in tokens[:i])
            ):
                return before[-1], after[0]
    return None
