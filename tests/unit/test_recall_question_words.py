"""What recall reads of a question: the words that only place it in time are no keywords
(recall/lucene.py), and a question asked as of a date is read without the date (recall/dated.py)."""

from __future__ import annotations

import pytest

from graphmem.recall.dated import without_dates
from graphmem.recall.lucene import query_words


def test_words_of_the_time_of_asking_and_a_living_are_no_keywords() -> None:
    assert query_words("Where does Samuel work now?") == ["samuel", "work"]
    assert query_words("What is Omar's job at the moment, currently?") == ["omars", "job"]
    assert query_words("What does Ahmet do for a living?") == ["ahmet"]
    assert "living" in query_words("Where is Ahmet living?")


@pytest.mark.parametrize(
    ("question", "read"),
    [
        ("Which company did Priya work for at the end of 2023?", "Which company did Priya work for?"),
        ("What was Yu-ting's income in early 2024?", "What was Yu-ting's income?"),
        ("What car did Amara have in March 2024?", "What car did Amara have?"),
        ("Which school year was Zoe in?", "Which school year was Zoe in?"),  # no date in it
        ("Who does Omar report to?", "Who does Omar report to?"),
    ],
)
def test_a_question_asked_as_of_a_date_is_read_without_it(question: str, read: str) -> None:
    assert without_dates(question) == read
