"""A memory speaking of the attribute a question asks about (where someone lives, who manages
them) ranks by it, in words of its own; asked how things stand now, a later memory on that
attribute that names no one ("The family moved...") comes before the earlier one
(recall/attributes.py, recall/latest.py). Real Neo4j, real MiniLM."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from graphmem.memory import Memory
from graphmem.models import RecallQuery


def _day(n: int) -> datetime:
    return datetime(2024, 2, 1, 9, 0, tzinfo=UTC) + timedelta(days=30 * n)


FACTS = [
    "Tomasz Wójcik lives in Gdańsk, in Wrzeszcz.",
    "Tomasz's line manager is Agata Nowak.",
    "Tomasz has a dachshund called Pierogi.",
    "Tomasz's birthday is 3 April.",
    "Tomasz is allergic to peanuts.",
    "Tomasz plays the accordion at weddings.",
    "Tomasz supports Lechia Gdańsk.",
    "Tomasz takes the tram to work.",
    "The family relocated to a bigger house in Sopot.",
]


@pytest.fixture
def tomasz(memory: Memory, scope: str) -> None:
    for i, text in enumerate(FACTS):
        memory.remember(text, scope=scope, occurred_at=_day(i))


def _top(memory: Memory, scope: str, question: str, n: int = 1) -> list[str]:
    found = memory.recall_query(RecallQuery(query=question, scope=scope, limit=5, reinforce=False))
    return [r.text for r in found.results[:n]]


def test_asked_now_the_later_memory_on_where_he_lives_comes_first(
    memory: Memory, scope: str, tomasz: None
) -> None:
    assert _top(memory, scope, "Where does Tomasz live these days?") == [FACTS[8]]


def test_the_memory_on_who_manages_him_answers_in_words_of_its_own(
    memory: Memory, scope: str, tomasz: None
) -> None:
    top = _top(memory, scope, "Whom does Tomasz report to?")
    assert top == [FACTS[1]]
    found = memory.recall_query(
        RecallQuery(query="Whom does Tomasz report to?", scope=scope, reinforce=False)
    )
    assert "speaks of what is asked about" in found.results[0].match_reasons
