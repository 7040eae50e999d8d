"""What every pass of a run shares: the run's identity and clock, its counts, progress and heartbeat."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

# progress(step, done, total): total is None while unknown.
Progress = Callable[[str, int, int | None], None]


def no_progress(step: str, done: int, total: int | None) -> None:
    """A progress callback that shows nothing."""


@dataclass
class RunContext:
    """One run of one job."""

    run_id: str
    job: str
    now: datetime
    since: datetime | None  # only what changed since then (None: everything)
    heartbeat: Callable[[], None]  # renews the job lock; raises JobLockLostError when it was lost
    progress: Progress = no_progress
    counts: Counter[str] = field(default_factory=Counter)
    llm_calls: int = 0
    cost_usd: float = 0.0
    # Neighbourhoods already read in this run, by layer (C3 and C1 share one), and the memories
    # merged away since (no longer candidates for clustering).
    neighbourhoods: dict[str, Any] = field(default_factory=dict)
    retired: set[str] = field(default_factory=set)
