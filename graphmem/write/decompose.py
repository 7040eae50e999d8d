"""W2's deterministic fallback: raw text to atomic, self-contained facts, without a model.

It reads conversation turns ("Ann: I moved to Berlin, and my sister lives in Rome lol"), prose,
line-oriented tool output and JSON, and keeps what is worth remembering: facts, preferences,
instructions, plans and routines. Greetings, thanks, small talk, filler and questions are dropped.
First person becomes the speaker ("the user" unless named). Splitting is conservative: a sentence
is cut at ';' or 'and'/'but' only between two clauses that each have a subject and a verb, and
never when the second clause leans on the first ('it', 'there', 'she'...). A sentence that opens
with such a pronoun is joined to the fact before it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Literal

from graphmem.write.first_person import resolve_first_person
from graphmem.write.structured import json_facts
from graphmem.write.verbs import is_verb, lexicon

Mode = Literal["prose", "line"]
MAX_MERGED_WORDS = 60
MAX_LINE_WORDS = 40

# A sentence made of these words only carries nothing worth remembering.
SMALL_TALK = lexicon(
    """
    ok okay k kk yes yeah yep yup no nope nah sure right alright fine cool nice great good awesome
    amazing wow oh ah aha hmm um uh lol lmao rofl haha hahaha hehe thanks thank thx ty you your you're
    youre welcome np problem problems worries cheers bye goodbye hi hello hey hiya morning evening
    night afternoon day have a an the that that's thats this it it's its is was sounds sound seems
    looks look so really very pretty super totally quite such what how fun fantastic wonderful perfect
    interesting lovely excellent brilliant neat exciting idea plan agreed agree true indeed absolutely
    definitely of course makes make sense got see later soon too same here me i i'm im am glad happy to
    hear help love appreciate much lot tons will let know talk again anyway well just be for all luck
    like not don't dont idk maybe perhaps guess think know
    """
)
_CHIT_CHAT = re.compile(
    r"^(?:thanks|thank you|thx|ty|cheers|congrats|congratulations|good luck|have a (?:great|good|nice)|"
    r"see you|talk (?:to you )?(?:soon|later)|glad (?:to|you|that)|happy to help|no worries|"
    r"you'?re welcome|sounds (?:good|great|like|fun|perfect)|that'?s (?:great|awesome|amazing|cool|"
    r"nice|so|too|really|wonderful|fantastic|a great)|nice to (?:meet|hear)|i hope you|hope you|"
    r"good (?:morning|night|evening|afternoon)|welcome back|how are you|bye)\b",
    re.I,
)
_QUESTION_START = re.compile(
    r"^(?:who|what|when|where|why|how|which|do|does|did|is|are|was|were|can|could|would|will|should|"
    r"shall|have|has|any|anyone|isn't|aren't|don't|didn't|doesn't|wanna|want)\b",
    re.I,
)
_POLITE_REQUEST = re.compile(r"^(?:can|could|would|will)\s+you\s+(?:please\s+)?", re.I)
_LASTING = re.compile(
    r"\b(?:always|never|stop|remember|remind|make sure|keep in mind|avoid|from now on|in (?:the )?"
    r"future|going forward|call me|anymore)\b",
    re.I,
)
_LEADING = re.compile(
    r"^(?:(?:oh|ah|aw+|um+|uh+|hmm+|btw|lol|lmao|haha+|hehe+|anyway|anyways|fyi|by the way|just so you "
    r"know|for the record|heads up|fun fact|quick (?:one|question|update|note)|to be honest|tbh)\b[\s,!.:;-]*"
    r"|(?:well|so|yes|yeah|yep|yup|no|nope|nah|ok|okay|sure|right|alright|great|cool|nice|awesome|"
    r"thanks|thank you|thx|sorry|honestly|basically|wow|hi|hey|hello)\s*[,!.:;-]+\s*"
    r"|(?:hi|hey|hello|dear)\s+[A-Z][\w'-]*\s*[,!.:;-]+\s*"
    r"|(?:and|but|so)\s+(?=(?:i|i'm|i've|i'll|i'd|my)\b))+",
    re.I,
)
_PREFIX = re.compile(
    r"^(?:please\s+)?(?:(?:remember|note|keep in mind|bear in mind|don't forget|do not forget|never "
    r"forget)\s*(?:that\b|[,:])|i (?:want|wanted) you to (?:know|remember)(?: that)?\b)\s*",
    re.I,
)
_PLEASE = re.compile(r"\bplease\b,?\s*", re.I)
_TRAILING = re.compile(
    r"(?:[\s,]+(?:lol|lmao|rofl|haha+|hehe+|xd|:\)|:-\)|:d|;\)|:p|<3|btw|by the way|fyi|though|tbh))+"
    r"\s*(?=[.!?]*$)",
    re.I,
)
_EMOJI = re.compile("[\U0001f000-\U0001faff\u2600-\u27bf\ufe0f\u200d]")
_MARKUP = re.compile(r"\*\*|__|`")
_PARAGRAPH = re.compile(r"\n[ \t]*\n")
_BULLET = re.compile(r"^\s*(?:[-*\u2022+>]|\d{1,3}[.)])\s+")
_HEADING = re.compile(r"^#{1,6}\s")
_STRUCTURAL = re.compile(r"^[\s{}\[\](),`=*_#|~-]*$")
_LABEL = re.compile(r"^[\"']?([A-Za-z][\w.'/()-]*(?: [\w.'/()-]+){0,2})[\"']?\s*[:=]\s+[\"']?(.+?)[\"']?,?$")
_NAME = re.compile(r"^[A-Z][a-z'.-]+(?: [A-Z][a-z'.-]+)?$")
_SENTENCE_END = re.compile(r"[.!?]+[\"'\u2019)\]]*(?=\s|$)")
_JOINT = re.compile(r"\s*;\s*|,?\s+(?:and|but)\s+(?:then\s+)?|,\s+(?=(?:i|i'm|im|i've|i'll|i'd|my)\b)", re.I)
_SUBORDINATE = re.compile(
    r"^(?:if|when|whenever|unless|although|though|because|since|while|once|before|after|as soon as|"
    r"even though|whether)\b",
    re.I,
)
_ABBREVIATIONS = lexicon(
    "mr mrs ms dr prof st jr sr vs etc e.g i.e approx no inc ltd co corp dept fig a.m p.m u.s u.k "
    "jan feb mar apr jun jul aug sep sept oct nov dec mon tue wed thu fri sat sun"
)
_ASSISTANT_LABELS = lexicon("assistant ai bot system agent gpt chatgpt claude model chatbot tool")
_USER_LABELS = lexicon("user human me customer client")
_QUESTION_LABELS = lexicon("q question")
# Labels that introduce content rather than name a speaker or a field: the content is kept.
_INTRO_LABELS = lexicon(
    "a answer note fyi ps p.s btw update summary context info result output response reply comment "
    "description details message tldr tl;dr"
)
_INTRO_PHRASES = frozenset(
    {"big news", "good news", "bad news", "fun fact", "heads up", "side note", "quick update"}
)
_FIRST_PERSON = lexicon("i i'm im i've i'll i'd my me mine myself")
_I = lexicon("i i'm im i've i'll i'd")
_CLAUSE_SUBJECTS = frozenset({"my", "our", "the", "a", "an"})
# Words a self-contained clause does not lean on: a clause holding one is kept with its neighbour.
_LEANING = lexicon(
    "it its it's that this these those there they them their he him his she her hers they're he's she's"
)
_DANGLING_START = _LEANING - {"there"}
_IMPERATIVES = lexicon(
    "always never don't do stop use avoid call remind remember keep prefer reply respond answer write "
    "speak no"
)


def decompose(text: str, speaker: str | None = None) -> list[str]:
    """The facts in ``text`` in order, without duplicates; first person becomes ``speaker``.

    Without a speaker, first person becomes 'the user'. A 'Name:' at the start of a line names
    the speaker of that line. JSON objects and arrays are read field by field.
    """
    structured = json_facts(text, lambda value: decompose(value, speaker))
    if structured is not None:
        return _unique(structured)
    facts: list[str] = []
    for paragraph in _PARAGRAPH.split(text.replace("\r\n", "\n")):
        for unit, who, mode in _units(paragraph, speaker):
            facts += _unit_facts(unit, who, mode)
    return _unique(facts)


def is_chit_chat(sentence: str) -> bool:
    """Whether ``sentence`` is a greeting, thanks, filler or small talk with nothing to remember."""
    text = _EMOJI.sub("", sentence).strip()
    words = [w.strip(".,;:!?\"'()").lower().replace("\u2019", "'") for w in text.split()]
    words = [w for w in words if w]
    return not words or all(w in SMALL_TALK for w in words) or bool(_CHIT_CHAT.match(text))


def split_sentences(text: str) -> list[str]:
    """``text`` cut after '.', '!' and '?' (not after 'Dr.', 'e.g.' or an initial)."""
    pieces: list[str] = []
    start = 0
    for m in _SENTENCE_END.finditer(text):
        before = text[start : m.start()].split()
        last = before[-1].lower() if before else ""
        if m.group().startswith(".") and (last in _ABBREVIATIONS or (len(last) == 1 and last.isalpha())):
            continue
        pieces.append(text[start : m.end()].strip())
        start = m.end()
    pieces.append(text[start:].strip())
    return [p for p in pieces if p]


def split_clauses(sentence: str) -> list[str]:
    """``sentence`` cut at ';' / 'and' / 'but' where both sides are clauses that stand alone."""
    if _SUBORDINATE.match(sentence):
        return [sentence]
    parts: list[str] = []
    start = 0
    for m in _JOINT.finditer(sentence):
        left, right = sentence[start : m.start()], sentence[m.end() :]
        if _nested(sentence[: m.start()]) or not _is_clause(left):
            continue
        joint = m.group().strip()
        if joint == ";" and not _is_clause(right):
            continue
        if joint == "," and _words(left)[0] not in _I | _CLAUSE_SUBJECTS:
            continue
        if not _opens_clause(right, semicolon=joint == ";"):
            continue
        parts.append(left.strip(" ,"))
        start = m.end()
    parts.append(sentence[start:].strip())
    return [p for p in parts if p]


def _units(paragraph: str, speaker: str | None) -> Iterator[tuple[str, str | None, Mode]]:
    """The paragraph's lines, wrapped lines joined, each with its speaker and how to read it."""
    units: list[str] = []
    for raw in paragraph.split("\n"):
        line = raw.strip()
        if not line:
            continue
        if units and _continues(units[-1], line):
            units[-1] += " " + line
        else:
            units.append(line)
    for unit in units:
        labelled = _labelled(unit, speaker)
        if labelled is not None:
            yield labelled


