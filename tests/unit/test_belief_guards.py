"""The users' guard of bench.belief_guards judges a supersession by the set's own questions."""

from __future__ import annotations

from typing import Any

from bench.belief_guards import kept_verdict, verdict

FACTS: dict[str, dict[str, Any]] = {
    "f1": {"id": "f1", "text": "Ana lives in Lagos.", "occurred_at": "2023-01-01"},
    "f2": {"id": "f2", "text": "Ana is allergic to shellfish.", "occurred_at": "2023-02-01"},
    "f3": {"id": "f3", "text": "Ana moved to Abuja.", "occurred_at": "2024-01-01"},
    "f4": {"id": "f4", "text": "Ana adopted a parrot.", "occurred_at": "2024-02-01"},
}
QUESTIONS: list[dict[str, Any]] = [
    {"answer_facts": ["f2"], "type": "direct", "as_of": None},
    {"answer_facts": ["f3"], "type": "current", "as_of": None},
    {"answer_facts": ["f1"], "type": "as_of", "as_of": "2023-06-30"},
]


def test_retiring_a_fact_asked_of_now_is_wrong() -> None:
    assert verdict("f2", "f3", FACTS, QUESTIONS) == "wrong"


def test_retiring_a_past_answer_for_a_current_one_is_right() -> None:
    assert verdict("f1", "f3", FACTS, QUESTIONS) == "right"


def test_what_the_questions_do_not_tell_is_left_to_a_person() -> None:
    assert verdict("f1", "f4", FACTS, QUESTIONS) == "unjudged"  # the parrot answers nothing now
    assert verdict("f4", "f3", FACTS, QUESTIONS) == "unjudged"


def test_a_fact_true_only_as_of_a_date_after_the_newer_one_is_not_right() -> None:
    late = [{"answer_facts": ["f1"], "type": "as_of", "as_of": "2024-06-30"}, QUESTIONS[1]]
    assert verdict("f1", "f3", FACTS, late) == "unjudged"


def test_keeping_a_fact_contradicted_in_part_is_right_when_it_is_asked_of_now() -> None:
    assert kept_verdict("f2", "f3", FACTS, QUESTIONS) == "right"
    assert kept_verdict("f1", "f3", FACTS, QUESTIONS) == "wrong"  # retiring it would have been right
    assert kept_verdict("f4", "f3", FACTS, QUESTIONS) == "unjudged"
