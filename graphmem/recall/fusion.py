"""Reciprocal-rank fusion of several ranked lists (Cormack et al., 2009)."""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import TypeVar

K = TypeVar("K", bound=Hashable)

RRF_K = 60


def reciprocal_rank_fusion(
    rankings: Mapping[str, Sequence[K]], *, k: int = RRF_K, weights: Mapping[str, float] | None = None
) -> list[tuple[K, float, list[str]]]:
    """Fuse named rankings: each item scores sum(weight / (k + rank)), rank starting at 1.

    Returns (item, score, names of the rankings it appeared in), best first; ties keep the order
    of first appearance.
    """
    scores: dict[K, float] = {}
    sources: dict[K, list[str]] = {}
    for name, ranking in rankings.items():
        weight = 1.0 if weights is None else weights.get(name, 1.0)
        for rank, item in enumerate(ranking, start=1):
            scores[item] = scores.get(item, 0.0) + weight / (k + rank)
            sources.setdefault(item, []).append(name)
    ordered = sorted(scores, key=lambda item: -scores[item])
    return [(item, scores[item], sources[item]) for item in ordered]
