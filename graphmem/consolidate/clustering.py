"""Density clusters over a k-nearest-neighbour graph (DBSCAN's rule, on igraph), and cluster geometry.

DBSCAN with cosine distance ε and ``min_samples``: a point with at least ``min_samples - 1``
neighbours within ε is a core point; core points within ε of each other share a cluster; a border
point joins the cluster of its most similar core neighbour; the rest is noise. Neighbours come from
the vector index (k per point), so the graph has at most N·k edges.

igraph (C) rather than networkx: on the 50k-memory scale corpus, where most points chain into one
component, networkx's pure-Python Louvain split was most of C1's time; igraph does it in C.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

import igraph as ig
import numpy as np
from numpy.typing import NDArray

SPLIT_SEED = 7


@dataclass(frozen=True)
class Cluster:
    """Ids of one cluster's members, in id order."""

    members: tuple[str, ...]


def density_clusters(
    neighbours: Mapping[str, Sequence[tuple[str, float]]], eps: float, min_samples: int, max_size: int = 0
) -> list[Cluster]:
    """Clusters of the points in ``neighbours`` (id -> [(neighbour id, cosine)]), largest first.

    Edges are made symmetric (a neighbour seen from either side counts); only cosines of at least
    ``1 - eps`` count. DBSCAN chains: a long run of pairwise-close points becomes one cluster
    however far its ends are apart. With ``max_size``, a larger cluster is split into its
    similarity-weighted Leiden communities (seeded, so deterministic); communities smaller than
    ``min_samples`` are dropped as noise.
    """
    ids = sorted(set(neighbours) | {b for found in neighbours.values() for b, _ in found})
    index = {m: i for i, m in enumerate(ids)}
    floor = 1.0 - eps
    weight: dict[tuple[int, int], float] = {}
    for a, found in neighbours.items():
        for b, cosine in found:
            if a != b and cosine >= floor:
                i, j = sorted((index[a], index[b]))
                weight[(i, j)] = max(cosine, weight.get((i, j), cosine))
    graph = ig.Graph(n=len(ids), edges=list(weight), edge_attrs={"weight": list(weight.values())})
    adjacency = graph.get_adjlist()
    core = [v for v, near in enumerate(adjacency) if len(near) + 1 >= min_samples]
    is_core = set(core)
    components = graph.induced_subgraph(core).connected_components()
    groups = sorted(([core[k] for k in c] for c in components), key=lambda g: (-len(g), min(g)))
    label = {v: i for i, group in enumerate(groups) for v in group}
    for v, near in enumerate(adjacency):
        cores = [(weight[(min(u, v), max(u, v))], u) for u in near if u in is_core]
        if v not in is_core and cores:
            groups[label[max(cores)[1]]].append(v)
    out: list[Cluster] = []
    for group in groups:
        parts = split_oversized(graph, group, max_size) if max_size and len(group) > max_size else [group]
        out.extend(Cluster(tuple(sorted(ids[v] for v in p))) for p in parts if len(p) >= min_samples)
    return out


@contextmanager
def seeded(seed: int) -> Iterator[None]:
    """igraph's community detection draws from a process-wide generator: seed it for one call."""
    ig.set_random_number_generator(random.Random(seed))
    try:
        yield
    finally:
        ig.set_random_number_generator(random)


def split_oversized(graph: ig.Graph, group: list[int], max_size: int) -> list[list[int]]:
    """Leiden communities of an oversized cluster, split again while still oversized."""
    members = sorted(group)
    sub = graph.induced_subgraph(members)  # keeps the members' order: sub vertex k is members[k]
    with seeded(SPLIT_SEED):
        found = sub.community_leiden(objective_function="modularity", weights="weight", n_iterations=-1)
    communities = sorted(([members[k] for k in c] for c in found), key=lambda c: (-len(c), c[0]))
    if len(communities) == 1:  # indivisible: keep the best-connected max_size members
        strength = sub.strength(weights="weight")
        ranked = sorted(range(len(members)), key=lambda k: (-strength[k], members[k]))[:max_size]
        return [sorted(members[k] for k in ranked)]
    parts: list[list[int]] = []
    for community in communities:
        parts.extend(
            split_oversized(graph, community, max_size) if len(community) > max_size else [community]
        )
    return parts


def centroid(vectors: NDArray[np.floating]) -> NDArray[np.float32]:
    """The unit-length mean direction of unit vectors."""
    mean = np.asarray(vectors, dtype=np.float32).mean(axis=0)
    norm = float(np.linalg.norm(mean))
    unit: NDArray[np.float32] = mean / norm if norm > 0 else mean
    return unit


def fade_factor(similarity_to_centroid: float) -> float:
    """C1 gamma = 0.5 + 0.4·(1 - sim): the more central a source, the more its summary takes over."""
    sim = min(1.0, max(-1.0, similarity_to_centroid))
    return 0.5 + 0.4 * (1.0 - sim)
