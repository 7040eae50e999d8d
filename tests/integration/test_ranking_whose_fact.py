"""Ranking a person's memory: the fact of the one asked about first, not a relative's that reads
alike, nor the person's own when a relative's is asked for (recall/whose.py)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from graphmem.memory import Memory
from graphmem.models import RecallQuery


def _day(n: int) -> datetime:
    return datetime(2024, 1, 10, 9, 0, tzinfo=UTC) + timedelta(days=n)


FACTS = [
    "Nadia works as an architect at a small studio in Lyon.",
    "Nadia's brother Karim works as a chef in Marseille.",
    "Nadia's sister Leila lives in Montreal and teaches maths.",
    "Nadia lives in the Croix-Rousse with her partner Hugo.",
    "Nadia's parents live in Grenoble.",
    "Nadia plays five-a-side football on Wednesdays.",
]


def _first(memory: Memory, scope: str, question: str) -> str:
    found = memory.recall_query(RecallQuery(query=question, scope=scope, limit=5, reinforce=False))
    return found.results[0].text


def test_the_fact_of_the_one_asked_about_comes_first(memory: Memory, scope: str) -> None:
    for i, text in enumerate(FACTS):
        memory.remember(text, scope=scope, occurred_at=_day(i))
    assert _first(memory, scope, "Where does Nadia work?") == FACTS[0]
    assert _first(memory, scope, "Where does Nadia's brother work?") == FACTS[1]
    assert _first(memory, scope, "Where do Nadia's parents live?") == FACTS[4]
    assert _first(memory, scope, "Where does Nadia live?") == FACTS[3]


def test_a_group_asked_about_takes_in_its_members(memory: Memory, scope: str) -> None:
    for i, text in enumerate(FACTS):
        memory.remember(text, scope=scope, occurred_at=_day(i))
    found = memory.recall_query(
        RecallQuery(query="What do Nadia's siblings do for a living?", scope=scope, limit=5, reinforce=False)
    )
    assert {r.text for r in found.results[:2]} == {FACTS[1], FACTS[2]}
