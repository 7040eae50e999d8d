"""A second learned reader of statement pairs: how likely a newer statement replaces an older one,
read from the two statements read together by the embedding model.

The pair head (beliefs/pair_head.py) sees each statement's sentence vector on its own, so "Silvia"
and "Rodrigo" in one slot blur into two people of one team. This reader runs MiniLM once over
"[CLS] older [SEP] newer [SEP]": every token's state has seen the other statement. It pools the
states (the [CLS] token, each statement's mean, their difference) with the two vectors' cosine and
reads them with a small network (one hidden layer of 128, tanh GELU, three classes: keep, update,
same); p(update) is what the belief check uses, averaged with the head's (beliefs/resolver.py).

It was fitted by ``python -m bench.train_pair_reader`` on the pairs written for training
(bench/train/), never on an evaluation set's pairs, with the states of the model named in the
weight file; it is used only with an embedder of that model that can read pairs (PairEncoder).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Protocol, runtime_checkable

import numpy as np
from numpy.typing import NDArray

from graphmem.embedding.onnx_layers import LayerWeights

WEIGHTS = Path(__file__).with_name("pair_reader.npz")
UPDATE = 1  # the class index of "update" (keep 0, update 1, same 2)


@runtime_checkable
class PairEncoder(Protocol):
    """An embedder that can read two texts as one input (embedding/onnx_minilm.py)."""

    @property
    def model_name(self) -> str: ...

    @property
    def dimension(self) -> int: ...

    def encode_pairs(
        self,
        pairs: Sequence[tuple[str, str]],
        max_tokens: int = ...,
        layer: int | None = ...,
        tuned: LayerWeights | None = ...,
    ) -> tuple[NDArray[np.float32], NDArray[np.int64], NDArray[np.int64]]: ...


class PairReading(Protocol):
    """A learned reader of (older, newer) statement pairs: this module's reader over MiniLM's
    last states, or the tuned one that runs MiniLM's top layer itself (beliefs/pair_tuned.py)."""

    def fits(self, model_name: str, dimension: int) -> bool:
        """Whether states of this embedder are the ones the reader was fitted on."""
        ...

    def update_probability(
        self, encoder: PairEncoder, pairs: Sequence[tuple[str, str]], cosines: Sequence[float]
    ) -> NDArray[np.float64]:
        """For each (older, newer) pair, the probability that the newer replaces the older."""
        ...


@dataclass(frozen=True)
class PairReader:
    """p(update | older, newer) from the two statements read together."""

    model_name: str
    dimension: int
    hidden: NDArray[np.float32]  # (128, 4 * dimension + 1)
    hidden_bias: NDArray[np.float32]
    out: NDArray[np.float32]  # (3, 128)
    out_bias: NDArray[np.float32]

    def fits(self, model_name: str, dimension: int) -> bool:
        """Whether states of this embedder are the ones the reader was fitted on."""
        return model_name == self.model_name and dimension == self.dimension

    def update_probability(
        self, encoder: PairEncoder, pairs: Sequence[tuple[str, str]], cosines: Sequence[float]
    ) -> NDArray[np.float64]:
        """For each (older, newer) text pair, with the cosine of their sentence vectors, the
        probability that the newer replaces the older."""
        if not pairs:
            return np.zeros(0)
        states, mask, types = encoder.encode_pairs(pairs)
        return self.classes(pooled(states, mask, types, cosines))[:, UPDATE]

    def classes(self, features: NDArray[np.float32]) -> NDArray[np.float64]:
        """Class probabilities (keep, update, same) for rows of :func:`pooled` features."""
        h = features @ self.hidden.T + self.hidden_bias
        h = 0.5 * h * (1.0 + np.tanh(0.7978845608 * (h + 0.044715 * h**3)))  # GELU, tanh form
        logits = (h @ self.out.T + self.out_bias).astype(np.float64)
        logits -= logits.max(axis=1, keepdims=True)
        e = np.exp(logits)
        probabilities: NDArray[np.float64] = e / e.sum(axis=1, keepdims=True)
        return probabilities


def pooled(
    states: NDArray[np.float32], mask: NDArray[np.int64], types: NDArray[np.int64], cosines: Sequence[float]
) -> NDArray[np.float32]:
    """The reader's inputs: the [CLS] state, the mean state of each statement's tokens (type 0 the
    older, type 1 the newer), their difference, and the sentence vectors' cosine."""
    kept = mask[..., None].astype(np.float32)
    second = types[..., None].astype(np.float32)
    first_mask, second_mask = kept * (1.0 - second), kept * second
    first = (states * first_mask).sum(axis=1) / np.maximum(first_mask.sum(axis=1), 1.0)
    later = (states * second_mask).sum(axis=1) / np.maximum(second_mask.sum(axis=1), 1.0)
    cosine = np.asarray(cosines, dtype=np.float32).reshape(-1, 1)
    return np.hstack([states[:, 0], first, later, first - later, cosine]).astype(np.float32)


@lru_cache(maxsize=1)
def shipped_reader() -> PairReader | None:
    """The reader fitted for the default embedder, or None when the weight file is absent."""
    if not WEIGHTS.exists():
        return None
    with np.load(WEIGHTS) as data:
        meta = json.loads(str(data["meta"]))
        return PairReader(
            str(meta["model_name"]),
            int(meta["dimension"]),
            np.asarray(data["hidden"], np.float32),
            np.asarray(data["hidden_bias"], np.float32),
            np.asarray(data["out"], np.float32),
            np.asarray(data["out_bias"], np.float32),
        )
