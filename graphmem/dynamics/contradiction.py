"""W5: the evidence-weighted penalty an old belief takes when newer evidence contradicts it.

beta = beta_min + (beta_max - beta_min) * exp(-c_new / s_old);  s_old <- max(0.05, s_old * beta).
Strong beliefs resist weak contradictions; weak beliefs yield to strong evidence (Rescorla-Wagner).
"""

from __future__ import annotations

import math

BETA_MIN = 0.2
BETA_MAX = 0.85
STRENGTH_FLOOR = 0.05


def contradiction_beta(old_strength: float, new_confidence: float) -> float:
    """The factor (0.2..0.85) the old belief's strength is multiplied by."""
    ratio = new_confidence / max(old_strength, STRENGTH_FLOOR)
    return BETA_MIN + (BETA_MAX - BETA_MIN) * math.exp(-ratio)


def penalised_strength(old_strength: float, new_confidence: float) -> float:
    """The old belief's strength after the contradiction."""
    return max(STRENGTH_FLOOR, old_strength * contradiction_beta(old_strength, new_confidence))
