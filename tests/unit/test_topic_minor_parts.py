"""The minor-part rule of C1 (graphmem.consolidate.minor_parts) on small graphs."""

from __future__ import annotations

import igraph as ig

from graphmem.consolidate.minor_parts import without_minor_parts


def _graph(n: int, ties: dict[tuple[int, int], float]) -> ig.Graph:
    return ig.Graph(n=n, edges=list(ties), edge_attrs={"weight": list(ties.values())})


def _clique(members: range, weight: float) -> dict[tuple[int, int], float]:
    return {(a, b): weight for a in members for b in members if a < b}


# a topic of five (0-4) carrying a pair of another thread (5, 6) by one weak tie; the pair's own
# thread (7, 8, 9) lies outside the group
PIECE = {**_clique(range(5), 0.8), (5, 6): 0.8, (4, 5): 0.2, **_clique(range(6, 10), 0.6)}


def test_a_piece_of_another_thread_tied_outside_goes() -> None:
    assert without_minor_parts(_graph(10, PIECE), list(range(7)), 0.4, 0.25, 3) == [0, 1, 2, 3, 4]


def test_a_part_tied_to_nothing_outside_is_the_topics_own_and_stays() -> None:
    own = {k: v for k, v in PIECE.items() if max(k) < 7}  # the pair's thread is not in the graph
    assert without_minor_parts(_graph(7, own), list(range(7)), 0.4, 0.25, 3) == list(range(7))


def test_a_part_tied_to_the_rest_about_as_strongly_as_the_rest_within_stays() -> None:
    close = {**PIECE, **{(a, b): 0.6 for a in range(5) for b in (5, 6)}}
    assert without_minor_parts(_graph(10, close), list(range(7)), 0.4, 0.25, 3) == list(range(7))


def test_share_zero_and_a_topic_of_the_smallest_size_keep_every_member() -> None:
    graph = _graph(10, PIECE)
    assert without_minor_parts(graph, [6, 5, 4, 3, 2, 1, 0], 0.0, 0.25, 3) == list(range(7))
    assert without_minor_parts(graph, [0, 1, 2], 0.4, 0.25, 3) == [0, 1, 2]
