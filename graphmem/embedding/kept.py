"""Vectors of short texts that recur from write to write (entity names, decision facts), kept so
that each is embedded once rather than in every batch that mentions it."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterable

import numpy as np
from numpy.typing import NDArray

from graphmem.embedding.base import Embedder

# 384 floats each: 10,000 kept vectors are 15 MB.
DEFAULT_KEPT = 10_000


class KeptVectors:
    """The vectors of texts, from memory when seen lately, else from one model call for the rest.

    The least recently used texts are dropped past ``size``. Safe to share between threads.
    """

    def __init__(self, embedder: Embedder, size: int = DEFAULT_KEPT) -> None:
        self._embedder = embedder
        self._size = size
        self._kept: OrderedDict[str, NDArray[np.float32]] = OrderedDict()
        self._lock = threading.Lock()

    def vectors(self, texts: Iterable[str]) -> dict[str, NDArray[np.float32]]:
        """Each distinct text's vector; raises what the embedder raises (EmbeddingError)."""
        wanted = list(dict.fromkeys(texts))
        found: dict[str, NDArray[np.float32]] = {}
        with self._lock:
            for text in wanted:
                if text in self._kept:
                    self._kept.move_to_end(text)
                    found[text] = self._kept[text]
        missing = [text for text in wanted if text not in found]
        if missing:
            matrix = self._embedder.embed(missing)
            with self._lock:
                for i, text in enumerate(missing):
                    found[text] = self._kept[text] = matrix[i]
                while len(self._kept) > self._size:
                    self._kept.popitem(last=False)
        return found
