"""R2 composite score and R3 intent profiles: how memory dynamics and the caller's intent reweight
the fused retrieval score. Pure functions with an injected 'now'."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from graphmem.dynamics.decay import decayed_strength_at, recency
from graphmem.store.search import Facts

Intent = Literal["decision", "research", "tasks", "chat"]

# Category and layer boosts per intent (R3); anything unlisted is 1.0.
INTENT_PROFILES: dict[str, tuple[dict[str, float], dict[str, float]]] = {
    "decision": ({"decision": 1.3, "instruction": 1.15, "preference": 1.1}, {"semantic": 1.1, "schema": 1.2}),
    "research": ({"fact": 1.1, "event": 1.05}, {"semantic": 1.2, "schema": 1.1}),
    "tasks": ({"routine": 1.3, "plan": 1.3, "instruction": 1.2, "work": 1.1}, {}),
    "chat": ({"preference": 1.2, "relationship": 1.2, "hobby": 1.1}, {"episodic": 1.1}),
}


@dataclass(frozen=True)
class ScoreWeights:
    """How much each memory signal moves the retrieval score (0 switches it off)."""

    strength: float = 0.3
    importance: float = 0.3
    recency: float = 0.1
    half_life_days: float = 30.0
    priority: float = 1.0


def intent_boost(intent: Intent | None, categories: tuple[str, ...], layer: str) -> float:
    """The intent's boost for a memory of these categories and layer."""
    if intent is None:
        return 1.0
    by_category, by_layer = INTENT_PROFILES[intent]
    category = max((by_category.get(c, 1.0) for c in categories), default=1.0)
    return category * by_layer.get(layer, 1.0)


def composite_factor(
    facts: Facts, now: datetime, weights: ScoreWeights, intent: Intent | None = None
) -> float:
    """The multiplier (around 1.0) applied to a memory's retrieval score."""
    at = now.timestamp()
    strength = decayed_strength_at(
        facts.strength,
        facts.accessed,
        at,
        facts.spaced,
        pinned=facts.pinned,
        fade=facts.fade,
        faded_at=facts.faded_at,
    )
    age_days = max(0.0, (at - facts.occurred) / 86400)
    factor = (1 + weights.strength * (strength - 1.0)) * (1 + weights.importance * (facts.importance - 0.5))
    factor *= 1 + weights.recency * (recency(age_days, weights.half_life_days) - 0.5)
    factor *= 1 + weights.priority * max(-0.5, min(0.5, facts.priority))
    return max(0.0, factor) * intent_boost(intent, facts.categories, facts.layer)
