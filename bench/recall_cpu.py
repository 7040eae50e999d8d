"""Where a REST recall's API CPU goes, and how much it moves from one API process to the next.

    python -m bench.recall_cpu [--n 10000] [--rounds 3] [--variants this blas1] [--queries 200]
    python -m bench.recall_cpu --variants this before --before DIR   # another checkout's API

Builds N memories in user scopes of ~1,000 as bench.scale does (vectors cached by it) and holds
that graph; then, round after round, starts a fresh ``graphmem serve`` for each variant (the
variants' order alternating by round), warms it up as bench.scale does (``--warm-up`` recalls in
one user scope and across the graph), and sends the same ``--queries`` LoCoMo questions to it, one
user scope, one client. Every fresh process answers the very same questions, so what differs
between rounds is the process and the machine, never the work asked.

Per (round, variant), one JSON line: latency p50/p95, the API's CPU per recall (user + system,
from /proc) split by thread (named by its Python thread name, else its ``comm``, and its place
among the process's threads), minor page faults and context switches per recall, the garbage
collector's passes and their time (a sitecustomize hook loaded into the API), the hypervisor's
steal time, and two references of the machine's own speed taken just before
(bench.scale.host_speed: CPU time of a fixed pure-Python loop and of a MiniLM query embedding in
this process), so that a slower host shows as slower references, not as the API's doing.

Variants (environment of the API process):
  this        as ``graphmem serve`` runs
  blas1       OPENBLAS_NUM_THREADS=1 (numpy's matrix products on the calling thread)
  ort1        one onnxruntime intra-op thread for the query embedding (the hook replaces
              graphmem.embedding.onnx_minilm.default_threads before the embedder loads)
  freeze      gc.freeze() after the warm-up: what the warm-up left (caches) out of the passes
  before      as ``graphmem serve`` runs, from the checkout in ``--before DIR`` (``git archive
              <commit> | tar -x -C DIR``): the same questions to fresh processes of both commits
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx

from bench import locomo, scale, stack
from bench.ingest_recall import percentile
from bench.scale import emit
from graphmem.config import Settings
from graphmem.connect import open_memory
from graphmem.embedding.factory import create_embedder

VARIANTS: dict[str, dict[str, str]] = {
    "this": {},
    "blas1": {"OPENBLAS_NUM_THREADS": "1"},
    "ort1": {"RECALL_CPU_ORT_THREADS": "1"},
    "freeze": {},  # gc.freeze() after the warm-up (asked of the hook)
    "before": {},  # the API of the checkout in --before
}
SCOPE = "/scale/user0"
BLOCK = 50  # recalls per block of the within-process split

# Loaded into each API process (sitecustomize): the garbage collector's passes by generation and
# the time they took, written to a file beside it every half second for the bench to read.
GC_HOOK = """
import gc, json, os, threading, time
_stats = {"passes": [0, 0, 0], "ms": [0.0, 0.0, 0.0], "collected": [0, 0, 0]}
_began = {}
def _hook(phase, info):
    g = info["generation"]
    if phase == "start":
        _began[g] = time.perf_counter()
    else:
        _stats["passes"][g] += 1
        _stats["ms"][g] += (time.perf_counter() - _began.pop(g, time.perf_counter())) * 1000
        _stats["collected"][g] += info["collected"]
gc.callbacks.append(_hook)
if os.environ.get("RECALL_CPU_ORT_THREADS"):  # the embedder reads default_threads when it loads
    import graphmem.embedding.onnx_minilm as _onnx
    _threads = int(os.environ["RECALL_CPU_ORT_THREADS"])
    _onnx.default_threads = lambda cap=4: _threads
_out = os.path.join(os.environ["RECALL_CPU_GC_DIR"], f"{os.getpid()}.json")
def _write():
    while True:
        time.sleep(0.5)
        if os.path.exists(_out + ".freeze"):  # asked after the warm-up, in the freeze variant
            gc.freeze()
            os.remove(_out + ".freeze")
        if os.path.exists(_out + ".count"):  # asked once, after the measurement
            _stats["tracked"] = len(gc.get_objects())
            _stats["names"] = {t.native_id: t.name for t in threading.enumerate()}
            os.remove(_out + ".count")
        with open(_out + ".tmp", "w") as f:
            json.dump(_stats, f)
        os.replace(_out + ".tmp", _out)
