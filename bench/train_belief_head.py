"""Fit the belief check's pair model (graphmem/beliefs/pair_head.py) and write its weight file.

Training pairs: every ``bench/train/belief_pairs_*.jsonl`` line (``old``, ``new``, ``label`` of
update / same / keep), written for training by people who had not read the judge; none comes from
an evaluation set (bench/eval/), so every evaluation half stays held out. The target is "update";
"same" and "keep" are both "not replaced". The vectors are the default embedder's (ONNX
all-MiniLM-L6-v2), the ones the write path has for every statement. L2-regularised logistic
regression by Newton's method: the same data give the same weights.

    python -m bench.train_belief_head [--parts abc] [--l2 1.0] [--out graphmem/beliefs/pair_head.npz]

The shipped head is parts a-c (5,250 pairs). Parts d (chat turns), e (what a user tells an
assistant) and f (a team's facts) were written in sessions 28-29; heads fitted with them scored
below it on the belief dev halves (sums 4.286 with a-d, 4.280 with a-f, against 4.312) and read
"Nadia was laid off" as ending her birthday (bench/results/belief-eval-session29-dev-in-process.jsonl).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from graphmem.beliefs.pair_head import WEIGHTS, features
from graphmem.embedding.base import Embedder
from graphmem.embedding.factory import create_embedder

TRAIN = Path(__file__).parent / "train"


def training_pairs(folder: Path = TRAIN, parts: str = "abc") -> list[dict[str, str]]:
    """Every training pair of the given parts (the letter after ``belief_pairs_``), files in name order."""
    pairs = []
    for path in sorted(folder.glob("belief_pairs_*.jsonl")):
        if path.name.removeprefix("belief_pairs_")[:1] not in parts:
            continue
        pairs += [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return pairs


def vectors(embedder: Embedder, texts: list[str]) -> dict[str, NDArray[np.float64]]:
    """Each distinct text's unit vector."""
    distinct = sorted(set(texts))
    found: dict[str, NDArray[np.float64]] = {}
    for start in range(0, len(distinct), 128):
        chunk = distinct[start : start + 128]
        found.update(zip(chunk, np.asarray(embedder.embed(chunk), dtype=np.float64), strict=True))
    return found


def fit(x: NDArray[np.float64], y: NDArray[np.float64], l2: float) -> NDArray[np.float64]:
    """Logistic regression weights (bias last, not regularised) by Newton's method."""
    w = np.zeros(x.shape[1])
    penalty = np.full(x.shape[1], l2)
    penalty[-1] = 0.0
    for _ in range(50):
        p = 1.0 / (1.0 + np.exp(-(x @ w)))
        gradient = x.T @ (p - y) + penalty * w
        hessian = (x * (p * (1.0 - p))[:, None]).T @ x + np.diag(penalty)
        step = np.linalg.solve(hessian, gradient)
        w -= step
        if float(np.abs(step).max()) < 1e-8:
            break
    return w


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--parts", default="abc", help="which parts of bench/train/ to fit on (letters)")
    parser.add_argument("--l2", type=float, default=1.0)
    parser.add_argument("--out", type=Path, default=WEIGHTS)
    args = parser.parse_args()
    pairs = training_pairs(parts=args.parts)
    embedder = create_embedder("onnx")
    found = vectors(embedder, [p["old"] for p in pairs] + [p["new"] for p in pairs])
    old = np.stack([found[p["old"]] for p in pairs])
    new = np.stack([found[p["new"]] for p in pairs])
    y = np.asarray([p["label"] == "update" for p in pairs], dtype=np.float64)
    w = fit(features(old, new), y, args.l2)
    accuracy = float((((features(old, new) @ w) > 0) == (y > 0.5)).mean())
    meta = {
        "model_name": embedder.model_name,
        "dimension": embedder.dimension,
        "pairs": len(pairs),
        "parts": args.parts,
        "l2": args.l2,
    }
    np.savez(args.out, weights=w, meta=np.asarray(json.dumps(meta)))
    report = {"training_accuracy": round(accuracy, 4), "updates": int(y.sum()), "out": str(args.out)}
    print(json.dumps({**meta, **report}))


if __name__ == "__main__":
    main()
