"""The baselines every memory system is compared against: BM25 alone and plain vector search."""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable, Sequence

import numpy as np
import numpy.typing as npt

_TOKEN = re.compile(r"\w+")


_STOP_WORDS = (
    "a an the is are was were be been of to in on at for with by from as and or but so that this it its do "
    "does did what when where who how which why has have had i you he she they we my your his her their our "
    "me him them us"
)
_STOP = frozenset(_STOP_WORDS.split())


def tokenize(text: str) -> list[str]:
    """Lower-cased word tokens."""
    return _TOKEN.findall(text.lower())


def _stem(word: str) -> str:
    for suffix in ("ing", "ed", "es", "s"):
        if len(word) > len(suffix) + 2 and word.endswith(suffix):
            return word[: -len(suffix)]
    return word


def english_tokenize(text: str) -> list[str]:
    """Word tokens without English stop words, crudely stemmed: the stronger BM25 baseline."""
    return [_stem(w) for w in tokenize(text) if w not in _STOP]


class BM25:
    """Okapi BM25 (k1 = 1.5, b = 0.75) over a fixed list of documents."""

    def __init__(
        self,
        documents: Sequence[str],
        k1: float = 1.5,
        b: float = 0.75,
        analyzer: Callable[[str], list[str]] = tokenize,
    ) -> None:
        self._analyze = analyzer
        self._docs = [Counter(analyzer(d)) for d in documents]
        self._lengths = [sum(d.values()) for d in self._docs]
        self._avg = sum(self._lengths) / max(1, len(self._docs))
        df: Counter[str] = Counter()
        for d in self._docs:
            df.update(d.keys())
        n = len(self._docs)
        self._idf = {t: math.log(1 + (n - f + 0.5) / (f + 0.5)) for t, f in df.items()}
        self._k1, self._b = k1, b

    def top(self, query: str, k: int) -> list[int]:
        """Indices of the k best documents."""
        terms = [t for t in self._analyze(query) if t in self._idf]
        scores = np.zeros(len(self._docs))
        for i, doc in enumerate(self._docs):
            norm = self._k1 * (1 - self._b + self._b * self._lengths[i] / self._avg)
            scores[i] = sum(
                self._idf[t] * doc[t] * (self._k1 + 1) / (doc[t] + norm) for t in terms if t in doc
            )
        return [int(i) for i in np.argsort(-scores, kind="stable")[:k]]


def vector_top(matrix: npt.NDArray[np.float32], query: npt.NDArray[np.float32], k: int) -> list[int]:
    """Indices of the k rows most similar (cosine, unit rows) to the query."""
    return [int(i) for i in np.argsort(-(matrix @ query), kind="stable")[:k]]
