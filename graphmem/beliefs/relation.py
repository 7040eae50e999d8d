"""Which stored statement a change replaces when the two share no words: by the relation they state.

"I work for Deloitte" and "Started at PwC today!" are 0.17 alike as sentences (MiniLM), because
the names dominate; with the names masked ("I work for X", "Started at X today!") they are 0.53
alike, and more alike than the speaker's other statements with a name ("I live in X", "My sister
is X"). A statement that announces a change with a verb of its own ("started", "moved", "joined")
and names a value replaces the one stored statement of the same subject whose masked relation is
most like its own, when that one is clearly ahead of the next: the relative test is what keeps
"Chiamaka drives a X" out when "Chiamaka moved to X" arrives, for "Chiamaka lives in X" is closer.

Thresholds from the dev half of bench/eval/beliefs.jsonl with the dev users of
bench/eval/user_memories.json as the guard (every replacement it made among their facts was a
real update).
"""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from threading import Lock

import numpy as np

from graphmem.beliefs.keys import one_thing
from graphmem.beliefs.parse import (
    CHANGE_LEMMAS,
    CORRECTION,
    Clause,
    is_name,
    named_words,
    read_clause,
    sentence_count,
)
from graphmem.beliefs.reported import reported
from graphmem.beliefs.restore import parse_doc, parse_docs, with_diary_subject
from graphmem.beliefs.statements import Statement
from graphmem.embedding.base import Embedder

# A change without a name replaces the stored statement of its subject it is most like, when that
# one is at least this alike both as a sentence and as a relation (names masked: facts about one
# person are alike through the name alone) ...
CLOSEST_CHANGE_COSINE = 0.5
# ... and this much more alike than the next.
CLOSEST_CHANGE_MARGIN = 0.1
# "now" after a span says how long, not that something changed ("been playing it for a month now")
_SPAN_NOW = re.compile(r"\bfor \w+ (?:\w+ )?(?:days?|weeks?|months?|years?|while) now\b")
# The masked relations of the new statement and the replaced one are at least this alike ...
MIN_RELATION_COSINE = 0.5
# ... and this much more alike than the next stored statement's.
RELATION_MARGIN = 0.05
NAME_LABELS = frozenset({"ORG", "GPE", "PERSON", "PRODUCT", "LOC", "FAC", "NORP", "WORK_OF_ART"})
CACHE_SIZE = 4096


def relation_text(text: str) -> str:
    """``text`` with every name masked as "X" ("I work for X."): the relation it states."""
    words: list[str] = []
    for token in parse_doc(with_diary_subject(text)):
        if is_name(token) or token.ent_type_ in NAME_LABELS:
            if words and words[-1] == "X":
                continue
            words.append("X")
        else:
            words.append(token.text)
    return " ".join(words)


@dataclass(frozen=True)
class Candidate:
    """A stored statement the new one may replace."""

    id: str
    statement: Statement


def _plain(clause: Clause) -> bool:
    """A clause that states a named value outright: no hedge, no past, no addition, no denial."""
    return bool(clause.names) and not (clause.hedged or clause.past_only or clause.additive or clause.negated)


def _single(statement: Statement) -> Clause | None:
    if not statement.atomic or sentence_count(statement.body) > 1:
        return None
    return read_clause(statement.body, statement.speaker)


# the dependencies by which a name is what a change verb moved to ("moved to EY", "joined Goldman
# Sachs", "switched to the Dvorak layout"), not a detail of it ("joined a club that meets at the Fox")
_TARGET_PATH = frozenset({"dobj", "prep", "pobj", "compound", "appos", "attr", "flat", "dative", "amod"})


def _names_its_target(text: str) -> bool:
    """Whether a name in ``text`` is the object of its main verb, or of a preposition on it."""
    doc = parse_doc(with_diary_subject(text))
    for token in doc:
        if not (is_name(token) or token.ent_type_ in NAME_LABELS) or token.dep_ == "ROOT":
            continue
        node = token
        while node.dep_ in _TARGET_PATH and node.head.i != node.i:
            node = node.head
        if node.dep_ == "ROOT" and node is not token:
            return True
    return False


def _states_where_it_stands(clause: Clause, statement: Statement) -> bool:
    """Whether an earlier change says where things stand since: its change verb moved to the name
    ("Moved to EY." is being at EY), so the next change of the same relation replaces it."""
    return clause.predicate in CHANGE_LEMMAS and _names_its_target(statement.body)


def _named_change(statement: Statement) -> Clause | None:
    """The clause of ``statement`` when it is one sentence that names a value with a change verb
    of its own ("Moved to EY", "Joined Goldman Sachs in March"), else None."""
    clause = _single(statement)
    if clause is None or not _plain(clause) or not _announces(clause, statement):
        return None
    return clause if _names_its_target(statement.body) else None


def _announces(clause: Clause, statement: Statement) -> bool:
    """A change verb of its own ("Started at PwC"), or a state said to hold now ("My GP is Dr. Ahmed
    now"); not what someone is doing at the moment ("I'm reading Dune now")."""
    if clause.predicate in CHANGE_LEMMAS or CORRECTION.match(statement.body):
        return True  # "Change of plan: we're launching in France first" says how things are now
    if not clause.change:
        return False  # before the parse below: a subject-less note would cost two more parses
    root = next((t for t in parse_doc(with_diary_subject(statement.body)) if t.dep_ == "ROOT"), None)
    return root is None or root.tag_ != "VBG"


