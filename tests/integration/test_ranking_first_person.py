"""Ranking a user's memory told in the first person (recall/first_person.py) and naming relatives
alone (recall/relatives.py), for questions that name the person."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from graphmem.memory import Memory
from graphmem.models import RecallQuery


def _day(n: int) -> datetime:
    return datetime(2024, 3, 4, 9, 0, tzinfo=UTC) + timedelta(days=30 * n)


FACTS = [
    "Ines Duarte is a physiotherapist at a clinic in Porto.",
    "I'm allergic to penicillin, it gives me hives.",
    "My brother Tiago is a fisherman in Nazaré.",
    "Ines plays volleyball on Tuesday evenings.",
    "I live in Braga with my two dogs.",
    "Ines's favourite writer is José Saramago.",
    "Tiago sold his boat and runs a surf school in Peniche.",
]


def _first(memory: Memory, scope: str, question: str) -> str:
    found = memory.recall_query(RecallQuery(query=question, scope=scope, limit=5, reinforce=False))
    return found.results[0].text


def test_a_first_person_memory_answers_a_question_naming_the_person(memory: Memory, scope: str) -> None:
    for i, text in enumerate(FACTS):
        memory.remember(text, scope=scope, occurred_at=_day(i))
    assert _first(memory, scope, "Can Ines take amoxicillin?") == FACTS[1]
    assert _first(memory, scope, "Where does Ines live?") == FACTS[4]


def test_a_relative_named_alone_is_read_as_the_relative(memory: Memory, scope: str) -> None:
    for i, text in enumerate(FACTS):
        memory.remember(text, scope=scope, occurred_at=_day(i))
    assert _first(memory, scope, "What does Ines's brother do for a living now?") == FACTS[6]


NOTES = [
    "Hi, I'm Bram. I work as a courier at PostNL in Utrecht.",
    "I'm lactose intolerant.",
    "My dad Joost restores old barges in Zwolle.",
    "I live in Lombok, near the canal.",
    "I sing in a choir on Mondays.",
    "Got laid off from PostNL.",
    "Started a new job today: sous-chef at a bistro called Hop.",
]


def test_a_note_without_a_subject_answers_for_the_speaker(memory: Memory, scope: str) -> None:
    for i, text in enumerate(NOTES):
        memory.remember(text, scope=scope, occurred_at=_day(i))
    assert _first(memory, scope, "Who does Bram work for now?") == NOTES[6]
    assert _first(memory, scope, "What does Bram's father do?") == NOTES[2]
