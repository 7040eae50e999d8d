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
    neighbours: Mapping[str, Sequence[tuple[str, float]]], eps: float, min_samples: int
) -> list[Cluster]:
    """Clusters of the points in ``neighbours`` (id -> [(neighbour id, cosine)]), largest first.

    Edges are made symmetric (a neighbour seen from either side counts); only cosines of at least
    ``1 - eps`` count. Deterministic: the same input always gives the same clusters.
    """
    graph = nx.Graph()
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
    return [Cluster(tuple(g)) for g in groups if len(g) >= min_samples]


def centroid(vectors: NDArray[np.floating]) -> NDArray[np.float32]:
    """The unit-length mean direction of unit vectors."""
    mean = np.asarray(vectors, dtype=np.float32).mean(axis=0)
    norm = float(np.linalg.norm(mean))
    return mean / norm if norm > 0 else mean


def fade_factor(similarity_to_centroid: float) -> float:
    """C1 γ = 0.5 + 0.4·(1 − sim): the more central a source, the more its summary takes over."""
    sim = min(1.0, max(-1.0, similarity_to_centroid))
    return 0.5 + 0.4 * (1.0 - sim)
