"""The consensus of CPM-Leiden runs over a graph of candidate pairs, and its tools (used by C1).

A partition by Leiden depends on its seed and on the exact floor and resolution; the share of the
runs over a small neighbourhood of settings that put two memories together is steadier. The
shared-ties overlap gives a second graph over the same pairs (see graphmem.consolidate.topics).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import igraph as ig
import numpy as np
from numpy.typing import NDArray

from graphmem.consolidate.clustering import SPLIT_SEED, seeded
from graphmem.consolidate.leiden_runs import consensus_runs, partitions


def graphs_above(
    n: int, pairs: NDArray[np.int64], sim: NDArray[np.float64], floors: Sequence[float]
) -> list[ig.Graph]:
    """At each floor, the pairs above it as edges weighing their similarity above it (one graph
    built, the others cut from it in C)."""
    kept = sim > min(floors)
    base = ig.Graph(n=n, edges=pairs[kept].tolist(), edge_attrs={"sim": sim[kept].tolist()})
    base_sim = sim[kept]
    out = []
    for floor in floors:
        graph = base.subgraph_edges(np.flatnonzero(base_sim > floor).tolist(), delete_vertices=False)
        graph.es["weight"] = (np.asarray(graph.es["sim"], dtype=np.float64) - floor).tolist()
        out.append(graph)
    return out


def votes(
    pairs: NDArray[np.int64],
    graphs: Sequence[ig.Graph],
    resolutions: Sequence[float],
    seeds: int,
    iterations: int,
    processes: int = 1,
) -> NDArray[np.float64]:
    """The share of CPM-Leiden runs (each graph, each resolution, ``seeds`` seeds) that
    put the two memories of each pair in one group (the runs in ``processes`` worker processes
    when the graphs are large: see graphmem.consolidate.leiden_runs)."""
    runs = consensus_runs(len(graphs), resolutions, seeds)
    together = np.zeros(len(pairs))
    for membership in partitions(graphs, runs, iterations, processes):
        together += membership[pairs[:, 0]] == membership[pairs[:, 1]]
    out: NDArray[np.float64] = together / max(1, len(runs))
    return out


def shared_ties(
    n: int,
    pairs: NDArray[np.int64],
    sim: NDArray[np.float64],
    strong: float,
    edges: list[list[int]] | None = None,
) -> NDArray[np.float64]:
    """For each pair, the Jaccard overlap of the two memories' strong ties (pairs above ``strong``),
    each memory counted among its own: 1 for two memories tied to exactly the same others
    (``edges``: ``pairs`` as a list, when the caller has it already).

    Within a topic most memories are tied to the same few others, while a tie across topics
    (a shared generic word, two memories phrased alike) seldom brings their other ties along: on
    the dev half's candidate pairs this overlap tells a topic's pairs from the rest with AUC 0.94
    where the similarity itself gives 0.90 (Jarvis and Patrick's shared-neighbour similarity).
    """
    if not len(pairs):
        return np.zeros(0)
    graph = ig.Graph(n=n, edges=pairs[sim > strong].tolist())
    listed = pairs.tolist() if edges is None else edges
    out: NDArray[np.float64] = np.asarray(graph.similarity_jaccard(pairs=listed, loops=True))
    return out


def spread(centre: float, width: float) -> list[float]:
    """``centre`` and, with a ``width``, the values that far either side of it."""
    return sorted({centre - width, centre, centre + width}) if width else [centre]


def peeled(graph: ig.Graph, members: list[int], share: float) -> list[int]:
    """``members`` without those whose weight inside the group is below ``share`` of the median."""
    strength = graph.induced_subgraph(members).strength(weights="weight")
    median = float(np.median(strength)) if strength else 0.0
    return [v for v, s in zip(members, strength, strict=True) if s >= share * median]


def separated(
    graph: ig.Graph,
    agreed: ig.Graph,
    members: list[int],
    rule: SplitRule,
) -> list[list[int]]:
    """``members`` split into their Leiden-modularity parts on ``graph`` when the split is clear,
    the consensus never held it together and the parts are about different things: a part of
    ``rule.min_size`` and another of ``rule.least_part`` (0: ``rule.min_size``) at least, a
    modularity of at least ``rule.modularity`` (0: never split), the candidate pairs across the
    parts put together by fewer than ``rule.agreement`` of the runs on average (``agreed``: the
    candidate pairs as edges, their share of runs as ``vote``), and a mean cosine across the parts
    below ``rule.cosine`` (``rule.across``). A smaller part joins the large part it is most tied
    to. Recursive while a part splits so again; a part below ``rule.min_size`` is returned too, for
    the caller to leave out (two episodes of another thread beside a topic).

    Such a group is two topics chained together by the second view or by a few members: a person
    in two threads (a friend met at the running club and at the reading circle), a word two
    subjects share. A topic's own parts, each run's Leiden mostly puts together; and when it does
    not (a topic told in twenty paraphrases falls into runs of its three wordings), they are still
    about one thing by their vectors.
    """
    least = rule.least_part or rule.min_size
    if not rule.modularity or len(members) < rule.min_size + least:
        return [members]
    sub = graph.induced_subgraph(members)  # sub vertex k is members[k]
    with seeded(SPLIT_SEED):
        found = sub.community_leiden(objective_function="modularity", weights="weight", n_iterations=-1)
    label = list(found.membership)
    large = sorted({c for c in label if label.count(c) >= least})
    if (
        len(large) < 2
        or not any(label.count(c) >= rule.min_size for c in large)
        or sub.modularity(label, weights="weight") < rule.modularity
    ):
        return [members]
    tie = np.zeros((len(members), max(label) + 1))
    for (a, b), weight in zip(sub.get_edgelist(), sub.es["weight"], strict=True):
        tie[a, label[b]] += weight
        tie[b, label[a]] += weight
    home = [
        c if c in large else max(large, key=lambda part: (tie[k, part], -part)) for k, c in enumerate(label)
    ]
    pairs = agreed.induced_subgraph(members)
    across = [
        v for (a, b), v in zip(pairs.get_edgelist(), pairs.es["vote"], strict=True) if home[a] != home[b]
    ]
    if across and float(np.mean(across)) >= rule.agreement:
        return [members]
    parts = [sorted(members[k] for k in range(len(members)) if home[k] == c) for c in large]
    if rule.across(parts) >= rule.cosine:
        return [members]
    return [q for p in parts for q in separated(graph, agreed, p, rule)]


@dataclass(frozen=True)
class SplitRule:
    """When ``separated`` splits a group (see there)."""

    modularity: float
    min_size: int
    agreement: float
    cosine: float
    across: Callable[[list[list[int]]], float]  # the mean cosine across parts (node lists)
    least_part: int = 0  # a part this large splits off beside one of min_size (0: min_size)
