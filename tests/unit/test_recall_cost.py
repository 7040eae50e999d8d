"""X6: a recall's cost is a typed part of its answer (it serialises without warnings)."""

from __future__ import annotations

import warnings

from graphmem.models import RecallCost, RecallResult
from graphmem.recall.budget import within_budget


def test_the_cost_of_a_recall_is_a_recall_cost_that_serialises_cleanly() -> None:
    answer = within_budget(RecallResult(results=[], confidence=0.0), max_tokens=None, ms=12.34)
    assert isinstance(answer.cost, RecallCost)
    assert answer.cost.ms == 12.3 and answer.cost.tokens == 0
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        answer.model_dump_json()
