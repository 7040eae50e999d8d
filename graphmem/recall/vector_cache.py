"""Recall's in-process vector cache: the embeddings of the scope subtrees recalled from, as a
float32 matrix each, so the nearest memories of a scope are an exact matrix product (a fraction of
a millisecond for a user of 1,000 memories) instead of a scan of the scope inside Neo4j.

The cache only ranks. A recall's first round trip reads the graph's revisions of the scopes asked
for (with the fulltext matches, while the query is embedded). A scope whose revision differs from
the one the cache knows changed (in this process or another one): the cache catches up with what
was written since (memories stamped with a later revision; ids when some were deleted) before it
ranks. Every hit then goes back to the graph in the second round trip, which applies the recall's
filters there (the caller's allowed scopes, status, layers, strength, as_of). So a write through
any process is recalled at once through every other one, and the cache never returns what the
graph would not. The cache also holds each memory's text, so recall can choose what to expand
before the hits come back checked (recall/search.py), and send both in one round trip; the check
returns no text the cache holds (a hit keeps the cached text its cosine was computed from).
"""

from __future__ import annotations

import math
import threading
from collections import OrderedDict
from dataclasses import dataclass, field

import numpy as np

from graphmem.store import scope_vectors
from graphmem.store.executor import Row, Transaction
from graphmem.store.scope_vectors import Checked, ScopeRows
from graphmem.store.search import Candidate, Expansion, SearchFilter, Surroundings, centrality_of
from graphmem.tenancy import current_allowed, within

HITS_PER_RESULT = 2  # hits ranked per candidate asked for (the filters drop some)
# Hits sent in the first check: the candidates asked for and a fifth more. The filters rarely drop
# one, and the graph checks each hit sent before it keeps the best (at 100k, 100 hits sent cost
# the check about 0.5 ms more in Neo4j than 60); when more are dropped, the rest follow.
FIRST_CHECK_SHARE = 1.2


def _normalised(vectors: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    out: np.ndarray = (vectors / np.where(norms > 0, norms, 1.0)).astype(np.float32, copy=False)
    return out


@dataclass(frozen=True)
class Opened:
    """A scoped recall's cached subtrees, current with the graph as of its first round trip, its
    fulltext rows from that round trip, and the graph's revisions it read."""

    subtrees: list[Subtree]
    fulltext_rows: list[Row]
    revisions: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Nearest:
    """A query's nearest cached memories: (id, cosine, cached text), best first; ``complete`` when
    they are every memory the subtrees hold."""

    query: np.ndarray  # the query vector, normalised
    hits: list[tuple[str, float, str]]
    complete: bool


@dataclass
class Subtree:
    """The cached memories of one scope subtree (``path`` and every scope below it)."""

    path: str
    prefix: str
    revisions: dict[str, int]
    ids: list[str] = field(default_factory=list)
    scopes: list[str] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)
    matrix: np.ndarray = field(default_factory=lambda: np.zeros((0, 0), dtype=np.float32))
    alive: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=bool))
    row_of: dict[str, int] = field(default_factory=dict)
    size: int = 0  # rows in use (the matrix grows by doubling)

    def covers(self, scope: str) -> bool:
        """Whether ``scope`` lies in this subtree."""
        return scope == self.path or scope.startswith(self.prefix)

    def upsert(self, rows: ScopeRows) -> None:
        """Add or replace memories (a re-embedded or moved memory keeps its row)."""
        vectors = _normalised(rows.vectors)
        for i, memory_id in enumerate(rows.ids):
            row = self.row_of.get(memory_id)
            if row is None:
                row = self._append_row(vectors.shape[1])
                self.row_of[memory_id] = row
                self.ids.append(memory_id)
                self.scopes.append(rows.scopes[i])
                self.texts.append(rows.texts[i])
            else:
                self.scopes[row] = rows.scopes[i]
                self.texts[row] = rows.texts[i]
            self.matrix[row] = vectors[i]
            self.alive[row] = True

    def _append_row(self, dimension: int) -> int:
        if self.matrix.shape[1] != dimension:
            self.matrix = np.zeros((0, dimension), dtype=np.float32)
        if self.size == self.matrix.shape[0]:
            capacity = max(64, 2 * self.size)
            grown = np.zeros((capacity, dimension), dtype=np.float32)
            grown[: self.size] = self.matrix[: self.size]
            self.matrix = grown
            alive = np.zeros(capacity, dtype=bool)
            alive[: self.size] = self.alive[: self.size]
            self.alive = alive
        self.size += 1
        return self.size - 1

    def drop(self, memory_ids: set[str]) -> None:
        """Forget memories deleted or moved out of the subtree."""
        for memory_id in memory_ids:
            row = self.row_of.pop(memory_id, None)
            if row is not None:
                self.alive[row] = False

    def count(self, scope: str) -> int:
        """How many live memories the cache holds in the exact ``scope``."""
        return sum(1 for m, r in self.row_of.items() if self.scopes[r] == scope)

    def live(self) -> int:
        """How many memories the subtree holds."""
        return len(self.row_of)

    def nearest(self, query: np.ndarray, k: int) -> list[tuple[str, float]]:
        """The ``k`` memories most similar to ``query`` (normalised), best first, with their cosine."""
        if self.size == 0:
            return []
        scores = self.matrix[: self.size] @ query
        scores[~self.alive[: self.size]] = -np.inf
        k = min(k, self.live())
        if k <= 0:
            return []
        top = np.argpartition(-scores, k - 1)[:k] if k < self.size else np.arange(self.size)
        top = top[np.argsort(-scores[top], kind="stable")]
        top = top[np.isfinite(scores[top])]
        return list(
            zip([self.ids[i] for i in top.tolist()], scores[top].astype(np.float64).tolist(), strict=True)
        )

    def text(self, memory_id: str) -> str | None:
        """The cached text of one memory; None when the cache does not hold it."""
        row = self.row_of.get(memory_id)
        return None if row is None else self.texts[row]

    def cosine(self, memory_id: str, query: np.ndarray) -> float | None:
        """The cosine of one cached memory to ``query``; None when the cache does not hold it."""
        row = self.row_of.get(memory_id)
        return None if row is None else float(self.matrix[row] @ query)

    def stale(self, graph: dict[str, int]) -> dict[str, int]:
        """Scopes of this subtree whose revision in the graph is not the one known, with the known one."""
        mine = {s: r for s, r in graph.items() if self.covers(s)}
        return {s: self.revisions.get(s, 0) for s, r in mine.items() if self.revisions.get(s, 0) != r}


