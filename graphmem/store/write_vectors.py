"""The write path's cache of scope embeddings: the vectors of the active memories of the scopes this
process writes to, so a write's scope lock and similar-memory read (``memories/lock_and_read_scopes``)
sends back only the vectors written since the scope revision the cache last read, not the whole scope
each time (unpacking them was about a tenth of the API's CPU under 50 concurrent writers).

The graph stays the judge: every read still returns the ids of the scope's active memories (under
the scope lock), and the cache only supplies vectors for those ids. Each write of a memory raises its
scope's revision and stamps the memory with it (``memories/create_memories``, ``update_memory``,
``consolidate/set_embeddings``, ...), so a vector read at or before a revision is still the stored
one. When the cache lacks the vector of an id it is told of (a memory made active again, a cache
dropped for space) or the scope's revision went back (its lock node was re-created), the caller
reads the whole scope again (:meth:`ScopeVectors.known` answers -1 for it).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

# Vectors kept over all scopes (384 float32 each: about 1.5 KB), least recently written scopes
# dropped first.
MAX_CACHED_VECTORS = 50_000
UNKNOWN = -1  # the revision to ask from when the cache knows nothing of a scope: every vector


@dataclass
class _Scope:
    revision: int
    vectors: dict[str, np.ndarray]


class ScopeVectors:
    """Cached vectors per scope, each as of a revision; safe to share between threads."""

    def __init__(self, max_vectors: int = MAX_CACHED_VECTORS) -> None:
        self._max_vectors = max_vectors
        self._scopes: OrderedDict[str, _Scope] = OrderedDict()
        self._size = 0
        self._lock = threading.Lock()

    def known(self, scope: str) -> int:
        """The revision up to which the cache holds the vectors of ``scope`` (-1: none)."""
        with self._lock:
            cached = self._scopes.get(scope)
            return UNKNOWN if cached is None else cached.revision

    def matrix(
        self,
        scope: str,
        revision: int,
        known: int,
        ids: Sequence[str],
        changed_ids: Sequence[str],
        changed_embeddings: Sequence[Sequence[float]],
    ) -> np.ndarray | None:
        """The float32 vectors of ``ids`` (one row each, in order), from the vectors the graph sent
        (``changed_*``: those written after ``known``) and the cached ones; then the cache holds
        exactly these for ``scope`` as of ``revision``. None (and the scope dropped) when a vector
        is missing, or the graph's revision is behind ``known``: the caller reads the scope whole."""
        sent = dict(zip(changed_ids, np.asarray(changed_embeddings, dtype=np.float32), strict=True))
        with self._lock:
            cached = self._scopes.pop(scope, None)
            if cached is not None:
                self._size -= len(cached.vectors)
            # Vectors sent cover the revisions after ``known``; cached ones, those up to the cache's
            # revision (a vector changes only with a new revision of its memory), which another
            # write may have raised since ``known`` was asked, never lowered.
            if known != UNKNOWN and (cached is None or cached.revision < known or revision < cached.revision):
                return None
            old = cached.vectors if cached is not None else {}
            vectors: dict[str, np.ndarray] = {}
            for memory_id in ids:
                vector = sent.get(memory_id)
                if vector is None:
                    vector = old.get(memory_id)
                if vector is None:
                    return None
                vectors[memory_id] = vector
            self._scopes[scope] = _Scope(revision, vectors)
            self._size += len(vectors)
            while self._size > self._max_vectors and len(self._scopes) > 1:
                _, dropped = self._scopes.popitem(last=False)
                self._size -= len(dropped.vectors)
        if not ids:
            return np.zeros((0, 0), dtype=np.float32)
        return np.stack([vectors[memory_id] for memory_id in ids])
