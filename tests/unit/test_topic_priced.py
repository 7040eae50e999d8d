"""C1 takes a shared price pattern off a pair's cosine: two purchases are not one topic for naming a price."""

from __future__ import annotations

import numpy as np
import pytest

from graphmem.consolidate.priced import both_priced, states_money
from graphmem.consolidate.settings import ConsolidationSettings


@pytest.mark.parametrize(
    "text",
    [
        "Bought a second-hand Yamaha digital piano for £350.",
        "Finally getting the kitchen redone, budget is about £18k.",
        "Got a quote of $1,200 for the roof.",
        "Charging overnight costs about €4 for a full battery.",
        "Sold the old bike for 40 quid.",
        "The parking meter only takes 50p coins.",
        "Paid 120 pounds for new running shoes.",
    ],
)
def test_an_amount_of_money_is_read(text: str) -> None:
    assert states_money(text)


@pytest.mark.parametrize(
    "text",
    [
        "Collected the car: a used Niro with 18k miles on the clock.",
        "Paged at 3am: the database disk filled up with logs.",
        "Much better bake: 75% hydration, cold proof overnight.",
        "Learned the set list of fourteen songs.",
        "We picked the oak worktop in the end, quartz was two grand more.",
    ],
)
def test_numbers_that_are_no_money_are_not(text: str) -> None:
    assert not states_money(text)


def test_only_pairs_whose_two_texts_name_a_price_are_marked() -> None:
    texts = {
        "a": "Bought a digital piano for £350.",
        "b": "Picked a hybrid bike for £680, paid from my salary.",
        "c": "First lesson with Mrs Okafor; my left hand is lazy.",
    }
    nodes = ["a", "b", "c", "d"]  # d: a memory without a text read
    low = np.asarray([0, 0, 1, 2], dtype=np.int64)
    high = np.asarray([1, 2, 2, 3], dtype=np.int64)
    assert both_priced(texts, nodes, low, high).tolist() == [1.0, 0.0, 0.0, 0.0]


def test_the_correction_is_on_by_default() -> None:
    assert ConsolidationSettings().topics.priced > 0
