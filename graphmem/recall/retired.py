"""Replaced beliefs that still answer what a question asks about.

The belief check retires a memory when a newer one replaces it, and recall then answers with the
newer one. A memory can state two things ("Rafael and Diego moved to San Diego; Rafael got a job as
an ICU nurse at Sharp Memorial": where he lives, where he works) and a newer one replace one of
them ("Rafael and Diego moved into a bigger flat in North Park"). Asked about an attribute
(recall/attributes.py) that a replaced memory speaks of, when every memory that replaced it speaks
of another attribute the replaced one speaks of too, and of none asked about, the replacement was
of that other thing: the replaced memory still **stands** for this question, and recall ranks it
as any other candidate. A replacer that names no attribute the replaced memory does ("Ji-hoon quit
the bank", "Arjun swapped the City for a Nexon") says nothing of which thing it changed, and the
belief check is trusted (on the dev halves, trusting a replacer that spoke of any other attribute
lost three answers for each it won: the attribute words are a short list).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping

from graphmem.recall.attributes import PASTIME, attributes_of, attributes_said_of
from graphmem.recall.ranking import Link
from graphmem.recall.whose import Whose


def replacers(replaced: Collection[str], links: Iterable[Link]) -> dict[str, set[str]]:
    """For each of the ``replaced`` memories, the memories not replaced that its belief chain links
    it to (``SUPERSEDES`` links, either way round): those that replaced it."""
    found: dict[str, set[str]] = {}
    for link in links:
        if link.via != "SUPERSEDES":
            continue
        for old, new in ((link.seed, link.neighbour), (link.neighbour, link.seed)):
            if old in replaced and new not in replaced:
                found.setdefault(old, set()).add(new)
    return found


def still_standing(
    replaced: Collection[str],
    links: Iterable[Link],
    texts: Mapping[str, str],
    asked_attributes: frozenset[str],
    asked: Whose | None,
    nouns: frozenset[str] = frozenset(),
    names: frozenset[str] = frozenset(),
) -> frozenset[str]:
    """The ``replaced`` memories (with ``texts``) that speak of a single-valued attribute the
    question asks about (``asked_attributes``, said of ``asked``: recall/attributes.py
    ``attributes_said_of`` with ``nouns`` and ``names``), each of whose replacers (:func:`replacers`)
    speaks of another attribute the replaced memory speaks of, and of none of those."""
    single = asked_attributes - {PASTIME}
    if not single:
        return frozenset()
    standing = set()
    for memory_id, newer in replacers(replaced, links).items():
        if memory_id not in texts:
            continue
        asked_of = attributes_said_of(texts[memory_id], asked, nouns, names) & single
        stated = attributes_of(texts[memory_id])
        if asked_of and all(n in texts and _of_the_other(texts[n], asked_of, stated) for n in newer):
            standing.add(memory_id)
    return frozenset(standing)


def _of_the_other(text: str, asked_of: frozenset[str], stated: frozenset[str]) -> bool:
    """Whether ``text`` speaks of an attribute of ``stated`` (the replaced memory's) and of none of
    ``asked_of``."""
    attributes = attributes_of(text)
    return bool(attributes & (stated - asked_of)) and not attributes & asked_of