threading.Thread(target=_write, daemon=True, name="gc-stats").start()
"""


def gc_stats(directory: Path, pid: int) -> dict[str, Any]:
    """The GC hook's latest figures for process ``pid`` (empty if it wrote none yet)."""
    try:
        stats: dict[str, Any] = json.loads((directory / f"{pid}.json").read_text())
    except (OSError, ValueError):
        return {}
    return stats


def api_pid(url: str) -> int:
    """The pid of the ``graphmem serve`` process listening at ``url``."""
    pid = scale.api_pid(url)
    if pid is None:
        raise RuntimeError(f"no graphmem serve process at {url}")
    return pid


def threads_cpu(pid: int) -> dict[int, tuple[str, float]]:
    """CPU time so far (ms) of every thread of ``pid``, by thread id, with its name."""
    out: dict[int, tuple[str, float]] = {}
    tick = 1000 / scale.os.sysconf("SC_CLK_TCK")
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
            name = (task / "comm").read_text().strip()
        except OSError:
            continue
        out[int(task.name)] = (name, (int(fields[11]) + int(fields[12])) * tick)
    return out


def process_counters(pid: int) -> dict[str, float]:
    """Minor faults, context switches and CPU (ms) so far of ``pid``."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    status = dict(
        line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines() if ":" in line
    )
    tick = 1000 / scale.os.sysconf("SC_CLK_TCK")
    return {
        "minflt": float(fields[7]),
        "cpu_ms": (int(fields[11]) + int(fields[12])) * tick,
        "voluntary_switches": float(status["voluntary_ctxt_switches"]),
        "involuntary_switches": float(status["nonvoluntary_ctxt_switches"]),
    }


def steal_ticks() -> int:
    """The machine's steal time so far (clock ticks, all CPUs), from /proc/stat."""
    return int(Path("/proc/stat").read_text().splitlines()[0].split()[8])


