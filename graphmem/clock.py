"""The clock, behind a small protocol so that time-dependent logic is testable."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Protocol


class Clock(Protocol):
    """Something that tells the current time (timezone-aware, UTC)."""

    def now(self) -> datetime:
        """The current time."""
        ...


class SystemClock:
    """The wall clock."""

    def now(self) -> datetime:
        """The current UTC time."""
        return datetime.now(UTC)