def _continues(previous: str, line: str) -> bool:
    """Whether ``line`` carries on a sentence wrapped from ``previous``."""
    if previous[-1] in ".!?:" or _BULLET.match(line) or _HEADING.match(line) or _LABEL.match(line):
        return False
    return line[0].islower() or (line[0].isalpha() and len(previous.split()) >= 8)


def _labelled(unit: str, speaker: str | None) -> tuple[str, str | None, Mode] | None:
    """How to read one line: who speaks in it, and prose or a 'field: value' line; None skips it."""
    unit = _MARKUP.sub("", _BULLET.sub("", unit)).strip()
    if not unit or _HEADING.match(unit) or _STRUCTURAL.match(unit):
        return None
    m = _LABEL.match(unit)
    if m is None:
        return None if _is_title(unit) else (unit, speaker, "prose")
    label, rest = m.group(1), m.group(2).strip()
    low = label.lower()
    if low in _ASSISTANT_LABELS or low in _QUESTION_LABELS:
        return None
    if low in _USER_LABELS or low in _INTRO_LABELS or low in _INTRO_PHRASES:
        return rest, speaker, "prose"
    words = _words(rest)
    if _NAME.match(label) and (
        any(w in _FIRST_PERSON for w in words) or len(words) >= 4 or rest[-1] in ".!?"
    ):
        return rest, label, "prose"
    if len(words) > MAX_LINE_WORDS:
        return rest, speaker, "prose"
    return f"{label}: {rest}", speaker, "line"


