"""D2: spacing-aware reinforcement when a memory is seen again (retrieved or re-stated).

alpha = 0.15 * (1 - s / 2.0) * (1 - exp(-dt / 24h)); s <- min(2.0, s + alpha).
A re-encounter soon after the last one adds almost nothing; one after days adds the most.
"""

from __future__ import annotations

import math

ALPHA_MAX = 0.15
STRENGTH_MAX = 2.0
STRENGTH_MIN = 0.05
TAU_HOURS = 24.0
SPACED_GAP_HOURS = 12.0


def reinforcement_gain(strength: float, hours_since_access: float) -> float:
    """How much strength a memory at ``strength`` gains when seen ``hours_since_access`` later."""
    hours = max(0.0, hours_since_access)
    headroom = max(0.0, 1.0 - strength / STRENGTH_MAX)
    return ALPHA_MAX * headroom * (1.0 - math.exp(-hours / TAU_HOURS))


def reinforce(strength: float, hours_since_access: float) -> float:
    """The strength after one reinforcement, capped at 2.0."""
    return min(STRENGTH_MAX, strength + reinforcement_gain(strength, hours_since_access))


def is_spaced(hours_since_access: float) -> bool:
    """Whether an access counts as spaced (at least 12 h after the previous one) for D1 stability."""
    return hours_since_access >= SPACED_GAP_HOURS
