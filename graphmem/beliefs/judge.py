"""The offline belief check: do two statements give different values for the same subject and
attribute (names, places, numbers, dates, negation)? Conservative by design: ordinary statements
that merely resemble each other, and additions ("I also enjoy swimming"), are not conflicts.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from graphmem.beliefs.statements import (
    CHANGE_MARKERS,
    NEGATIONS,
    RELATION_NOUNS,
    SINGLE_VALUED,
    Statement,
    stem,
)

_RELATION_WORDS = frozenset(stem(w) for w in frozenset().union(*SINGLE_VALUED.values()) | CHANGE_MARKERS)
MIN_CONTAINMENT = 0.6
MAX_EXTRA_WORDS = 2
SAME_SLOT_COSINE = 0.7


@dataclass(frozen=True)
class Verdict:
    """Whether the statements conflict, and why (for match reasons and logs)."""

    conflict: bool
    reason: str


def _residual(statement: Statement) -> frozenset[str]:
    """What the statement is about once its subject, values and relation words are set aside."""
    drop = statement.values | _RELATION_WORDS | NEGATIONS
    if statement.subject:
        drop = drop | {statement.subject, stem(statement.subject)}
    return statement.content - drop


def _same_topic(a: frozenset[str], b: frozenset[str], changed: bool) -> bool:
    smaller, larger = (a, b) if len(a) <= len(b) else (b, a)
    shared = smaller & larger
    containment = len(shared) / len(smaller) if smaller else 1.0
    extra = len(larger - shared)
    return containment >= MIN_CONTAINMENT and (extra <= MAX_EXTRA_WORDS or changed)


def _values_differ(old: Statement, new: Statement) -> bool:
    if not old.values or not new.values:
        return False
    return not (old.values <= new.values or new.values <= old.values)


def _different_subjects(old: Statement, new: Statement) -> bool:
    if old.speaker and new.speaker and old.speaker != new.speaker:
        return True
    if old.subject and new.subject and old.subject != new.subject:
        return True
    a, b = old.subject_words, new.subject_words
    if (a & RELATION_NOUNS) != (b & RELATION_NOUNS) and (a and b):
        return True
    names_a, names_b = a & old.values, b & new.values
    if names_a and names_b and names_a != names_b:
        return True  # "Project Apollo ..." and "Project Zephyr ..." are about different things
    return bool(a and b and not (a & b))


def _share_more_than_names(old: Statement, new: Statement) -> bool:
    """True when the two have a content word in common that is not a name ("Alice ...")."""
    capitalised = {stem(w.lower()) for w in re.findall(r"\b[A-Z][a-z]+", old.text + " " + new.text)}
    return bool((old.content & new.content) - capitalised)


def judge(old: Statement, new: Statement, cosine: float) -> Verdict:
    """Decide whether ``new`` and ``old`` cannot both be true (order-independent)."""
    if not (old.atomic and new.atomic):
        return Verdict(False, "not an atomic statement")
    if _different_subjects(old, new):
        return Verdict(False, "different subjects")
    if old.ordered_pair and new.ordered_pair:
        if old.ordered_pair == tuple(reversed(new.ordered_pair)):
            return Verdict(True, "preference reversed")
        return Verdict(False, "same preference")
    changed = new.change or old.change
    residual_old, residual_new = _residual(old), _residual(new)
    if not _same_topic(residual_old, residual_new, changed):
        return Verdict(False, "different topics")
    common = (
        (residual_old & residual_new) | (old.subject_words & new.subject_words) | (old.values & new.values)
    )
    if not (old.subject and new.subject) and not common:
        return Verdict(False, "nothing in common")
    if old.negated != new.negated:
        core_old, core_new = old.content - _RELATION_WORDS, new.content - _RELATION_WORDS
        if _same_topic(core_old, core_new, False) and not (old.values ^ new.values):
            return Verdict(True, "negation")
    if not _values_differ(old, new) or (new.additive and not new.change):
        return Verdict(False, "compatible")
    if old.families & new.families:
        return Verdict(True, f"different {sorted(old.families & new.families)[0]}")
    if changed and _share_more_than_names(old, new):
        return Verdict(True, "change announced")
    if cosine >= SAME_SLOT_COSINE and not (old.multi_valued or new.multi_valued):
        return Verdict(True, "different value")
    return Verdict(False, "compatible")
