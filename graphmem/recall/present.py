"""Whether a question asks how things stand now ("Where does Elif work now?", "What is Yu-ting's
salary these days?"), and the nudge that gives the later of two answers to such a question.

When the belief check has not seen that a newer memory replaces an older one, both stay current,
and the older one often reads closer to the question (it was said plainly; the news was said
around it: "Elif left Migros to run the kitchen at the tea house"). Asked about the present, the
memories found are nudged by when they happened: the latest of them by ``present`` (ranking
weights), the earliest by nothing.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

_PRESENT = re.compile(
    r"\b(?:now|nowadays|currently|current|these days|at the moment|at present|presently|still|"
    r"anymore|any more|today|latest|most recent|right now)\b",
    re.IGNORECASE,
)


def asks_about_now(question: str) -> bool:
    """Whether ``question`` asks how things stand at present."""
    return _PRESENT.search(question) is not None


def freshness(occurred: Mapping[str, float]) -> dict[str, float]:
    """Each memory's place in time among ``occurred`` (epoch seconds): 1.0 the latest, 0.0 the
    earliest, in between by time."""
    if not occurred:
        return {}
    first, last = min(occurred.values()), max(occurred.values())
    span = last - first
    return {m: (t - first) / span if span > 0 else 0.0 for m, t in occurred.items()}
