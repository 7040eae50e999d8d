"""D1 decay and R2 recency against the reference formulas."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from graphmem.dynamics.decay import decayed_strength, decayed_strength_at, recency, retention, stability

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


@pytest.mark.parametrize(
    ("days", "spaced", "pinned", "fade", "faded_after_days"),
    [
        (30.0, 0, False, 1.0, None),
        (12.5, 3, False, 1.0, None),
        (400.0, 0, True, 1.0, None),
        (90.0, 1, False, 0.4, 10.0),  # distilled after its last access: faster from then on
        (90.0, 1, False, 0.4, -5.0),  # distilled before its last access: from the access on
        (3.0, 0, False, 0.4, 10.0),  # distilled after now: no faster fade yet
    ],
)
def test_decay_from_epoch_seconds_is_the_decay_from_datetimes(
    days: float, spaced: int, pinned: bool, fade: float, faded_after_days: float | None
) -> None:
    """Recall ranks with decayed_strength_at (times as epoch seconds): the same strength as the
    datetime form the consolidation and the reinforcement use."""
    now = T0 + timedelta(days=days)
    faded = None if faded_after_days is None else T0 + timedelta(days=faded_after_days)
    want = decayed_strength(0.8, T0, now, spaced, pinned=pinned, fade=fade, faded_at=faded)
    got = decayed_strength_at(
        0.8,
        T0.timestamp(),
        now.timestamp(),
        spaced,
        pinned=pinned,
        fade=fade,
        faded_at=None if faded is None else faded.timestamp(),
    )
    assert got == pytest.approx(want, rel=1e-12)
