"""What a statement says someone left behind, or what it says has ended: the old value, named.

"haha yeah we left Rotterdam in May, we're in Utrecht now", "Billing uses SQS now instead of
RabbitMQ", "Quit Ogilvy to start my own design studio", "Helga Brandt retired": each names the
value a stored statement holds ("I live in Rotterdam", "The billing service's queue is RabbitMQ",
"I've taken a staff job at Ogilvy", "Isaac's line manager is Helga Brandt") and says it no longer
holds. Read from spaCy's dependency parse of the whole text, so the statement may run over more
than one clause or sentence, as people write them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from graphmem.beliefs.initials import alike_names
from graphmem.beliefs.parse import (
    HEDGE_MODALS,
    HEDGE_WORDS,
    Clause,
    clause_texts,
    read_clause,
    sentence_count,
)
from graphmem.beliefs.reported import reported
from graphmem.beliefs.restore import diary_readings, parse_doc, parse_docs, with_diary_subject
from graphmem.beliefs.statements import FIRST_PERSON, RELATION_NOUNS, STOPWORDS, Statement, lexicon
from graphmem.beliefs.subjects import word_form
from graphmem.stemming import stem

# verbs whose object is what the subject leaves behind ("left Google", "ditched the Peloton")
LEAVING_VERBS = lexicon(
    "leave quit drop ditch replace supersede sell swap abandon dump scrap decommission deprecate "
    "sunset retire stop"
)
# verbs that leave what their preposition names ("moved out of the Dundee flat", "switched from Jira")
MOVING_VERBS = lexicon("move switch migrate transfer relocate change convert go")
LEAVING_PREPOSITIONS = frozenset({"from", "off"})
# verbs that say their subject ended ("Helga Brandt retired", "Colette passed away")
ENDED_VERBS = lexicon("retire resign quit leave die sunset deprecate decommission discontinue")
ENDED_PHRASAL = frozenset({("pass", "away"), ("step", "down")})
# where someone works: leaving it ends every role they held there ("Hanna left the company")
WORKPLACES = lexicon("company firm job team business agency department organisation organization role post")
# what a thing is said to be when it has ended ("ABBA is retired", "the old codebase is dead")
ENDED_STATES = lexicon(
    "retired gone dead over history deprecated discontinued defunct sunset scrapped cancelled canceled axed"
)
# a relationship that ended names the other person with "with" or "from" ("broke up with Jack")
PARTING_VERBS = lexicon("split separate divorce")
_WRITERS = frozenset({"user", "we", "us"})
# "Owen and I split": the small model reads no subject into it
_PARTED = re.compile(
    r"\b([A-Z][\w'-]+) and (?:I|me) (?:have |had |just |finally )*"
    r"(?:split|broke up|separated|divorced|parted)\b"
)
# the first word of a diary note that leaves something ("Quit Ogilvy to start ..."), which the
# small model reads as a name when no "I" precedes it
_NOTE_VERBS = lexicon(
    "left quit dropped ditched sold replaced swapped abandoned dumped scrapped moved switched migrated "
    "retired broke split divorced stopped"
)
_BECOMING = lexicon("be get become")
# phrasal verbs whose object is left: "gave up running", "threw Lorne out", "kicked him out"
_PUT_AWAY = frozenset({("give", "up"), ("throw", "out"), ("kick", "out")})
# Every word the readings below start from, as the start of its written forms ("retir" for
# "retired", "retiring"), and the irregular forms: a text with none of them leaves nothing, and is
# not parsed (a long chat text costs tens of milliseconds to parse, and most texts name none).
_IRREGULAR_FORMS = ("left", "sold", "went", "gone", "gave", "threw", "broke", "dying")
_TRIGGER_STARTS = sorted(
    {
        word[:-1] if word.endswith("e") and len(word) > 3 else word
        for word in LEAVING_VERBS
        | MOVING_VERBS
        | ENDED_VERBS
        | PARTING_VERBS
        | ENDED_STATES
        | {verb for verb, _ in ENDED_PHRASAL | _PUT_AWAY}
        | {"break"}  # "broke up with"
    }
    | {"part", "instead", "place", *_IRREGULAR_FORMS}  # "Owen and I parted", "instead of", "in place of"
)
_TRIGGER = re.compile(  # a start of three letters or fewer ("go", "die") only with an ending of its own
    r"\b(?:"
    + "|".join(w if len(w) > 3 else w + r"(?:e|s|es|ed|en|d|n|ing|ne)?\b" for w in _TRIGGER_STARTS)
    + ")",
    re.IGNORECASE,
)
_WORD = re.compile(r"[a-z0-9][a-z0-9'-]*")
_WRITTEN = re.compile(r"[A-Za-z0-9][\w'-]*")  # a word as written, capitals and all
# a statement about something of the writer's ("Our CI runs on Jenkins", "My laptop runs Windows")
_OURS = re.compile(r"^\W*(?:my|our)\b", re.IGNORECASE)
_VALUE_POS = frozenset({"PROPN", "NOUN", "NUM", "X", "ADJ"})


@dataclass(frozen=True)
class LeftBehind:
    """A value a statement says is left or ended: the stems of its words, those of names apart,
    who left it (None for the writer), and whether the thing itself ended ("Helga retired")."""

    words: frozenset[str]
    names: frozenset[str]
    by: str | None
    ended: bool = False


def _phrase(head: Any) -> list[Any]:
    """The noun phrase ``head`` heads: its compounds, names and modifiers ("the Dundee flat")."""
    tokens = [head]
    for child in head.children:
        if child.dep_ in {"compound", "flat", "amod", "nmod", "poss"} or (
            child.dep_ == "appos" and child.pos_ == "PROPN"
        ):
            tokens.extend(t for t in child.subtree if t.pos_ in {"PROPN", "NOUN", "ADJ"})
    return tokens


def _done_with_or_for(act: Any) -> bool:
    """'stopped running with the club': one way of doing the act, not the act."""
    return any(c.dep_ == "prep" and c.lower_ in {"with", "for"} for c in act.children)


def _left(head: Any, by: str | None, ended: bool = False) -> LeftBehind | None:
    tokens = [t for t in _phrase(head) if t.pos_ in {"PROPN", "NOUN"} and not t.is_stop]
    if not tokens and head.tag_ == "VBG":  # an act: "retired from teaching", "gave up running"
        tokens = [head]
    if not tokens:
        return None
    names = frozenset(stem(word_form(t)) for t in tokens if t.pos_ == "PROPN")
    return LeftBehind(frozenset(stem(word_form(t)) for t in tokens), names, by, ended)


def _who(verb: Any, speaker: str) -> str | None:
    """The subject of ``verb`` (or of the verb it hangs on) as a key; None for the writer."""
    node = verb
    while True:
        subject = next((c for c in node.children if c.dep_ in {"nsubj", "nsubjpass"}), None)
        if subject is not None:
            break
        if node.dep_ in {"conj", "xcomp", "advcl"} and node.head.i != node.i:
            node = node.head
            continue
        return None
    word = subject.text.lower()
    if word in FIRST_PERSON or word in _WRITERS or word == speaker:
        return None
    return " ".join(stem(word_form(t)) for t in _phrase(subject) if t.pos_ in {"PROPN", "NOUN"}) or word


def _settled(verb: Any) -> bool:
    """Whether ``verb`` states what happened: not denied, planned, wished or asked about."""
    node = verb
    while True:
        children = list(node.children)
        if any(c.dep_ == "neg" for c in children):
            return False
        if any(c.dep_ == "aux" and c.lower_ in HEDGE_MODALS | {"will", "'ll", "to"} for c in children):
            return False
        if node.lemma_.lower() in HEDGE_WORDS:
            return False
        if node.head.i == node.i or node.dep_ not in {"xcomp", "ccomp", "conj", "advcl", "pcomp"}:
            return True
        node = node.head


def _objects(verb: Any) -> Iterator[Any]:
    for child in verb.children:
        if child.dep_ in {"dobj", "nsubjpass"} and child.pos_ in {"PROPN", "NOUN"}:
            yield child
            yield from (c for c in child.children if c.dep_ == "conj")


def _from_phrases(verb: Any) -> Iterator[Any]:
    """Objects of "from", "off" or "out of" on ``verb`` ("moved out of Leeds", "migrated off AWS")."""
    children = list(verb.children)
    out = any(c.dep_ == "prt" and c.lower_ in {"out", "away"} for c in children)
    for child in children:
        preps = [child]
        if child.lower_ in {"out", "away"}:
            preps = [c for c in child.children if c.dep_ == "prep"]
        for prep in preps:
            out_of = prep.lower_ == "of" and (out or child.i != prep.i)
            if prep.dep_ == "prep" and (prep.lower_ in LEAVING_PREPOSITIONS or out_of):
                yield from (g for g in prep.children if g.dep_ == "pobj")


def _verb_of(token: Any) -> Any:
    """The verb ``token`` hangs on, walking up the parse (the root when no verb is above it)."""
    while token.pos_ not in {"VERB", "AUX"} and token.head.i != token.i:
        token = token.head
    return token


def _instead_of(doc: Any) -> Iterator[tuple[Any, Any]]:
    """(verb, what it is done instead of) for "instead of" or "in place of"
    ("Billing uses SQS now instead of RabbitMQ": uses, RabbitMQ)."""
    for token in doc:
        if token.lower_ == "of" and token.head.lower_ in {"instead", "place"}:
            verb = _verb_of(token.head)
            yield from ((verb, g) for g in token.children if g.dep_ == "pobj")


def _after_instead(doc: Any) -> Iterator[tuple[Any, list[Any]]]:
    """(verb, the words after it) for "instead of X" that the parser did not attach: the words of
    the noun phrase that follows, up to the first that cannot be part of it."""
    for token in doc[:-2]:
        if token.lower_ == "instead" and doc[token.i + 1].lower_ == "of":
            words: list[Any] = []
            for t in doc[token.i + 2 :]:
                if t.pos_ == "DET" and not words:
                    continue
                if t.pos_ not in _VALUE_POS:
                    break
                words.append(t)
            if words:
                yield _verb_of(token.head), words


def _words_left(tokens: list[Any], by: str | None) -> LeftBehind | None:
    kept = [t for t in tokens if t.pos_ != "ADJ" and not t.is_stop]
    if not kept:
        return None
    return LeftBehind(
        frozenset(stem(word_form(t)) for t in kept),
        frozenset(stem(word_form(t)) for t in kept if t.pos_ in {"PROPN", "NUM", "X"}),
        by,
    )


def _parting(verb: Any, lemma: str, particles: set[str]) -> Iterator[Any]:
    """Whom a relationship that ended was with ("broke up with Jack", "divorced Tom")."""
    if lemma in PARTING_VERBS or (lemma == "break" and "up" in particles):
        for child in verb.children:
            if child.dep_ == "prep" and child.lower_ in {"with", "from"}:
                yield from (g for g in child.children if g.dep_ == "pobj")
            elif child.dep_ == "dobj" and lemma == "divorce":
                yield child


def _read_doc(text: str) -> Any:
    doc = parse_doc(with_diary_subject(text))
    if len(doc) > 1 and doc[0].lower_ in _NOTE_VERBS and not any(t.lower_ == "i" for t in doc):
        return parse_doc("I " + text[:1].lower() + text[1:])
    return doc


def may_leave_something(text: str) -> bool:
    """A cheap test before any parse: False when :func:`left_behind` finds nothing in ``text``
    whatever its parse (a question, or no word that a leaving or ending starts with)."""
    return "?" not in text and _TRIGGER.search(text) is not None


@lru_cache(maxsize=4096)
def left_behind(text: str, speaker: str | None = None) -> tuple[LeftBehind, ...]:
    """The values ``text`` says were left or ended, in order; () when it names none."""
    if not may_leave_something(text):
        return ()
    writer = (speaker or "user").lower()
    doc = _read_doc(text)
    found: list[LeftBehind | None] = []
    for match in _PARTED.finditer(text):
        name = frozenset({stem(match.group(1).lower())})
        found.append(LeftBehind(name, name, None))
    for verb in doc:
        if verb.pos_ != "VERB" or not _settled(verb):
            continue
        lemma = verb.lemma_.lower()
        particles = {c.lower_ for c in verb.children if c.dep_ in {"prt", "advmod"}}
        if lemma in LEAVING_VERBS or any((lemma, particle) in _PUT_AWAY for particle in particles):
            found += [_left(o, _who(verb, writer)) for o in _objects(verb) if o.dep_ == "dobj"]
            acts = [c for c in verb.children if c.tag_ == "VBG" and c.dep_ in {"xcomp", "advcl", "dobj"}]
            acts = [act for act in acts if not _done_with_or_for(act)]
            found += [_left(act, _who(verb, writer)) for act in acts]
        if lemma in MOVING_VERBS | LEAVING_VERBS:
            found += [_left(o, _who(verb, writer)) for o in _from_phrases(verb)]
        found += [_left(o, _who(verb, writer)) for o in _parting(verb, lemma, particles)]
        past = verb.tag_ in {"VBD", "VBN"}
        left_all = all(c.lemma_.lower() in WORKPLACES for c in verb.children if c.dep_ == "dobj")
        if (
            past
            and left_all  # "Hanna left the company" ends her roles, as "Hanna left" does
            and (lemma in ENDED_VERBS or any((lemma, p) in ENDED_PHRASAL for p in particles))
        ):
            found += [
                _left(s, None, ended=True)
                for s in verb.children
                if s.dep_ in {"nsubj", "nsubjpass"} and s.pos_ == "PROPN"
            ]
    for token in doc:  # "ABBA is retired", "Atom got sunset"
        said = token.dep_ in {"acomp", "attr", "oprd", "dobj"} and token.head.lemma_.lower() in _BECOMING
        if said and token.lower_ in ENDED_STATES and _settled(token.head):
            subjects = [s for s in token.head.children if s.dep_ == "nsubj" and s.pos_ == "PROPN"]
            found += [_left(s, None, ended=True) for s in subjects]
    found += [_left(o, _who(verb, writer)) for verb, o in _instead_of(doc) if _settled(verb)]
    found += [_words_left(words, _who(verb, writer)) for verb, words in _after_instead(doc) if _settled(verb)]
    return tuple(f for f in found if f is not None)


def names_the_doer(verb: str | None, values: frozenset[str]) -> bool:
    """Whether one of ``values`` is the noun for who does ``verb`` ("freelancer", "smoker",
    "teacher" for "freelance", "smoke", "teach")."""
    if verb is None or len(verb) < 4:
        return False
    root = stem(verb).rstrip("e")
    return any(v.startswith(root) and len(v) - len(root) <= 3 for v in values)


def _subject_words(subject: str | None) -> frozenset[str]:
    return frozenset(stem(w) for w in _WORD.findall((subject or "").lower().replace("'s", " ")))


def _a_thing_of_theirs(old: Statement) -> bool:
    """Whether ``old`` is about something of the writer's that is no one ("Our CI runs on
    Jenkins"; not "My brother lives in Lyon", whom the writer leaving Lyon leaves where he is)."""
    return _OURS.match(old.body) is not None and not old.subject_words & RELATION_NOUNS


