"""Where a recall's time goes: query embedding, each Cypher round trip, Python between them.

    python -m bench.recall_profile [--n 10000] [--queries 100] [--compare]

Builds N memories in user scopes of ~1,000 as bench.scale does (vectors cached by it), then runs
LoCoMo questions through ``Memory.recall`` in process (reinforce off), in one user scope and
across the whole graph, timing every catalog query inside the read transaction. Prints one JSON
line per (where, part) with the median and mean milliseconds per recall and the share of the total.
With ``--compare``, the same recalls run first without the in-process vector cache (``cache``:
off), then with it (on), on the same graph in the same run.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import time
from collections import defaultdict
from typing import Any

from bench import locomo, scale, stack
from graphmem.config import Settings
from graphmem.connect import open_memory
from graphmem.embedding.factory import create_embedder
from graphmem.store import executor as executor_module


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, default=10_000)
    parser.add_argument("--per-scope", type=int, default=1000)
    parser.add_argument("--queries", type=int, default=100)
    parser.add_argument("--compare", action="store_true", help="also run without the vector cache first")
    args = parser.parse_args()

    texts = scale.corpus(args.n + 1000)[: args.n]
    questions = [str(item["question"]) for _, item in locomo.questions(locomo.load())]
    random.Random(7).shuffle(questions)
    queries = questions[: args.queries]
    embedder = create_embedder("onnx")
    embedder.embed(["warm up"])
    vectors = scale.vectors_of(embedder, texts, embedder.model_name.replace("/", "_"))

    parts: dict[str, list[float]] = defaultdict(list)
    original_run = executor_module.Transaction.run
    original_embed = type(embedder).embed

    def timed_run(self: Any, name: str, **params: Any) -> Any:
        t0 = time.perf_counter()
        try:
            return original_run(self, name, **params)
        finally:
            parts[name].append((time.perf_counter() - t0) * 1000)

    def timed_embed(self: Any, batch: Any) -> Any:
        t0 = time.perf_counter()
        try:
            return original_embed(self, batch)
        finally:
            parts["embed query"].append((time.perf_counter() - t0) * 1000)

    with stack.neo4j(heap=scale.HEAP, pagecache=scale.PAGECACHE) as target:
        for cache in ["off", "on"] if args.compare else ["on"]:
            rows = Settings().recall_vector_cache_rows if cache == "on" else 0
            with open_memory(
                Settings(llm="none", recall_vector_cache_rows=rows), target, embedder=embedder
            ) as memory:
                memory.prepare()
                if cache == (["off", "on"] if args.compare else ["on"])[0]:
                    scale.build(memory._executor, texts, vectors, max(1, args.n // args.per_scope))
                executor_module.Transaction.run = timed_run  # type: ignore[method-assign]
                type(embedder).embed = timed_embed  # type: ignore[method-assign,assignment]
                try:
                    profile(memory, queries, parts, cache)
                finally:
                    executor_module.Transaction.run = original_run  # type: ignore[method-assign]
                    type(embedder).embed = original_embed  # type: ignore[method-assign]


def profile(memory: Any, queries: list[str], parts: dict[str, list[float]], cache: str) -> None:
    """Time ``queries`` in one user scope and across the whole graph; print the parts."""
    for scope, label in (("/scale/user0", "one scope"), (None, "whole graph")):
        for q in queries[:10]:
            memory.recall(q, scope=scope, reinforce=False)
        parts.clear()
        totals = []
        for q in queries:
            t0 = time.perf_counter()
            memory.recall(q, scope=scope, reinforce=False)
            totals.append((time.perf_counter() - t0) * 1000)
        total = sum(totals)
        accounted = 0.0
        for name, times in sorted(parts.items(), key=lambda kv: -sum(kv[1])):
            accounted += sum(times)
            print(
                json.dumps(
                    {
                        "cache": cache,
                        "where": label,
                        "part": name,
                        "calls_per_recall": round(len(times) / len(queries), 2),
                        "ms_per_recall": round(sum(times) / len(queries), 2),
                        "median_ms_per_call": round(statistics.median(times), 2),
                        "share": round(sum(times) / total, 3),
                        "load": round(os.getloadavg()[0], 2),
                    }
                ),
                flush=True,
            )
        print(
            json.dumps(
                {
                    "cache": cache,
                    "where": label,
                    "part": "python between queries",
                    "ms_per_recall": round((total - accounted) / len(queries), 2),
                    "share": round((total - accounted) / total, 3),
                }
            )
        )
        print(
            json.dumps(
                {
                    "cache": cache,
                    "where": label,
                    "part": "total",
                    "p50_ms": round(statistics.median(totals), 2),
                    "p95_ms": round(sorted(totals)[int(0.95 * (len(totals) - 1))], 2),
                    "mean_ms": round(total / len(queries), 2),
                    "load": round(os.getloadavg()[0], 2),
                }
            ),
            flush=True,
        )


if __name__ == "__main__":
    main()
