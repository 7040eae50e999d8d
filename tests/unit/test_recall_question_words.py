"""What recall reads of a question: the words that only place it in time are no keywords
(recall/lucene.py), a question asked as of a date is read without the date (recall/dated.py), and
a memory's keyword terms are the stems of the words a question would be read as."""

from __future__ import annotations

import pytest

from graphmem.recall.dated import without_dates
from graphmem.recall.keywords import analyse
from graphmem.recall.lucene import query_words
from graphmem.stemming import stem


def test_words_of_the_time_of_asking_and_a_living_are_no_keywords() -> None:
    assert query_words("Where does Samuel work now?") == ["samuel", "work"]
    assert query_words("What is Omar's job at the moment, currently?") == ["omars", "job"]
    assert query_words("What does Ahmet do for a living?") == ["ahmet"]
    assert "living" in query_words("Where is Ahmet living?")


def test_work_as_a_place_one_goes_to_is_no_keyword_for_the_job() -> None:
    assert query_words("Kofi takes the bus to work.") == ["kofi", "takes", "bus"]
    assert query_words("Kofi reads the news after work") == ["kofi", "reads", "news", "after"]
    assert "work" in query_words("Kofi went to work for the council")  # the job
    assert "work" in query_words("Where does Kofi work now?")


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


@pytest.mark.parametrize(
    "text",
    [
        "What does Ahmet do for a living?",
        "Ahmet earns a 'living' by teaching; he's living in Izmir now",
        "It's Omar's, isn't it? 'Quoted' words, l'avenir, naïve café",
        " ".join(f"word{i}" for i in range(80)),  # past the 64 words a text is read to
        "a",
        "",
    ],
)
def test_a_texts_keyword_terms_are_the_stems_of_its_query_words(text: str) -> None:
    assert analyse(text) == tuple(stem(w) for w in query_words(text, unique=False))