def first_check(limit: int, hits: int) -> int:
    """How many of ``hits`` ranked hits the first check sends for ``limit`` candidates: ``limit``
    and a margin (:data:`FIRST_CHECK_SHARE`), at most all of them."""
    return min(hits, math.ceil(limit * FIRST_CHECK_SHARE))


class VectorCache:
    """Subtrees of memories by scope path, least recently used evicted past ``max_rows``."""

    def __init__(self, dimension: int, max_rows: int) -> None:
        self._dimension = dimension
        self._max_rows = max_rows
        self._subtrees: OrderedDict[str, Subtree] = OrderedDict()
        self._too_large: set[str] = set()  # paths found over max_rows: not loaded again
        self._lock = threading.Lock()

    def subtree(self, tx: Transaction, path: str, prefix: str) -> Subtree | None:
        """The cached subtree of ``path``, loaded in ``tx`` when absent; None when it is too large
        to cache (recall then scans it in the graph; the path is not tried again until :meth:`forget`)."""
        with self._lock:
            found = self._subtrees.get(path)
            if found is not None:
                self._subtrees.move_to_end(path)
                return found
            if path in self._too_large:
                return None
        known = scope_vectors.revisions(tx, path, prefix)  # first: what is read next is at least as new
        rows = scope_vectors.subtree(tx, path, prefix, self._dimension)
        if len(rows.ids) > self._max_rows:
            with self._lock:
                self._too_large.add(path)
            return None
        loaded = Subtree(path, prefix, known)
        loaded.upsert(rows)
        with self._lock:
            self._subtrees[path] = loaded
            while sum(s.size for s in self._subtrees.values()) > self._max_rows and len(self._subtrees) > 1:
                self._subtrees.popitem(last=False)
        return loaded

    def catch_up(
        self, tx: Transaction, subtree: Subtree, stale: dict[str, int], graph: dict[str, int]
    ) -> None:
        """Bring ``subtree`` to the graph's revisions ``graph`` of its ``stale`` scopes (scope ->
        revision known): memories written since, then ids where some left a scope."""
        found = scope_vectors.changes(tx, stale, self._dimension)
        with self._lock:
            for change in found:
                subtree.upsert(change.rows)
            short = [c.scope for c in found if subtree.count(c.scope) != c.total]
        present = scope_vectors.ids_in(tx, short) if short else {}
        with self._lock:
            for scope, ids in present.items():
                subtree.drop({m for m, r in subtree.row_of.items() if subtree.scopes[r] == scope} - ids)
            for scope in stale:
                subtree.revisions[scope] = graph.get(scope, 0)

    def answers(self, where: SearchFilter) -> bool:
        """Whether the cache may answer a recall filtered by ``where``: scopes asked for, each
        within the caller's allowed ones (whole-graph recall has the graph's ANN index)."""
        allowed = current_allowed()
        return where.scopes is not None and all(within(path, allowed) for path, _ in where.scopes)

    def open(
        self, tx: Transaction, lucene: str | None, where: SearchFilter, *, text_k: int, text_limit: int
    ) -> Opened | None:
        """A scoped recall's first round trip: the fulltext matches of ``lucene`` (the best
        ``text_limit`` of the index's ``text_k``) and the graph's revisions, the subtrees asked for
        brought up to them. It needs no query vector (one computed meanwhile costs no time).
        None when the cache cannot answer: not :meth:`answers`, or a subtree too large.
        """
        if not self.answers(where):
            return None
        assert where.scopes is not None
        subtrees = []
        for path, prefix in where.scopes:
            found = self.subtree(tx, path, prefix)
            if found is None:
                return None
            subtrees.append(found)
        begun = scope_vectors.start(tx, lucene, where, text_k=text_k, text_limit=text_limit)
        for subtree in subtrees:
            stale = subtree.stale(begun.revisions)
            if stale:
                self.catch_up(tx, subtree, stale, begun.revisions)
        return Opened(subtrees, begun.fulltext, begun.revisions)

    def nearest(self, opened: Opened, embedding: list[float], limit: int) -> Nearest:
        """The cached memories most similar to ``embedding`` in the subtrees of ``opened`` (id,
        cosine, text; best first), enough for ``limit`` to pass the filters most of the time,
        and whether they are every memory there."""
        k = limit * HITS_PER_RESULT
        query = _normalised(np.asarray([embedding], dtype=np.float32))[0]
        with self._lock:
            best: dict[str, float] = {}
            for s in opened.subtrees:
                for memory_id, cosine in s.nearest(query, k):
                    best[memory_id] = cosine
            everything = sum(s.live() for s in opened.subtrees) <= k
            ranked = sorted(best.items(), key=lambda e: -e[1])[:k]
            texts = [self._text(opened.subtrees, m) or "" for m, _ in ranked]
        hits = [(m, c, t) for (m, c), t in zip(ranked, texts, strict=True)]
        return Nearest(query, hits, everything)

    def check(
        self,
        tx: Transaction,
        opened: Opened,
        nearest: Nearest,
        where: SearchFilter,
        limit: int,
        expansion: Expansion | None,
        neighbours_where: SearchFilter,
    ) -> Checked | None:
        """The hits of ``nearest`` that pass ``where`` in the graph (the first ``limit``), in one
        round trip with the neighbourhood of ``expansion`` (``scope_vectors.checked``). None when
        the filters dropped so many that the exact top ``limit`` is unknown, or a scope's revision
        moved since ``opened`` (a write came in between: the texts and cosines the cache supplies
        are not known to be current): the graph answers then."""
        hits = nearest.hits
        first = first_check(limit, len(hits))
        checked = scope_vectors.checked(
            tx,
            hits[:first],
            where,
            limit=limit,
            expansion=expansion,
            neighbours_where=neighbours_where,
            context=lambda around: self.surroundings(opened, nearest.query, around),
            held=lambda ids: self.held(opened, nearest.query, ids),
            texts_of=lambda ids: self.texts(opened, ids),
            centrality=lambda ids: self.centrality(opened, ids),
        )
        if checked.revisions != opened.revisions:
            return None
        if len(checked.vector) < limit and first < len(hits):
            # The filters dropped more than the margin: the next hits decide (rare; without the
            # expansion, which the first check read for the hits recall chose from).
            rest = scope_vectors.checked(
                tx,
                hits,
                where,
                limit=limit,
                expansion=None,
                neighbours_where=neighbours_where,
                context=lambda around: None,
                held=lambda ids: None,
                texts_of=lambda ids: None,
                centrality=lambda ids: None,
            )
            if rest.revisions != opened.revisions:
                return None
            checked = Checked(rest.vector, checked.expanded, rest.revisions)
        if len(checked.vector) < limit and not nearest.complete:
            return None
        return checked

    def surroundings(
        self, opened: Opened, query: np.ndarray, around: dict[str, list[str]]
    ) -> dict[str, Surroundings] | None:
        """The episode context of each memory of ``around`` (memory -> its neighbours' ids): their
        texts, and the cosines among them and to ``query``, taken from the cache; None when the
        cache does not hold one of them (a neighbour in a scope not asked for, or written since)."""
        out = {}
        with self._lock:
            for memory_id, near in around.items():
                rows = [self._vector(opened.subtrees, m) for m in [memory_id, *near]]
                if any(r is None for r in rows):
                    return None
                texts = [self._text(opened.subtrees, m) or "" for m in near]
                vectors = np.stack([r for r in rows if r is not None]).astype(np.float64)
                among = vectors[1:] @ vectors[1:].T
                out[memory_id] = Surroundings(
                    to_query=tuple((vectors[1:] @ query).tolist()),
                    to_memory=tuple((vectors[1:] @ vectors[0]).tolist()),
                    among=tuple(tuple(r) for r in among.tolist()),
                    texts=tuple(texts),
                )
        return out

    def centrality(self, opened: Opened, ids: list[str]) -> dict[str, float] | None:
        """Each memory of ``ids``'s mean cosine to the others (recall/hubs.py), from the cache; None
        when it does not hold one of them."""
        with self._lock:
            vectors = self._vectors(opened.subtrees, ids)
        if vectors is None:
            return None
        if len(ids) < 2:
            return {}
        return centrality_of(ids, vectors.astype(np.float64))

    def held(self, opened: Opened, query: np.ndarray, ids: list[str]) -> dict[str, tuple[float, str]] | None:
        """The cosine to ``query`` and the text of each memory of ``ids``, from the cache; None when
        it does not hold one of them (written since the first round trip)."""
        out = {}
        exact = query.astype(np.float64)
        with self._lock:
            for memory_id in ids:
                vector = self._vector(opened.subtrees, memory_id)
                if vector is None:
                    return None
                cosine = float(vector.astype(np.float64) @ exact)
                out[memory_id] = (cosine, self._text(opened.subtrees, memory_id) or "")
        return out

    def texts(self, opened: Opened, ids: list[str]) -> dict[str, str] | None:
        """The cached text of each memory of ``ids``; None when the cache does not hold one."""
        with self._lock:
            found = {m: self._text(opened.subtrees, m) for m in ids}
        out = {m: t for m, t in found.items() if t is not None}
        return out if len(out) == len(found) else None

    @staticmethod
    def _vectors(subtrees: list[Subtree], ids: list[str]) -> np.ndarray | None:
        """The cached vectors of ``ids`` as rows of one matrix (gathered at once from a single
        subtree, the usual case); None when no subtree holds one of them (the caller holds the lock)."""
        if len(subtrees) == 1:
            row_of = subtrees[0].row_of
            rows = [row_of.get(m) for m in ids]
            if any(r is None for r in rows):
                return None
            gathered: np.ndarray = subtrees[0].matrix[np.asarray(rows, dtype=np.intp)]
            return gathered
        found = [VectorCache._vector(subtrees, m) for m in ids]
        held = [v for v in found if v is not None]
        if len(held) < len(ids):
            return None
        return np.stack(held) if held else np.zeros((0, 0), dtype=np.float32)

    @staticmethod
    def _vector(subtrees: list[Subtree], memory_id: str) -> np.ndarray | None:
        for s in subtrees:
            row = s.row_of.get(memory_id)
            if row is not None:
                vector: np.ndarray = s.matrix[row]
                return vector
        return None

    def fulltext(self, opened: Opened, nearest: Nearest) -> list[Candidate] | None:
        """The fulltext candidates of ``opened``, each with its cached cosine to the query of
        ``nearest`` and its cached text (the first round trip sends no text); None when the cache
        does not hold one of them (written after the revisions were read: the graph answers)."""
        with self._lock:  # once for all of them
            held = {
                m: self._held(opened.subtrees, m, nearest.query)
                for m in (str(r["id"]) for r in opened.fulltext_rows)
            }
        found = {m: h for m, h in held.items() if h is not None}
        if len(found) < len(held):
            return None
        return scope_vectors.fulltext_candidates(opened.fulltext_rows, found.__getitem__)

    @staticmethod
    def _text(subtrees: list[Subtree], memory_id: str) -> str | None:
        for s in subtrees:
            row = s.row_of.get(memory_id)
            if row is not None:
                return s.texts[row]
        return None

    @staticmethod
    def _held(subtrees: list[Subtree], memory_id: str, query: np.ndarray) -> tuple[float, str] | None:
        """The cached cosine of one memory to ``query`` and its cached text, None when no subtree
        holds it (the caller holds the lock)."""
        for s in subtrees:
            row = s.row_of.get(memory_id)
            if row is not None:
                return float(s.matrix[row] @ query), s.texts[row]
        return None

    def forget(self) -> None:
        """Drop every subtree (they reload on the next recall)."""
        with self._lock:
            self._subtrees.clear()
            self._too_large.clear()
