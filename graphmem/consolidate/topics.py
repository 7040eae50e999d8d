"""C1 topics: clusters on a graph of several signals, because episodes of one topic rarely paraphrase.

Two episodes of one thread (a dog's breed; the vet's advice on his weight) share a MiniLM cosine of
0.2-0.5, while unrelated memories sit near 0.1: what ties a topic is partly in the graph. Each
candidate pair (the k nearest by vector, pairs sharing a rare entity or word, NEXT) weighs its
cosine, its nearness by rank, the rarity of what it shares and its closeness in time
(graphmem.consolidate.pair_signals, weights in graphmem.consolidate.topic_weights). Topics are the
consensus of CPM-Leiden runs around the chosen floor and resolution on that graph and on a second
view (the overlap of two memories' strong ties), a 2-core of the pairs most runs agree on, peeled of
weakly tied members and strays, split where the runs kept two parts apart, and kept only when its
members share a key mostly their own. A memory that says 'he' or 'she' and names nobody ties as if
it named whom it refers to (graphmem.consolidate.referents), and the memories the first pass leaves
are clustered again among themselves. The same memories always give the same topics.

Why each rule is there, and what every session measured, kept and dropped: docs/topics.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

import igraph as ig
import numpy as np
from numpy.typing import NDArray

from graphmem.consolidate.closeness import cosine_across
from graphmem.consolidate.clustering import Cluster, split_oversized
from graphmem.consolidate.consensus import (
    SplitRule,
    graphs_above,
    peeled,
    separated,
    shared_ties,
    spread,
    votes,
)
from graphmem.consolidate.pair_joins import joined_pairs, loose_pairs
from graphmem.consolidate.pair_signals import topic_similarities
from graphmem.consolidate.referents import ReferentRule, referred_entities
from graphmem.consolidate.strays import without_strays
from graphmem.consolidate.topic_weights import TopicWeights
from graphmem.store.consolidation import Neighbours, TopicSignals


def topic_clusters(
    neighbours: Neighbours,
    vectors: Mapping[str, NDArray[np.float32]],
    signals: TopicSignals,
    w: TopicWeights,
    min_size: int,
    max_size: int = 0,
    *,
    processes: int = 1,
) -> list[Cluster]:
    """Topics among the memories of ``neighbours``: the consensus of CPM-Leiden partitions of the
    signal graph, peeled of weakly tied members, at least ``min_size`` strong (split above
    ``max_size``).

    One Leiden partition depends on its seed and on the exact bonus, floor and resolution. So
    Leiden runs with ``ensemble_seeds`` seeds at each setting of a small neighbourhood around the
    chosen one (near ± ``near_spread``, floor ± ``floor_spread``, resolution ±
    ``resolution_spread``); two memories share a topic when at least ``agreement`` of the runs put
    them together, and a topic is a connected group of such pairs in which each member has at
    least ``core`` of them (the k-core). The runs of a large graph go to ``processes`` worker
    processes (0: one per core), with the same votes (graphmem.consolidate.leiden_runs).

    A memory naming no entity that says 'he' or 'she' ties first as if it named whom it refers to
    (``w.referents``, graphmem.consolidate.referents). Then the memories no topic took are
    clustered again among themselves (``leftover_agreement``,
    see ``TopicWeights``): their nearest by vector are ranked among those left, from each memory's
    list in ``neighbours`` (read wider than ``w.neighbours``: the first pass takes the first ones).
    """
    near = nearest(neighbours, w)
    if w.referents:
        rule = ReferentRule(w.referents, w.referent_cosine, w.referent_mentions)
        referred = referred_entities(
            topic_nodes(near),
            signals.texts,
            signals.entities,
            signals.mentions,
            signals.occurred,
            signals.scopes,
            vectors,
            rule,
        )
        signals = replace(signals, entities=referred)
    found = _topics(near, vectors, signals, w, min_size, max_size, keyed=False, processes=processes)
    if not w.leftover_agreement:
        return found
    known = set(topic_nodes(near))
    taken = {m for c in found for m in c.members}
    left = {
        a: [(b, c) for b, c in neighbours[a] if b != a and b in known and b not in taken][: w.neighbours]
        for a in near
        if a not in taken
    }
    # a leftover group is held by its keys more than by the runs: with split_least_part the dog
    # thread of tests/consolidation/test_topic_leftovers lost its topic there
    again = replace(
        w, agreement=w.leftover_agreement, function_words=w.leftover_function_words, split_least_part=0
    )
    return found + _topics(left, vectors, signals, again, min_size, max_size, keyed=True, processes=processes)


def nearest(neighbours: Neighbours, w: TopicWeights) -> Neighbours:
    """Each memory's ``w.neighbours`` nearest (of a wider list, best first)."""
    return {a: [(b, c) for b, c in found if b != a][: w.neighbours] for a, found in neighbours.items()}


