"""Where a recall's time goes: query embedding, each Cypher round trip, Python between them.

    python -m bench.recall_profile [--n 10000] [--queries 100] [--compare]

Builds N memories in user scopes of ~1,000 as bench.scale does (vectors cached by it), then runs
LoCoMo questions through ``Memory.recall`` in process (reinforce off), in one user scope and
across the whole graph, timing every catalog query inside the read transaction. Prints one JSON
line per (where, part) with the median and mean milliseconds per recall and the share of the total.
With ``--compare``, every query runs without the in-process vector cache (``cache``: off) and
with it (on), alternating which goes first, on the same graph in the same run.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import defaultdict
from contextlib import ExitStack
from typing import Any

from bench import locomo, scale, stack
from bench.ingest_recall import percentile
from bench.scale import emit
from graphmem.config import Settings
from graphmem.connect import open_memory
from graphmem.embedding.factory import create_embedder
from graphmem.memory import Memory
from graphmem.store import executor as executor_module

WARM_UP = 10  # questions asked first in each location, untimed


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
    # Each location asks its own questions, and none is asked twice: a repeated query would reuse
    # the query vector the recaller kept and hide the embedding's time.
    each = WARM_UP + args.queries
    queries = [questions[i * each : (i + 1) * each] for i in range(2)]
    embedder = create_embedder("onnx")
    embedder.embed(["warm up"])
    vectors = scale.vectors_of(embedder, texts, embedder.model_name.replace("/", "_"))

    variants = ["off", "on"] if args.compare else ["on"]
    parts: dict[str, dict[str, list[float]]] = {v: defaultdict(list) for v in variants}
    running = [variants[0]]  # the variant whose recall is timed now
    original_run = executor_module.Transaction.run
    original_embed = type(embedder).embed

    def timed_run(self: Any, name: str, **params: Any) -> Any:
        t0 = time.perf_counter()
        try:
            return original_run(self, name, **params)
        finally:
            parts[running[0]][name].append((time.perf_counter() - t0) * 1000)

    def timed_embed(self: Any, batch: Any) -> Any:
        t0 = time.perf_counter()
        try:
            return original_embed(self, batch)
        finally:
            parts[running[0]]["embed query"].append((time.perf_counter() - t0) * 1000)

    with (
        stack.neo4j_server(heap=scale.HEAP, pagecache=scale.PAGECACHE) as (target, jvm),
        ExitStack() as stacked,
    ):
        memories = {}
        for variant in variants:
            rows = Settings().recall_vector_cache_rows if variant == "on" else 0
            settings = Settings(llm="none", recall_vector_cache_rows=rows)
            memories[variant] = stacked.enter_context(open_memory(settings, target, embedder=embedder))
            memories[variant].prepare()
        scale.build(memories[variants[0]]._executor, texts, vectors, max(1, args.n // args.per_scope))
        scale.settle(jvm, scale.SETTLE_SECONDS)
        executor_module.Transaction.run = timed_run  # type: ignore[method-assign]
        type(embedder).embed = timed_embed  # type: ignore[method-assign,assignment]
        places = [("/scale/user0", "one scope"), (None, "whole graph")]
        for (scope, label), asked in zip(places, queries, strict=True):
            profile(memories, asked, scope, label, parts, running)


def profile(
    memories: dict[str, Memory],
    queries: list[str],
    scope: str | None,
    label: str,
    parts: dict[str, dict[str, list[float]]],
    running: list[str],
) -> None:
    """Time ``queries`` (after the first ``WARM_UP``) in ``scope`` through every variant,
    interleaved query by query (the machine's load then weighs on each alike); print the parts
    of each."""
    variants = list(memories)
    for q in queries[:WARM_UP]:
        for memory in memories.values():
            memory.recall(q, scope=scope, reinforce=False)
    queries = queries[WARM_UP:]
    totals: dict[str, list[float]] = {v: [] for v in variants}
    for v in variants:
        parts[v].clear()
    for i, q in enumerate(queries):
        for variant in variants if i % 2 == 0 else variants[::-1]:
            running[0] = variant
            t0 = time.perf_counter()
            memories[variant].recall(q, scope=scope, reinforce=False)
            totals[variant].append((time.perf_counter() - t0) * 1000)
    for variant in variants:
        report(label, variant, parts[variant], totals[variant], len(queries))


def report(
    label: str, variant: str, parts: dict[str, list[float]], totals: list[float], queries: int
) -> None:
    """One JSON line per part of the recalls of one variant, then the total."""
    total = sum(totals)
    accounted = 0.0
    common = {"cache": variant, "where": label}
    for name, times in sorted(parts.items(), key=lambda kv: -sum(kv[1])):
        accounted += sum(times)
        emit(
            **common,
            part=name,
            calls_per_recall=round(len(times) / queries, 2),
            ms_per_recall=round(sum(times) / queries, 2),
            median_ms_per_call=round(statistics.median(times), 2),
            share=round(sum(times) / total, 3),
        )
    emit(
        **common,
        part="python and driver between queries",
        ms_per_recall=round((total - accounted) / queries, 2),
        share=round((total - accounted) / total, 3),
    )
    emit(
        **common,
        part="total",
        p50_ms=round(statistics.median(totals), 2),
        p95_ms=round(percentile(totals, 95), 2),
        mean_ms=round(total / queries, 2),
    )


if __name__ == "__main__":
    main()
