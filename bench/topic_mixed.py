"""C1 topics offline on scopes shaped like the held-out check: a dozen threads drawn from all four
topic sets (bench/eval/topics*.json) and ten noise memories of one set, in one scope.

Each set was written by one session with its own hard kinds, so a subset of one set's dev half
asks the weights to hold against neighbours of that session's making only. Here each subset
draws ``--size`` threads from the dev halves of every set together and ``--noise`` noise
memories of one set, each set's dates shifted to start on one day (threads interleave in time
as one user's would; left as written, a set's year would keep its threads apart). Threads of one
domain from different sets (two weddings, a root canal and a dental bridge) meet here as they
would in one user's memory. The signals are built as in ``bench.topic_subsets`` (no NEXT, no
supersessions). Prints one JSON line: mean coverage, purity and noise memories clustered over the
subsets, and how each missed thread was missed:
- unclustered: none of its episodes in any semantic memory;
- with_strays: most of its episodes in one memory that other threads' or noise share past 10 %;
- scattered: its episodes spread over memories, none holding most of them.

    python -m bench.topic_mixed [--subsets 40] [--size 12] [--noise 10] [--seed 7] [--half dev]
"""

from __future__ import annotations

import argparse
import json
import random
from collections import Counter
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

import numpy as np
from numpy.typing import NDArray

from bench.topic_eval import SETS, SHARE, load_half
from bench.topic_subsets import clusters_of, mean
from graphmem.consolidate.topic_weights import TopicWeights


def _at(row: dict[str, Any]) -> datetime:
    return datetime.fromisoformat(row["occurred_at"].replace("Z", "+00:00"))


def pooled(half: str) -> list[dict[str, Any]]:
    """The rows of ``half`` of every set, topics named ``set:topic``, each set's dates shifted so
    that its first memory falls on the first day of the earliest set."""
    out: list[dict[str, Any]] = []
    per_set = {name: load_half(half, name) for name in SETS}
    start = min(_at(rows[0]) for rows in per_set.values())
    for name, rows in per_set.items():
        first = _at(rows[0])
        shift: timedelta = start - first
        for row in rows:
            at = _at(row) + shift
            topic = f"{name}:{row['topic']}" if row["topic"] else None
            out.append({"text": row["text"], "occurred_at": at.isoformat(), "topic": topic, "set": name})
    return sorted(out, key=lambda r: r["occurred_at"])


def misses(found: Sequence[Sequence[int]], topics: Sequence[str | None]) -> Counter[str]:
    """How each thread not covered by ``found`` (lists of row indices) was missed."""
    out: Counter[str] = Counter()
    covered: set[str] = set()
    for members in found:
        top, n = Counter(topics[m] or f"noise:{m}" for m in members).most_common(1)[0]
        if n / len(members) >= SHARE:
            covered.add(top)
    for topic in sorted({t for t in topics if t} - covered):
        held = Counter(i for i, members in enumerate(found) for m in members if topics[m] == topic)
        size = sum(1 for t in topics if t == topic)
        if not held:
            out["unclustered"] += 1
        elif held.most_common(1)[0][1] * 2 > size:
            out["with_strays"] += 1
        else:
            out["scattered"] += 1
    return out


def mixed(
    rows: Sequence[dict[str, Any]],
    vectors: NDArray[np.float32],
    seed: int,
    subsets: int = 40,
    size: int = 12,
    noise: int = 10,
    weights: TopicWeights | None = None,
) -> tuple[dict[str, float], Counter[str]]:
    """Mean coverage, purity and noise clustered over ``subsets`` scopes drawn from the pooled
    ``rows`` (with their ``vectors``) by ``seed``, and how the threads were missed."""
    threads = sorted({r["topic"] for r in rows if r["topic"]})
    rng = random.Random(seed)
    results, missed = [], Counter[str]()
    for _ in range(subsets):
        picked = set(rng.sample(threads, min(size, len(threads))))
        source = rng.choice(SETS)
        drawn = [i for i, r in enumerate(rows) if r["topic"] is None and r["set"] == source]
        kept_noise = set(rng.sample(drawn, min(noise, len(drawn))))
        keep = [i for i, r in enumerate(rows) if r["topic"] in picked or i in kept_noise]
        part = [rows[i] for i in keep]
        result, found = clusters_of(part, vectors[keep], weights)
        results.append(result)
        missed += misses(found, [r["topic"] for r in part])
    return mean(results), missed


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--subsets", type=int, default=40)
    parser.add_argument("--size", type=int, default=12, help="threads per subset, drawn from all sets")
    parser.add_argument("--noise", type=int, default=10, help="noise memories per subset, of one set")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--half", choices=["dev", "test"], default="dev", help="test: only to report, once")
    args = parser.parse_args()
    from graphmem.embedding.factory import create_embedder

    rows = pooled(args.half)
    vectors: NDArray[np.float32] = np.asarray(
        create_embedder("onnx").embed([r["text"] for r in rows]), dtype=np.float32
    )
    found, missed = mixed(rows, vectors, args.seed, args.subsets, args.size, args.noise)
    print(
        json.dumps(
            {
                "view": "mixed",
                "half": args.half,
                "subsets": args.subsets,
                "size": args.size,
                "noise": args.noise,
                **found,
                "missed_per_subset": {k: round(v / args.subsets, 2) for k, v in sorted(missed.items())},
            }
        ),
        flush=True,
    )


if __name__ == "__main__":
    main()
