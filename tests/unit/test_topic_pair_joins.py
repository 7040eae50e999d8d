"""C1 joins two agreed pairs that no topic took when the four memories hold together as a topic
(graphmem.consolidate.pair_joins), on small graphs."""

from __future__ import annotations

import igraph as ig

from graphmem.consolidate.pair_joins import joined_pairs, loose_pairs


def _graph(n: int, ties: dict[tuple[int, int], float]) -> ig.Graph:
    return ig.Graph(n=n, edges=list(ties), edge_attrs={"weight": list(ties.values())})


def test_two_pairs_tied_across_by_two_strong_ties_make_one_group() -> None:
    # a thread told in two sittings: each pair close, two ties across, one pair across absent
    graph = _graph(4, {(0, 1): 0.4, (2, 3): 0.5, (0, 3): 0.3, (1, 3): 0.2})
    assert joined_pairs(graph, [(0, 1), (2, 3)], 0.16) == [[0, 1, 2, 3]]


def test_pairs_held_by_one_tie_across_stay_apart() -> None:
    graph = _graph(4, {(0, 1): 0.9, (2, 3): 0.9, (1, 2): 0.9})  # a chain, not a group
    assert joined_pairs(graph, [(0, 1), (2, 3)], 0.16) == []


def test_pairs_whose_four_memories_are_too_sparse_stay_apart() -> None:
    graph = _graph(4, {(0, 1): 0.2, (2, 3): 0.2, (0, 2): 0.05, (1, 3): 0.05})  # mean 0.083
    assert joined_pairs(graph, [(0, 1), (2, 3)], 0.16) == []
    assert joined_pairs(graph, [(0, 1), (2, 3)], 0.08) == [[0, 1, 2, 3]]


def test_a_pair_joins_the_pair_it_is_densest_with_and_only_once() -> None:
    ties = {(0, 1): 0.5, (2, 3): 0.5, (4, 5): 0.5}
    ties |= {(0, 2): 0.2, (1, 3): 0.2}  # (0, 1) with (2, 3): 1.4
    ties |= {(2, 4): 0.4, (3, 5): 0.4, (2, 5): 0.3}  # (2, 3) with (4, 5): 2.1
    graph = _graph(6, ties)
    assert joined_pairs(graph, [(0, 1), (2, 3), (4, 5)], 0.16) == [[2, 3, 4, 5]]


def test_only_pairs_outside_every_group_are_loose() -> None:
    # 0-1-2 agree with each other (a group); 3-4 agree with each other only; 5 with 2 only
    agreement = ig.Graph(n=7, edges=[(0, 1), (1, 2), (0, 2), (3, 4), (2, 5)])
    assert loose_pairs(agreement, agreement.coreness(), 2) == [(3, 4)]
