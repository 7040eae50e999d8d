"""The neighbourhood graph of changed memories: the k nearest of each, never all pairs of a large graph.

Neo4j 5.26's vector index cannot filter by scope before ranking, so in a graph of many tenants
the global top candidates of a memory may hold few of its own scope. Three ways:
- a scope small enough (``exact_max`` memories of the layer) is read whole and its exact k
  nearest computed in blocks (cost S·S for a scope of S, bounded by exact_max);
- a larger scope where few memories changed (the nightly case) asks Neo4j's vector index for
  ``candidates`` per changed memory and keeps the k nearest of the same scope (cost N·k);
- a larger scope where many changed (a first run, an import; at least ``bulk_share`` of it) is
  read whole once and searched with an in-process HNSW index (faiss; cost S·log S). Neo4j answers
  vector queries one at a time: on the 50k single-scope scale corpus (bench.consolidation
  --per-scope 0) C3, which reads the neighbourhood, went from 179.8 s to 30.6 s.
Changed memories are the seeds; in a large scope their neighbours get their own k nearest too
(one hop), so a seed joining an older cluster sees that cluster's density. With ``history`` the
neighbourhood also holds the layer's memories superseded by a later statement (C1's topics are
stories, and the episode that opened one is often the statement a later one replaced); passes that
act on active memories only (C3) skip them by status.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

import numpy as np

from graphmem.consolidate.context import RunContext
from graphmem.store.consolidation import ConsolidationStore, Neighbours

EXACT_BLOCK = 1024
KNN_THREADS = 2
LOCAL_MAX = 200_000  # larger scopes always ask Neo4j's index (their vectors would not fit well)
HNSW_LINKS = 32  # faiss HNSW: links per node, and the search breadth for construction
HNSW_BUILD_DEPTH = 64


@dataclass
class Neighbourhood:
    """k nearest per memory at or above ``min_cosine``, and the vectors read on the way (exact scopes)."""

    graph: Neighbours = field(default_factory=dict)
    vectors: dict[str, np.ndarray] = field(default_factory=dict)
    k: int = 0
    min_cosine: float = 1.0
    history: bool = False  # holds superseded memories too (see the module's doc)

    def narrowed(self, k: int, min_cosine: float, drop: set[str]) -> Neighbourhood:
        """The same neighbourhood with fewer neighbours, a higher floor, and without ``drop``."""
        graph = {
            i: [(j, c) for j, c in found if c >= min_cosine and j not in drop][:k]
            for i, found in self.graph.items()
            if i not in drop
        }
        return Neighbourhood(graph, self.vectors, k, min_cosine, self.history)


def shared_knn(
    store: ConsolidationStore,
    ctx: RunContext,
    step: str,
    seeds: Iterable[list[tuple[str, str]]],
    *,
    layer: str,
    k: int,
    min_cosine: float,
    read_k: int,
    read_min_cosine: float,
    candidates: int,
    batch: int,
    exact_max: int,
    bulk_share: float,
    history: bool = False,
) -> Neighbourhood:
    """The run's neighbourhood of ``layer`` (read once with the wider ``read_*`` bounds and
    ``history``), narrowed."""
    cached: Neighbourhood | None = ctx.neighbourhoods.get(layer)
    if cached is None or cached.k < k or cached.min_cosine > min_cosine or cached.history != history:
        cached = knn_graph(
            store,
            seeds,
            ctx,
            step,
            layer=layer,
            k=max(k, read_k),
            candidates=candidates,
            min_cosine=min(min_cosine, read_min_cosine),
            batch=batch,
            exact_max=exact_max,
            bulk_share=bulk_share,
            history=history,
        )
        ctx.neighbourhoods[layer] = cached
    return cached.narrowed(k, min_cosine, ctx.retired)


def _nearest(scored: Iterable[tuple[float, str]], k: int, min_cosine: float) -> list[tuple[str, float]]:
    """The ``k`` most similar of (cosine, id) candidates at or above ``min_cosine``, best first."""
    ranked = sorted((pair for pair in scored if pair[0] >= min_cosine), reverse=True)[:k]
    return [(i, c) for c, i in ranked]


def exact_knn(
    ids: list[str], vectors: np.ndarray, k: int, min_cosine: float, rows: Iterable[int]
) -> Neighbours:
    """Exact k nearest (cosine of unit vectors) of the given rows among all ``ids``, most similar
    first (equal cosines: the larger id first).

    A block of rows is ranked in numpy at once, from each row's (k+1)-th largest cosine (numpy
    partitions values several times faster than it partitions their indices): ranking each row on
    its own made most of C3's exact neighbourhoods (5-9 s of a first nightly at 50k memories in
    scopes of 1,000, on a shared machine).
    """
    out: Neighbours = {}
    wanted = np.asarray(list(rows), dtype=np.int64)
    n = len(ids)
    if not n or not len(wanted):
        return out
    by_id = np.empty(n, dtype=np.int64)  # each id's place in id order, for ties
    by_id[np.argsort(np.asarray(ids), kind="stable")] = np.arange(n)
    for start in range(0, len(wanted), EXACT_BLOCK):
        block = wanted[start : start + EXACT_BLOCK]
        sims = vectors[block] @ vectors.T
        sims[np.arange(len(block)), block] = -2.0
        if n > k + 1:  # every cosine at or above the row's (k+1)-th largest (ties all in)
            cut = np.partition(sims, n - k - 1, axis=1)[:, n - k - 1]
            at, cols = np.nonzero(sims >= cut[:, None])
        else:
            at, cols = np.divmod(np.arange(len(block) * n, dtype=np.int64), n)
        cosines = sims[at, cols].astype(np.float64)
        order = np.lexsort((-by_id[cols], -cosines, at))
        bounds = np.searchsorted(at[order], np.arange(len(block) + 1)).tolist()
        near, found = cols[order].tolist(), cosines[order].tolist()
        for i, r in enumerate(block.tolist()):
            span = range(bounds[i], bounds[i + 1])
            out[ids[r]] = [(ids[near[j]], found[j]) for j in span if found[j] >= min_cosine][:k]
    return out


def local_knn(ids: list[str], vectors: np.ndarray, k: int, min_cosine: float) -> Neighbours:
    """Approximate k nearest (cosine of unit vectors) of every one of ``ids``, from an HNSW graph
    built here; one thread, so the same vectors always give the same graph."""
    import faiss  # only large bulk runs need it

    data = np.ascontiguousarray(vectors, dtype=np.float32)
    threads = faiss.omp_get_max_threads()
    faiss.omp_set_num_threads(1)
    try:
        index = faiss.IndexHNSWFlat(data.shape[1], HNSW_LINKS, faiss.METRIC_INNER_PRODUCT)
        index.hnsw.efConstruction = HNSW_BUILD_DEPTH
        index.add(data)
        index.hnsw.efSearch = max(HNSW_BUILD_DEPTH, 2 * (k + 1))
        similarities, found = index.search(data, k + 1)
    finally:
        faiss.omp_set_num_threads(threads)
    out: Neighbours = {}
    for row, (sims, near) in enumerate(zip(similarities, found, strict=True)):
        pairs = zip(sims, near, strict=True)
        out[ids[row]] = _nearest(((float(c), ids[j]) for c, j in pairs if j >= 0 and j != row), k, min_cosine)
    return out


def _whole_scopes(
    store: ConsolidationStore,
    scopes: list[str],
    sizes: dict[str, int],
    budget: int,
    layer: str,
    status: str,
    history: bool,
) -> Iterator[tuple[str, tuple[list[str], np.ndarray]]]:
    """Each of ``scopes`` (in their order) with the ids and vectors it holds, read in batches of
    scopes holding up to ``budget`` memories, the next batch read while the caller ranks this one.

    One read per scope made 50 reads of 1,000 memories of a first nightly at 50k (9 s, C3's
    exact neighbourhoods 5.5 s beside them): the server streams a batch while Python ranks the last.
    """
    batches: list[list[str]] = []
    held = budget
    for scope in scopes:
        if held + sizes.get(scope, 0) > budget:
            batches.append([])
            held = 0
        batches[-1].append(scope)
        held += sizes.get(scope, 0)
    empty: tuple[list[str], np.ndarray] = ([], np.zeros((0, 0), dtype=np.float32))

    def read(batch: list[str]) -> dict[str, tuple[list[str], np.ndarray]]:
        return store.scopes_vectors(batch, layer, status, history)

    with ThreadPoolExecutor(max_workers=1) as pool:
        ahead = [pool.submit(read, batch) for batch in batches[:1]]
        for i, batch in enumerate(batches):
            found = ahead.pop().result()
            ahead += [pool.submit(read, nxt) for nxt in batches[i + 1 : i + 2]]
            for scope in batch:
                yield scope, found.get(scope, empty)


def knn_graph(
    store: ConsolidationStore,
    seeds: Iterable[list[tuple[str, str]]],
    ctx: RunContext,
    step: str,
    *,
    layer: str,
    k: int,
    candidates: int,
    min_cosine: float,
    batch: int,
    exact_max: int,
    bulk_share: float,
    archived: bool = False,
    history: bool = False,
) -> Neighbourhood:
    """Neighbours (id -> [(id, cosine)]) of every seed, and of the memories around them (with
    ``history``, superseded memories among them: see the module's doc)."""
    status = "archived" if archived else "active"
    by_scope: dict[str, list[str]] = defaultdict(list)
    for page in seeds:
        for memory_id, scope in page:
            by_scope[scope].append(memory_id)
    sizes = store.scope_sizes(sorted(by_scope), layer, status, history) if by_scope else {}
    found = Neighbourhood(k=k, min_cosine=min_cosine, history=history)
    graph = found.graph
    large: list[str] = []
    large_scopes: list[str] = []
    whole: list[str] = []  # scopes read whole
    for scope in sorted(by_scope):
        size = sizes.get(scope, 0)
        bulk = exact_max < size <= LOCAL_MAX and len(by_scope[scope]) >= bulk_share * size
        if size > exact_max and not bulk:
            large.extend(by_scope[scope])
            large_scopes.append(scope)
        else:
            whole.append(scope)
    for scope, (ids, vectors) in _whole_scopes(store, whole, sizes, exact_max, layer, status, history):
        if len(ids) < 2:
            continue
        if sizes.get(scope, 0) > exact_max:  # bulk: a large scope where most changed
            graph.update(local_knn(ids, vectors, k, min_cosine))
        else:
            graph.update(exact_knn(ids, vectors, k, min_cosine, range(len(ids))))
        found.vectors.update(zip(ids, vectors, strict=True))
        ctx.heartbeat()
        ctx.progress(step, len(graph), None)

    if large:  # the share of the layer in these scopes sets how many candidates survive the filter
        share = sum(sizes[s] for s in large_scopes) / max(1, store.layer_size(layer, status, history))
        candidates = min(candidates, max(k + 1, math.ceil(1.5 * (k + 1) / max(share, 1e-6))))

    def one(chunk: list[str]) -> tuple[list[str], Neighbours]:
        near = store.neighbours(
            chunk, k=k, candidates=candidates, min_cosine=min_cosine, status=status, history=history
        )
        return chunk, near

    def fetch(ids: list[str]) -> None:
        chunks = [ids[start : start + batch] for start in range(0, len(ids), batch)]
        with ThreadPoolExecutor(max_workers=KNN_THREADS) as pool:  # Neo4j answers on every core
            for chunk, near in pool.map(one, chunks):
                for i in chunk:
                    graph[i] = near.get(i, [])
                ctx.heartbeat()
                ctx.progress(step, len(graph), None)

    fetch([i for i in large if i not in graph])
    if large:
        fetch(sorted({n for i in large for n, _ in graph.get(i, [])} - set(graph)))
    return found
