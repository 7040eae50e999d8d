"""C1: a topic's stray members, tied to the rest much more weakly than the rest are to each other.

A topic found by the consensus often carries one member of another thread: a swim after a
shoulder injury beside four rides of a cycling sportive, a pottery class priced in pounds beside
guitar lessons. One such member in a topic of six leaves 83 % of its sources from the topic, and the
semantic memory stands for neither. What tells it apart is how it ties to the others: its mean
tie to the rest of the group (pairs below the floor count 0) is a fraction of what the other
members have. The weakest member goes while its mean tie is below ``share`` of the median of the
others' and the group keeps ``min_size`` members, so a group never shrinks below a topic and a
group without a stray (whose members tie alike) keeps all of them.

On the dev halves of the four topic sets (bench/eval/topics*.json), whole and in six random
8-topic subsets of each, at the chosen weights and at each of eight weights moved one step either
way (17 settings), share 0.5 raised the topics covered of the whole halves from 737 to 753 (of
17 x 53) and the subsets' mean coverage from 0.833 to 0.869, never lower at any one setting, with
as many of the topics' own episodes kept in them (3,036 -> 3,035); 0.6 covers the same but drops
more of a topic's own episodes (2,952).
"""

from __future__ import annotations

import igraph as ig
import numpy as np


def without_strays(graph: ig.Graph, members: list[int], share: float, min_size: int) -> list[int]:
    """``members`` (vertices of ``graph``, whose edges weigh a pair's tie in ``weight``) less their
    strays: the weakest member while its mean tie to the others is below ``share`` of the median
    of the others' mean ties and more than ``min_size`` members remain. ``share`` 0 keeps all."""
    kept = sorted(members)
    while share and len(kept) > min_size:
        sub = graph.induced_subgraph(kept)  # sub vertex k is kept[k]
        tie = np.asarray(sub.strength(weights="weight"), dtype=np.float64) / (len(kept) - 1)
        weakest = int(np.argmin(tie))  # the first of equals: nodes are in the memories' own order
        others = np.delete(tie, weakest)
        if tie[weakest] >= share * float(np.median(others)):
            break
        del kept[weakest]
    return kept
