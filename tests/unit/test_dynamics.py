"""D1 decay and R2 recency against the reference formulas."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from graphmem.dynamics.decay import decayed_strength, recency, retention, stability

T0 = datetime(2024, 1, 1, tzinfo=UTC)


def test_spaced_accesses_slow_the_fade() -> None:
    assert stability(0) == 1.0 and stability(2) == 2.0
    assert retention(10, 2) > retention(10, 0)
    assert retention(10, 0) == pytest.approx(0.5)


def test_decay_is_idempotent_and_floored() -> None:
    later = T0 + timedelta(days=30)
    once = decayed_strength(1.0, T0, later, 0)
    assert once == decayed_strength(1.0, T0, later, 0) == pytest.approx(1 / 4)
    assert decayed_strength(0.06, T0, T0 + timedelta(days=3650), 0) == 0.05
    assert decayed_strength(1.0, T0, T0 + timedelta(days=3650), 0, pinned=True) == 1.0


def test_recency_halves_every_30_days() -> None:
    assert recency(0) == 1.0
    assert recency(30) == pytest.approx(0.5)
    assert recency(60, half_life_days=60) == pytest.approx(0.5)
