"""Embedding speed: single-query latency and batch throughput, per embedder, as JSON lines.

Run: ``python -m bench.embedding_speed [--threads N] [--queries 200] [--texts 2000]``.
Measures the ONNX embedder always and the sentence-transformers one when it is importable; when
both run, also their cosine agreement over ``--agreement`` texts. The texts are generated here,
deterministically, in the mix of lengths an agent's memories have (mostly one sentence, some
paragraphs, a few longer than the model's 256-token window). Single-text latency is timed on
one-sentence queries (what recall embeds) and on as many of the mixed texts (what a write embeds).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import platform
import random
import statistics
import time
from collections.abc import Sequence
from typing import Any

import numpy as np

from graphmem.embedding import Embedder, OnnxMiniLMEmbedder, SentenceTransformerEmbedder
from graphmem.embedding.base import default_threads

_PEOPLE = ["Alice", "Bob", "Chen", "Dana", "Emeka", "Farah", "Grace", "Hiro", "Ines", "Jonas"]
_PLACES = ["Berlin", "Lisbon", "Nairobi", "Osaka", "Toronto", "the office", "the lake house"]
_THINGS = [
    "green tea",
    "the Postgres migration",
    "a standing desk",
    "the quarterly report",
    "sourdough bread",
    "the Rust rewrite",
    "trail running",
    "the new onboarding flow",
    "jazz records",
    "the deploy pipeline",
]
_TEMPLATES = [
    "{p} prefers {t} over everything else.",
    "{p} moved to {l} last {w}.",
    "Remember that {p} is allergic to {t}.",
    "We decided to postpone {t} until after the {w} review.",
    "{p} said the problem with {t} was the lack of tests.",
    "On {d}, {p} met {q} in {l} to talk about {t}.",
    "{p} and {q} disagree about whether {t} is worth the cost.",
    "The user asked me to stop suggesting {t}.",
    "{p} finished {t} two days late because {q} was sick.",
    "If {p} asks about {t} again, point to the notes from {l}.",
]
_WHEN = ["week", "month", "year", "spring", "autumn"]
_DAYS = ["Monday", "Tuesday", "Friday", "the 3rd of May", "New Year's Eve"]


def _sentence(rng: random.Random) -> str:
    p, q = rng.sample(_PEOPLE, 2)
    return rng.choice(_TEMPLATES).format(
        p=p,
        q=q,
        l=rng.choice(_PLACES),
        t=rng.choice(_THINGS),
        w=rng.choice(_WHEN),
        d=rng.choice(_DAYS),
    )


def generate_texts(count: int, seed: int = 7) -> list[str]:
    """``count`` varied memory-like texts: 60% one sentence, 30% 2-4, 10% a 10-30 sentence text."""
    rng = random.Random(seed)
    texts = []
    for _ in range(count):
        roll = rng.random()
        n = 1 if roll < 0.6 else rng.randint(2, 4) if roll < 0.9 else rng.randint(10, 30)
        texts.append(" ".join(_sentence(rng) for _ in range(n)))
    return texts


def generate_queries(count: int, seed: int = 11) -> list[str]:
    """``count`` one-sentence texts, the size of a recall query."""
    rng = random.Random(seed)
    return [_sentence(rng) for _ in range(count)]


def _latency_ms(embedder: Embedder, texts: list[str]) -> dict[str, float]:
    """p50/p95/mean milliseconds of ``embed_one`` over ``texts``, one call each."""
    latencies = []
    for text in texts:
        t0 = time.perf_counter()
        embedder.embed_one(text)
        latencies.append((time.perf_counter() - t0) * 1000)
    return {
        "n": len(latencies),
        "p50": round(percentile(latencies, 50), 2),
        "p95": round(percentile(latencies, 95), 2),
        "mean": round(statistics.fmean(latencies), 2),
    }


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (0..100) of ``values``."""
    return float(np.percentile(np.asarray(values), q))


def measure(name: str, embedder: Embedder, queries: list[str], batch: list[str]) -> dict[str, Any]:
    """Load time, single-text latency (one-sentence queries, then mixed memories), batch throughput."""
    started = time.perf_counter()
    embedder.embed(["warm up"])
    load_s = time.perf_counter() - started
    embedder.embed(batch[:64])  # first real batch allocates the larger buffers
    query_latency = _latency_ms(embedder, queries)
    memory_latency = _latency_ms(embedder, batch[: len(queries)])
    t0 = time.perf_counter()
    embedder.embed(batch)
    batch_s = time.perf_counter() - t0
    return {
        "embedder": name,
        "variant": getattr(embedder, "variant", None),
        "model_name": embedder.model_name,
        "load_and_first_call_s": round(load_s, 3),
        "query_latency_ms": query_latency,
        "mixed_text_latency_ms": memory_latency,
        "batch": {
            "n": len(batch),
            "seconds": round(batch_s, 3),
            "texts_per_s": round(len(batch) / batch_s, 1),
        },
    }


def agreement(a: Embedder, b: Embedder, texts: list[str]) -> dict[str, Any]:
    """Row-wise cosine between two embedders' vectors for the same texts."""
    cosines = np.sum(a.embed(texts) * b.embed(texts), axis=1)
    return {
        "metric": "cosine_agreement",
        "n": len(texts),
        "mean": round(float(cosines.mean()), 5),
        "min": round(float(cosines.min()), 5),
        "p1": round(percentile(cosines.tolist(), 1), 5),
    }


def main() -> None:
    """Run the benchmark and print one JSON object per line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--threads", type=int, default=None, help="inference threads")
    parser.add_argument("--queries", type=int, default=200, help="single-text calls to time")
    parser.add_argument("--texts", type=int, default=2000, help="texts in the throughput batch")
    parser.add_argument("--agreement", type=int, default=500, help="texts for onnx-vs-torch cosine")
    args = parser.parse_args()

    threads = args.threads or default_threads()
    queries = generate_queries(args.queries, seed=1)
    batch = generate_texts(args.texts, seed=2)
    env = {
        "python": platform.python_version(),
        "cpus": os.cpu_count(),
        "threads": threads,
        "mean_chars": round(statistics.fmean(len(t) for t in batch), 1),
    }
    embedders: dict[str, Embedder] = {"onnx": OnnxMiniLMEmbedder(threads=threads)}
    if importlib.util.find_spec("sentence_transformers") is not None:
        embedders["sentence-transformers"] = SentenceTransformerEmbedder(threads=threads)
    else:
        print(json.dumps({"bench": "embedding_speed", "skipped": "sentence-transformers"}))
    for name, embedder in embedders.items():
        record = {"bench": "embedding_speed", **env, **measure(name, embedder, queries, batch)}
        print(json.dumps(record), flush=True)
    if "sentence-transformers" in embedders:
        pair = embedders["onnx"], embedders["sentence-transformers"]
        result = agreement(*pair, generate_texts(args.agreement, seed=3))
        print(json.dumps({"bench": "embedding_speed", **result}), flush=True)


if __name__ == "__main__":
    main()
