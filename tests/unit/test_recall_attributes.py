"""The attribute a question asks about, and the memories that speak of it (recall/attributes.py),
and the later memory on that attribute first when asked how things stand (recall/latest.py)."""

from __future__ import annotations

import pytest

from graphmem.recall.attributes import attributes_asked, attributes_of, speaking_of
from graphmem.recall.latest import later_first
from graphmem.recall.whose import asked_about


@pytest.mark.parametrize(
    ("question", "asked"),
    [
        ("Whom does Björn report to?", {"manager"}),
        ("Which town does Chiamaka live in these days?", {"residence"}),
        ("Who is Tomasz's employer?", {"employment"}),
        ("What does Tomasz do for a living?", set()),  # earning a living is no home
        ("What instruments can Tomasz play?", set()),
        ("Does Tomasz keep any pets at home?", set()),  # where the pets are, not where he lives
        ("How does Tomasz get to work now?", set()),  # the way there, not the job
    ],
)
def test_a_question_names_the_attribute_it_asks_about(question: str, asked: set[str]) -> None:
    assert attributes_asked(question) == asked


def test_a_memory_speaks_of_the_attribute_in_words_of_its_own() -> None:
    texts = {
        "boss": "Björn's line manager is Karin Ek.",
        "moved": "The household relocated to a cottage outside Uppsala.",
        "dog": "Björn walks his dog at dawn.",
        "far": "Björn's manager was a runner once.",
    }
    found = speaking_of(frozenset({"manager", "residence"}), texts, related={"boss", "moved", "dog"})
    assert found == {"boss": {"manager"}, "moved": {"residence"}}  # "far" is not related
    assert attributes_of("Björn was made redundant in spring.") == {"employment"}


TEXTS = {
    "home": "Chiamaka lives in Surulere, Lagos.",
    "job": "Chiamaka teaches chemistry at a secondary school.",
    "cat": "Chiamaka has a tabby called Ofe.",
    "moved": "The family relocated to Abuja, near Wuse market.",
    "sister": "Chiamaka's sister Ada relocated to Ibadan.",
}
OCCURRED = {m: float(i) for i, m in enumerate(TEXTS)}


def _order(question: str, scores: dict[str, float]) -> list[str]:
    adjusted, _ = later_first(
        scores,
        TEXTS,
        OCCURRED,
        asked_about(question),
        0.2,
        related=set(scores),
        asked_attributes=attributes_asked(question),
    )
    return sorted(adjusted, key=lambda m: -adjusted[m])


def test_a_later_memory_on_the_attribute_asked_about_follows_whatever_its_words() -> None:
    scores = {"home": 1.0, "job": 0.7, "cat": 0.6, "moved": 0.4, "sister": 0.5}
    assert _order("Where does Chiamaka live now?", scores)[:2] == ["moved", "home"]


def test_without_the_attribute_asked_the_words_decide_as_before() -> None:
    scores = {"home": 1.0, "job": 0.7, "cat": 0.6, "moved": 0.4, "sister": 0.5}
    assert _order("What is Chiamaka up to now?", scores)[0] == "home"
