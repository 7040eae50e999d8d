"""Statements that hold two facts, and news that changes only one of them.

"Nomvula is type 1 diabetic and wears an insulin pump" says two things; "Nomvula's pump was
replaced with an Omnipod" changes the second and leaves the first as it was. Such a change is
recorded as a contradiction of the older memory (a ``CONTRADICTS`` edge marked ``in_part``), not
a replacement: the older memory stays current, and recall still finds it for what still holds.

The parts of a statement are its clauses with subjects of their own ("I live in Paris and my
wife works at Airbus"), or else the predicates its main verb is coordinated with ("moved to San
Diego and works night shifts"). A later statement touches a part when it names a content word of
it beyond whom it is about, or speaks of one of its single-valued attributes (where one lives,
works...). It changes the older one in part when it touches some part and leaves at least one
other untouched that says how things are (not an ending: "left Google and joined Stripe" is all
about the move to Stripe).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from graphmem.beliefs.clauses import clauses_of
from graphmem.beliefs.parse import ENDING_LEMMAS, LIGHT_VERBS, REPLACING_LEMMAS, clause_texts, phrasal_of
from graphmem.beliefs.restore import parse_doc
from graphmem.beliefs.statements import SINGLE_VALUED, STOPWORDS, Statement
from graphmem.beliefs.subjects import POINTING_BACK, main_subject, word_form
from graphmem.stemming import stem

_CONTENT_POS = frozenset({"NOUN", "PROPN", "ADJ", "NUM", "VERB"})
# what a coordinated predicate may hang from besides the main verb: "She is vegan and runs marathons"
_PREDICATE_DEPS = frozenset({"attr", "acomp", "dobj", "oprd"})


@dataclass(frozen=True)
class Part:
    """One of the things a statement says."""

    words: frozenset[str]  # stems of its content words beyond whom it is about
    families: frozenset[str]  # the single-valued attributes it speaks of (statements.SINGLE_VALUED)
    # it may hold on its own once another part changes: it says how things are (not an ending, "left
    # Google", nor a past act that sets no attribute, "broke up with Jack"), of something its own
    # words name (not "she's great" of the boss another part names, nor "been here since 2021")
    holds_alone: bool


def _words(tokens: list[Any], subject: set[int]) -> frozenset[str]:
    return frozenset(
        stem(word_form(t))
        for t in tokens
        if t.pos_ in _CONTENT_POS
        and t.i not in subject
        and t.lower_ not in STOPWORDS
        and t.lemma_.lower() not in LIGHT_VERBS
    )


def _families(tokens: list[Any]) -> frozenset[str]:
    said = {t.lower_ for t in tokens} | {t.lemma_.lower() for t in tokens}
    return frozenset(name for name, vocab in SINGLE_VALUED.items() if said & vocab)


def _part(tokens: list[Any], head: Any, subject: Any) -> Part:
    ids = set() if subject is None else {t.i for t in subject.subtree}
    words, families = _words(tokens, ids), _families(tokens)
    lemmas = {t.lemma_.lower() for t in tokens if t.pos_ in {"VERB", "AUX"}}
    ending = bool(lemmas & (REPLACING_LEMMAS | ENDING_LEMMAS)) or phrasal_of(head) in ENDING_LEMMAS
    past_act = head is not None and head.tag_ == "VBD" and head.lemma_ not in {"be", "have"} and not families
    owner = None if subject is None else next((c for c in subject.children if c.dep_ == "poss"), None)
    pointing = subject is not None and (
        subject.lower_ in POINTING_BACK or (owner is not None and owner.lower_ in POINTING_BACK)
    )
    named = any(w.isalpha() for w in words)
    return Part(words, families, named and not (ending or past_act or pointing))


def _root(doc: Any) -> Any:
    return next((t for t in doc if t.dep_ == "ROOT"), None)


def _coordinated(doc: Any) -> list[Any]:
    """The heads of the predicates coordinated with the main one ("wears" of "is type 1 diabetic
    and wears an insulin pump", "runs" of "is vegan and runs marathons")."""
    root = _root(doc)
    if root is None:
        return []
    return [
        t
        for t in doc
        if t.dep_ == "conj"
        and (t.head == root or (t.head.head == root and t.head.dep_ in _PREDICATE_DEPS and t.pos_ == "VERB"))
    ]


@lru_cache(maxsize=4096)
def parts_of(text: str) -> tuple[Part, ...]:
    """The things ``text`` says, one part each; a single part when it says one."""
    clauses = clause_texts(text)
    if len(clauses) > 1:
        docs = [parse_doc(clause) for clause in clauses]
        return tuple(_part(list(doc), _root(doc), main_subject(doc)) for doc in docs)
    doc = parse_doc(text)
    subject = main_subject(doc)
    relation = _named_relation(doc, subject)
    said = [t for t in doc if relation is None or t.i not in {relation.i, *(c.i for c in relation.children)}]
    kin = () if relation is None else (Part(_words([relation], set()), _families([relation]), False),)
    heads = _coordinated(doc)
    if not heads:
        return (*kin, _part(said, _root(doc), subject))
    inside = [{t.i for t in head.subtree} for head in heads]
    rest = [t for t in said if not any(t.i in ids for ids in inside) and t.dep_ != "cc"]
    own = [
        _part([t for t in said if t.i in ids], head, subject) for head, ids in zip(heads, inside, strict=True)
    ]
    return (*kin, _part(rest, _root(doc), subject), *own)


def _named_relation(doc: Any, subject: Any) -> Any:
    """The noun that says whose someone named is, when the subject names them beside it ("girlfriend"
    of "My girlfriend Yui is a teacher", "boss" of "My boss Dana works from Leeds"): a fact of its
    own (Yui is my girlfriend) that news may change ("Yui and I got married") while what the rest
    says of Yui holds. It never holds alone: it only says who the rest is about."""
    if subject is None:
        return None
    near = [subject, *(c for c in subject.children if c.dep_ in {"appos", "compound"})]
    near += [t for t in doc[: subject.i] if t.dep_ == "npadvmod" and t.head == subject.head]
    named = any(t.pos_ == "PROPN" for t in near)
    return next(
        (t for t in near if t.pos_ == "NOUN" and named and any(c.dep_ == "poss" for c in t.children)),
        None,
    )


@lru_cache(maxsize=4096)
def _said(text: str) -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    """(stems of every content word, single-valued attributes, stems of the main subject's words)
    of ``text``: what a later statement names, its subject too ("Nomvula's pump was replaced")."""
    doc = parse_doc(text)
    subject = main_subject(doc)
    inside = [] if subject is None else list(subject.subtree)
    return _words(list(doc), set()), _families(list(doc)), _words(inside, set())


def _news_of_a_value(new: Statement) -> bool:
    """Whether ``new`` announces a new value for something (a change, or a verb that replaces:
    "was replaced with an Omnipod", "switched to day shifts") and denies nothing: an ending or a
    denial ("the cast came off", "aren't together anymore") is news of all that hangs on it."""
    clauses = clauses_of(new)
    return any(c.change or c.replaces for c in clauses) and not any(c.negated for c in clauses)


def changes_in_part(old: Statement, new: Statement) -> bool:
    """Whether ``new`` gives a new value to only some of the things ``old`` says, and leaves at
    least one other that holds on its own as it was: the older memory stays current for that one."""
    parts = parts_of(old.body)
    if len(parts) < 2 or not _news_of_a_value(new):
        return False
    said, families, _ = _said(new.body)
    words = said - _said(old.body)[2]  # not whom the older one is about
    touched = [bool(p.words & words or p.families & families) for p in parts]
    left = [p for p, hit in zip(parts, touched, strict=True) if not hit and p.holds_alone]
    return any(touched) and bool(left)
