"""Asked how things stand now, the later of two statements on one thing comes first, even when
the belief check left both current, and later memories lean ahead (recall/latest.py); a
relative's fact does not win on words said of the relative (recall/ranking.py); asked as of a
date, the question's date words do not pull up memories that mention a year (recall/dated.py)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from graphmem.memory import Memory
from graphmem.models import RecallQuery


def _day(n: int) -> datetime:
    return datetime(2024, 1, 10, 9, 0, tzinfo=UTC) + timedelta(days=30 * n)


FACTS = [
    "Ines works as a freelance illustrator in Porto.",
    "Ines's biggest client is the publisher Livros Azuis.",
    "Ines rides a Cannondale road bike to the studio.",
    "Ines's sister Marta is a nurse in Braga.",
    "Ines has a grey cat called Bolacha.",
    "Ines's studio rent is 450 euros a month.",
    "Ines is planning a trip to Japan in 2026.",
    "Livros Azuis ended their contract; Ines's main client is now the Serralves museum.",
    "Ines's road bike was stolen, so she bought a folding Brompton.",
]


@pytest.fixture
def ines(memory: Memory, scope: str) -> dict[str, str]:
    written = [memory.remember(text, scope=scope, occurred_at=_day(i)) for i, text in enumerate(FACTS)]
    return {text: result.memory.id for text, result in zip(FACTS, written, strict=True)}


def _first(memory: Memory, scope: str, question: str, as_of: datetime | None = None) -> str:
    found = memory.recall_query(
        RecallQuery(query=question, scope=scope, limit=5, reinforce=False, as_of=as_of)
    )
    return found.results[0].text


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("Who is Ines's biggest client at the moment?", FACTS[7]),
        ("What does Ines ride to the studio now?", FACTS[8]),
        ("What is the name of Ines's cat?", FACTS[4]),  # not asked about now: nothing reordered
    ],
)
def test_asked_about_now_the_later_statement_comes_first(
    memory: Memory, scope: str, ines: dict[str, str], question: str, answer: str
) -> None:
    assert _first(memory, scope, question) == answer


def test_asked_as_of_a_date_the_date_does_not_decide(
    memory: Memory, scope: str, ines: dict[str, str]
) -> None:
    # As of month 6 the contract had not ended: the first client is the answer, not the trip "in 2026".
    assert _first(memory, scope, "Who was Ines's biggest client in June 2024?", as_of=_day(6)) == FACTS[1]


ROHAN = [
    "Rohan Mehta lives in Pune, in a flat in Baner.",
    "Rohan drives a 2015 Maruti Swift.",
    "Rohan's brother Kabir works at a bank in Mumbai.",
    "Rohan's birthday is 9 August.",
    "Rohan is vegetarian.",
    "Rohan plays cricket on Sunday mornings.",
    "Rohan's mother lives in Nagpur.",
    "Rohan speaks Hindi, Marathi and English.",
    "Rohan's sister Isha works as a lawyer in Delhi.",
    "Rohan joined the state archives as an archivist.",
    "Rohan supports Mumbai Indians.",
    "Rohan sold the Swift and cycles everywhere now.",
]


@pytest.fixture
def rohan(memory: Memory, scope: str) -> None:
    for i, text in enumerate(ROHAN):
        memory.remember(text, scope=scope, occurred_at=_day(i))


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        # words the question shares with no fact of his: the later statement is the likelier to hold
        ("How does Rohan get around these days?", ROHAN[11]),
        # "works" in his brother's and sister's facts is said of them, not of Rohan; and the lean
        # toward later memories does not put the latest one (the bike) above the job he took
        ("Where does Rohan work at the moment?", ROHAN[9]),
        ("Where does Rohan work?", ROHAN[9]),
    ],
)
def test_asked_about_now_the_later_fact_of_the_person_asked_about_comes_first(
    memory: Memory, scope: str, rohan: None, question: str, answer: str
) -> None:
    assert _first(memory, scope, question) == answer
