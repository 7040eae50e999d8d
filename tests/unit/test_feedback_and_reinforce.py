"""R7 keyword echo and the D2/D3 rows a recall writes back, without a database."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from graphmem.models import Recalled
from graphmem.recall.feedback import used_by
from graphmem.recall.reinforce import LABILITY_WINDOW, MAX_LABILE, touch_rows

NOW = datetime(2025, 1, 8, tzinfo=UTC)


def recalled(memory_id: str, accessed: datetime, strength: float = 1.0) -> Recalled:
    return Recalled(
        id=memory_id,
        text="t",
        layer="episodic",
        scope="/s",
        categories=[],
        importance=0.5,
        confidence=1.0,
        strength=strength,
        status="active",
        created_at=accessed,
        occurred_at=accessed,
        last_accessed_at=accessed,
        score=1.0,
    )


def test_used_by_needs_real_overlap() -> None:
    texts = {"a": "Nora's bike is a red Bianchi.", "b": "Nora's cat is called Pixel.", "c": "Tea at five."}
    assert used_by("Your red Bianchi is in the garage.", texts) == ["a"]


def test_spaced_retrieval_gains_more_and_windows_are_capped() -> None:
    week_ago = recalled("a", NOW - timedelta(days=7))
    just_now = recalled("b", NOW - timedelta(seconds=30))
    rows = touch_rows([week_ago, just_now], NOW)
    assert rows[0]["spaced"] == 1 and rows[1]["spaced"] == 0
    assert rows[1]["strength"] == pytest.approx(1.0, abs=0.002)
    assert rows[0]["labile_until"] == NOW + LABILITY_WINDOW
    many = touch_rows([recalled(str(i), NOW) for i in range(MAX_LABILE + 3)], NOW)
    assert sum(r["labile"] for r in many) == MAX_LABILE
