"""C1 topics on the dev threads of bench/eval/topics.json, offline and in seconds: the whole half,
random 12-topic subsets of it (with all its noise), and the same subsets re-dated one a day.

No Neo4j and no REST: the memories are embedded here (MiniLM, ONNX), their entities extracted and
resolved one memory at a time in date order as the write path links them (without name vectors),
their k nearest computed exactly, and ``topic_clusters`` run on those signals with the current
settings. What the write path adds is left out: the belief check's supersessions (C1 reads
superseded episodes too) and NEXT links (none: each memory is written alone). On the whole dev
half it gives what ``bench.topic_eval --half dev`` gives. A subset asks the weights to hold when
the neighbours a topic competes with change; re-dating asks the same when time says little.
Prints one JSON line per view (mean coverage, purity and noise memories clustered).

``--set topics2`` (or topics3) runs the same on the dev threads of bench/eval/topics2.json.

    python -m bench.topic_subsets [--subsets 30] [--size 12] [--seed 7] [--set topics|topics2|topics3]
"""

from __future__ import annotations

import argparse
import json
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime, timedelta
from functools import lru_cache
from typing import Any

import numpy as np
from numpy.typing import NDArray

from bench.topic_eval import SETS, load_half, score
from graphmem.consolidate.neighbourhood import exact_knn
from graphmem.consolidate.settings import ConsolidationSettings
from graphmem.consolidate.topic_weights import TopicWeights
from graphmem.consolidate.topics import topic_clusters
from graphmem.embedding.factory import create_embedder
from graphmem.entities.extract import extract_entities
from graphmem.entities.names import entity_key
from graphmem.entities.resolve import KnownEntity, resolve_mentions
from graphmem.store.consolidation import TopicSignals

SCOPE = "/eval/topics/dev"

# a text's mentions, read once per process: the subsets of bench.topic_mixed and the variants of
# bench.topic_variants read the same few hundred texts again and again (the resolution, which
# depends on the texts read before, still runs per subset)
_mentions = lru_cache(maxsize=8192)(extract_entities)


def entity_keys(texts: Sequence[str]) -> list[tuple[str, ...]]:
    """The entity keys each text links to, resolved one text at a time in the order given."""
    known: list[KnownEntity] = []
    out = []
    for text in texts:
        mentions = _mentions(text)
        resolved = resolve_mentions(mentions, [None] * len(mentions), known)
        known += [KnownEntity(r.key, r.name, r.kind, None, id=r.key) for r in resolved if r.new]
        out.append(tuple(dict.fromkeys(r.key for r in resolved)))
    return out


def cluster(rows: Sequence[dict[str, Any]], vectors: NDArray[np.float32]) -> dict[str, Any]:
    """Score C1's topics of ``rows`` (date order) with their ``vectors``."""
    return clusters_of(rows, vectors)[0]


def clusters_of(
    rows: Sequence[dict[str, Any]], vectors: NDArray[np.float32], weights: TopicWeights | None = None
) -> tuple[dict[str, Any], list[list[int]]]:
    """C1's topics of ``rows`` (date order) with their ``vectors``: the score and each topic's
    row indices (with the settings' weights, or ``weights``)."""
    settings = ConsolidationSettings()
    if weights is not None:
        settings = replace(settings, topics=weights)
    ids = [f"m{i:04d}" for i in range(len(rows))]
    owner = {entity_key(name) for name in settings.topics.owner}
    keys = [tuple(k for k in found if k not in owner) for found in entity_keys([r["text"] for r in rows])]
    signals = TopicSignals(
        occurred={
            i: datetime.fromisoformat(r["occurred_at"]).timestamp() for i, r in zip(ids, rows, strict=True)
        },
        entities=dict(zip(ids, keys, strict=True)),
        mentions=dict(Counter(k for found in keys for k in found)),
        follows=[],
        texts={i: r["text"] for i, r in zip(ids, rows, strict=True)},
        scopes=dict.fromkeys(ids, SCOPE),
    )
    near = exact_knn(ids, vectors, settings.neighbours, settings.topic_min_cosine, range(len(ids)))
    found = topic_clusters(
        near,
        dict(zip(ids, vectors, strict=True)),
        signals,
        settings.topics,
        settings.min_cluster,
        settings.max_cluster,
    )
    members = [c.members for c in found]
    scored = score(members, {i: r["topic"] for i, r in zip(ids, rows, strict=True)})
    return scored, [[int(m[1:]) for m in c] for c in members]


def redated(rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """``rows`` in their order, one a day from 1 January 2025."""
    start = datetime(2025, 1, 1)
    return [{**r, "occurred_at": (start + timedelta(days=d)).isoformat()} for d, r in enumerate(rows)]


def mean(results: Sequence[dict[str, Any]]) -> dict[str, float]:
    """Mean coverage, purity and noise memories clustered."""
    return {
        "coverage": round(float(np.mean([r["coverage"] for r in results])), 3),
        "purity": round(float(np.mean([r["purity"] or 0.0 for r in results])), 3),
        "noise_clustered": round(float(np.mean([r["noise_clustered"] for r in results])), 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--subsets", type=int, default=30)
    parser.add_argument("--size", type=int, default=12, help="topics per subset")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--set", choices=SETS, default="topics", dest="name")
    args = parser.parse_args()
    rows = load_half("dev", args.name)
    for row in rows:
        row["occurred_at"] = row["occurred_at"].replace("Z", "+00:00")
    vectors = np.asarray(create_embedder("onnx").embed([r["text"] for r in rows]), dtype=np.float32)
    print(json.dumps({"set": args.name, "view": "dev", **cluster(rows, vectors)}), flush=True)
    topics = sorted({r["topic"] for r in rows if r["topic"]})
    rng = random.Random(args.seed)
    subsets, again = [], []
    for _ in range(args.subsets):
        picked = set(rng.sample(topics, min(args.size, len(topics))))
        keep = [i for i, r in enumerate(rows) if r["topic"] in picked or r["topic"] is None]
        part = [rows[i] for i in keep]
        subsets.append(cluster(part, vectors[keep]))
        again.append(cluster(redated(part), vectors[keep]))
    for view, results in (("subsets", subsets), ("subsets_one_a_day", again)):
        print(
            json.dumps(
                {"set": args.name, "view": view, "subsets": args.subsets, "size": args.size, **mean(results)}
            ),
            flush=True,
        )


if __name__ == "__main__":
    main()