def _held_by_the_same(new: Statement, clause: Clause, stored: Statement) -> Clause | None:
    """The clause of ``stored`` when it is one sentence of the same speaker and subject as ``new``
    that states where things stand: a state, or a change that moved to a name ("Moved to EY"), not
    an act told ("joined a book club"). A diary note with no subject is the writer's, as an "I" is."""
    if new.speaker and stored.speaker and new.speaker != stored.speaker:
        return None
    old = _single(stored)
    if old is None or ((old.event or old.change) and not _states_where_it_stands(old, stored)):
        return None
    writer = (new.speaker or "user").lower()
    return old if one_thing(old.subject or writer, clause.subject or writer) else None


def _says_it_changed(clause: Clause, statement: Statement) -> bool:
    """Whether a plain clause says that something changed (``_announces``): not with a "now" that
    ends a span ("been playing it for a month now"), not of what has "always" held ("I've always
    liked turtles since I was a boy"), not of a thing only pointed back at."""
    if clause.hedged or clause.past_only or clause.additive or clause.negated or clause.points_back:
        return False
    lower = statement.body.lower()
    if "always" in lower.split() or _SPAN_NOW.search(lower) is not None:
        return False
    return _announces(clause, statement)


def announces_named_change(statement: Statement) -> bool:
    """Whether ``statement`` is a named change: the only statements the relation test reads."""
    return _named_change(reported(statement)) is not None


def parse_named_changes_ahead(statements: Sequence[Statement]) -> None:
    """Parse in one batch what :func:`announces_named_change` parses first of each of
    ``statements`` (a parse with its entities: one at a time, the entity recogniser ran once per
    statement of a batch under the scope locks). Decides nothing: the parses are cached, the same."""
    parse_docs(r.body for r in map(reported, statements) if r.atomic)


def _speaks_of(clause: Clause, slots: frozenset[str]) -> bool:
    """Whether ``clause`` fills, or names, one of ``slots`` ("team lead")."""
    words = named_words(clause)
    return bool(clause.slot_nouns & slots) or any(set(slot.split()) <= words for slot in slots)


class RelationJudge:
    """Finds the stored statement a named change replaces, by masked-relation similarity."""

    def __init__(self, embedder: Embedder) -> None:
        self._embedder = embedder
        self._vectors: OrderedDict[str, np.ndarray] = OrderedDict()
        self._lock = Lock()

    def _relations(self, texts: Sequence[str]) -> np.ndarray:
        """Unit vectors of the masked relations of ``texts`` (cached by masked text)."""
        masked = [relation_text(t) for t in texts]
        with self._lock:
            known = {m: self._vectors[m] for m in dict.fromkeys(masked) if m in self._vectors}
        missing = [m for m in dict.fromkeys(masked) if m not in known]
        if missing:
            found = np.asarray(self._embedder.embed(missing), dtype=np.float32)
            known.update(zip(missing, found, strict=True))
            with self._lock:
                for m in missing:
                    self._vectors[m] = known[m]
                while len(self._vectors) > CACHE_SIZE:
                    self._vectors.popitem(last=False)
        return np.stack([known[m] for m in masked])

    def closest_change(self, new: Statement, candidates: Sequence[tuple[Candidate, float]]) -> str | None:
        """The id of the stored statement a change said in one sentence replaces when it names no
        value ("Vera orders her steak well done these days", "Moved to day shifts"): the one of the
        same subject it is clearly most like, as a sentence and as a relation (``candidates`` are
        (statement, cosine to ``new``)), else None. A plan, a past, an addition or a denial
        replaces nothing here, nor is an act told replaced."""
        new = reported(new)
        clause = _single(new)
        if clause is None or not _says_it_changed(clause, new):
            return None
        eligible: list[tuple[Candidate, float]] = []
        for candidate, cosine in candidates:
            old = _held_by_the_same(new, clause, candidate.statement)
            if old is not None and not (old.hedged or old.past_only or old.negated):
                eligible.append((candidate, cosine))
        if not eligible:
            return None
        relations = self._relations([new.body, *(c.statement.body for c, _ in eligible)])
        scores = np.minimum(relations[1:] @ relations[0], np.asarray([cosine for _, cosine in eligible]))
        order = np.argsort(-scores, kind="stable")
        best = float(scores[order[0]])
        second = float(scores[order[1]]) if len(order) > 1 else 0.0
        if best >= CLOSEST_CHANGE_COSINE and best - second >= CLOSEST_CHANGE_MARGIN:
            return eligible[int(order[0])][0].id
        return None

    def replaced(self, new: Statement, candidates: Sequence[Candidate]) -> str | None:
        """The id of the candidate ``new`` replaces, or None (a quote is read as its speaker's)."""
        new = reported(new)
        clause = _named_change(new)
        if clause is None:
            return None
        eligible: list[Candidate] = []
        for c in candidates:
            old = _held_by_the_same(new, clause, c.statement)
            if old is None or not _plain(old) or clause.names <= old.names:
                continue
            if clause.slot_nouns and not _speaks_of(old, clause.slot_nouns) and (old.event or old.change):
                continue  # "Dmitri's team lead is now Marta Novak" replaces no move ("moved to Amsterdam")
            eligible.append(c)
        if not eligible:
            return None
        vectors = self._relations([new.body, *(c.statement.body for c in eligible)])
        scores = vectors[1:] @ vectors[0]
        order = np.argsort(-scores, kind="stable")
        best = float(scores[order[0]])
        second = float(scores[order[1]]) if len(order) > 1 else 0.0
        if best >= MIN_RELATION_COSINE and best - second >= RELATION_MARGIN:
            return eligible[int(order[0])].id
        return None
