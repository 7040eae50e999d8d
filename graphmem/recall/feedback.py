"""R7 echo/fizzle: memories an answer actually used gain retrieval priority (+0.1), memories that
were injected but ignored lose a little (-0.05). Priority lifts or lowers the composite score."""

from __future__ import annotations

import re
from collections.abc import Mapping

from graphmem.models import Feedback, FeedbackResult
from graphmem.recall.lucene import lucene_query
from graphmem.store.memories import MemoryDynamicsStore

ECHO = 0.1
FIZZLE = -0.05
PRIORITY_FLOOR = -0.5
PRIORITY_CEILING = 0.5
MIN_SHARED_WORDS = 2
MIN_SHARED_SHARE = 0.3
_WORD = re.compile(r"\w+")


def _keywords(text: str) -> set[str]:
    terms = lucene_query(text, max_terms=64)
    return set(terms.split(" OR ")) if terms else set()


def used_by(response: str, texts: Mapping[str, str]) -> list[str]:
    """The memories whose keywords the response echoes (two or more, or 30 % of them)."""
    said = set(_WORD.findall(response.lower()))
    used = []
    for memory_id, text in texts.items():
        words = _keywords(text)
        shared = words & said
        if words and (len(shared) >= MIN_SHARED_WORDS or len(shared) / len(words) >= MIN_SHARED_SHARE):
            used.append(memory_id)
    return used


class FeedbackLoop:
    """Applies echo/fizzle feedback to the graph."""

    def __init__(self, store: MemoryDynamicsStore) -> None:
        self._store = store

    def apply(self, feedback: Feedback) -> FeedbackResult:
        """Raise the priority of used memories, lower that of ignored ones; unknown ids are skipped."""
        texts = self._store.texts(feedback.injected_ids)
        used = (
            [i for i in feedback.used_ids if i in texts]
            if feedback.used_ids is not None
            else used_by(feedback.response, texts)
        )
        ignored = [i for i in texts if i not in used]
        deltas = {**{i: FIZZLE for i in ignored}, **{i: ECHO for i in used}}
        if deltas:
            self._store.adjust_priority(deltas, floor=PRIORITY_FLOOR, ceiling=PRIORITY_CEILING)
        return FeedbackResult(used=used, ignored=ignored)