def _left_by_its_holder(left: LeftBehind, old: Clause, writer: str, statement: Statement) -> bool:
    """Whether whoever ``left`` says left the value is who or what ``old`` is about."""
    if left.ended:
        return True  # "Helga retired" ends her being anyone's manager
    if old.thing:  # "The billing service's queue is RabbitMQ" / "Billing uses SQS instead of RabbitMQ"
        return left.by is None or bool(_subject_words(left.by) & _subject_words(old.subject))
    if left.by is None:  # the writer left it: what they say of themselves or of theirs ("our CI")
        return old.subject in {None, writer, "we", "us"} or _a_thing_of_theirs(statement)
    if old.subject is None or "'s" in old.subject:
        return old.subject == left.by
    return _subject_words(left.by) <= _subject_words(old.subject)


@lru_cache(maxsize=8192)
def _word_starts(text: str) -> frozenset[str]:
    return frozenset(stem(w)[:4] for w in _WORD.findall(text.lower()) if w not in STOPWORDS)


def _share_a_word(old: str, new: str) -> bool:
    """A cheap test before any parse: whether the two texts have a word that starts alike (its
    first four letters, so "children" meets "child" and "teaching" meets "teacher")."""
    return not _word_starts(old).isdisjoint(_word_starts(new))


def parse_left_behind_ahead(pairs: Iterable[tuple[Statement, Statement]]) -> None:
    """Parse in a few batches what :func:`leaves_its_value` parses of these (old, new) pairs, each
    read as the judge reads it: the old statement, whose sentences are counted; the new text, of
    any length, when it may leave the old one's value; and that text's first diary reading ("I "
    put back), which :func:`with_diary_subject` parses whenever the text has no subject. One by
    one, under the scope locks, these parses cost about a tenth of a batch's belief check; batched,
    each costs about half. Decides nothing: the parses are cached, the same."""
    read: list[tuple[str, str]] = []
    for first, second in pairs:
        old, new = alike_names(reported(first), reported(second))
        two_speakers = old.speaker and new.speaker and old.speaker != new.speaker
        if old.atomic and not old.ordered_pair and not two_speakers:
            read.append((old.body, new.body))
    parse_docs(old for old, _ in read)
    leaving = [
        new
        for old, new in read
        if may_leave_something(new) and sentence_count(old) == 1 and _share_a_word(old, new)
    ]
    parse_docs(leaving)
    parse_docs(readings[0] for text in dict.fromkeys(leaving) if (readings := diary_readings(text)))


