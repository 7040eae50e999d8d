"""W4 inside a batch: items nearly identical to an earlier item of the same scope are dropped."""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

_NOT_A_WORD = re.compile(r"[\W_]+")  # what str.isalnum() rejects


def text_key(text: str) -> str:
    """The words of a text, case and punctuation aside: texts with equal keys say the same thing
    ("Room 4 has a broken projector." and "ROOM 4 HAS A BROKEN PROJECTOR!"), whatever their cosine."""
    return " ".join(_NOT_A_WORD.sub(" ", text.casefold()).split())


def batch_duplicates(
    embeddings: npt.NDArray[np.float32],
    scopes: Sequence[str],
    threshold: float,
    keys: Sequence[str] | None = None,
) -> list[int | None]:
    """For each item, the index of the earlier kept item it duplicates, or None to keep it.

    ``embeddings`` are L2-normalised rows, so their dot product is the cosine similarity; items
    with equal ``keys`` (see :func:`text_key`) are duplicates at any cosine.
    """
    n = len(scopes)
    owner: list[int | None] = [None] * n
    if n < 2:
        return owner
    close = (embeddings @ embeddings.T) >= threshold
    if keys is not None:
        codes: dict[str, int] = {}
        code = np.array([codes.setdefault(key, len(codes)) for key in keys])
        close = close | (code[:, None] == code[None, :])
    for i in range(1, n):
        for j in (int(x) for x in np.flatnonzero(close[i, :i])):
            if owner[j] is None and scopes[j] == scopes[i]:
                owner[i] = j
                break
    return owner
