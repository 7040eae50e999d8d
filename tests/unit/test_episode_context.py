"""A memory read with its episode neighbours: the context vector's cosine from pairwise cosines."""

from __future__ import annotations

import numpy as np

from graphmem.recall.episode_context import NEIGHBOUR_WEIGHT, context_cosine
from graphmem.recall.ranking import Evidence, RankWeights, relevance
from graphmem.store.search import Surroundings


def _unit(v: np.ndarray) -> np.ndarray:
    return v / np.linalg.norm(v)


def test_context_cosine_equals_the_cosine_of_the_summed_vectors() -> None:
    rng = np.random.default_rng(7)
    query, memory, before, after = (_unit(rng.normal(size=16)) for _ in range(4))
    around = Surroundings(
        to_query=(float(before @ query), float(after @ query)),
        to_memory=(float(before @ memory), float(after @ memory)),
        among=((1.0, float(before @ after)), (float(after @ before), 1.0)),
        texts=("before", "after"),
    )
    context = memory + NEIGHBOUR_WEIGHT * (before + after)
    expected = float(context @ query / np.linalg.norm(context))
    assert abs(context_cosine(float(memory @ query), around) - expected) < 1e-9


def test_an_elliptical_turn_takes_the_meaning_of_the_question_before_it() -> None:
    # "Every Sunday!" alone is far from "How often does she climb?"; after "Do you still go
    # climbing?" its context is close, and relevance takes the better of the two.
    around = Surroundings(to_query=(0.8,), to_memory=(0.2,), among=((1.0,),), texts=("Still climbing?",))
    own = 0.1
    weights = RankWeights()
    alone = relevance(Evidence(cosine=own), weights)
    read_in_context = relevance(Evidence(cosine=own, context=context_cosine(own, around)), weights)
    assert read_in_context > alone + 0.3


def test_context_never_lowers_relevance() -> None:
    around = Surroundings(to_query=(-0.2,), to_memory=(0.1,), among=((1.0,),), texts=("unrelated",))
    weights = RankWeights()
    own = 0.7
    with_context = Evidence(cosine=own, context=context_cosine(own, around))
    assert relevance(with_context, weights) == relevance(Evidence(cosine=own), weights)
