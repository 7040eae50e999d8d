"""The neighbourhood graph of changed memories: the k nearest of each, never all pairs of a large graph.

Neo4j 5.26's vector index cannot filter by scope before ranking, so in a graph of many tenants
the global top candidates of a memory may hold few of its own scope. Two ways, like recall:
- a scope small enough (``exact_max`` memories of the layer) is read whole and its exact k
  nearest computed in blocks (cost S·S for a scope of S, bounded by exact_max);
- a larger scope asks the vector index for ``candidates`` per memory and keeps the k nearest of
  the same scope (cost N·k).
Changed memories are the seeds; in a large scope their neighbours get their own k nearest too
(one hop), so a seed joining an older cluster sees that cluster's density.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np

from graphmem.consolidate.context import RunContext
from graphmem.store.consolidation import ConsolidationStore, Neighbours

EXACT_BLOCK = 1024


@dataclass
class Neighbourhood:
    """k nearest per memory, and the vectors read on the way (exact scopes)."""

    graph: Neighbours = field(default_factory=dict)
    vectors: dict[str, np.ndarray] = field(default_factory=dict)


def exact_knn(ids: list[str], vectors: np.ndarray, k: int, min_cosine: float, rows: Iterable[int]) -> Neighbours:
    """Exact k nearest (cosine of unit vectors) of the given rows among all ``ids``."""
    out: Neighbours = {}
    wanted = list(rows)
    for start in range(0, len(wanted), EXACT_BLOCK):
        block = wanted[start : start + EXACT_BLOCK]
        sims = vectors[block] @ vectors.T
        for r, row in zip(block, sims, strict=True):
            row[r] = -2.0
            top = np.argpartition(-row, min(k, len(row) - 1))[: k + 1] if len(row) > k else np.arange(len(row))
            ranked = sorted(((float(row[j]), ids[j]) for j in top if row[j] >= min_cosine), reverse=True)[:k]
            out[ids[r]] = [(i, c) for c, i in ranked]
    return out


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
    archived: bool = False,
) -> Neighbourhood:
    """Neighbours (id -> [(id, cosine)]) of every seed, and of the memories around them."""
    status = "archived" if archived else "active"
    by_scope: dict[str, list[str]] = defaultdict(list)
    for page in seeds:
        for memory_id, scope in page:
            by_scope[scope].append(memory_id)
    sizes = store.scope_sizes(sorted(by_scope), layer, status) if by_scope else {}
    found = Neighbourhood()
    graph = found.graph
    large: list[str] = []
    for scope in sorted(by_scope):
        if sizes.get(scope, 0) > exact_max:
            large.extend(by_scope[scope])
            continue
        ids, vectors = store.scope_vectors(scope, layer, status)
        if len(ids) < 2:
            continue
        graph.update(exact_knn(ids, vectors, k, min_cosine, range(len(ids))))
        found.vectors.update(zip(ids, vectors, strict=True))
        ctx.heartbeat()
        ctx.progress(step, len(graph), None)

    def fetch(ids: list[str]) -> None:
        for start in range(0, len(ids), batch):
            chunk = ids[start : start + batch]
            near, _ = store.neighbours(chunk, k=k, candidates=candidates, min_cosine=min_cosine, archived=archived)
            for i in chunk:
                graph[i] = near.get(i, [])
            ctx.heartbeat()
            ctx.progress(step, len(graph), None)

    fetch([i for i in large if i not in graph])
    if large:
        fetch(sorted({n for i in large for n, _ in graph.get(i, [])} - set(graph)))
    return found
