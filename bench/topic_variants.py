"""C1 topics offline under variants of its weights, on every dev half and on mixed scopes, in one
run: what ``bench.topic_subsets`` gives for each set's dev half whole and ``bench.topic_mixed``
gives for its seeds, each text embedded once and its entities read once for all the variants.

A change to the topic weights is a win only when it holds on all five dev halves together and on
the mixed 12-thread scopes (coverage and purity both): this prints, per variant (the current
weights first, then each ``--weights``), one JSON line with
- per set: topics covered of the dev half's, purity, noise memories clustered, each missed
  thread's cause and each impure topic's shape (as ``bench.topic_signals`` names them);
- ``dev``: the topics covered of all five dev halves and their mean purity;
- ``mixed``: per seed, mean coverage / purity / noise memories clustered over the subsets.
The signals are built as ``bench.topic_subsets`` builds them (no NEXT, no supersessions), so a
set's numbers can differ from ``bench.topic_eval``'s through REST by a topic or so.

    python -m bench.topic_variants [--weights '{"neighbours": 6}' ...] [--seeds 7 8] [--subsets 40]
                                   [--size 12] [--noise 10]

``--size`` asks how the weights hold in a larger scope: the mixed scopes then draw that many threads
of the pooled dev halves (beyond a dozen, threads of one domain from different sets meet: two
migraine diaries, a root canal and a dental bridge, two weddings, which a user's own memories would
call one topic; read their impure topics before blaming the weights).
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

import numpy as np
from numpy.typing import NDArray

from bench.topic_eval import SETS, load_half
from bench.topic_mixed import mixed, pooled
from bench.topic_signals import misses
from bench.topic_subsets import clusters_of
from graphmem.consolidate.settings import ConsolidationSettings
from graphmem.consolidate.topic_weights import TopicWeights


def vectors_of(texts: Sequence[str]) -> dict[str, NDArray[np.float32]]:
    """MiniLM vectors of the distinct ``texts`` (ONNX, as the stack embeds them)."""
    from graphmem.embedding.factory import create_embedder

    distinct = sorted(set(texts))
    found = np.asarray(create_embedder("onnx").embed(distinct), dtype=np.float32)
    return dict(zip(distinct, found, strict=True))


def variant(
    weights: TopicWeights,
    halves: Mapping[str, list[dict[str, Any]]],
    pool: list[dict[str, Any]],
    vectors: Mapping[str, NDArray[np.float32]],
    seeds: Sequence[int],
    subsets: int,
    size: int = 12,
    noise: int = 10,
) -> dict[str, Any]:
    """The scores of one set of weights on every dev half and on the mixed scopes of each seed."""
    out: dict[str, Any] = {}
    covered, topics, purities = 0, 0, []
    for name, rows in halves.items():
        result, found = clusters_of(rows, np.asarray([vectors[r["text"]] for r in rows]), weights)
        missed = misses([r["topic"] for r in rows], found)
        out[name] = {
            "covered": f"{result['topics_covered']}/{result['topics']}",
            "purity": result["purity"],
            "noise_clustered": result["noise_clustered"],
            "missed": missed["missed"],
            "impure_shapes": missed["impure_shapes"],
        }
        covered += result["topics_covered"]
        topics += result["topics"]
        purities.append(result["purity"] or 0.0)
    out["dev"] = {"covered": f"{covered}/{topics}", "mean_purity": round(float(np.mean(purities)), 3)}
    pooled_vectors = np.asarray([vectors[r["text"]] for r in pool])
    out["mixed"] = {
        str(seed): mixed(pool, pooled_vectors, seed, subsets, size, noise, weights=weights)[0]
        for seed in seeds
    }
    return out


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--weights",
        action="append",
        default=[],
        help="a variant: TopicWeights fields as JSON, e.g. '{\"neighbours\": 6}' (repeatable)",
    )
    parser.add_argument("--seeds", type=int, nargs="*", default=[7, 8], help="mixed scopes' seeds")
    parser.add_argument("--subsets", type=int, default=40, help="mixed scopes per seed")
    parser.add_argument("--size", type=int, default=12, help="threads in a mixed scope")
    parser.add_argument("--noise", type=int, default=10, help="noise memories a mixed scope draws")
    args = parser.parse_args()
    current = ConsolidationSettings().topics
    variants: list[dict[str, Any]] = [{}] + [json.loads(w) for w in args.weights]
    halves = {}
    for name in SETS:
        rows = load_half("dev", name)
        for row in rows:
            row["occurred_at"] = row["occurred_at"].replace("Z", "+00:00")
        halves[name] = rows
    pool = pooled("dev")
    vectors = vectors_of([r["text"] for rows in [*halves.values(), pool] for r in rows])
    for changes in variants:
        weights = replace(current, **changes)
        scores = variant(weights, halves, pool, vectors, args.seeds, args.subsets, args.size, args.noise)
        print(json.dumps({"variant": changes or "current", **scores}), flush=True)


if __name__ == "__main__":
    main()
