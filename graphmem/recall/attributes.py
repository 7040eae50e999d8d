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
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from functools import lru_cache

from graphmem.beliefs.statements import SINGLE_VALUED
from graphmem.recall.lucene import after_a_living

_WORD = re.compile(r"[\w'-]+")
STATED_TEXTS = 20_000  # as recall/whose.py keeps its readings


# what follows "work" when it is the job ("went to work for the council"), not the way there
_WORK_AS_JOB = frozenset({"for", "at", "as", "with", "on", "in"})


# "work" and "home" as places one goes to or is at ("drives to work", "any animals at home?")
_PLACES = frozenset({"work", "home"})


def _named(words: list[str]) -> set[str]:
    """The words that name an attribute: not 'living' in "for a living" (what one earns, not where
    one lives), nor 'work' or 'home' as a place one goes to or is at ("drives to work", "How does
    Emily get to work?", "Does Nkechi have any animals at home?")."""
    named = set()
    for i, word in enumerate(words):
        before, after = words[i - 1] if i else "", words[i + 1] if i + 1 < len(words) else ""
        a_place = word in _PLACES and before in ("to", "at") and after not in _WORK_AS_JOB
        if after_a_living(word, before) or a_place:
            continue
        named.add(word)
    return named


def _attributes(text: str) -> frozenset[str]:
    named = _named([w.lower() for w in _WORD.findall(text)])
    return frozenset(name for name, vocab in SINGLE_VALUED.items() if named & vocab)


def attributes_asked(question: str) -> frozenset[str]:
    """The single-valued attributes that the words of ``question`` name."""
    return _attributes(question)


@lru_cache(maxsize=STATED_TEXTS)
def attributes_of(memory: str) -> frozenset[str]:
    """The single-valued attributes ``memory`` speaks of, in the words the belief check reads them
    by. Kept per text: a recall reads it of every candidate, and a scope's texts recur."""
    return _attributes(memory)


def speaking_of(
    asked: frozenset[str], texts: Mapping[str, str], related: Collection[str]
) -> dict[str, frozenset[str]]:
    """For each ``related`` memory of ``texts`` that speaks of an attribute in ``asked``, those
    attributes."""
    if not asked:
        return {}
    found = {m: attributes_of(text) & asked for m, text in texts.items() if m in related}
    return {m: attributes for m, attributes in found.items() if attributes}
