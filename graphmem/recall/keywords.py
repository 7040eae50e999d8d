"""Keyword evidence measured among the candidates of one recall, not across the whole index.

The fulltext index's BM25 weighs a term by how rare it is in every scope together, so in one
user's memory the user's own name (in every memory there) counts as a rare, telling word and
lifts the shortest memories. Here a term's weight (BM25's idf) comes from the candidates the
recall found, so a word that every candidate shares says nothing, and a memory's keyword share
is the part of the query's telling weight it matches (0..1). Words are stemmed with the Snowball
English stemmer, the stemmer family the fulltext index uses.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from graphmem.recall.lucene import tokens, word_of
from graphmem.stemming import stem

K1 = 1.2
B = 0.75


# The least telling weight a query's words are measured against: BM25's idf of a word that half
# of the candidates have (ln 2). A query whose words nearly every candidate shares ("What does
# Ahmet do for a living now?" in Ahmet's memory: only "ahmet" is left) has a tiny total weight, and
# a share of it is noise: measured against this floor, it stays a small share instead of a whole.
LEAST_TELLING = math.log(2.0)

ANALYSED_TEXTS = 20_000  # memory texts recur across recalls of one scope: analysed once


MAX_WORDS = 64  # as query_words reads a text


@lru_cache(maxsize=65536)
def _term(token: str) -> str | None:
    """The stem a token of ``lucene.tokens`` counts as, None when ``query_words`` drops it (read
    once per token: a recall analyses a hundred texts that the candidates of another query did not
    bring, and the same few thousand words recur in them)."""
    word = word_of(token)
    return None if word is None else stem(word)


@lru_cache(maxsize=ANALYSED_TEXTS)
def analyse(text: str) -> tuple[str, ...]:
    """The stemmed content words of ``text`` (stop words and punctuation dropped): the stems of
    ``query_words(text, unique=False)``, one cached look-up a token."""
    terms: list[str] = []
    for token in tokens(text):
        term = _term(token)
        if term is not None:
            terms.append(term)
            if len(terms) == MAX_WORDS:
                break
    return tuple(terms)


@dataclass(frozen=True)
class TermStats:
    """Document frequencies and mean length over a pool of candidate texts."""

    documents: int
    frequency: Mapping[str, int]
    mean_length: float

    @classmethod
    def of(cls, analysed: Iterable[Sequence[str]]) -> TermStats:
        """Statistics of the analysed texts."""
        frequency: Counter[str] = Counter()
        lengths = []
        for words in analysed:
            frequency.update(set(words))
            lengths.append(len(words))
        return cls(len(lengths), frequency, sum(lengths) / len(lengths) if lengths else 0.0)

    def idf(self, term: str) -> float:
        """BM25's idf of ``term`` in the pool (close to 0 for a term every candidate has)."""
        n = self.frequency.get(term, 0)
        return math.log(1 + (self.documents - n + 0.5) / (n + 0.5))


@lru_cache(maxsize=ANALYSED_TEXTS)
def _counted(text: str) -> tuple[dict[str, int], int]:
    """How often each analysed word of ``text`` occurs, and how many words it has (the counts in a
    dict of plain values, which the garbage collector does not track: a full cache adds little
    to its passes)."""
    words = analyse(text)
    counts: dict[str, int] = {}
    for word in words:
        counts[word] = counts.get(word, 0) + 1
    return counts, len(words)


def keyword_shares(
    query: str, texts: Mapping[str, str], pool: Mapping[str, str] | None = None
) -> dict[str, float]:
    """For each text, the share of the query's idf-weighted terms it matches, BM25-saturated (0..1).

    ``pool`` (default: ``texts``) gives the term statistics.
    """
    terms = list(dict.fromkeys(analyse(query)))
    counted = {m: _counted(t) for m, t in texts.items()}
    among = list(counted.values()) if pool is None else [_counted(t) for t in pool.values()]
    # The statistics TermStats.of gives, for the query's terms only (no other term is weighed):
    # a recall weighs a few terms over a pool of a hundred texts or more.
    stats = TermStats(
        len(among),
        {t: sum(1 for counts, _ in among if t in counts) for t in terms},
        sum(length for _, length in among) / len(among) if among else 0.0,
    )
    weights = {t: stats.idf(t) for t in terms}
    total = max(sum(weights.values()), LEAST_TELLING if weights else 0.0) * (K1 + 1)
    if total <= 0:
        return {m: 0.0 for m in texts}
    shares = {}
    for memory_id, (counts, length) in counted.items():
        norm = K1 * (1 - B + B * length / (stats.mean_length or 1.0))
        score = sum(
            w * counts[t] * (K1 + 1) / (counts[t] + norm) for t, w in weights.items() if counts.get(t, 0)
        )
        shares[memory_id] = min(1.0, score / total)
    return shares
