"""The fused MiniLM graph (embedding/onnx_fusion.py) beside the plain one, as JSON lines.

    python -m bench.embedding_fusion [--texts 1000] [--queries 300] [--threads N]

- agreement: cosine of every vector of ``--texts`` LoCoMo memory texts (embedded in batches, as
  writes are: padding included) and of ``--queries`` LoCoMo questions, fused against plain; the
  fused graph must keep them >= 0.9999 (the vectors in users' graphs were made by the plain one).
- query speed: one question at a time, as recall embeds it, both embedders in turn on each
  question (a shared machine moves both alike); p50 and mean ms, and the median of the paired
  differences.
- load: seconds to load each embedder (the fused one rewrites its graph at load).
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from bench import locomo
from bench.scale import emit
from graphmem.embedding import OnnxMiniLMEmbedder


def _loaded(fuse: bool, threads: int | None) -> tuple[OnnxMiniLMEmbedder, float]:
    embedder = OnnxMiniLMEmbedder(fuse=fuse, threads=threads)
    t0 = time.perf_counter()
    embedder.load()
    return embedder, time.perf_counter() - t0


def main() -> None:
    """Measure and print the agreement, the speed of a query and the load time."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--texts", type=int, default=1000)
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--threads", type=int, default=None, help="onnxruntime threads (default: as the API)")
    args = parser.parse_args()
    data = locomo.load()
    texts = locomo.corpus_texts(data, args.texts)
    questions = list(dict.fromkeys(str(item["question"]) for _, item in locomo.questions(data)))[
        : args.queries
    ]
    plain, plain_load = _loaded(False, args.threads)
    fused, fused_load = _loaded(True, args.threads)
    emit(
        metric="embedding_fusion_load",
        plain_s=round(plain_load, 3),
        fused_s=round(fused_load, 3),
        fused=fused.fused,
    )
    for name, items in (("memory texts", texts), ("questions", questions)):
        cosines = np.sum(plain.embed(items) * fused.embed(items), axis=1)
        emit(
            metric="embedding_fusion_agreement",
            texts=name,
            n=len(items),
            min_cosine=round(float(cosines.min()), 7),
            mean_cosine=round(float(cosines.mean()), 7),
        )
    for text in questions[:20]:  # warm-up
        plain.embed_one(text)
        fused.embed_one(text)
    times: dict[str, list[float]] = {"plain": [], "fused": []}
    for i, text in enumerate(questions):
        order = [("plain", plain), ("fused", fused)]
        for name, embedder in order if i % 2 else order[::-1]:
            t0 = time.perf_counter()
            embedder.embed_one(text)
            times[name].append((time.perf_counter() - t0) * 1000)
    diffs = [f - p for p, f in zip(times["plain"], times["fused"], strict=True)]
    emit(
        metric="embedding_fusion_query_ms",
        queries=len(questions),
        plain_p50=round(statistics.median(times["plain"]), 3),
        fused_p50=round(statistics.median(times["fused"]), 3),
        plain_mean=round(statistics.fmean(times["plain"]), 3),
        fused_mean=round(statistics.fmean(times["fused"]), 3),
        paired_diff_p50=round(statistics.median(diffs), 3),
    )


if __name__ == "__main__":
    main()
