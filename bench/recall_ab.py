"""Recall of two checkouts side by side, in process, on one graph: latency, and the CPU each
recall costs the client and Neo4j (a figure the load of a shared machine barely moves).

    python -m bench.recall_ab --before DIR [--n 10000] [--queries 100] [--scope /scale/user0]

DIR holds another commit (``git archive <commit> | tar -x -C DIR``). Builds N memories in user
scopes of ~1,000 as bench.scale does, starts one worker process per checkout (``Memory.recall``
in process, reinforce off), and sends each LoCoMo question, none twice, to both in turn,
alternating which goes first; Neo4j's CPU is read from /proc around blocks of ``BLOCK`` recalls
of one worker at a time. Prints one JSON line per checkout and how many answers differed (ids,
or a score by more than 1e-5), how many differ by their ids in order, and the largest score
difference among those that do not.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import IO, Any

from bench import locomo, scale, stack
from bench.ingest_recall import percentile
from bench.scale import emit
from graphmem.config import Settings
from graphmem.connect import Neo4jTarget, open_memory
from graphmem.embedding.factory import create_embedder

BLOCK = 10  # recalls of one worker between two readings of Neo4j's CPU time
WARM_UP = 10


def cpu_ms(pid: int) -> float:
    """User + system CPU time of process ``pid`` so far, in milliseconds (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * 1000 / os.sysconf("SC_CLK_TCK")


def worker() -> None:
    """Recall each JSON line of stdin ({query, scope}) and answer a JSON line with its ms, CPU ms
    and results; the target comes from GRAPHMEM_NEO4J_* as for ``graphmem serve``."""
    settings = Settings(llm="none")
    password = settings.neo4j_password.get_secret_value() if settings.neo4j_password else ""
    target = Neo4jTarget(settings.neo4j_uri or "", settings.neo4j_user, password, settings.neo4j_database)
    embedder = create_embedder("onnx")
    embedder.embed(["warm up"])
    with open_memory(settings, target, embedder=embedder) as memory:
        memory.prepare()
        print("ready", flush=True)
        for line in sys.stdin:
            asked = json.loads(line)
            started, cpu = time.perf_counter(), time.process_time()
            found = memory.recall(asked["query"], scope=asked["scope"], reinforce=False)
            answer = {
                "ms": (time.perf_counter() - started) * 1000,
                "cpu_ms": (time.process_time() - cpu) * 1000,
                "ids": [r.id for r in found.results],
                "scores": [r.score for r in found.results],
            }
            print(json.dumps(answer), flush=True)


class Worker:
    """A worker process running the graphmem of ``source``."""

    def __init__(self, source: Path, target: Neo4jTarget) -> None:
        env = {
            **os.environ,
            "PYTHONPATH": str(source),
            "GRAPHMEM_NEO4J_URI": target.uri,
            "GRAPHMEM_NEO4J_USER": target.user,
            "GRAPHMEM_NEO4J_PASSWORD": target.password,
        }
        # This file runs as a script (the other checkout may not have it), its graphmem from source.
        self.process = subprocess.Popen(
            [sys.executable, str(Path(__file__).resolve()), "--worker"],
            cwd=source,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        if self._out.readline().strip() != "ready":
            raise RuntimeError(f"the worker of {source} did not start")

    @property
    def _out(self) -> IO[str]:
        assert self.process.stdout is not None
        return self.process.stdout

    def recall(self, query: str, scope: str | None) -> dict[str, Any]:
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps({"query": query, "scope": scope}) + "\n")
        self.process.stdin.flush()
        answer: dict[str, Any] = json.loads(self._out.readline())
        return answer

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait(timeout=60)


def differs(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Whether two answers to one query differ (ids, or a score by more than 1e-5)."""
    if a["ids"] != b["ids"]:
        return True
    return any(abs(x - y) > 1e-5 for x, y in zip(a["scores"], b["scores"], strict=True))


def compare(workers: dict[str, Worker], queries: list[str], scope: str | None, java: int | None) -> None:
    """Ask ``queries`` of every worker in blocks, alternating their order; print the figures."""
    for q in queries[:WARM_UP]:
        for w in workers.values():
            w.recall(q, scope)
    asked = queries[WARM_UP:]
    answers: dict[str, list[dict[str, Any]]] = {name: [] for name in workers}
    neo4j_ms = dict.fromkeys(workers, 0.0)
    for n, start in enumerate(range(0, len(asked), BLOCK)):
        block = asked[start : start + BLOCK]
        for name in list(workers) if n % 2 == 0 else list(workers)[::-1]:
            before = cpu_ms(java) if java else 0.0
            answers[name] += [workers[name].recall(q, scope) for q in block]
            neo4j_ms[name] += (cpu_ms(java) - before) if java else 0.0
    first, second = list(workers)
    pairs = list(zip(answers[first], answers[second], strict=True))
    changed = sum(differs(a, b) for a, b in pairs)
    # A change of the query's vector at the 7th decimal moves scores by ~1e-5 without reordering
    # anything: the ids in order, and the largest score difference where they agree, tell apart.
    reordered = sum(a["ids"] != b["ids"] for a, b in pairs)
    same = [(a["scores"], b["scores"]) for a, b in pairs if a["ids"] == b["ids"]]
    moved = [abs(x - y) for xs, ys in same for x, y in zip(xs, ys, strict=True)]
    for query, (a, b) in zip(asked, pairs, strict=True):
        if a["ids"] != b["ids"]:  # each to explain: the two orders with their scores
            emit(
                metric="recall_ab_reordered",
                where=scope or "whole graph",
                query=query,
                **{first: list(zip(a["ids"], a["scores"], strict=True))},
                **{second: list(zip(b["ids"], b["scores"], strict=True))},
            )
    for name, got in answers.items():
        ms = [a["ms"] for a in got]
        emit(
            metric="recall_ab",
            where=scope or "whole graph",
            variant=name,
            queries=len(got),
            p50_ms=round(statistics.median(ms), 1),
            p95_ms=round(percentile(ms, 95), 1),
            client_cpu_ms_per_recall=round(statistics.mean(a["cpu_ms"] for a in got), 2),
            neo4j_cpu_ms_per_recall=round(neo4j_ms[name] / len(got), 2) if java else None,
            answers_differing=changed,
            ids_differing=reordered,
            max_score_difference=float(f"{max(moved, default=0.0):.2g}"),
            median_score_difference=float(f"{statistics.median(moved) if moved else 0.0:.2g}"),
        )


def main() -> None:
    raw = argparse.RawDescriptionHelpFormatter
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=raw)
    parser.add_argument("--before", type=Path, help="checkout of the commit to compare with")
    parser.add_argument("--n", type=int, default=10_000)
    parser.add_argument("--per-scope", type=int, default=1000)
    parser.add_argument("--queries", type=int, default=100, help="questions per place")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker()
        return
    if args.before is None:
        parser.error("--before DIR is required")
    texts = scale.corpus(args.n + 1000)[: args.n]
    questions = [str(item["question"]) for _, item in locomo.questions(locomo.load())]
    random.Random(7).shuffle(questions)
    each = WARM_UP + args.queries
    embedder = create_embedder("onnx")
    vectors = scale.vectors_of(embedder, texts, embedder.model_name.replace("/", "_"))
    with stack.neo4j_server(heap=scale.HEAP, pagecache=scale.PAGECACHE) as (target, java):
        with open_memory(Settings(llm="none"), target, embedder=embedder) as memory:
            memory.prepare()
            scale.build(memory._executor, texts, vectors, max(1, args.n // args.per_scope))
        scale.settle(java, scale.SETTLE_SECONDS)  # the build's aftermath is not a recall's CPU
        workers = {"before": Worker(args.before, target), "after": Worker(Path.cwd(), target)}
        try:
            for i, scope in enumerate(["/scale/user0", None]):
                compare(workers, questions[i * each : (i + 1) * each], scope, java)
        finally:
            for w in workers.values():
                w.close()


if __name__ == "__main__":
    main()
