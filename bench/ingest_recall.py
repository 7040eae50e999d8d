"""Foundation benchmark: ingest 10k memories (Python API and REST), embedding-only throughput of the
same texts, and recall latency through REST at that size. Prints JSON lines.

    python -m bench.ingest_recall [--n 10000] [--batch 500] [--queries 200]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from typing import Any

import httpx

from bench import locomo, stack
from graphmem.config import Settings
from graphmem.connect import open_memory
from graphmem.embedding.factory import create_embedder
from graphmem.models import MemoryInput


def emit(**fields: Any) -> None:
    """Print one JSON line."""
    print(json.dumps(fields), flush=True)


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (0..100) of ``values``."""
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[index]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, default=10_000)
    parser.add_argument("--batch", type=int, default=500)
    parser.add_argument("--queries", type=int, default=200)
    args = parser.parse_args()

    data = locomo.load()
    texts = locomo.corpus_texts(data, args.n)
    queries = [str(item["question"]) for _, item in locomo.questions(data)][: args.queries]
    embedder = create_embedder("onnx")
    embedder.embed(["warm up"])

    start = time.perf_counter()
    for i in range(0, len(texts), args.batch):
        embedder.embed(texts[i : i + args.batch])
    embed_rate = len(texts) / (time.perf_counter() - start)
    emit(metric="embedding_only_throughput", texts=len(texts), texts_per_s=round(embed_rate, 1))

    with stack.neo4j() as target:
        with open_memory(Settings(), target, embedder=embedder) as memory:
            memory.prepare()
            start = time.perf_counter()
            for i in range(0, len(texts), args.batch):
                memory.remember_batch(
                    [MemoryInput(text=t, scope="/bench/python") for t in texts[i : i + args.batch]]
                )
            rate = len(texts) / (time.perf_counter() - start)
            emit(
                metric="python_ingest_throughput",
                memories=len(texts),
                batch=args.batch,
                memories_per_s=round(rate, 1),
                share_of_embedding=round(rate / embed_rate, 3),
            )

        plain = {
            "GRAPHMEM_WRITE_INFER_FIELDS": "false",
            "GRAPHMEM_WRITE_BELIEF_CHECKS": "false",
            "GRAPHMEM_WRITE_LINK_GRAPH": "false",
            "GRAPHMEM_LLM": "none",
        }
        rates = {}
        for path, env in (("foundation", plain), ("full", {"GRAPHMEM_LLM": "none"})):
            with stack.api_server(target, env) as url, httpx.Client(base_url=url, timeout=300) as client:
                scope = f"/bench/rest-{path}"
                start = time.perf_counter()
                for i in range(0, len(texts), args.batch):
                    items = [{"text": t, "scope": scope} for t in texts[i : i + args.batch]]
                    client.post("/v1/memories/batch", json={"items": items}).raise_for_status()
                rates[path] = len(texts) / (time.perf_counter() - start)
                emit(
                    metric="rest_ingest_throughput",
                    write_path=path,
                    memories=len(texts),
                    batch=args.batch,
                    memories_per_s=round(rates[path], 1),
                    share_of_embedding=round(rates[path] / embed_rate, 3),
                )
                if path == "full":
                    emit(
                        metric="full_write_path_share_of_foundation",
                        share=round(rates["full"] / rates["foundation"], 3),
                    )
                    recall_latency(client, queries, scope, len(texts))


def recall_latency(client: httpx.Client, queries: list[str], scope: str, in_scope: int) -> None:
    """Recall p50/p95 through REST over ``queries`` in ``scope``."""
    for q in queries[:10]:
        client.post("/v1/recall", json={"query": q, "scope": scope})
    latencies = []
    for q in queries:
        t0 = time.perf_counter()
        client.post("/v1/recall", json={"query": q, "scope": scope, "limit": 10}).raise_for_status()
        latencies.append((time.perf_counter() - t0) * 1000)
    total = client.get("/v1/health").json()["counts"]["memories"]
    emit(
        metric="rest_recall_latency_ms",
        queries=len(latencies),
        memories_in_scope=in_scope,
        memories_in_graph=total,
        p50=round(statistics.median(latencies), 2),
        p95=round(percentile(latencies, 95), 2),
    )


if __name__ == "__main__":
    main()