def measure(url: str, warm_up: list[str], queries: list[str], gc_dir: Path, freeze: bool) -> dict[str, Any]:
    """Warm the API at ``url`` up, then recall ``queries`` in one scope; latency, CPU and its split."""
    pid = api_pid(url)
    with httpx.Client(base_url=url, timeout=120) as client:
        for q in warm_up:
            client.post("/v1/recall", json={"query": q, "scope": SCOPE}).raise_for_status()
            client.post("/v1/recall", json={"query": q}).raise_for_status()
        if freeze:
            (gc_dir / f"{pid}.json.freeze").touch()
        time.sleep(1.0)
        before, threads_before, steal = process_counters(pid), threads_cpu(pid), steal_ticks()
        gc_before = gc_stats(gc_dir, pid)
        latencies, blocks = [], [before["cpu_ms"]]
        for i, q in enumerate(queries):
            if i and i % BLOCK == 0:
                blocks.append(process_counters(pid)["cpu_ms"])
            t0 = time.perf_counter()
            client.post("/v1/recall", json={"query": q, "scope": SCOPE, "limit": 10}).raise_for_status()
            latencies.append((time.perf_counter() - t0) * 1000)
        time.sleep(0.5)  # the background reinforcement of the last recalls
        after, threads_after, steal_after = process_counters(pid), threads_cpu(pid), steal_ticks()
        time.sleep(0.6)
        gc_after = gc_stats(gc_dir, pid)
        (gc_dir / f"{pid}.json.count").touch()
        time.sleep(1.0)
        final = gc_stats(gc_dir, pid)
        tracked, names = final.get("tracked"), final.get("names", {})
    n = len(queries)
    split: dict[str, float] = {}
    for place, tid in enumerate(sorted(threads_after)):
        name, ms = threads_after[tid]
        spent = (ms - threads_before.get(tid, (name, 0.0))[1]) / n
        if spent >= 0.05:
            split[f"{place}:{names.get(str(tid), name)}"] = round(spent, 2)
    return {
        "p50": round(statistics.median(latencies), 1),
        "p95": round(percentile(latencies, 95), 1),
        "api_cpu_ms_per_recall": round((after["cpu_ms"] - before["cpu_ms"]) / n, 2),
        # by blocks of BLOCK recalls in order (the last one with the reinforcement after it)
        "api_cpu_ms_per_recall_by_block": [
            round((b - a) / BLOCK, 2) for a, b in zip(blocks, [*blocks[1:], after["cpu_ms"]], strict=False)
        ],
        "threads": len(threads_after),
        "cpu_by_thread": split,
        "minor_faults_per_recall": round((after["minflt"] - before["minflt"]) / n, 1),
        "voluntary_switches_per_recall": round(
            (after["voluntary_switches"] - before["voluntary_switches"]) / n, 1
        ),
        "involuntary_switches_per_recall": round(
            (after["involuntary_switches"] - before["involuntary_switches"]) / n, 1
        ),
        "gc_passes": [
            a - b for a, b in zip(gc_after.get("passes", []), gc_before.get("passes", []), strict=True)
        ],
        "gc_ms_per_recall": [
            round((a - b) / n, 2)
            for a, b in zip(gc_after.get("ms", []), gc_before.get("ms", []), strict=True)
        ],
        "tracked_objects": tracked,
        "steal_ms_per_recall": round((steal_after - steal) * 1000 / scale.os.sysconf("SC_CLK_TCK") / n, 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--n", type=int, default=10_000)
    parser.add_argument("--per-scope", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--variants", nargs="+", default=["this"], choices=sorted(VARIANTS))
    parser.add_argument("--warm-up", type=int, default=200)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--settle", type=float, default=300.0, help="seconds to wait for a quiet Neo4j")
    parser.add_argument("--before", type=Path, help="checkout whose API the variant 'before' runs")
    args = parser.parse_args()
    if "before" in args.variants and args.before is None:
        parser.error("the variant 'before' needs --before DIR")

    texts = scale.corpus(args.n + 1000)[: args.n]
    questions = [str(item["question"]) for _, item in locomo.questions(locomo.load())]
    random.Random(7).shuffle(questions)
    warm_up, queries = questions[: args.warm_up], questions[args.warm_up : args.warm_up + args.queries]
    embedder = create_embedder("onnx")
    embedder.embed(["warm up"])
    vectors = scale.vectors_of(embedder, texts, embedder.model_name.replace("/", "_"))
    scopes = max(1, args.n // args.per_scope)
    emit(metric="setup", n=args.n, scopes=scopes, warm_up=args.warm_up, queries=args.queries)
    with stack.neo4j_server(heap=scale.HEAP, pagecache=scale.PAGECACHE) as (target, jvm):
        with open_memory(Settings(llm="none"), target, embedder=embedder) as memory:
            memory.prepare()
            scale.build(memory._executor, texts, vectors, scopes)
        scale.settle(jvm, args.settle)
        hook_dir = Path(tempfile.mkdtemp(prefix="recall-cpu-"))
        (hook_dir / "sitecustomize.py").write_text(GC_HOOK)
        hook_env = {
            "RECALL_CPU_GC_DIR": str(hook_dir),
            "PYTHONPATH": os.pathsep.join(p for p in (str(hook_dir), os.environ.get("PYTHONPATH")) if p),
        }
        for r in range(args.rounds):
            order = args.variants if r % 2 == 0 else args.variants[::-1]
            for variant in order:
                references = scale.host_speed(embedder)
                source = args.before if variant == "before" else None
                # the other checkout's graphmem first, then the hook (not this tree's path)
                env = {**hook_env, "PYTHONPATH": str(hook_dir)} if source is not None else hook_env
                with ExitStack() as servers:
                    url = servers.enter_context(
                        stack.api_server(target, {**stack.OFFLINE_API, **env, **VARIANTS[variant]}, source)
                    )
                    result = measure(url, warm_up, queries, hook_dir, variant == "freeze")
                emit(metric="recall_cpu", round=r, variant=variant, n=args.n, **references, **result)


if __name__ == "__main__":
    main()
