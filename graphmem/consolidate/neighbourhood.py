"""The neighbourhood graph of changed memories: k nearest per memory from the vector index.

Changed memories are the seeds; their neighbours get their own k nearest too (one hop), so a seed
joining an older cluster sees that cluster's density. Cost: (seeds + neighbours) · k, never N².
"""

from __future__ import annotations

from collections.abc import Iterable

from graphmem.consolidate.context import RunContext
from graphmem.store.consolidation import ConsolidationStore, Neighbours


def knn_graph(
    store: ConsolidationStore,
    seeds: Iterable[list[str]],
    ctx: RunContext,
    step: str,
    *,
    k: int,
    candidates: int,
    min_cosine: float,
    batch: int,
    archived: bool = False,
) -> Neighbours:
    """Neighbours of every seed and of every neighbour of a seed (ids -> [(id, cosine)])."""
    graph: Neighbours = {}
    pending: list[str] = []

    def fetch(ids: list[str]) -> None:
        for start in range(0, len(ids), batch):
            chunk = ids[start : start + batch]
            found, _ = store.neighbours(chunk, k=k, candidates=candidates, min_cosine=min_cosine, archived=archived)
            for i in chunk:
                graph[i] = found.get(i, [])
            ctx.heartbeat()
            ctx.progress(step, len(graph), None)

    for page in seeds:
        fresh = [i for i in page if i not in graph]
        fetch(fresh)
    pending = sorted({n for found in list(graph.values()) for n, _ in found} - set(graph))
    fetch(pending)
    return graph
