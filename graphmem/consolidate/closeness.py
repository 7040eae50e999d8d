"""How close two memories are besides what they share: by vector, by time (used by C1 topics)."""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence

import numpy as np
from numpy.typing import NDArray

DAY = 86400.0
HOUR = 3600.0
COSINE_CHUNK = 32768  # pairs whose cosine is computed at once


def daily_rate(
    nodes: Sequence[str], occurred: NDArray[np.float64], scopes: Mapping[str, str]
) -> NDArray[np.float64]:
    """Each node's scope's memories per day (among ``nodes``): one over the median gap between
    consecutive memories, so one memory dated far from the rest (an import, a late write) does not
    change the scale; gaps count at least an hour (memories written at one moment)."""
    scope_of = [scopes.get(node, "") for node in nodes]
    times: dict[str, list[float]] = defaultdict(list)
    for scope, at in zip(scope_of, occurred.tolist(), strict=True):
        times[scope].append(at)
    rate = {
        scope: DAY / max(HOUR, float(np.median(np.diff(sorted(at)))) if len(at) > 1 else DAY)
        for scope, at in times.items()
    }
    return np.asarray([rate[s] for s in scope_of], dtype=np.float64)


def pair_cosines(
    nodes: Sequence[str],
    vectors: Mapping[str, NDArray[np.float32]],
    first: NDArray[np.int64],
    second: NDArray[np.int64],
) -> NDArray[np.float64]:
    """Cosines of the pairs (node indices) the neighbourhood did not give (0 without a vector)."""
    if not len(first):
        return np.zeros(0)
    needed = np.unique(np.concatenate([first, second]))
    dim = next(iter(vectors.values())).shape[0] if vectors else 1
    matrix = np.zeros((len(needed), dim), dtype=np.float32)
    for row, node in enumerate(needed.tolist()):
        vector = vectors.get(nodes[node])
        if vector is not None:
            matrix[row] = vector
    rows_a, rows_b = np.searchsorted(needed, first), np.searchsorted(needed, second)
    out: NDArray[np.float64] = np.empty(len(first), dtype=np.float64)
    for start in range(0, len(first), COSINE_CHUNK):  # bounded memory: pairs x dim floats per chunk
        part = slice(start, start + COSINE_CHUNK)
        out[part] = np.einsum("ij,ij->i", matrix[rows_a[part]], matrix[rows_b[part]])
    return out


def cosine_across(
    nodes: Sequence[str], vectors: Mapping[str, NDArray[np.float32]]
) -> Callable[[list[list[int]]], float]:
    """The mean cosine of the pairs across parts (lists of node indices): Σ_{i<j} s_i · s_j over
    Σ_{i<j} |p_i| |p_j|, with s_i the sum of part i's unit vectors (0 without vectors)."""

    dim = next(iter(vectors.values())).shape[0] if vectors else 0

    def across(parts: list[list[int]]) -> float:
        if not dim:
            return 0.0
        sums = [
            np.sum(
                [vectors[nodes[v]] for v in part if nodes[v] in vectors] or [np.zeros(dim, dtype=np.float32)],
                axis=0,
            )
            for part in parts
        ]
        pairs = list(itertools.combinations(range(len(parts)), 2))
        total = sum(float(np.dot(sums[i], sums[j])) for i, j in pairs)
        return total / max(1, sum(len(parts[i]) * len(parts[j]) for i, j in pairs))

    return across
