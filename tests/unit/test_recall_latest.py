"""The later of two statements on one thing first, asked how things stand (recall/latest.py)."""

from __future__ import annotations

import pytest

from graphmem.recall.attributes import attributes_asked
from graphmem.recall.latest import asks_how_things_stand, later_first, leaning_later
from graphmem.recall.whose import asked_about

TEXTS = {
    "client": "Sophie's biggest client is the wine shop chain Cave Brun.",
    "cat": "Sophie has a ginger cat called Moutarde.",
    "flat": "Sophie lives in a flat in Croix-Rousse, Lyon.",
    "new_client": "Cave Brun ended their contract; Sophie's main client is now the Musée des Confluences.",
    "sister": "Sophie's sister Camille's biggest client is a bakery in Lyon.",
    "lyon_job": "Sophie works as a graphic designer in Lyon.",
    # the rest of her memory, which recall weighs words among
    "bike": "Sophie rides a VanMoof e-bike everywhere.",
    "partner": "Sophie's partner Mathieu teaches history at a lycée.",
    "food": "Sophie is vegetarian and loves Lebanese food.",
    "climbing": "Sophie goes bouldering on Tuesday evenings.",
    "birthday": "Sophie's birthday is 2 May.",
}
OCCURRED = {m: float(i) for i, m in enumerate(TEXTS)}


def _order(found: dict[str, float], question: str) -> list[str]:
    scores = {m: found.get(m, 0.1) for m in TEXTS}  # every memory of hers is a candidate
    adjusted, _ = later_first(scores, TEXTS, OCCURRED, asked_about(question), 0.1, related=set(found))
    return sorted(adjusted, key=lambda m: -adjusted[m])


def test_a_later_statement_on_the_same_thing_ranks_just_above_the_earlier() -> None:
    scores = {"client": 1.0, "cat": 0.6, "flat": 0.55, "new_client": 0.5, "sister": 0.45}
    assert _order(scores, "Who is Sophie's biggest client at the moment?")[:2] == ["new_client", "client"]


def test_a_later_memory_naming_the_same_place_says_more_of_it_and_stays_below() -> None:
    scores = {"flat": 1.0, "lyon_job": 0.5, "cat": 0.4}
    assert _order(scores, "Where does Sophie live now?")[0] == "flat"


def test_a_relatives_statement_never_follows_the_persons_own() -> None:
    scores = {"client": 1.0, "sister": 0.5, "cat": 0.4}
    assert _order(scores, "Who is Sophie's biggest client now?")[0] == "client"


@pytest.mark.parametrize(
    ("question", "now"),
    [
        ("Where does Amara work now?", True),
        ("Which city does Amara live in at the moment?", True),
        ("What's Lucía's job these days?", True),
        ("Who is Dmitri's team lead nowadays?", True),
        ("What is the name of Amara's cat?", False),
        ("Where was Amara working at the end of 2023?", False),
    ],
)
def test_a_question_asks_how_things_stand(question: str, now: bool) -> None:
    assert asks_how_things_stand(question) is now


@pytest.mark.parametrize(
    ("question", "now"),
    [
        ("Where does Kenji live?", True),
        ("Who is Ravi's manager?", True),
        ("What's Hana's job?", True),
        ("Where did Kenji live in 2022?", False),
        ("What is the name of Amara's cat?", False),  # a name is not asked as it stands now
        ("What are Aino's hobbies?", False),  # several pastimes hold at once
    ],
)
def test_a_question_in_the_present_tense_asks_how_an_attribute_stands(question: str, now: bool) -> None:
    assert asks_how_things_stand(question, attributes_asked(question)) is now


def test_the_lean_toward_later_memories_is_bounded_and_skips_the_unrelated() -> None:
    scores = {"flat": 1.0, "cat": 0.9, "bike": 0.85, "birthday": 0.2}
    leaned = leaning_later(scores, OCCURRED, related={"flat", "cat", "bike"}, weight=0.1)
    # the earliest related memory (cat) gains nothing, the latest (bike) the whole lean, flat half
    assert leaned["cat"] == 0.9
    assert leaned["flat"] == pytest.approx(1.05) and leaned["bike"] == pytest.approx(0.95)
    assert leaned["birthday"] == 0.2  # not related to the question on its own: no lean
    assert leaning_later(scores, OCCURRED, related=set(scores), weight=0.0) == scores
