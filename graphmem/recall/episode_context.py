"""A memory read together with the memories around it in its episode.

A chat turn often answers nothing alone: "Yes, every Sunday since March!" means something only
after the question before it. So recall also reads each candidate in its context: the memories
next to it in its episode (``NEXT``, written in one batch or conversation, or minutes apart in one
scope). The context's vector is the memory's own plus each neighbour's at ``NEIGHBOUR_WEIGHT``,
and its words are the neighbours' words. Ranking takes the better of a memory's own cosine and its
context's, and counts a neighbour's telling words at a share of the memory's own
(``RankWeights.context_words``, recall/ranking.py). A memory outside any episode (a fact written on
its own) is read as it is.
"""

from __future__ import annotations

import math

from graphmem.store.search import Surroundings

# A neighbour counts half as much as the memory itself in the context's vector. Measured on the dev
# halves (in-process simulation of recall on LoCoMo dev, plain input): recall@10 0.651 without
# context; 0.688 / 0.697 / 0.692 with neighbour weights 1.0 / 0.5 / 0.3 (words at half weight).
NEIGHBOUR_WEIGHT = 0.5


def context_cosine(own: float, around: Surroundings, weight: float = NEIGHBOUR_WEIGHT) -> float:
    """Cosine between the query and the memory's context vector ``v + weight * sum(neighbours)``.

    All vectors are unit length, so the context's norm follows from the pairwise cosines and
    nothing but scalars leaves the graph. ``own`` is the memory's cosine to the query.
    """
    dot = own + weight * sum(around.to_query)
    norm2 = 1.0 + 2.0 * weight * sum(around.to_memory) + weight * weight * sum(map(sum, around.among))
    if norm2 <= 1e-9:
        return own
    return dot / math.sqrt(norm2)
