"""Readings that keep a user's fact current: someone named as someone else's is not "we", a place
said of another person is not the subject's home, and news that changes only one of the things a
statement says leaves the rest current (invented sentences, none from an evaluation set)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from graphmem.beliefs.in_part import changes_in_part, parts_of
from graphmem.beliefs.judge import judge
from graphmem.beliefs.parse import read_clause
from graphmem.beliefs.plan import BeliefAction, BeliefPlan
from graphmem.beliefs.resolver import Neighbour, _in_part, read_apart
from graphmem.beliefs.slots import attribute_families
from graphmem.beliefs.statements import read_statement


def test_a_name_beside_someones_colleague_is_a_person_of_theirs() -> None:
    clause = read_clause("Tomás's sous-chef, Ingrid, rents a flat in Bergen and cycles to work")
    assert clause.named_beside
    assert not read_clause("Tomás's sous-chef rents a flat in Bergen").named_beside
    assert not read_clause("Tomás's brother Jonas rents a flat in Bergen").named_beside  # no comma


@pytest.mark.parametrize(
    "old",
    ["We rent a cottage outside Galway", "Tomás drives to the restaurant"],
)
def test_someone_named_as_someone_elses_is_not_we_nor_the_owner(old: str) -> None:
    new = "Tomás's sous-chef, Ingrid, rents a flat in Bergen and cycles to work"
    verdict = judge(read_statement(old), read_statement(new), 0.5)
    assert not verdict.conflict
    assert not verdict.other_subject  # someone of Tomás's: no learned reader may read it either


def test_a_place_said_of_another_person_is_not_the_subjects_home() -> None:
    new = read_statement("Priya's new manager is Arjun, based in Pune")
    assert "residence" not in attribute_families(new)
    assert "residence" not in attribute_families(
        read_statement("My new boss is Halvard, who lives in Tromsø")
    )
    assert "residence" in attribute_families(read_statement("I moved to Tromsø, where I work at the port"))
    old = read_statement("Priya lives in a studio flat in Bengaluru")
    assert read_apart(old, new)  # a manager and a home: no learned reader overrules the parse
    assert not judge(
        read_statement("I live in Bodø"), read_statement("My new boss is Halvard, who lives in Tromsø"), 0.5
    ).conflict


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (
            "Oskar has coeliac disease and uses a glucose monitor",
            "Oskar's glucose monitor was swapped for a Libre 3",
        ),
        ("I live in Graz and work at a primary school", "I moved to Linz"),
        ("Mireille moved to Nantes and works night shifts at the port", "Mireille switched to day shifts"),
        # whose someone is, said beside their name, is a fact of its own
        ("My fiancé Lars is a ferry captain.", "Lars and I got married in Bergen."),
    ],
)
def test_news_of_one_of_two_things_changes_the_other_not(old: str, new: str) -> None:
    assert len(parts_of(old)) == 2
    assert changes_in_part(read_statement(old), read_statement(new))


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("I live in Graz and work at a primary school", "I moved to Linz and joined a bank"),
        ("Bruno left Siemens and joined Bosch", "Bruno quit Bosch in May"),  # what is left, is left
        ("I rent a flat in Graz", "I moved to Linz"),  # one thing: all of it
        # whose brother he is only says who the rest is about: it never holds alone
        (
            "Ines's younger brother Tiago is studying law in Braga.",
            "Ines's brother Tiago joined a firm as a lawyer.",
        ),
        ("Dora has a sprained wrist and wears a brace.", "Dora's wrist has healed."),  # an ending: all of it
        ("My manager is Sven, he's great.", "Sven moved to the Oslo office, so I report to Kari now."),
    ],
)
def test_news_of_everything_it_says_replaces_it_whole(old: str, new: str) -> None:
    assert not changes_in_part(read_statement(old), read_statement(new))


def test_the_plan_marks_an_update_in_part_by_which_is_earlier() -> None:
    old = read_statement("Oskar has coeliac disease and uses a glucose monitor")
    new = read_statement("Oskar's glucose monitor was swapped for a Libre 3")
    stored = Neighbour("m1", old.text, 0.6, datetime(2024, 1, 1, tzinfo=UTC), 1.0, old)
    actions = [BeliefAction(memory_id="m1", action="update", reason="change announced")]
    marked = _in_part(new, datetime(2024, 6, 1, tzinfo=UTC), actions, [stored])
    plan = BeliefPlan(actions=marked)
    assert plan.in_part() == {"m1"} and plan.replaced() == {"m1": "change announced"}
    # arriving after the newer one was stored, the older statement is the earlier of the two
    later = Neighbour("m1", new.text, 0.6, datetime(2024, 1, 1, tzinfo=UTC), 1.0, new)
    assert _in_part(old, datetime(2023, 6, 1, tzinfo=UTC), actions, [later])[0].in_part


def test_a_place_said_of_what_the_subject_is_stays_the_subjects() -> None:
    assert "residence" in attribute_families(read_statement("Maud is a potter based in Arles."))