def topic_nodes(neighbours: Neighbours) -> list[str]:
    """The memories a neighbourhood names (its memories and their neighbours), sorted."""
    return sorted(set(neighbours) | {b for found in neighbours.values() for b, _ in found})


def _topics(
    neighbours: Neighbours,
    vectors: Mapping[str, NDArray[np.float32]],
    signals: TopicSignals,
    w: TopicWeights,
    min_size: int,
    max_size: int,
    keyed: bool,
    processes: int,
) -> list[Cluster]:
    """One pass of ``topic_clusters``; ``keyed``: only members sharing a key with another stay."""
    nodes, pair_signals = topic_similarities(neighbours, vectors, signals, w)
    n = len(nodes)
    pairs = pair_signals.pairs
    edges = pairs.tolist()  # igraph takes Python lists: the pairs are converted once
    floors = spread(w.floor, w.floor_spread)
    first_view = {
        (near, floor): g
        for near in spread(w.near, w.near_spread)
        for floor, g in zip(
            floors, graphs_above(n, pairs, pair_signals.similarity(near), floors), strict=True
        )
    }
    together = votes(
        pairs,
        list(first_view.values()),
        spread(w.resolution, w.resolution_spread),
        w.ensemble_seeds,
        w.leiden_iterations,
        processes,
    )
    agreed_mask = together >= w.agreement
    voted = ig.Graph(n=n, edges=edges, edge_attrs={"vote": together.tolist()})
    overlap = np.zeros(0)
    if w.shared_resolution or w.shared_peel:
        overlap = shared_ties(n, pairs, pair_signals.similarity(w.near), w.floor + w.shared_ties, edges)
    if w.shared_resolution:
        shared_floors = spread(w.shared_floor, w.floor_spread)
        agreed_mask |= (
            votes(
                pairs,
                graphs_above(n, pairs, overlap, shared_floors),
                spread(w.shared_resolution, w.resolution_spread),
                w.ensemble_seeds,
                w.leiden_iterations,
                processes,
            )
            >= w.agreement
        )
    agreed = pairs[agreed_mask].tolist()
    agreement = ig.Graph(n=n, edges=agreed)
    coreness = agreement.coreness()
    kept = [v for v in range(n) if coreness[v] >= w.core]
    groups = [[kept[v] for v in c] for c in agreement.induced_subgraph(kept).connected_components()]
    graph = first_view[(w.near, w.floor)]  # the chosen setting's graph, one of the runs'
    if w.pair_join:
        loose = loose_pairs(agreement, coreness, w.core)
        groups += joined_pairs(graph, loose, w.pair_join * w.resolution)
    shared = graphs_above(n, pairs, overlap, [0.0])[0] if w.shared_peel else None
    across = cosine_across(nodes, vectors)
    rule = SplitRule(w.split_modularity, min_size, w.agreement, w.split_cosine, across, w.split_least_part)
    out: list[Cluster] = []
    for community in sorted(([*c] for c in groups), key=lambda c: (-len(c), min(c))):
        if len(community) < min_size:
            continue
        members = peeled(graph, sorted(community), w.peel)
        if shared is not None:
            members = peeled(shared, members, w.shared_peel)
        parts = [
            without_strays(graph, part, w.stray, min_size, w.stray_leave_out)
            for group in separated(graph, voted, members, rule)
            for part in (
                split_oversized(graph, group, max_size) if max_size and len(group) > max_size else [group]
            )
        ]
        if keyed:
            parts = [pair_signals.keyed(p) for p in parts]
        out.extend(
            Cluster(tuple(sorted(nodes[v] for v in p)))
            for p in parts
            if len(p) >= min_size and (not w.specific or pair_signals.story(p, w.specific_share))
        )
    return out
