"""The stray rule of C1 (graphmem.consolidate.strays) on small graphs."""

from __future__ import annotations

import igraph as ig

from graphmem.consolidate.strays import without_strays


def _graph(n: int, ties: dict[tuple[int, int], float]) -> ig.Graph:
    return ig.Graph(n=n, edges=list(ties), edge_attrs={"weight": list(ties.values())})


def _clique(members: range, weight: float) -> dict[tuple[int, int], float]:
    return {(a, b): weight for a in members for b in members if a < b}


def test_a_member_tied_weakly_to_a_close_group_goes() -> None:
    graph = _graph(5, {**_clique(range(4), 0.6), (3, 4): 0.3})  # 4 hangs on one member by a weak tie
    assert without_strays(graph, [0, 1, 2, 3, 4], 0.5, 3) == [0, 1, 2, 3]


def test_a_group_whose_members_tie_alike_keeps_all_of_them() -> None:
    ring = {(a, (a + 1) % 6): 0.5 for a in range(6)}  # each tied to two others only, all alike
    assert without_strays(_graph(6, ring), list(range(6)), 0.5, 3) == list(range(6))


def test_a_group_never_shrinks_below_the_smallest_topic() -> None:
    graph = _graph(4, {**_clique(range(3), 0.6), (2, 3): 0.1})
    assert without_strays(graph, [0, 1, 2, 3], 0.5, 4) == [0, 1, 2, 3]
    assert without_strays(graph, [0, 1, 2, 3], 0.5, 3) == [0, 1, 2]


def test_share_zero_keeps_every_member() -> None:
    graph = _graph(5, {**_clique(range(4), 0.6), (3, 4): 0.3})
    assert without_strays(graph, [4, 3, 2, 1, 0], 0.0, 3) == [0, 1, 2, 3, 4]


def test_two_strays_tied_to_each_other_go_when_each_leaves_out_its_strongest_tie() -> None:
    # 4 and 5 hang on the group by weak ties, and on each other by a strong one: their mean ties
    # equal the group's own
    ties = {**_clique(range(4), 0.5), (4, 5): 1.2, (0, 4): 0.3, (1, 4): 0.3, (2, 5): 0.3, (3, 5): 0.3}
    graph = _graph(6, ties)
    assert without_strays(graph, list(range(6)), 0.5, 3) == list(range(6))  # each looks tied
    assert without_strays(graph, list(range(6)), 0.5, 3, leave_out=1) == [0, 1, 2, 3]


def test_leaving_out_the_strongest_tie_keeps_a_group_whose_members_tie_alike() -> None:
    ring = {(a, (a + 1) % 6): 0.5 for a in range(6)}
    assert without_strays(_graph(6, ring), list(range(6)), 0.5, 3, leave_out=1) == list(range(6))
