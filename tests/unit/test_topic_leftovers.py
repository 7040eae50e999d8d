"""The pieces of C1's second pass over the memories no topic took (graphmem.consolidate.topics)."""

from __future__ import annotations

import numpy as np

from graphmem.consolidate.pair_signals import PairSignals
from graphmem.consolidate.topic_weights import TopicWeights
from graphmem.consolidate.topics import nearest, topic_nodes


def test_the_first_pass_takes_each_memorys_nearest_of_the_wider_list_read() -> None:
    read = {"a": [("b", 0.9), ("c", 0.8), ("d", 0.7)], "b": [("b", 1.0), ("a", 0.9), ("d", 0.2)]}
    two = TopicWeights(neighbours=2)
    assert nearest(read, two) == {"a": [("b", 0.9), ("c", 0.8)], "b": [("a", 0.9), ("d", 0.2)]}
    assert topic_nodes(nearest(read, two)) == ["a", "b", "c", "d"]


def test_a_member_sharing_no_key_with_another_member_is_left_out() -> None:
    no_pairs = np.zeros((0, 2), dtype=np.int64)
    signals = PairSignals(
        no_pairs,
        np.zeros(0),
        np.zeros(0),
        np.zeros(0),
        holders=((2, frozenset({0, 1})), (3, frozenset({1, 2, 5})), (2, frozenset({3, 6}))),
    )
    # 0 and 1 share a key, 1 and 2 another; 3 holds a key only 6 (outside the group) shares; 4 none
    assert signals.keyed([0, 1, 2, 3, 4]) == [0, 1, 2]
