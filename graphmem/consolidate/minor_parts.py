"""C1: a topic's minor parts, pieces of other threads tied to its main part far less than that
part is tied within, and tied outside the topic too.

A topic found by the consensus may carry two or three episodes of another thread, not one: two
lodger episodes beside five of a remortgage (a room let 'to help with the mortgage'), two of a
pottery course beside four of a work dashboard, two book-club evenings beside three of a reading
circle. The split (``consensus.separated``) leaves them, since it parts a group only into parts
of a topic's size each, and the stray rule (``strays``) removes one member at a time, while two
strays tied to each other each hold a mean tie to the group near the others'. In the group's own
modularity split such a piece is a part of its own, tied to the largest part much less than that
part is tied within (its mean tie across, pairs below the floor counting 0, under ``share`` of the
largest part's mean tie inside) and tied outside the group: its members' strongest tie to a
memory outside is at least ``outside`` of their strongest tie to the largest part (their
thread's other episodes, elsewhere). Such a part leaves the topic and its episodes stay
unclustered this run: a memory 90 % of one thread stands for it, one with a piece of another
stands for neither. A part tied to nothing outside is the topic's own, however it splits (a
sparse thread's episodes in two moods), and stays; without that test the rule also cut pure
topics in two.

Measured offline on scopes shaped like the held-out check (``bench.topic_mixed``: 12 threads drawn
from the dev halves of all four topic sets, 10 noise memories of one set, 40 subsets at each of two
seeds): share 0.4 with outside 0.25 takes coverage 0.760 / 0.733 to 0.775 / 0.750 and purity
0.939 / 0.928 to 0.948 / 0.937, noise clustered unchanged (0.15 / 0.2 per subset); the four dev
halves whole stay 46 of 53. The topics' own episodes in the memories that cover them: 2,903 ->
2,868 over the 80 subsets, 184 -> 178 on the dev halves (the price: a topic's memory made of
fewer of its episodes). Without the outside test: 0.773 / 0.748 but 2,801 and 174; outside 0.1 /
0.5: 0.773 / 0.750 and 0.771 / 0.738; share 0.3 / 0.5: 0.769 / 0.746 and 0.771 / 0.750.
"""

from __future__ import annotations

import igraph as ig
import numpy as np
from numpy.typing import NDArray

from graphmem.consolidate.clustering import SPLIT_SEED, seeded


def without_minor_parts(
    graph: ig.Graph, members: list[int], share: float, outside: float, min_size: int
) -> list[int]:
    """``members`` (vertices of ``graph``, whose edges weigh a pair's tie in ``weight``) less the
    parts of their Leiden-modularity split, other than the largest, whose mean tie to the largest
    is below ``share`` of the largest part's mean tie inside and whose members' strongest ties
    outside ``members`` reach ``outside`` of their strongest ties to the largest part (means over
    the part). Only when the largest part holds at least ``min_size``; ``share`` 0 keeps all.
    Deterministic: the split is seeded and the members taken in their own order."""
    kept = sorted(members)
    if not share or len(kept) <= min_size:
        return kept
    sub = graph.induced_subgraph(kept)  # sub vertex k is kept[k]
    with seeded(SPLIT_SEED):
        found = sub.community_leiden(objective_function="modularity", weights="weight", n_iterations=-1)
    label = np.asarray(found.membership)
    sizes = np.bincount(label)
    largest = int(np.argmax(sizes))  # the first of equals
    if len(sizes) < 2 or sizes[largest] < min_size:
        return kept
    ties = _tie_matrix(sub)
    main = np.flatnonzero(label == largest)
    inside = ties[np.ix_(main, main)].sum() / (len(main) * (len(main) - 1))
    beyond = _strongest_outside(graph, kept)
    out = set(main.tolist())
    for part in range(len(sizes)):
        other = np.flatnonzero(label == part)
        across = ties[np.ix_(other, main)]
        minor = (
            part != largest
            and across.mean() < share * inside
            and beyond[other].mean() >= outside * across.max(axis=1).mean()
        )
        if not minor:
            out.update(other.tolist())
    return [kept[k] for k in sorted(out)]


def _tie_matrix(graph: ig.Graph) -> NDArray[np.float64]:
    """The symmetric matrix of ``graph``'s edge weights (0 where no edge)."""
    n = graph.vcount()
    out = np.zeros((n, n))
    if graph.ecount():
        ends = np.asarray(graph.get_edgelist(), dtype=np.int64)
        weight = np.asarray(graph.es["weight"], dtype=np.float64)
        out[ends[:, 0], ends[:, 1]] = weight
        out[ends[:, 1], ends[:, 0]] = weight
    return out


def _strongest_outside(graph: ig.Graph, members: list[int]) -> NDArray[np.float64]:
    """For each of ``members`` (in order), its strongest tie to a vertex not among them (0: none)."""
    group = set(members)
    out = np.zeros(len(members))
    for k, v in enumerate(members):
        for edge in graph.es[graph.incident(v)]:
            other = edge.target if edge.source == v else edge.source
            if other not in group:
                out[k] = max(out[k], float(edge["weight"]))
    return out
