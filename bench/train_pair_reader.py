"""Fit the belief check's pair reader (graphmem/beliefs/pair_reader.py) and write its weight file.

Training pairs: every ``bench/train/belief_pairs_*.jsonl`` line (``old``, ``new``, ``label`` of
keep / update / same), written for training by people who had not read the judge; none comes from
an evaluation set (bench/eval/), so every evaluation half stays held out. Each pair is read by the
default embedder (ONNX all-MiniLM-L6-v2) as one input, its states pooled (pair_reader.pooled), and
a network of one hidden layer (128, tanh GELU) fitted to the three labels by Adam on mini-batches
of 32 with a learning rate that rises then falls (one cycle), a fixed seed, in numpy: the same
data give the same weights.

    python -m bench.train_pair_reader [--parts abcdef] [--epochs 6] [--seed 0] [--out FILE]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from bench.train_belief_head import training_pairs
from graphmem.beliefs.pair_reader import WEIGHTS, pooled
from graphmem.embedding.onnx_minilm import OnnxMiniLMEmbedder

LABELS = {"keep": 0, "update": 1, "same": 2}
HIDDEN = 128


def pair_features(embedder: OnnxMiniLMEmbedder, pairs: list[dict[str, str]]) -> NDArray[np.float32]:
    """The reader's inputs for each (old, new) pair, in batches of 32."""
    rows = []
    for start in range(0, len(pairs), 32):
        chunk = pairs[start : start + 32]
        states, mask, types = embedder.encode_pairs([(p["old"], p["new"]) for p in chunk])
        old = embedder.embed([p["old"] for p in chunk])
        new = embedder.embed([p["new"] for p in chunk])
        rows.append(pooled(states, mask, types, (old * new).sum(axis=1).tolist()))
    return np.vstack(rows)


def _gelu(h: NDArray[np.float64]) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """GELU in its tanh form and its derivative."""
    inner = 0.7978845608 * (h + 0.044715 * h**3)
    t = np.tanh(inner)
    derivative = 0.5 * (1.0 + t) + 0.5 * h * (1.0 - t**2) * 0.7978845608 * (1.0 + 3 * 0.044715 * h**2)
    return 0.5 * h * (1.0 + t), derivative


def fit(
    x: NDArray[np.float64], y: NDArray[np.int64], epochs: int, seed: int, peak: float = 1e-3
) -> dict[str, NDArray[np.float64]]:
    """One hidden layer and a softmax over three classes, by AdamW with a one-cycle rate."""
    rng = np.random.default_rng(seed)
    n, d = x.shape
    params = {
        "hidden": rng.uniform(-1, 1, (HIDDEN, d)) / np.sqrt(d),
        "hidden_bias": np.zeros(HIDDEN),
        "out": rng.uniform(-1, 1, (3, HIDDEN)) / np.sqrt(HIDDEN),
        "out_bias": np.zeros(3),
    }
    moments = {k: (np.zeros_like(v), np.zeros_like(v)) for k, v in params.items()}
    steps = epochs * (n // 32)
    warm = int(0.3 * steps)
    onehot = np.eye(3)[y]
    step = 0
    for _ in range(epochs):
        order = rng.permutation(n)
        for start in range(0, n - 31, 32):
            batch = order[start : start + 32]
            xb, tb = x[batch], onehot[batch]
            pre = xb @ params["hidden"].T + params["hidden_bias"]
            h, dh = _gelu(pre)
            logits = h @ params["out"].T + params["out_bias"]
            logits -= logits.max(axis=1, keepdims=True)
            p = np.exp(logits)
            p /= p.sum(axis=1, keepdims=True)
            g_logits = (p - tb) / len(batch)
            g_h = g_logits @ params["out"] * dh
            grads = {
                "out": g_logits.T @ h,
                "out_bias": g_logits.sum(axis=0),
                "hidden": g_h.T @ xb,
                "hidden_bias": g_h.sum(axis=0),
            }
            step += 1
            if step <= warm:
                rate = peak * (0.04 + 0.96 * step / warm)
            else:
                rate = peak * 0.5 * (1.0 + np.cos(np.pi * (step - warm) / max(1, steps - warm)))
            for k, g in grads.items():
                m, v = moments[k]
                m[:] = 0.9 * m + 0.1 * g
                v[:] = 0.999 * v + 0.001 * g * g
                m_hat, v_hat = m / (1 - 0.9**step), v / (1 - 0.999**step)
                params[k] *= 1.0 - rate * 0.01  # weight decay
                params[k] -= rate * m_hat / (np.sqrt(v_hat) + 1e-8)
    return params


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--parts", default="abcdef", help="which parts of bench/train/ to fit on (letters)")
    parser.add_argument("--epochs", type=int, default=6)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=WEIGHTS)
    args = parser.parse_args()
    pairs = training_pairs(parts=args.parts)
    embedder = OnnxMiniLMEmbedder()
    x = pair_features(embedder, pairs).astype(np.float64)
    y = np.asarray([LABELS[p["label"]] for p in pairs], dtype=np.int64)
    params = fit(x, y, args.epochs, args.seed)
    pre = x @ params["hidden"].T + params["hidden_bias"]
    predicted = (_gelu(pre)[0] @ params["out"].T + params["out_bias"]).argmax(axis=1)
    meta = {
        "model_name": embedder.model_name,
        "dimension": embedder.dimension,
        "pairs": len(pairs),
        "parts": args.parts,
        "epochs": args.epochs,
        "seed": args.seed,
    }
    np.savez_compressed(
        args.out, meta=np.asarray(json.dumps(meta)), **{k: v.astype(np.float32) for k, v in params.items()}
    )
    report = {"training_accuracy": round(float((predicted == y).mean()), 4), "out": str(args.out)}
    print(json.dumps({**meta, **report}))


if __name__ == "__main__":
    main()
