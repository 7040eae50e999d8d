"""C1: whom a memory means by 'he' or 'she', read from a memory of its scope that names them.

A thread about one person or pet names them once or twice and then says 'he' and 'she': 'We're
adopting a rescue lurcher ... He's called Mango', then 'First night home he cried in the crate',
'The vet found a grass seed in his paw'. Those memories name nobody, so nothing but their vectors
ties them to the thread, and MiniLM's cosines inside such a thread (0.2-0.4) are those of
unrelated memories. A memory that says 'he' and names no entity is taken to mean someone named in
another memory of its scope: one that names an entity beside a pronoun of the same gender ('Maya
got her provisional licence for her 17th': Maya is a 'she'; 'Oscar's been coughing ... gave him a
blue inhaler': Oscar a 'he'), among the ``window`` memories before and after it in time, the one
most similar to it by vector (at least ``min_cosine``). Its entities count as the memory's own for
C1's ties; nothing is written to the graph. A memory that names an entity keeps its own: it says
whom it is about (and a noise memory, 'Saw a huge Newfoundland at the park ... very pleased with
himself', joins no thread through its pronoun).

Only entities the scope names in at least ``min_mentions`` memories are whom a pronoun can mean:
someone a user keeps coming back to. A one-off name beside a pronoun (the Newfoundland) took a dog
thread's 'he' to that noise memory and clustered it.

Session 33, offline (bench.topic_variants; the five dev halves and mixed 12-thread dev scopes,
seeds 7-11, 40 scopes each): window 60, cosine 0.2, two mentions: the dev halves 55 -> 56 of 68
topics (topics5 8 -> 9 of 15: the rescue dog's thread), mean purity 0.962 -> 0.963; mixed coverage
0.683 / 0.665 / 0.686 / 0.710 / 0.690 -> 0.690 / 0.675 / 0.696 / 0.719 / 0.706 and purity 0.899 /
0.894 / 0.901 / 0.909 / 0.906 -> 0.902 / 0.897 / 0.903 / 0.911 / 0.908, higher on every seed. Window
40 / 80 / 100: mixed coverage and purity higher on seeds 7-8 too, but 80 and 100 took a 'he' of
Oscar's asthma thread to the dog and its thread's memory took a noise memory (topics5 purity 0.918);
any entity as an antecedent (not only those named twice): 55 of 68, topics5 purity 0.897; three
mentions: as without. A memory naming entities reading a referent as well (window 30): 55 of 68
(topics3 11 of 12: a lodger's 'his' read as Grandad's). Of the nine memories the dev halves read
a referent into, five are read right: a pronoun whose antecedent is a noun of its own sentence ('Woke
the tortoise up; she had a warm bath') takes someone else's name; what holds a thread together is
the pronouns read right, which tie it to every memory naming whom they mean.

The pronouns are a closed class of eight words, matched as whole words: spaCy's morphology would
give the same words' gender but needs its tagger on every memory of the nightly run.
"""

from __future__ import annotations

import bisect
import re
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

MASCULINE = frozenset({"he", "him", "his", "himself"})
FEMININE = frozenset({"she", "her", "hers", "herself"})
# the eight words as whole words ("he's", "his." and "(her" too); a regular expression over the
# words of a closed class, not a parse: the tokens of the search took 27 µs a memory, this 2
_PRONOUN = re.compile(r"\b(?:" + "|".join(sorted(MASCULINE | FEMININE)) + r")\b")


@dataclass(frozen=True)
class ReferentRule:
    """Where C1 looks for whom a pronoun means (see the module): ``window`` memories of the scope
    either side in time (0: never), a cosine of at least ``min_cosine``, entities the scope names
    in at least ``min_mentions`` memories."""

    window: int
    min_cosine: float
    min_mentions: int


def genders(text: str) -> frozenset[str]:
    """The genders of the third-person singular pronouns ``text`` uses ('m', 'f'; "he's" counts)."""
    return frozenset("f" if m.group(0) in FEMININE else "m" for m in _PRONOUN.finditer(text.lower()))


def referred_entities(
    nodes: Sequence[str],
    texts: Mapping[str, str],
    entities: Mapping[str, tuple[str, ...]],
    mentions: Mapping[str, int],
    occurred: Mapping[str, float],
    scopes: Mapping[str, str],
    vectors: Mapping[str, NDArray[np.float32]],
    rule: ReferentRule,
) -> dict[str, tuple[str, ...]]:
    """The entities of each of ``nodes`` (``entities``; ``mentions``: how many memories of its
    scope name each), with those a node naming no entity refers to by 'he' or 'she' (see the
    module). Raises nothing."""
    out = {node: tuple(entities.get(node, ())) for node in nodes}
    if rule.window <= 0:
        return out
    named = {node: tuple(e for e in out[node] if mentions.get(e, 1) >= rule.min_mentions) for node in nodes}
    by_scope: dict[str, list[str]] = defaultdict(list)
    for node in nodes:
        if node in vectors:
            by_scope[scopes.get(node, "")].append(node)
    for members in by_scope.values():
        members.sort(key=lambda m: (occurred.get(m, 0.0), texts.get(m, ""), m))
        said = [genders(texts.get(m, "")) for m in members]
        for k, best in _antecedents(members, said, out, named, vectors, rule).items():
            out[members[k]] = named[members[best]]
    return out


def _antecedents(
    members: Sequence[str],
    said: Sequence[frozenset[str]],
    own: Mapping[str, tuple[str, ...]],
    named: Mapping[str, tuple[str, ...]],
    vectors: Mapping[str, NDArray[np.float32]],
    rule: ReferentRule,
) -> dict[int, int]:
    """Position of each member (in time order) naming no entity (``own``) that refers by pronoun ->
    position of its antecedent, a member naming an entity of ``named`` beside the same pronoun."""
    out: dict[int, int] = {}
    for gender in ("m", "f"):
        candidates = [j for j, m in enumerate(members) if named[m] and gender in said[j]]
        if not candidates:
            continue
        matrix = np.stack([vectors[members[j]] for j in candidates])
        for k, node in enumerate(members):
            if gender not in said[k] or own[node]:
                continue
            low = bisect.bisect_left(candidates, k - rule.window)
            high = bisect.bisect_right(candidates, k + rule.window)
            if low == high:
                continue
            cosines = matrix[low:high] @ vectors[node]
            at = int(np.argmax(cosines))
            best = float(cosines[at])
            if best >= rule.min_cosine and (k not in out or best > _cosine(vectors, members, k, out[k])):
                out[k] = candidates[low + at]
    return out


def _cosine(vectors: Mapping[str, NDArray[np.float32]], members: Sequence[str], a: int, b: int) -> float:
    return float(np.dot(vectors[members[a]], vectors[members[b]]))
