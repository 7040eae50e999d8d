"""C6: where a scope's attention goes (per category, summed importance x strength of active episodes),
compared with the snapshot of 30 days earlier: stable, gradual drift, or a deliberate pivot.

Distance is the total variation between the two normalised profiles (0 same, 1 disjoint). Below
0.15 the priorities are stable. A shift of 0.4 or more, or one whose biggest gainer has a recorded
decision behind it, is a pivot; anything between is gradual drift.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import timedelta
from typing import Literal

from graphmem.consolidate.context import RunContext
from graphmem.store.consolidation import ConsolidationStore

STEP = "C6 priority drift"
STABLE_BELOW = 0.15
PIVOT_FROM = 0.4

Drift = Literal["stable", "gradual_drift", "deliberate_pivot", "first_snapshot"]


@dataclass(frozen=True)
class DriftVerdict:
    """How priorities moved, by how much, and which categories gained and lost most."""

    drift: Drift
    distance: float
    gained: str | None
    lost: str | None


def normalise(profile: Mapping[str, float]) -> dict[str, float]:
    """Shares summing to one (an empty profile stays empty)."""
    total = sum(max(0.0, v) for v in profile.values())
    return {k: max(0.0, v) / total for k, v in profile.items()} if total > 0 else {}


def classify(
    before: Mapping[str, float] | None, now: Mapping[str, float], decided: frozenset[str] = frozenset()
) -> DriftVerdict:
    """Compare two profiles (category -> weight); ``decided`` are categories with a decision behind them."""
    if before is None:
        return DriftVerdict("first_snapshot", 0.0, None, None)
    a, b = normalise(before), normalise(now)
    keys = sorted(set(a) | set(b))
    deltas = {k: b.get(k, 0.0) - a.get(k, 0.0) for k in keys}
    distance = 0.5 * sum(abs(d) for d in deltas.values())
    gained = max(keys, key=lambda k: (deltas[k], k)) if keys else None
    lost = min(keys, key=lambda k: (deltas[k], k)) if keys else None
    if distance < STABLE_BELOW:
        return DriftVerdict("stable", round(distance, 4), gained, lost)
    if distance >= PIVOT_FROM or (gained is not None and gained in decided):
        return DriftVerdict("deliberate_pivot", round(distance, 4), gained, lost)
    return DriftVerdict("gradual_drift", round(distance, 4), gained, lost)


class PriorityDrift:
    """C6: one snapshot per scope per run, classified against the one 30 days older."""

    def __init__(self, store: ConsolidationStore, after_days: float) -> None:
        self._store = store
        self._after = timedelta(days=after_days)

    def run(self, ctx: RunContext) -> None:
        """Snapshot every scope's priorities and count the verdicts."""
        old = self._store.snapshots_before(ctx.now - self._after)
        rows = []
        for row in self._store.priority_profiles():
            profile = {p["category"]: float(p["weight"]) for p in row["profile"]}
            previous = old.get(row["scope"])
            before = json.loads(previous["profile_json"]) if previous else None
            decided = (
                frozenset({"decision"})
                if profile.get("decision", 0.0) > (before or {}).get("decision", 0.0)
                else frozenset()
            )
            verdict = classify(before, profile, decided)
            rows.append(
                {
                    "id": str(uuid.uuid4()),
                    "scope": row["scope"],
                    "profile_json": json.dumps(profile, sort_keys=True),
                    "drift": verdict.drift,
                    "distance": verdict.distance,
                    "compared_to": previous["id"] if previous else None,
                    "gained": verdict.gained,
                    "lost": verdict.lost,
                }
            )
            ctx.counts[f"drift_{verdict.drift}"] += 1
        ctx.counts["snapshots"] += self._store.save_snapshots(rows, ctx.now, ctx.run_id)