def _unit_facts(unit: str, who: str | None, mode: Mode) -> list[str]:
    if mode == "line":
        fact = None if is_chit_chat(unit.split(":", 1)[1]) else _finish(resolve_first_person(unit, who))
        return [fact] if fact else []
    facts: list[str] = []
    for sentence in split_sentences(unit):
        prepared = _prepare(sentence)
        if prepared is None:
            continue
        for clause in split_clauses(prepared):
            fact = _fact(clause, who)
            if fact is None:
                continue
            if (
                facts
                and _words(clause)[0] in _DANGLING_START
                and _merged_size(facts[-1], fact) <= MAX_MERGED_WORDS
            ):
                facts[-1] = facts[-1].rstrip(".!?") + "; " + fact[0].lower() + fact[1:]
            else:
                facts.append(fact)
    return facts


def _prepare(sentence: str) -> str | None:
    """The sentence without emoji, filler and framing; None for a question or nothing left."""
    text = _TRAILING.sub("", _EMOJI.sub("", sentence)).strip()
    text = _LEADING.sub("", text).strip()
    if text.endswith("?"):
        text = _from_question(text) or ""
    text = _PREFIX.sub("", _PLEASE.sub("", text)).strip()
    return text or None


def _from_question(text: str) -> str | None:
    """What a question still says: a lasting request ('Could you always...?') or a statement
    before a tag question ('I moved to Oslo, have you been?'); None for a plain question."""
    polite = _POLITE_REQUEST.match(text)
    if polite and _LASTING.search(text):
        rest = text[polite.end() :].rstrip("?").strip()
        return rest[:1].upper() + rest[1:] if rest else None
    head, comma, _ = text.rpartition(",")
    if comma and not _QUESTION_START.match(head) and _is_clause(head) and not is_chit_chat(head):
        return head
    return None


