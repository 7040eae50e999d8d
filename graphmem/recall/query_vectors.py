"""Recall's query vectors: each computed once (a small LRU: agents ask the same question again,
and sub-queries repeat across recalls), in another thread when the caller has something else to
do meanwhile. A scoped recall sends its first round trip while its query is embedded, and a REST
recall starts the embedding as the request arrives (:meth:`QueryVectors.ahead`), before the
request reaches a worker thread; the recall then waits for the one under way.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from functools import cache

import numpy as np

from graphmem.embedding.base import Embedder, blend

EMBEDDING_THREADS = 4  # query vectors computed ahead at once, per process (the rest wait their turn)
QUERY_VECTOR_CACHE = 512  # query vectors kept (about 12 KB each as a list of floats: 6 MB at most)


@cache
def _embedding_pool() -> ThreadPoolExecutor:
    """The process's threads that compute query vectors ahead (started on first use)."""
    return ThreadPoolExecutor(EMBEDDING_THREADS, thread_name_prefix="graphmem-query-vector")


class QueryVectors:
    """The vectors of recall queries: ``texts`` is the query, then its recent context (blended
    in at ``1 - query_weight``)."""

    def __init__(self, embedder: Embedder, query_weight: float) -> None:
        self._embedder = embedder
        self._query_weight = query_weight
        self._known: OrderedDict[tuple[str, ...], list[float]] = OrderedDict()
        self._computing: dict[tuple[str, ...], Future[list[float]]] = {}
        self._lock = threading.Lock()

    def get(self, texts: tuple[str, ...]) -> list[float]:
        """The vector of ``texts``, computed now in this thread unless known; raises what the
        embedder raises (EmbeddingError)."""
        cached = self.known(texts)
        if cached is not None:
            return cached
        vectors = self._embedder.embed(list(texts))
        if len(texts) == 1:
            vector: list[float] = np.asarray(vectors[0], dtype=np.float64).tolist()
        else:
            context = np.asarray(vectors[1:]).mean(axis=0)
            w = self._query_weight
            vector = [float(x) for x in blend(np.stack([vectors[0], context]), [w, 1.0 - w])]
        self._keep({texts: vector})
        return vector

    def each(self, texts: list[str]) -> list[list[float]]:
        """The vector of each of ``texts`` alone, those not known computed now in one batch; raises
        what the embedder raises (EmbeddingError)."""
        vectors = {t: self.known((t,)) for t in texts}
        missing = sorted({t for t, v in vectors.items() if v is None})
        if missing:
            computed = self._embedder.embed(missing)
            fresh: dict[tuple[str, ...], list[float]] = {
                (t,): np.asarray(row, dtype=np.float64).tolist()
                for t, row in zip(missing, computed, strict=True)
            }
            self._keep(fresh)
            vectors.update({key[0]: vector for key, vector in fresh.items()})
        return [v for t in texts if (v := vectors[t]) is not None]

    def _keep(self, found: Mapping[tuple[str, ...], list[float]]) -> None:
        """Remember the vectors ``found``, the oldest forgotten beyond QUERY_VECTOR_CACHE."""
        with self._lock:
            self._known.update(found)
            while len(self._known) > QUERY_VECTOR_CACHE:
                self._known.popitem(last=False)

    def known(self, texts: tuple[str, ...]) -> list[float] | None:
        """The vector of ``texts`` if it was computed lately; None otherwise."""
        with self._lock:
            cached = self._known.get(texts)
            if cached is not None:
                self._known.move_to_end(texts)
            return cached

    def under_way(self, texts: tuple[str, ...]) -> bool:
        """Whether the vector of ``texts`` is being computed in another thread now."""
        with self._lock:
            return texts in self._computing

    def ahead(self, texts: tuple[str, ...]) -> Callable[[], list[float]]:
        """The vector of ``texts`` as a call that returns it: known, under way, or started now in
        another thread (the call then waits for it, and raises what :meth:`get` raised)."""
        known = self.known(texts)
        if known is not None:
            return lambda: known
        with self._lock:
            running = self._computing.get(texts)
            started = running is None
            if running is None:
                running = self._computing[texts] = _embedding_pool().submit(self.get, texts)
        if started:  # outside the lock: a future already done runs the callback at once, here
            running.add_done_callback(lambda _: self._done(texts))
        return running.result

    def _done(self, texts: tuple[str, ...]) -> None:
        with self._lock:
            self._computing.pop(texts, None)
