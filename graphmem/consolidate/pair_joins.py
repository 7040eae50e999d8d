"""C1: two agreed pairs that no topic took, joined when the four memories hold together as a topic.

The consensus keeps a group whose members each agree with two others (the 2-core), so a pair the
runs always put together, and nothing else, is dropped. A sparse thread often falls apart into
such pairs: a French course's reason (the company's new office in Lyon) beside two days spent in
that office, the tutor Amélie's booking beside the subjunctive she drills, each pair agreed by
every run, while CPM, which counts every missing pair of a group against it, keeps the two apart
where pairs across are absent. Two loose pairs are joined when at least ``min_cross`` of the four
pairs across are edges and the six pairs of the four memories weigh, on average, at least
``density`` (the CPM resolution: the density a topic needs). What is joined then goes through the
peel, the split, the stray rule and the rule of a shared key as any group does.

Session 29, on the dev halves of the five topic sets (bench/eval/topics*.json, offline as
``bench.topic_subsets`` builds the signals) and on mixed 12-thread dev scopes
(``bench.topic_mixed``, seeds 7 / 8 / 9 / 10 / 11), with the first pass's function words at half
weight both ways: topics covered 54 -> 56 of 68 (the French course of topics, a dog's separation
anxiety of topics5: each had only pairs), purity 0.950 -> 0.952; mixed coverage 0.673 / 0.662 /
0.665 / 0.710 / 0.677 -> 0.683 / 0.687 / 0.683 / 0.725 / 0.698, purity 0.895 / 0.889 / 0.892 /
0.902 / 0.895 -> 0.892 / 0.886 / 0.885 / 0.899 / 0.895 (threads of one domain from different sets,
two electric cars, two kitchens, are joined too; so is a stray now and then, and four noise
memories once in 80 scopes). Joined at 0.75 to 1.25 times the resolution, the dev halves keep
55-56 topics. Planted ARI 0.951 with and without (986 of 1,040 episodes clustered). Measured and
not kept: three pairs across as edges (dev 54, mixed 0.673 / 0.667), joins in the first pass only
(55, 0.679 / 0.683) or in the leftover pass only (55, 0.681 / 0.677), a joined four absorbing a
third pair as dense (56, 0.679 / 0.685).
"""

from __future__ import annotations

from collections.abc import Sequence

import igraph as ig


def loose_pairs(agreement: ig.Graph, coreness: Sequence[int], core: int) -> list[tuple[int, int]]:
    """The agreed pairs (edges of ``agreement``) outside every group: components of exactly two
    among the memories below the ``core`` (whose ``coreness`` is under it), in node order."""
    below = [v for v in range(agreement.vcount()) if 0 < coreness[v] < core]
    components = agreement.induced_subgraph(below).connected_components()
    pairs = [(below[c[0]], below[c[1]]) for c in components if len(c) == 2]
    return sorted((min(a, b), max(a, b)) for a, b in pairs)


def joined_pairs(
    graph: ig.Graph, pairs: Sequence[tuple[int, int]], density: float, min_cross: int = 2
) -> list[list[int]]:
    """Groups of four made of two of ``pairs`` (node pairs of ``graph``, whose edges weigh a
    pair's tie above the floor in ``weight``): at least ``min_cross`` of the four pairs across
    are edges and the six pairs' mean weight reaches ``density``. The densest joins first; each
    pair joins once."""
    owner = {node: k for k, pair in enumerate(pairs) for node in pair}
    weight = graph.es["weight"] if graph.ecount() else []

    def tie(a: int, b: int) -> float:
        edge = graph.get_eid(a, b, directed=False, error=False)
        return float(weight[edge]) if edge >= 0 else 0.0

    options: list[tuple[float, int, int]] = []
    for k, (a, b) in enumerate(pairs):
        near = {owner[v] for node in (a, b) for v in graph.neighbors(node) if owner.get(v, k) > k}
        for j in sorted(near):
            cross = [tie(x, y) for x in (a, b) for y in pairs[j]]
            if sum(1 for c in cross if c > 0) < min_cross:
                continue
            total = tie(a, b) + tie(*pairs[j]) + sum(cross)
            if total / 6 >= density:
                options.append((total, k, j))
    used: set[int] = set()
    out: list[list[int]] = []
    for _, k, j in sorted(options, key=lambda o: (-o[0], o[1], o[2])):
        if k not in used and j not in used:
            used.update((k, j))
            out.append(sorted((*pairs[k], *pairs[j])))
    return out
