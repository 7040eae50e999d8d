"""Turning a natural-language query into a safe Lucene query for the fulltext index."""

from __future__ import annotations

import re

_TOKEN = re.compile(r"[\w']+", re.UNICODE)
# Words that place a question in time ("Where does Omar work now?", "at the moment") say
# nothing of what is asked: as keywords they lifted any memory that happens to say "now" ("Samuel
# runs along the Elbe on Sunday mornings now" first for "Where does Samuel work now?").
_WHEN_ASKED = ["now", "currently", "nowadays", "presently", "moment", "anymore"]
_STOPWORDS = frozenset(
    [
        *_WHEN_ASKED,
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "but",
        "by",
        "did",
        "do",
        "does",
        "for",
        "from",
        "had",
        "has",
        "have",
        "how",
        "i",
        "in",
        "is",
        "it",
        "its",
        "me",
        "my",
        "of",
        "on",
        "or",
        "our",
        "she",
        "he",
        "so",
        "that",
        "the",
        "their",
        "them",
        "they",
        "this",
        "to",
        "was",
        "we",
        "were",
        "what",
        "when",
        "where",
        "which",
        "who",
        "whom",
        "why",
        "will",
        "with",
        "you",
        "your",
    ]
)


def tokens(text: str) -> list[str]:
    """The lower-cased tokens of ``text`` that :func:`query_words` reads, in order: all but
    'living' in "for a living" (:func:`after_a_living`) and 'work' as a place one goes to
    (:func:`work_as_a_place`)."""
    found = _TOKEN.findall(text.lower())
    return [
        t
        for i, t in enumerate(found)
        if not (i and after_a_living(t, found[i - 1]))
        and not (i and work_as_a_place(t, found[i - 1], found[i + 1] if i + 1 < len(found) else ""))
    ]


# what follows "work" when it is the job ("went to work for the council"), not the way there
WORK_AS_JOB = frozenset({"for", "at", "as", "with", "on", "in"})


def work_as_a_place(token: str, before: str, after: str) -> bool:
    """Whether ``token`` is 'work' as a place one goes to or leaves ("takes the MRT to work", "plays
    games after work", "does yoga before work"; ``before`` and ``after``: the tokens next to it),
    not the job a question about where someone works asks for ("went to work for the council")."""
    return token == "work" and before in ("to", "at", "after", "before", "from") and after not in WORK_AS_JOB


def word_of(token: str) -> str | None:
    """The word a token of :func:`tokens` counts as: without apostrophes; None for a stop word or a
    single character."""
    word = token.strip("'")
    if len(word) < 2 or word in _STOPWORDS:
        return None
    return word.replace("'", "")


def after_a_living(token: str, before: str) -> bool:
    """Whether ``token`` is 'living' in "for a living" (``before``: the token before it): what one
    earns, not where one lives ("Ahmet lives in ...")."""
    return token.strip("'") == "living" and before.strip("'") == "a"


def query_words(text: str, max_terms: int = 64, unique: bool = True) -> list[str]:
    """The lower-cased words of ``text`` without stop words, apostrophes or operators."""
    words: list[str] = []
    for token in tokens(text):
        word = word_of(token)
        if word is None:
            continue
        if unique and word in words:
            continue
        words.append(word)
        if len(words) == max_terms:
            break
    return words


def lucene_query(text: str, max_terms: int = 32) -> str | None:
    """An OR-query of the text's words, every Lucene operator removed; None when nothing is left.

    Only word characters survive, so no user input can change the query's structure.
    """
    terms = query_words(text, max_terms)
    return " OR ".join(terms) if terms else None
