"""CPU and wall time of the belief check's pair readers per call, in process: the frozen reader
(beliefs/pair_reader.py: the whole MiniLM graph, then a pooled head) and the tuned one
(beliefs/pair_tuned.py: the graph cut below its top layer, then that layer and the head in numpy).

The check reads only the pairs the judge leaves to the readers, most often one to three for a new
statement, so calls of 1 and 3 pairs are timed, on training pairs (bench/train/), each reader warmed
up first. One JSON line per reader and call size.

    python -m bench.pair_reader_speed [--calls 200] [--threads 1]
"""

from __future__ import annotations

import argparse
import json
import os
import time

from bench.train_belief_head import training_pairs
from graphmem.beliefs.pair_reader import PairReading, shipped_reader
from graphmem.beliefs.pair_tuned import shipped_tuned_reader
from graphmem.embedding.onnx_minilm import OnnxMiniLMEmbedder


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument("--threads", type=int, default=1, help="onnxruntime's intra-op threads")
    args = parser.parse_args()
    pairs = [(p["old"], p["new"]) for p in training_pairs(parts="abcdef")]
    embedder = OnnxMiniLMEmbedder(threads=args.threads)
    embedder.load()
    readers: dict[str, PairReading | None] = {"frozen": shipped_reader(), "tuned": shipped_tuned_reader()}
    for name, reader in readers.items():
        if reader is None:
            continue
        for size in (1, 3):
            calls = [pairs[(i * 7919) % len(pairs) :][:size] for i in range(args.calls)]
            reader.update_probability(embedder, calls[0], [0.5] * size)  # warm-up (cuts the graph)
            cpu, wall = time.process_time(), time.perf_counter()
            for call in calls:
                reader.update_probability(embedder, call, [0.5] * size)
            cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
            row = {
                "bench": "pair_reader_speed",
                "reader": name,
                "pairs_per_call": size,
                "calls": args.calls,
                "cpu_ms_per_call": round(1000 * cpu / args.calls, 2),
                "wall_ms_per_call": round(1000 * wall / args.calls, 2),
                "threads": args.threads,
                "load": round(os.getloadavg()[0], 1),
            }
            print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
