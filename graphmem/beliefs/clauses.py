"""The clauses of a statement as the belief judge compares them, a later clause whose subject
points back ("he", "it") read as said of the subject of the one before it."""

from __future__ import annotations

import re
from dataclasses import replace
from functools import lru_cache

from graphmem.beliefs.keys import owner_and_noun
from graphmem.beliefs.parse import Clause, clause_texts, read_clause, without_correction
from graphmem.beliefs.statements import Statement

# a clause about "it" ("..., it's 18 November now"), after a joining word or none
_IT = re.compile(r"^\W*(?:(?:so|and|but|now)\s+)?it(?:'s|\s)", re.IGNORECASE)


def _named(subject: str, clause: Clause) -> str | None:
    """Whom ``he`` or ``she`` after ``clause`` (about ``subject``) means: the person it names
    ("Ikechukwu Eze works as a project manager now; he ..."), or the named owner of the thing it is
    about ("Adwoa's Civic was written off, and she takes the bus now"); None when it names nobody."""
    words = subject.split()
    if not clause.thing and set(words) <= clause.names:
        return subject
    if not clause.thing and len(words) > 1 and words[-1] in clause.names and "'s" not in subject:
        return subject  # a name read with the words that place it ("In Singapore Priya takes the MRT")
    owned = owner_and_noun(subject)
    if owned is not None and set(owned[0].split()) <= clause.names:
        return owned[0]
    return None


def _points_back_to(text: str, clause: Clause, before: Clause) -> str | None:
    """Whom or what ``clause`` (its text ``text``) is about when its subject points back to the
    clause ``before`` it: "it" after a thing, "he" or "she" after someone named; else None."""
    if before.subject is None:
        return None
    if clause.he_or_she:
        return _named(before.subject, before)
    return before.subject if _IT.match(text) is not None and before.thing else None


@lru_cache(maxsize=8192)  # read for every pair a statement is judged in, and by the slot test
def clauses_of(statement: Statement) -> list[Clause]:
    """The clauses of ``statement``; a later one whose subject points back ("Conference moved
    again, it's 18 November now") is about the subject of the one before it."""
    body, corrected = without_correction(statement.body)  # the clauses lose the opener's punctuation
    texts = clause_texts(body)
    clauses = [read_clause(text, statement.speaker) for text in texts]
    if corrected:  # "Actually, correction: it's 340; the 400 figure was wrong": what follows corrects
        clauses = [replace(clause, change=True) for clause in clauses]
    for i in range(1, len(clauses)):
        before, clause = clauses[i - 1], clauses[i]
        subject = None if clause.subject is not None else _points_back_to(texts[i], clause, before)
        if subject is not None:
            same = subject == before.subject
            clauses[i] = replace(
                clause,
                subject=subject,
                subject_nouns=before.subject_nouns if same else frozenset(),
                thing=before.thing and same,
                mentions=clause.mentions | {subject},
                # "he" names whom the clause before named
                names=clause.names | (set(subject.split()) & before.names),
                points_back=False,
            )
    return clauses
