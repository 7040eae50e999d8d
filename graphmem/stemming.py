"""English word stems from the Snowball stemmer (the stemmer family Neo4j's English fulltext
analyser uses), shared by recall's keyword evidence and the belief check's value comparison."""

from __future__ import annotations

from functools import lru_cache

import snowballstemmer


@lru_cache(maxsize=1)
def _stemmer() -> snowballstemmer.stemmer:
    return snowballstemmer.stemmer("english")


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """The Snowball English stem of a lower-cased word ('engineering' -> 'engin')."""
    return str(_stemmer().stemWord(word))
