"""A learned second reader of statement pairs: how likely a newer statement replaces an older one,
read from the two statements' sentence vectors alone.

The judge (beliefs/judge.py) reads a statement's grammar. Where it finds a reason to keep both (a
relative's fact, a plan, a past remark, an addition) that reason stands; where it keeps both only
because it could not read a slot in common ("Graduation photos are up! Officially a registered
nurse" after "I'm studying nursing at AUT"), this model is asked instead.

It is a logistic regression over features of the two unit vectors (old u, new v): u*v, |u-v|, v-u
and their cosine. It was fitted by ``python -m bench.train_belief_head`` on pairs written for
training (bench/train/), never on an evaluation set's pairs, with the vectors of the model named in
the weight file; it is used only with an embedder of that model and dimension.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

WEIGHTS = Path(__file__).with_name("pair_head.npz")


@dataclass(frozen=True)
class PairHead:
    """p(update | old, new) from the two statements' vectors."""

    model_name: str
    dimension: int
    weights: NDArray[np.float64]  # 3 * dimension + 2: the three products, the cosine, the bias

    def fits(self, model_name: str, dimension: int) -> bool:
        """Whether vectors of this embedder are the ones the head was fitted on."""
        return model_name == self.model_name and dimension == self.dimension

    def update_probability(self, old: NDArray[np.floating], new: NDArray[np.floating]) -> NDArray[np.float64]:
        """For each row of ``old`` (unit vectors, one per earlier statement), the probability that
        ``new`` replaces it: one unit vector for every row, or a row of its own for each."""
        u = np.atleast_2d(np.asarray(old, dtype=np.float64))
        v = np.broadcast_to(np.asarray(new, dtype=np.float64), u.shape)
        logits = features(u, v) @ self.weights
        probability: NDArray[np.float64] = 1.0 / (1.0 + np.exp(-logits))
        return probability


def features(old: NDArray[np.float64], new: NDArray[np.float64]) -> NDArray[np.float64]:
    """The head's inputs for rows of (old, new) unit vectors, bias column last."""
    product = old * new
    cosine = product.sum(axis=1, keepdims=True)
    bias = np.ones((old.shape[0], 1))
    return np.hstack([product, np.abs(old - new), new - old, cosine, bias])


@lru_cache(maxsize=1)
def shipped_head() -> PairHead | None:
    """The head fitted for the default embedder, or None when the weight file is absent."""
    if not WEIGHTS.exists():
        return None
    with np.load(WEIGHTS) as data:
        meta = json.loads(str(data["meta"]))
        weights = np.asarray(data["weights"], np.float64)
        return PairHead(str(meta["model_name"]), int(meta["dimension"]), weights)
