"""Questions asked in everyday words that the answering memory never uses: how someone gets
around, what they do for a living or for fun, who their manager is now; and a clause about
someone else is theirs (recall/attributes.py RECALL_WORDS, recall/latest.py). Real Neo4j, real
MiniLM; no evaluation case is used here."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from graphmem.memory import Memory
from graphmem.models import RecallQuery


def _day(n: int) -> datetime:
    return datetime(2023, 3, 1, 9, 0, tzinfo=UTC) + timedelta(days=25 * n)


FACTS = [
    "Ingrid Solberg lives in Trondheim, near Bakklandet.",
    "Ingrid works as a nurse at St. Olav's hospital.",
    "Ingrid's manager at the hospital is Kari Lunde.",
    "Ingrid is allergic to penicillin.",
    "Ingrid's birthday is 9 October.",
    "Ingrid has a cat called Troll.",
    "Ingrid supports Rosenborg.",
    "Ingrid sings in a gospel choir on Thursday evenings.",
    "Ingrid now reports to Hanne Berg after the reorganisation.",
    "Ingrid sold her Golf and cycles everywhere now.",
    "Ingrid and Ola moved to Ranheim; Ola works from home for a shipping firm.",
    "Ingrid left the hospital and opened her own physiotherapy practice.",
    "Ingrid's brother Lars was promoted to ferry captain.",
]


@pytest.fixture
def ingrid(memory: Memory, scope: str) -> None:
    for i, text in enumerate(FACTS):
        memory.remember(text, scope=scope, occurred_at=_day(i))


def _top(memory: Memory, scope: str, question: str, n: int = 1) -> list[str]:
    found = memory.recall_query(RecallQuery(query=question, scope=scope, limit=5, reinforce=False))
    return [r.text for r in found.results[:n]]


def test_how_she_gets_around_is_answered_by_the_bike_not_by_her_name(
    memory: Memory, scope: str, ingrid: None
) -> None:
    assert _top(memory, scope, "How is Ingrid getting around these days?") == [FACTS[9]]


def test_what_she_does_for_a_living_now_is_the_practice_she_opened(
    memory: Memory, scope: str, ingrid: None
) -> None:
    assert FACTS[11] in _top(memory, scope, "What does Ingrid do for a living now?", 2)
    assert FACTS[12] not in _top(memory, scope, "Who is Ingrid's employer now?", 1)


def test_who_manages_her_now_is_the_later_statement(memory: Memory, scope: str, ingrid: None) -> None:
    assert _top(memory, scope, "Who is Ingrid's manager at the moment?") == [FACTS[8]]


def test_what_she_does_for_fun_is_the_choir(memory: Memory, scope: str, ingrid: None) -> None:
    assert FACTS[7] in _top(memory, scope, "What does Ingrid do for fun?", 2)
