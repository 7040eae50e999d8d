"""D1: idempotent Ebbinghaus decay with spaced stability.

S = 1 + 0.5 * n_spaced;  R = 1 / (1 + 0.1 * dt_days / S);  s = max(0.05, s0 * R)
where s0 is the strength recorded at the last access: the current strength is a pure function of
elapsed time, so applying it any number of times gives the same answer.
"""

from __future__ import annotations

from datetime import datetime

STRENGTH_FLOOR = 0.05
HIDDEN_BELOW = 0.1


def stability(spaced_accesses: int) -> float:
    """S: how slowly a memory fades; every spaced access (12 h or more apart) adds 0.5."""
    return 1.0 + 0.5 * max(0, spaced_accesses)


def retention(days_since_access: float, spaced_accesses: int) -> float:
    """R in (0, 1]: the share of its strength a memory keeps after ``days_since_access``."""
    return 1.0 / (1.0 + 0.1 * max(0.0, days_since_access) / stability(spaced_accesses))


def decayed_strength(
    strength_at_access: float,
    last_access: datetime,
    now: datetime,
    spaced_accesses: int,
    *,
    pinned: bool = False,
    fade: float = 1.0,
    faded_at: datetime | None = None,
) -> float:
    """The strength now of a memory last accessed at ``last_access`` (pinned memories never fade).

    ``fade`` is C1's gamma for an episode distilled into a semantic memory: from ``faded_at`` on
    (when it was distilled; from its last access when that came later) its stability is
    multiplied by gamma, so the more central the episode was to its cluster, the faster it fades
    from then on, while the summary carries what it said. Consolidating changes no strength at
    the moment it happens.
    """
    if pinned:
        return strength_at_access
    start = last_access if faded_at is None or faded_at < last_access else min(faded_at, now)
    before = (start - last_access).total_seconds() / 86400
    after = (now - start).total_seconds() / 86400
    return _faded(strength_at_access, before, after, spaced_accesses, fade)


def decayed_strength_at(
    strength_at_access: float,
    last_access: float,
    now: float,
    spaced_accesses: int,
    *,
    pinned: bool = False,
    fade: float = 1.0,
    faded_at: float | None = None,
) -> float:
    """:func:`decayed_strength` with the times as epoch seconds (recall ranks a few hundred
    memories whose times come as numbers: no datetime is built for each)."""
    if pinned:
        return strength_at_access
    start = last_access if faded_at is None or faded_at < last_access else min(faded_at, now)
    return _faded(
        strength_at_access, (start - last_access) / 86400, (now - start) / 86400, spaced_accesses, fade
    )


def _faded(
    strength_at_access: float, before: float, after: float, spaced_accesses: int, fade: float
) -> float:
    """The strength after ``before`` days unfaded and ``after`` days faded by C1's ``fade``."""
    gamma = min(1.0, max(0.05, fade))
    # A faded day counts 1/gamma days: stability times gamma, from ``start`` on.
    days = max(0.0, before) + max(0.0, after) / gamma
    return max(STRENGTH_FLOOR, strength_at_access * retention(days, spaced_accesses))


def recency(age_days: float, half_life_days: float = 30.0) -> float:
    """R2 recency: 0.5 ** (age / half-life), 1.0 for a memory from now."""
    return float(0.5 ** (max(0.0, age_days) / half_life_days))
