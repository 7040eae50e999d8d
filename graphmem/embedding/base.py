"""The embedder protocol every provider implements, and the vector arithmetic they share.

Two embedders are *the same model* when their ``model_name`` and ``dimension`` agree: that pair
is what the graph records and what decides whether stored vectors must be re-embedded. How the
model is run (ONNX int8 or PyTorch float32) is a provider's ``variant`` and deliberately not part
of that identity, because the variants agree to a cosine of about 0.9995 and are interchangeable
for search.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Sequence
from types import ModuleType
from typing import Protocol

import numpy as np
from numpy.typing import NDArray

from graphmem.errors import EmbeddingError, InvalidInputError

Vectors = NDArray[np.float32]
"""A float32 matrix of shape ``(n, dimension)``, one L2-normalised row per text."""


class Embedder(Protocol):
    """Turns texts into L2-normalised float32 vectors; batch-first."""

    @property
    def model_name(self) -> str:
        """The model's identity, e.g. ``sentence-transformers/all-MiniLM-L6-v2``."""
        ...

    @property
    def dimension(self) -> int:
        """The length of every vector this embedder returns."""
        ...

    def embed(self, texts: Sequence[str]) -> Vectors:
        """Embed ``texts``: shape ``(len(texts), dimension)``, rows in input order, unit length.

        Raises EmbeddingError when the model cannot be loaded or fails, InvalidInputError when
        ``texts`` is a single string instead of a sequence of them.
        """
        ...

    def embed_one(self, text: str) -> Vectors:
        """Embed one text: a unit vector of shape ``(dimension,)``. Raises as :meth:`embed`."""
        ...


def l2_normalize(vectors: NDArray[np.floating]) -> Vectors:
    """Scale every row of ``vectors`` to unit length; all-zero rows stay zero instead of NaN."""
    matrix = np.asarray(vectors, dtype=np.float32)
    norms = np.linalg.norm(matrix, axis=-1, keepdims=True)
    unit: Vectors = np.divide(matrix, norms, out=np.zeros_like(matrix), where=norms > 0)
    return unit


def blend(vectors: NDArray[np.floating], weights: Sequence[float] | None = None) -> Vectors:
    """The normalised weighted mean of the rows of ``vectors`` (e.g. a cluster's centroid).

    Raises InvalidInputError when there are no rows or the weights do not match them.
    """
    matrix = np.asarray(vectors, dtype=np.float32)
    if matrix.ndim != 2 or matrix.shape[0] == 0:
        raise InvalidInputError("blend needs a non-empty (n, dimension) matrix of vectors")
    if weights is None:
        mean = matrix.mean(axis=0)
    else:
        w = np.asarray(weights, dtype=np.float32)
        if w.shape != (matrix.shape[0],) or float(w.sum()) <= 0.0:
            raise InvalidInputError("blend needs one non-negative weight per vector, not all zero")
        mean = (matrix * w[:, None]).sum(axis=0) / w.sum()
    return l2_normalize(mean)


def require_text_list(texts: Sequence[str]) -> list[str]:
    """``texts`` as a list; raises InvalidInputError when it is a bare string or holds non-strings.

    A bare ``str`` is itself a ``Sequence[str]``, and embedding it character by character is
    never what the caller meant.
    """
    if isinstance(texts, str):
        raise InvalidInputError("embed takes a sequence of texts; use embed_one for a single text")
    items = list(texts)
    for item in items:
        if not isinstance(item, str):
            raise InvalidInputError(f"embed takes texts (str), got {type(item).__name__}")
    return items


def empty_vectors(dimension: int) -> Vectors:
    """The ``(0, dimension)`` result of embedding no texts."""
    return np.zeros((0, dimension), dtype=np.float32)


def default_threads(cap: int = 4) -> int:
    """The CPUs this process may use, at most ``cap``: more threads barely help a small model."""
    try:
        available = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        available = os.cpu_count() or 1
    return max(1, min(available, cap))


def import_optional(module: str, install: str) -> ModuleType:
    """Import ``module`` on first use; raises EmbeddingError naming the command that installs it."""
    try:
        return importlib.import_module(module)
    except ImportError as e:
        raise EmbeddingError(f"the embedder needs the Python package {module!r}: run `{install}`") from e
