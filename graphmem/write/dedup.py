"""W4 inside a batch: items nearly identical to an earlier item of the same scope are dropped."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt


def batch_duplicates(
    embeddings: npt.NDArray[np.float32], scopes: Sequence[str], threshold: float
) -> list[int | None]:
    """For each item, the index of the earlier kept item it duplicates, or None to keep it.

    ``embeddings`` are L2-normalised rows, so their dot product is the cosine similarity.
    """
    n = len(scopes)
    owner: list[int | None] = [None] * n
    if n < 2:
        return owner
    close = (embeddings @ embeddings.T) >= threshold
    for i in range(1, n):
        for j in (int(x) for x in np.flatnonzero(close[i, :i])):
            if owner[j] is None and scopes[j] == scopes[i]:
                owner[i] = j
                break
    return owner