def leaves_its_value(old: Statement, new: Statement) -> bool:
    """Whether ``new`` says the value ``old`` states was left or has ended ("I live in Rotterdam" /
    "we left Rotterdam in May, we're in Utrecht now"): a name of it left by whom ``old`` is about,
    or ended of itself. ``old`` must state a current fact of one sentence."""
    if not old.atomic or old.ordered_pair or sentence_count(old.body) > 1:
        return False  # a preference of one thing over another is read as such ("tea rather than coffee")
    if not _share_a_word(old.body, new.body):
        return False  # what ``new`` leaves must be named by ``old``: no need to parse ``new``
    lefts = left_behind(new.body, new.speaker)
    if not lefts:  # most statements leave nothing: nothing of ``old`` need be read
        return False
    whole = read_clause(old.body, old.speaker)
    if not whole.statement or whole.hedged or whole.past_only:
        return False
    ended = frozenset().union(*(left.words for left in left_behind(old.body, old.speaker)))
    if whole.negated and not ended:
        return False  # a denial ("I don't live in Rotterdam") is not a value held
    clauses = [read_clause(text, old.speaker) for text in clause_texts(old.body)]
    subject = _subject_words(whole.subject)
    values = frozenset().union(*(c.values for c in clauses)) - subject - ended
    words = frozenset(stem(w) for w in _WORD.findall(old.body.lower()) if w not in STOPWORDS)
    words = words - subject - ended
    writer = (new.speaker or "user").lower()
    # a name is written as one: "Tango" the cat is not the "tango" Camila plays
    written = (
        frozenset(stem(w.lower()) for w in _WRITTEN.findall(old.body) if w[:1].isupper()) - subject - ended
    )
    # a slot filled with a name ("Zoe's best friend is Maria Koutsou from her water polo team")
    # holds that name: what the rest names only says which one
    by_name = bool(whole.slot_nouns and {stem(n) for n in whole.names} - subject)
    for left in lefts:
        named = left.names & written  # a name the other says ("RabbitMQ"), whatever the parser made of it
        held = named or (not (by_name or left.ended) and left.words & values and left.words <= values)
        # "left teaching" / "is a teacher"; "sold his taxi plate" / "earns ... from the taxi"
        held = held or (not by_name and any(names_the_doer(w, values) for w in left.words - left.names))
        # the act the stored statement states: "retired from teaching" / "teaches chemistry"
        held = held or (whole.predicate is not None and stem(whole.predicate) in left.words)
        if held and _left_by_its_holder(left, whole, writer, old):
            return True
    return False