def _fact(clause: str, who: str | None) -> str | None:
    clause = _LEADING.sub("", clause).strip(" ,;:-")
    if not clause or is_chit_chat(clause):
        return None
    fact = _finish(resolve_first_person(clause, who))
    if len(fact.split()) < 3 and _words(clause)[0] not in _IMPERATIVES:
        return None
    return fact


def _finish(text: str) -> str:
    """One clean sentence: single spaces, a capital first letter, a full stop."""
    text = " ".join(text.split()).strip(" ,;:-")
    if not text:
        return text
    text = re.sub(r"[.!]*!+[.!]*$", ".", text)
    text = text[0].upper() + text[1:]
    return text if text[-1] in ".?" else text + "."


def _words(text: str) -> list[str]:
    words = [w.strip(".,;:!?\"'()").lower().replace("\u2019", "'") for w in text.split()]
    return [w for w in words if w] or [""]


def _is_clause(text: str) -> bool:
    words = _words(text)
    return len(words) >= 2 and (words[0] in _I or any(is_verb(w) for w in words))


def _opens_clause(text: str, *, semicolon: bool) -> bool:
    """Whether ``text`` starts a clause with its own subject and verb that leans on nothing before."""
    words = _words(text)
    if any(w in _LEANING for w in words):
        return False
    first = words[0]
    if first in _I:
        return True
    if first in _CLAUSE_SUBJECTS:
        return any(is_verb(w) for w in words[1:4])
    if text.lstrip()[:1].isupper():  # a name: "..., and Tom teaches maths"
        return any(is_verb(w) for w in words[1:3])
    return semicolon and any(is_verb(w) for w in words[:4])


def _nested(before: str) -> bool:
    """Whether a position is inside parentheses or quotes."""
    return before.count("(") > before.count(")") or before.count('"') % 2 == 1


def _is_title(line: str) -> bool:
    """A heading-like line: short, no end punctuation, no verb, every long word capitalised."""
    words = line.split()
    long_words = [w for w in words if len(w) > 3]
    return (
        len(words) <= 8
        and line[-1] not in ".!?"
        and bool(long_words)
        and all(w[0].isupper() for w in long_words)
        and not any(is_verb(w) for w in words)
        and not any(w.lower() in _FIRST_PERSON for w in words)
    )


def _merged_size(a: str, b: str) -> int:
    return len(a.split()) + len(b.split())


def _unique(facts: list[str]) -> list[str]:
    seen: set[str] = set()
    kept = []
    for fact in facts:
        key = " ".join(fact.lower().split()).rstrip(".")
        if fact and key not in seen:
            seen.add(key)
            kept.append(fact)
    return kept
