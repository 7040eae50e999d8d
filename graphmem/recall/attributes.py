"""The attribute a question asks about, and the memories that speak of it.

Some things about a person hold one value at a time: where they live, where they work, who
manages them, whom they are with (beliefs/statements.SINGLE_VALUED, the belief check's attribute
families). A question names one in its own words ("Who does Omar report to?", "Which city did
Arjun live in?"), and the memory that answers it often in others ("Omar's manager is Eng. Hamad
Al-Busaidi", "The family moved to a farm near San Isidro"): the sentence vectors are carried by
the person's name, and the keywords do not meet. A memory speaking of the attribute asked about
gains ``RankWeights.attribute`` (recall/ranking.py) when it is related to the question at all;
asked how things stand now, a later memory on that attribute follows an earlier one
(recall/latest.py).

Recall reads a few more words than the belief check does (``RECALL_WORDS``), where a question asks
in everyday words that a memory never uses: how someone gets around or to work (the car, bike, bus
or train they use: "How does Siobhán get around these days?" for "Siobhán sold her Fiesta and
cycles everywhere now"), what they do "for a living" ("opened a tea house", "was promoted to
operations manager", "went freelance"), and a relationship's end ("broke up with Pablo"). These
stay out of the belief check, where a word read as an attribute decides which facts a new one
retires: here it only orders what the question found.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from functools import lru_cache
from itertools import pairwise

from graphmem.beliefs.statements import SINGLE_VALUED
from graphmem.language import tag_all
from graphmem.recall.lucene import WORK_AS_JOB, after_a_living, work_as_a_place
from graphmem.recall.whose import NO_NAMES, Whose, as_owners, other_subject, stated_of

_WORD = re.compile(r"[\w'-]+")
_CLAUSES = re.compile(r";\s*")
_CAPITAL = re.compile(r"\b[A-Z][\w\u00C0-\u024F-]+")
STATED_TEXTS = 20_000  # as recall/whose.py keeps its readings


# Words a memory or question speaks of an attribute by, beside the belief check's (a fallback word
# list: what MiniLM does not bring together; on the dev halves "get around" and "cycles" have a
# cosine of 0.18 once the name is left out).
RECALL_WORDS: dict[str, frozenset[str]] = {
    "transport": frozenset(
        {"drive", "drives", "driving", "drove", "car", "cars", "vehicle", "bike", "bicycle", "cycle"}
        | {"cycles", "cycling", "bus", "buses", "train", "metro", "subway", "tube", "tram", "mrt"}
        | {"commute", "commutes", "commuting", "motorbike", "motorcycle", "scooter", "minibus", "van"}
    ),
    "employment": frozenset({"promoted", "freelance", "opened", "self-employed"}),
}
# What someone does in their free time is asked of in words no memory of it uses ("What does
# Marites do for fun?", "What are Aino's hobbies?") and stated in the activity ("sings karaoke every
# Friday night", "plays the kantele"). It holds several values at once, so a later one does not
# follow an earlier one (recall/latest.py): it only orders what the question found.
PASTIME = "pastime"
# The nouns of a pastime name it in a memory too ("Kenji's hobby is restoring old film cameras").
_PASTIME_NOUNS = frozenset({"hobby", "hobbies", "pastime", "pastimes"})
_ASKED_ONLY = {PASTIME: _PASTIME_NOUNS | {"fun", "leisure", "spare"}}
_STATED_ONLY = {
    PASTIME: _PASTIME_NOUNS
    | frozenset(
        {"play", "plays", "playing", "sing", "sings", "singing", "practise", "practises", "practice"}
        | {"practices", "surf", "surfs", "surfing", "swim", "swims", "swimming", "hike", "hikes"}
        | {"hiking", "climb", "climbs", "climbing", "paint", "paints", "painting", "knit", "knits"}
        | {"knitting", "dance", "dances", "dancing", "choir", "orchestra"}
    )
}
# Word pairs that name an attribute where neither word does alone
_PAIRS = {
    ("get", "around"): "transport",
    ("getting", "around"): "transport",
    ("get", "to"): "transport",  # "get to work", "get to the office"
    ("a", "living"): "employment",  # "what does Ahmet do for a living?"
    ("free", "time"): PASTIME,  # "in his free time", as "in his spare time"
    ("broke", "up"): "relationship",
    ("split", "up"): "relationship",
}


def _named(words: list[str]) -> set[str]:
    """The words that name an attribute: not 'living' in "for a living" (what one earns, not where
    one lives), nor 'work' or 'home' as a place one goes to or is at ("drives to work", "How does
    Emily get to work?", "Does Nkechi have any animals at home?", "works from home")."""
    named = set()
    for i, word in enumerate(words):
        before, after = words[i - 1] if i else "", words[i + 1] if i + 1 < len(words) else ""
        a_place = work_as_a_place(word, before, after) or (
            word == "home" and before in ("to", "at", "from") and after not in WORK_AS_JOB
        )
        if after_a_living(word, before) or a_place:
            continue
        named.add(word)
    return named


def _attributes(text: str, own_words: Mapping[str, frozenset[str]]) -> frozenset[str]:
    words = [w.lower() for w in _WORD.findall(text)]
    named = _named(words)
    found = {name for name, vocab in SINGLE_VALUED.items() if named & vocab}
    found |= {name for name, vocab in RECALL_WORDS.items() if named & vocab}
    found |= {name for name, vocab in own_words.items() if named & vocab}
    found |= {_PAIRS[pair] for pair in pairwise(words) if pair in _PAIRS}
    return frozenset(found)


# A role held at, with or for a named place ("Lucía is a data scientist at Mercado Libre", "Aroha is
# a ranger with the Department of Conservation"): a job said without a word for one.
_AT_A_PLACE = frozenset({"at", "with", "for"})
# What the parse needs, in words, so that only a text that may hold such a role is parsed (a
# recall reads every candidate, and parsing each one cost a whole-graph recall at 100k memories
# three times its CPU): a form of "be", then "a"/"an" within a few words ("is now a", "has been
# a"), then at / with / for and a capitalised word within the next few (the proper noun, after
# "the", "a" or an adjective: "at a Gaelscoil in Ranelagh", "at the local Mercado Libre office").
_BE_A = re.compile(
    r"(?:\b(?:is|am|are|was|were|be|been|being)|['\u2019](?:s|m|re))\s+(?:\w+\s+){0,3}?an?\s",
    re.IGNORECASE,
)
_AT = re.compile(r"\b(?:at|with|for)\s", re.IGNORECASE)
_NAME_WITHIN = 4
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


def _may_hold_a_role(text: str) -> bool:
    """Whether ``text`` has the words :func:`holds_a_role` reads a role from, in their order."""
    first = _BE_A.search(text)
    if first is None:
        return False
    for at in _AT.finditer(text, first.end()):
        if any(word[:1].isupper() for word in text[at.end() :].split(maxsplit=_NAME_WITHIN)[:_NAME_WITHIN]):
            return True
    return False


def holds_a_role(text: str) -> bool:
    """Whether ``text`` says someone is a common noun (a role) at, with or for a proper noun, read
    from spaCy's parse (cached per text): "Lucía Fernández is a data scientist at Mercado Libre",
    not "Elena's cardiologist is Dr. Stoyanova at St. George hospital" nor "Tom is a fan of Arsenal"."""
    sentences = [sentence for sentence in _SENTENCE_END.split(text) if _may_hold_a_role(sentence)]
    for sentence in sentences:  # only these parsed: a role and its place lie in one sentence
        for token in tag_all([sentence])[0]:
            if token.dep_ != "attr" or token.pos_ != "NOUN" or token.head.lemma_ != "be":
                continue
            for prep in token.subtree:
                at_a_place = prep.dep_ == "prep" and prep.lower_ in _AT_A_PLACE
                if at_a_place and any(c.dep_ == "pobj" and c.pos_ == "PROPN" for c in prep.children):
                    return True
    return False


def attributes_asked(question: str) -> frozenset[str]:
    """The attributes that the words of ``question`` name."""
    return _attributes(question, _ASKED_ONLY)


@lru_cache(maxsize=STATED_TEXTS)
def attributes_of(memory: str) -> frozenset[str]:
    """The single-valued attributes ``memory`` speaks of, in the words the belief check reads them
    by and recall's own (``RECALL_WORDS``, and the activities of a pastime), and employment when it
    says someone holds a role at a named place (:func:`holds_a_role`). Kept per text: a recall
    reads it of every candidate, and a scope's texts recur."""
    found = _attributes(memory, _STATED_ONLY)
    return found | {"employment"} if "employment" not in found and holds_a_role(memory) else found


def owners_nouns(asked: Whose | None, attributes: Collection[str]) -> frozenset[str]:
    """The words of the ``attributes`` a question asks about, by which a relative's noun states the
    owner's attribute (recall/whose.py ``as_owners``): "Who is Omar's manager?" asks for Omar's
    attribute, and "Omar's manager is ..." states it; "Where does Lucía's husband work?" asks for
    the husband's job (none: the question names the relative, whose facts are his own)."""
    if asked is not None and asked.relation and not asked.who:
        return frozenset()
    words = (
        SINGLE_VALUED.get(a, frozenset()) | RECALL_WORDS.get(a, frozenset())
        for a in attributes
        if a != PASTIME
    )
    return frozenset().union(*words)


def of_the_one_asked(asked: Whose | None, stated: Whose | None, nouns: frozenset[str]) -> bool:
    """Whether a memory stating the fact of ``stated`` speaks for the one ``asked`` about, reading a
    relative named by an attribute's noun as the owner (``nouns``: :func:`owners_nouns`): a
    relative's promotion says nothing of whom the person works for, even asked who."""
    if asked is None:
        return True
    plain = Whose(asked.owner, asked.relation)
    return not other_subject(as_owners(plain, nouns), as_owners(stated, nouns))


def names_in(question: str) -> frozenset[str]:
    """The capitalised words of ``question``, lower-cased: the people and places it names."""
    return frozenset(w.lower() for w in _CAPITAL.findall(question))


def said_of_others(memory: str, asked: Whose | None, names: frozenset[str]) -> bool:
    """Whether every clause of ``memory`` (split at semicolons) has for its subject someone that a
    question about a person's own fact does not name (``names``: :func:`names_in`): "Thandeka sold
    the salon and moved to Johannesburg" says nothing of where Nomvula lives now."""
    return all(_of_someone_unnamed(stated_of(clause), asked, names) for clause in _CLAUSES.split(memory))


def _of_someone_unnamed(stated: Whose | None, asked: Whose | None, names: frozenset[str]) -> bool:
    """Whether a clause stating the fact of ``stated`` is said of someone that a question about
    ``asked``'s own fact does not name (``names``); a capital word that names no one is no one."""
    if asked is None or asked.relation or not names or stated is None:
        return False
    return stated.owner not in NO_NAMES and stated.owner not in names


def attributes_said_of(
    memory: str, asked: Whose | None, nouns: frozenset[str], names: frozenset[str] = frozenset()
) -> frozenset[str]:
    """The attributes ``memory`` speaks of in its clauses (split at semicolons) said of the one
    ``asked`` about (``nouns``: :func:`owners_nouns`). Asked about a person's own fact, a clause
    whose subject is someone the question does not name (``names``: :func:`names_in`) speaks of
    that one: in "Emily and Dev moved to Seattle; Dev works remotely for Stripe" only the move is
    Emily's, and "Emre works with Ahmet at the tea house" says where Emre works."""
    if asked is None:
        return attributes_of(memory)
    found: set[str] = set()
    for clause in _CLAUSES.split(memory):
        stated = stated_of(clause)
        if _of_someone_unnamed(stated, asked, names):
            continue
        if stated is not None and stated.owner in NO_NAMES:
            stated = None
        if of_the_one_asked(asked, stated, nouns):
            found |= attributes_of(clause)
    return frozenset(found)


def speaking_of(
    asked: frozenset[str],
    texts: Mapping[str, str],
    related: Collection[str],
    asked_about: Whose | None = None,
    nouns: frozenset[str] = frozenset(),
    names: frozenset[str] = frozenset(),
) -> dict[str, frozenset[str]]:
    """For each ``related`` memory of ``texts`` that speaks of an attribute in ``asked``, those
    attributes; with ``asked_about`` (whose fact the question asks for), only the attributes it
    says of that one (:func:`attributes_said_of`)."""
    if not asked:
        return {}
    found = {
        m: attributes_said_of(text, asked_about, nouns, names) & asked
        for m, text in texts.items()
        if m in related
    }
    return {m: attributes for m, attributes in found.items() if attributes}


# The single-valued attributes of a person; a project's (its schedule, its technology: "runs",
# "switched") are read from words a person's facts use otherwise ("I run a patisserie").
_OF_A_PERSON = frozenset(SINGLE_VALUED.keys() - {"schedule", "technology"})


def elsewhere(asked: frozenset[str], texts: Mapping[str, str], related: Collection[str]) -> set[str]:
    """The ``related`` memories of ``texts`` that speak only of single-valued attributes other than
    those ``asked`` about (one of which holds one value at a time): "Ahmet lives in Moda"
    answers where he lives, not "What does Ahmet do for a living?"."""
    single = asked & SINGLE_VALUED.keys()
    if not single:
        return set()
    found = set()
    for m in related:
        stated = attributes_of(texts[m]) & _OF_A_PERSON if m in texts else frozenset()
        if stated and not stated & asked:
            found.add(m)
    return found
