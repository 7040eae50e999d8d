"""The belief check's tuned pair reader: MiniLM's top transformer layer fine-tuned, with a small
head, to read whether a newer statement replaces an older one.

The frozen reader (beliefs/pair_reader.py) pools MiniLM's last states of "[CLS] older [SEP] newer
[SEP]"; those states were trained to place sentences, not to compare values, and it read "Ilya works
at Yandex" / "Ilya works at JetBrains" as a restatement. This reader keeps MiniLM's lower layers as
they ship and its top layer fine-tuned as a cross-encoder on the three labels of the training pairs:
the model file is run with that layer's weights replaced (embedding/onnx_layers.py, one session made
on the first read, the same cost a pair as the frozen graph), then the states are pooled as the frozen
reader pools them (the [CLS] state, each statement's mean, their difference, the sentence vectors'
cosine) into one hidden layer of GELU and three classes (keep, update, same), in numpy.

The weights were fitted by ``bench/train_pair_tuned.py`` (PyTorch, in a training environment of its
own) on the pairs written for training (bench/train/), on the states the model file gives, and
stored in float16 (pair_tuned.npz).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from graphmem.beliefs.pair_reader import UPDATE, PairEncoder, PairReader, pooled
from graphmem.embedding.onnx_layers import LayerWeights

WEIGHTS = Path(__file__).with_name("pair_tuned.npz")
HEADS = 12
LAYER_NORM_EPS = 1e-12
# the arrays of one transformer layer, as x @ w + b (w of shape (in, out))
LAYER_ARRAYS = (
    "wq",
    "bq",
    "wk",
    "bk",
    "wv",
    "bv",
    "wo",
    "bo",
    "ln1w",
    "ln1b",
    "wi",
    "bi",
    "wf",
    "bf",
    "ln2w",
    "ln2b",
)
HEAD_ARRAYS = ("hidden", "hidden_bias", "out", "out_bias")


@dataclass(frozen=True)
class TunedPairReader:
    """p(update | older, newer) from MiniLM's tuned top layer over the two statements read together."""

    model_name: str
    dimension: int
    layer: int  # the transformer layer that was tuned (0-based)
    weights: dict[str, NDArray[np.float32]]  # LAYER_ARRAYS then HEAD_ARRAYS

    @cached_property
    def tuned_layer(self) -> LayerWeights:
        """The tuned layer's weights, for the encoder to run in place of the model file's."""
        return LayerWeights(self.layer, {k: self.weights[k] for k in LAYER_ARRAYS})

    def fits(self, model_name: str, dimension: int) -> bool:
        """Whether states of this embedder are the ones the reader was fitted on."""
        return model_name == self.model_name and dimension == self.dimension

    def update_probability(
        self, encoder: PairEncoder, pairs: Sequence[tuple[str, str]], cosines: Sequence[float]
    ) -> NDArray[np.float64]:
        """For each (older, newer) text pair, with the cosine of their sentence vectors, the
        probability that the newer replaces the older. Raises EmbeddingError as the encoder does."""
        if not pairs:
            return np.zeros(0)
        states, mask, types = encoder.encode_pairs(pairs, tuned=self.tuned_layer)
        return self.classes(states, mask, types, cosines)[:, UPDATE]

    def classes(
        self,
        states: NDArray[np.float32],
        mask: NDArray[np.int64],
        types: NDArray[np.int64],
        cosines: Sequence[float],
    ) -> NDArray[np.float64]:
        """Class probabilities (keep, update, same) from the tuned layer's output states."""
        return self.head.classes(pooled(states, mask, types, cosines))

    @cached_property
    def head(self) -> PairReader:
        """The head over the pooled states: the frozen reader's network, with this reader's weights."""
        w = self.weights
        return PairReader(
            self.model_name, self.dimension, w["hidden"], w["hidden_bias"], w["out"], w["out_bias"]
        )


def transformer_layer(
    x: NDArray[np.float32], mask: NDArray[np.int64], w: dict[str, NDArray[np.float32]]
) -> NDArray[np.float32]:
    """One BERT encoder layer (post-norm, 12 heads, GELU): ``x`` ``(n, width, 384)`` with its
    attention mask ``(n, width)`` to the layer's output states. The reference the trainer and the
    tests hold the graph and PyTorch to; the reader itself runs the layer in onnxruntime (numpy's
    BLAS threads spun a core each under load: 83 ms of CPU a pair, against 11)."""
    n, width, d = x.shape
    size = d // HEADS

    def heads(t: NDArray[np.float32]) -> NDArray[np.float32]:
        return t.reshape(n, width, HEADS, size).transpose(0, 2, 1, 3)

    q, k, v = (heads(x @ w[f"w{p}"] + w[f"b{p}"]) for p in "qkv")
    scores = q @ k.transpose(0, 1, 3, 2) / np.float32(np.sqrt(size))
    scores = scores + np.where(mask[:, None, None, :] > 0, 0.0, -1e9).astype(np.float32)
    scores = np.exp(scores - scores.max(axis=-1, keepdims=True))
    attended = (scores / scores.sum(axis=-1, keepdims=True)) @ v
    h = attended.transpose(0, 2, 1, 3).reshape(n, width, d) @ w["wo"] + w["bo"]
    x = layer_norm(x + h, w["ln1w"], w["ln1b"])
    f = gelu_erf(x @ w["wi"] + w["bi"]) @ w["wf"] + w["bf"]
    return layer_norm(x + f, w["ln2w"], w["ln2b"])


def layer_norm(
    x: NDArray[np.float32], weight: NDArray[np.float32], bias: NDArray[np.float32]
) -> NDArray[np.float32]:
    """LayerNorm over the last axis (epsilon 1e-12, as MiniLM's)."""
    centred = x - x.mean(axis=-1, keepdims=True)
    scale = 1.0 / np.sqrt((centred * centred).mean(axis=-1, keepdims=True) + LAYER_NORM_EPS)
    result: NDArray[np.float32] = (centred * scale * weight + bias).astype(np.float32)
    return result


def gelu_erf(x: NDArray[np.float32]) -> NDArray[np.float32]:
    """GELU as BERT computes it, x * Phi(x), with erf by Abramowitz and Stegun 7.1.26 (absolute
    error under 1.5e-7: numpy has no erf)."""
    z = np.abs(x) / np.float32(np.sqrt(2.0))
    t = 1.0 / (1.0 + 0.3275911 * z)
    poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))))
    erf = np.sign(x) * (1.0 - poly * np.exp(-z * z))
    result: NDArray[np.float32] = (0.5 * x * (1.0 + erf)).astype(np.float32)
    return result


@lru_cache(maxsize=1)
def shipped_tuned_reader() -> TunedPairReader | None:
    """The tuned reader fitted for the default embedder, or None when the weight file is absent."""
    return tuned_reader_from(WEIGHTS) if WEIGHTS.exists() else None


def tuned_reader_from(path: Path) -> TunedPairReader:
    """The tuned reader a weight file written by bench/train_pair_tuned.py holds."""
    with np.load(path) as data:
        meta = json.loads(str(data["meta"]))
        weights = {name: np.asarray(data[name], np.float32) for name in (*LAYER_ARRAYS, *HEAD_ARRAYS)}
    return TunedPairReader(str(meta["model_name"]), int(meta["dimension"]), int(meta["layer"]), weights)
