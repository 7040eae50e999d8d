"""Density clusters over a k-nearest-neighbour graph (DBSCAN's rule, on networkx), and cluster geometry.

DBSCAN with cosine distance ε and ``min_samples``: a point with at least ``min_samples - 1``
neighbours within ε is a core point; core points within ε of each other share a cluster; a border
point joins the cluster of its most similar core neighbour; the rest is noise. Neighbours come from
the vector index (k per point), so the graph has at most N·k edges.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import networkx as nx
import numpy as np
from numpy.typing import NDArray


@dataclass(frozen=True)
class Cluster:
    """Ids of one cluster's members, core points first in a stable order."""

    members: tuple[str, ...]


def density_clusters(
    neighbours: Mapping[str, Sequence[tuple[str, float]]], eps: float, min_samples: int, max_size: int = 0
) -> list[Cluster]:
    """Clusters of the points in ``neighbours`` (id -> [(neighbour id, cosine)]), largest first.

    Edges are made symmetric (a neighbour seen from either side counts); only cosines of at least
    ``1 - eps`` count. DBSCAN chains: a long run of pairwise-close points becomes one cluster
    however far its ends are apart. With ``max_size``, a larger cluster is split into its
    similarity-weighted Louvain communities (seeded, so still deterministic); communities
    smaller than ``min_samples`` are dropped as noise.
    """
    graph: nx.Graph[str] = nx.Graph()
    graph.add_nodes_from(neighbours)
    floor = 1.0 - eps
    for a, found in neighbours.items():
        for b, cosine in found:
            if a != b and cosine >= floor:
                graph.add_edge(a, b, weight=cosine)
    core = {n for n in graph if graph.degree(n) + 1 >= min_samples}
    label: dict[str, int] = {}
    groups: list[list[str]] = []
    components = sorted(nx.connected_components(graph.subgraph(core)), key=lambda c: (-len(c), min(c)))
    for i, component in enumerate(components):
        groups.append(sorted(component))
        for node in component:
            label[node] = i
    for node in sorted(set(graph) - core):
        cores = [(graph[node][c]["weight"], c) for c in graph[node] if c in core]
        if cores:
            _, best = max(cores, key=lambda wc: (wc[0], wc[1]))
            groups[label[best]].append(node)
    out: list[Cluster] = []
    for group in groups:
        parts = _split(graph, group, max_size) if max_size and len(group) > max_size else [sorted(group)]
        out.extend(Cluster(tuple(p)) for p in parts if len(p) >= min_samples)
    return out


def _split(graph: nx.Graph[str], group: list[str], max_size: int) -> list[list[str]]:
    """Louvain communities of an oversized cluster, split again while still oversized."""
    sub = graph.subgraph(group)
    parts: list[list[str]] = []
    communities = nx.community.louvain_communities(sub, weight="weight", seed=7)
    if len(communities) == 1:  # indivisible: keep the densest max_size members
        core = sorted(group, key=lambda n: (-sub.degree(n, weight="weight"), n))[:max_size]
        return [sorted(core)]
    for community in sorted(communities, key=lambda c: (-len(c), min(c))):
        members = sorted(community)
        parts.extend(_split(graph, members, max_size) if len(members) > max_size else [members])
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
