"""English word stems from the Snowball stemmer (the stemmer family Neo4j's English fulltext
analyser uses), shared by recall's keyword evidence and the belief check's value comparison.

A Snowball stemmer keeps the word it is stemming in itself, so one stemmer shared by threads
mixes their words (concurrent recalls failed with an IndexError inside it, a 500 through REST):
each thread has its own."""

from __future__ import annotations

import threading
from functools import lru_cache

import snowballstemmer

_local = threading.local()


def _stemmer() -> snowballstemmer.stemmer:
    """This thread's English stemmer."""
    found: snowballstemmer.stemmer | None = getattr(_local, "stemmer", None)
    if found is None:
        found = _local.stemmer = snowballstemmer.stemmer("english")
    return found


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """The Snowball English stem of a lower-cased word ('engineering' -> 'engin')."""
    return str(_stemmer().stemWord(word))
