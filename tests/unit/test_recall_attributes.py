"""The attribute a question asks about, and the memories that speak of it (recall/attributes.py),
and the later memory on that attribute first when asked how things stand (recall/latest.py)."""

from __future__ import annotations

import pytest

from graphmem.recall.attributes import (
    attributes_asked,
    attributes_of,
    elsewhere,
    holds_a_role,
    names_in,
    speaking_of,
)
from graphmem.recall.latest import later_first
from graphmem.recall.whose import asked_about


@pytest.mark.parametrize(
    ("question", "asked"),
    [
        ("Whom does Björn report to?", {"manager"}),
        ("Which town does Chiamaka live in these days?", {"residence"}),
        ("Who is Tomasz's employer?", {"employment"}),
        ("What does Tomasz do for a living?", {"employment"}),  # earning a living is a job, no home
        ("What instruments can Tomasz play?", set()),
        ("Does Tomasz keep any pets at home?", set()),  # where the pets are, not where he lives
        ("How does Tomasz get to work now?", {"transport"}),  # the way there, not the job
        ("How is Tomasz getting around these days?", {"transport"}),
        ("Is Tomasz still seeing Ola, or did they split up?", {"relationship"}),
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


@pytest.mark.parametrize(
    ("memory", "spoken_of"),
    [
        ("Tomasz gave up the Octavia and takes the tram everywhere.", {"transport"}),
        ("Tomasz bikes to the office when it is dry.", set()),  # a verb recall does not read
        ("Tomasz left the bank and opened a bakery in Kazimierz.", {"employment"}),
        ("Tomasz was promoted to head of the Kraków branch.", {"employment"}),
        ("Tomasz and Ola broke up in March.", {"relationship"}),
        ("Tomasz's uncle still uses the family car.", {"transport"}),
    ],
)
def test_a_memory_speaks_of_the_way_someone_travels_or_earns_in_everyday_words(
    memory: str, spoken_of: set[str]
) -> None:
    assert attributes_of(memory) == spoken_of


TEXTS = {
    "home": "Chiamaka lives in Surulere, Lagos.",
    "job": "Chiamaka teaches chemistry at a secondary school.",
    "cat": "Chiamaka has a tabby called Ofe.",
    "moved": "The family relocated to Abuja, near Wuse market.",
    "sister": "Chiamaka's sister Ada relocated to Ibadan.",
}
OCCURRED = {m: float(i) for i, m in enumerate(TEXTS)}


def _follow(
    question: str,
    scores: dict[str, float],
    texts: dict[str, str],
    named: bool = False,
    retired: dict[str, float] | None = None,
) -> tuple[dict[str, float], set[str]]:
    """later_first for ``question`` over ``texts`` written in their order, all of them related;
    ``named``: with the names the question gives."""
    return later_first(
        scores,
        texts,
        {m: float(i) for i, m in enumerate(texts)},
        asked_about(question),
        0.2,
        related=set(texts),
        asked_attributes=attributes_asked(question),
        names=names_in(question) if named else frozenset(),
        retired=retired,
    )


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


def test_a_later_statement_of_who_fills_an_attribute_follows_the_owners_named_one() -> None:
    texts = {
        "boss": "Chiamaka's manager is Mr Okafor.",
        "cat": "Chiamaka has a tabby called Ofe.",
        "new": "Chiamaka reports to Mrs Bello since the reshuffle.",
        "sister": "Chiamaka's sister Ada reports to a new editor.",
    }
    question = "Who is Chiamaka's manager at the moment?"
    adjusted, moved = _follow(question, {"boss": 1.0, "cat": 0.6, "new": 0.5, "sister": 0.55}, texts)
    assert moved == {"new"}  # "X's manager is Y" states X's manager; the sister's is her own
    assert sorted(adjusted, key=lambda m: -adjusted[m])[:2] == ["new", "boss"]


def test_without_the_attribute_asked_the_words_decide_as_before() -> None:
    scores = {"home": 1.0, "job": 0.7, "cat": 0.6, "moved": 0.4, "sister": 0.5}
    assert _order("What is Chiamaka up to now?", scores)[0] == "home"


def test_a_question_about_free_time_finds_the_activities_and_none_follows_another() -> None:
    assert attributes_asked("What does Tomasz do for fun?") == {"pastime"}
    assert attributes_asked("Which instrument does Tomasz play?") == set()  # the words find it
    texts = {
        "choir": "Tomasz sings in a parish choir on Sundays.",
        "allergy": "Tomasz is allergic to walnuts.",
        "football": "Tomasz plays five-a-side football on Mondays.",
    }
    found = speaking_of(frozenset({"pastime"}), texts, related=set(texts))
    assert set(found) == {"choir", "football"}
    question = "What are Tomasz's hobbies these days?"
    _, moved = _follow(question, {"choir": 0.9, "allergy": 0.8, "football": 0.5}, texts)
    assert moved == set()  # a later pastime adds to the earlier one, it does not replace it


def test_a_clause_about_someone_the_question_does_not_name_is_theirs() -> None:
    question = "Where does Tomasz work now?"
    texts = {
        "both": "Tomasz and Ola moved to Gdańsk; Ola works at the shipyard museum.",
        "colleague": "Piotr works with Tomasz at the bakery.",
        "own": "Tomasz was promoted to head baker.",
    }
    found = speaking_of(
        attributes_asked(question),
        texts,
        set(texts),
        asked_about(question),
        names=names_in(question),
    )
    assert set(found) == {"own"}


def test_a_later_memory_said_only_of_someone_the_question_does_not_name_does_not_follow() -> None:
    texts = {
        "home": "Tomasz lives in Kraków, in Podgórze.",
        "friend": "Piotr sold his flat and moved to Gdańsk.",
        "moved": "Tomasz and Ola moved to Wrocław; Ola teaches there.",
    }
    question = "Where does Tomasz live now?"
    adjusted, moved = _follow(question, {"home": 1.0, "friend": 0.5, "moved": 0.4}, texts, named=True)
    assert moved == {"moved"}
    assert max(adjusted, key=lambda m: adjusted[m]) == "moved"


def test_a_replaced_belief_on_the_attribute_asked_leads_to_the_latest_memory_on_it() -> None:
    texts = {
        "bank": "Tomasz works as a clerk at PKO Bank.",
        "quit": "Tomasz quit the bank in January.",
        "dog": "Tomasz walks his dog every evening.",
        "bakery": "Tomasz opened a bakery in Kazimierz.",
    }
    question = "What does Tomasz do for a living now?"
    scores = {"quit": 1.2, "dog": 1.1, "bakery": 0.9}
    _, without = _follow(question, scores, texts, named=True)
    adjusted, moved = _follow(question, scores, texts, named=True, retired={"bank": 1.3})
    assert "bakery" not in without
    assert moved == {"bakery"} and "bank" not in adjusted  # a replaced belief is never a result
    assert max(adjusted, key=lambda m: adjusted[m]) == "bakery"


def test_a_later_switch_from_what_the_earlier_memory_names_follows_it() -> None:
    texts = {
        "drug": "Marta has epilepsy and takes lamotrigine twice daily.",
        "cat": "Marta has a cat called Pixel.",
        "switch": "Marta's neurologist switched her from lamotrigine to levetiracetam.",
    }
    question = "Which epilepsy medicine is Marta on now?"
    adjusted, moved = _follow(question, {"drug": 1.0, "cat": 0.5, "switch": 0.7}, texts, named=True)
    assert moved == {"switch"}
    assert max(adjusted, key=lambda m: adjusted[m]) == "switch"


@pytest.mark.parametrize(
    ("text", "role"),
    [
        ("Nkechi is a pharmacist at Reddington Hospital.", True),
        ("Bram is a park ranger with the Forestry Commission.", True),
        ("Nkechi's dentist is Dr. Obi at Lagoon Clinic.", False),  # the dentist is named, not a role
        ("Bram is a fan of Feyenoord.", False),
        ("Bram is a keen cyclist.", False),
    ],
)
def test_a_role_held_at_a_named_place_speaks_of_employment(text: str, role: bool) -> None:
    assert holds_a_role(text) is role
    assert ("employment" in attributes_of(text)) is role


def test_free_time_and_a_hobby_name_a_pastime() -> None:
    assert "pastime" in attributes_asked("What does Bram do in his free time?")
    assert "pastime" in attributes_of("Bram's hobby is repairing old radios.")


def test_a_memory_speaking_only_of_another_attribute_is_told_apart() -> None:
    texts = {
        "home": "Bram lives in Utrecht.",
        "job": "Bram works at a bike shop.",
        "fan": "Bram supports Feyenoord.",
    }
    asked = attributes_asked("What does Bram do for a living?")
    assert elsewhere(asked, texts, texts.keys()) == {"home"}
    assert elsewhere(attributes_asked("What does Bram like?"), texts, texts.keys()) == set()
