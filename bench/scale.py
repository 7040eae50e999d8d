"""Scale benchmark: recall latency, ingest rate and memory at N memories, through REST.

    python -m bench.scale                       # 10k memories in user scopes of ~1,000
    python -m bench.scale --n 100000            # 100k (about 100 user scopes)
    python -m bench.scale --n 1000000           # 1M: needs a few GB of heap and hours to embed
    python -m bench.scale --layout one          # everything in one scope
    python -m bench.scale --consolidate         # also time one nightly consolidation (slow)
    python -m bench.scale --compare-cache       # recall without and with the vector cache, interleaved
    python -m bench.scale --compare-with DIR    # recall and REST ingest of the checkout in DIR (before)
                                                # and this one, interleaved
    python -m bench.scale --ingest-only         # skip the recall measurements

Every number is a JSON line carrying the machine's load average (``load``) at that moment.
- corpus: LoCoMo turns (read in place from ../shared/data), then combinations of two turns of
  different conversations (one speaker's line followed by another's), never a repeated text.
- embedding floor: MiniLM (ONNX) encoding of the REST sample texts, in batches as REST takes them.
- build: the N memories written straight through the create query with their MiniLM vectors
  (cached in the temp directory by N), so 100k builds in minutes rather than hours.
- settle: after the build, the managed Neo4j keeps working for minutes with nothing asked of it
  (after 100k memories built in 113 s, about half a core for 3 minutes at load 7); one-scope recall
  measured meanwhile is the import's aftermath (10-recall probes p50 12-57 ms, 12-14 ms once
  quiet; the merge of the vector index's HNSW graph). After the warm-up, recall is measured once
  the JVM is quiet in 3 windows of 5 s in a row (``--settle``), as a server that has held its
  memories a while answers; each window is one JSON line with the JVM's share of a core and a
  probe's p50.
- rest_ingest: the REST batch endpoint (default write path, ``graphmem serve``) on the sample,
  beside the floor of the same texts; API RSS after it (from /proc).
- recall: p50/p95/p99 of POST /v1/recall, 1 and 10 concurrent clients, in one user scope and
  across the whole graph; LoCoMo questions as queries, a different set for each of the four
  measurements and for the warm-up (the API keeps the vectors of queries it saw: a repeated
  query would skip its embedding); and the API process's CPU time per recall (from /proc, with
  its background reinforcement): unlike latency, a busy machine barely moves it.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import neo4j
import numpy as np

from bench import locomo, stack
from bench.consolidation import load
from bench.ingest_recall import percentile
from graphmem.config import Settings
from graphmem.connect import Neo4jTarget, open_memory
from graphmem.embedding.base import Embedder
from graphmem.embedding.factory import create_embedder
from graphmem.store.executor import QueryExecutor

HEAP = "2g"
PAGECACHE = "1g"
BATCH = 500


def emit(**fields: Any) -> None:
    """Print one JSON line, with the 1-minute load average of the machine."""
    print(json.dumps({**fields, "load": round(os.getloadavg()[0], 2)}, default=str), flush=True)


def corpus(n: int, seed: int = 14) -> list[str]:
    """``n`` distinct chat texts: LoCoMo turns, then two turns of different conversations joined."""
    data = locomo.load()
    turns = list(locomo.turns(data))
    seen: dict[str, None] = {}
    for t in turns:
        seen.setdefault(f"{t.speaker}: {t.text}", None)
    rng = random.Random(seed)
    while len(seen) < n:
        a, b = rng.choice(turns), rng.choice(turns)
        if a.conversation == b.conversation:
            continue
        seen.setdefault(f"{a.speaker}: {a.text} {b.speaker}: {b.text}", None)
    texts = list(seen)[:n]
    rng.shuffle(texts)
    return texts


def vectors_of(embedder: Embedder, texts: list[str], tag: str) -> np.ndarray:
    """MiniLM vectors of ``texts``, cached in the temp directory (embedding 100k takes long)."""
    cache = Path(tempfile.gettempdir()) / f"graphmem-bench-scale-{tag}-{len(texts)}.npy"
    if cache.exists():
        cached: np.ndarray = np.load(cache)
        return cached
    started = time.perf_counter()
    vectors = np.concatenate([embedder.embed(texts[i : i + BATCH]) for i in range(0, len(texts), BATCH)])
    emit(metric="build_embedding", texts=len(texts), seconds=round(time.perf_counter() - started, 1))
    np.save(cache, vectors)
    return vectors


def build(executor: QueryExecutor, texts: list[str], vectors: np.ndarray, scopes: int) -> None:
    """Write episodic memories straight through the create query (no write-path checks)."""
    began = time.perf_counter()
    load(
        executor,
        texts,
        vectors,
        scopes,
        datetime(2025, 1, 1, tzinfo=UTC),
        scope_prefix="/scale/user",
        categories=(),
        page=2000,
    )
    emit(metric="build", memories=len(texts), scopes=scopes, seconds=round(time.perf_counter() - began, 1))


def rss_mb(parent: int, url: str | None = None) -> float | None:
    """Resident memory of the ``graphmem serve`` child of ``parent`` (MB), from /proc; with ``url``,
    of the one serving it."""
    port = f"--port {url.rsplit(':', 1)[1]}" if url else ""
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        if ppid == parent and "graphmem.cli serve" in cmdline and port in cmdline:
            for line in (entry / "status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    return round(int(line.split()[1]) / 1024, 1)
    return None


def api_pid(url: str) -> int | None:
    """The pid of the ``graphmem serve`` process listening at ``url``; None if there is none."""
    port = url.rsplit(":", 1)[1]
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        if "graphmem.cli serve" in cmdline and f"--port {port} " in f"{cmdline} ":
            return int(entry.name)
    return None


def api_cpu_ms(url: str) -> float | None:
    """User + system CPU time so far of the ``graphmem serve`` process listening at ``url`` (ms),
    from /proc: with two APIs taking the same queries in turn, the CPU each one spends per recall
    is its own, whatever the rest of the machine does."""
    pid = api_pid(url)
    seconds = process_cpu_seconds(pid) if pid is not None else None
    return seconds * 1000 if seconds is not None else None


def process_cpu_seconds(pid: int) -> float | None:
    """User + system CPU time so far of process ``pid`` (seconds, from /proc); None if it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


QUIET_SHARE = 0.05  # of one core: an idle Neo4j JVM uses under 1 % here
QUIET_WINDOW = 5.0  # seconds
# Quiet windows in a row that end the wait: right after a 100k build the JVM idled at 8-11 % of a
# core for 10 s before the vector index's merge began (and took half a core for minutes).
QUIET_WINDOWS = 3
PROBES = 10  # one-scope recalls sent between two quiet windows while Neo4j settles
SETTLE_SECONDS = 600.0  # the longest wait for a quiet Neo4j after a build


def settle(pid: int | None, timeout: float, probe: Callable[[], list[float]] | None = None) -> None:
    """Wait until the Neo4j JVM ``pid`` uses under :data:`QUIET_SHARE` of a core in
    :data:`QUIET_WINDOWS` windows in a row of :data:`QUIET_WINDOW` seconds in which nothing is
    asked of it (at most ``timeout`` seconds). After each window, ``probe`` (recall latencies in
    ms) runs, outside the windows; a JSON line per window says how busy the JVM was and the
    probe's median, then one line how long settling took. Nothing for a server not started here."""
    if pid is None or timeout <= 0:
        return
    began, in_a_row = time.monotonic(), 0
    while True:
        before = process_cpu_seconds(pid)
        time.sleep(QUIET_WINDOW)
        after = process_cpu_seconds(pid)
        if before is None or after is None:
            return
        share, waited = (after - before) / QUIET_WINDOW, time.monotonic() - began
        in_a_row = in_a_row + 1 if share < QUIET_SHARE else 0
        quiet = in_a_row >= QUIET_WINDOWS
        latencies = probe() if probe is not None else []
        emit(
            metric="neo4j_settling",
            seconds=round(waited, 1),
            jvm_share_of_core=round(share, 3),
            probe_p50_ms=round(statistics.median(latencies), 1) if latencies else None,
        )
        if quiet or waited >= timeout:
            emit(metric="neo4j_settled", seconds=round(waited, 1), quiet=quiet)
            return


def probe_recalls(url: str, queries: list[str], scope: str) -> Callable[[], list[float]]:
    """A probe for :func:`settle`: the next :data:`PROBES` of ``queries`` recalled in ``scope``
    through ``url`` (ms each; none once the queries are used up)."""
    left = iter(queries)

    def probe() -> list[float]:
        out = []
        with httpx.Client(base_url=url, timeout=120) as client:
            for q in itertools.islice(left, PROBES):
                t0 = time.perf_counter()
                client.post("/v1/recall", json={"query": q, "scope": scope, "limit": 10}).raise_for_status()
                out.append((time.perf_counter() - t0) * 1000)
        return out

    return probe


def neo4j_memory(target: Neo4jTarget) -> dict[str, str]:
    """Neo4j's heap and page cache settings as the server reports them."""
    with neo4j.GraphDatabase.driver(target.uri, auth=(target.user, target.password)) as driver:
        records, _, _ = driver.execute_query(
            "SHOW SETTINGS YIELD name, value WHERE name STARTS WITH 'server.memory.' RETURN name, value"
        )
        return {str(r["name"]): str(r["value"]) for r in records}


def rest_ingest(client: httpx.Client, embedder: Embedder, texts: list[str], scope: str) -> None:
    """REST batch ingest of ``texts`` beside the MiniLM floor of the same texts, same batches."""
    started = time.perf_counter()
    for i in range(0, len(texts), BATCH):
        embedder.embed(texts[i : i + BATCH])
    floor = len(texts) / (time.perf_counter() - started)
    emit(metric="embedding_floor", texts=len(texts), texts_per_s=round(floor, 1))
    started = time.perf_counter()
    for i in range(0, len(texts), BATCH):
        items = [{"text": t, "scope": scope} for t in texts[i : i + BATCH]]
        client.post("/v1/memories/batch", json={"items": items}).raise_for_status()
    rate = len(texts) / (time.perf_counter() - started)
    emit(
        metric="rest_ingest",
        memories=len(texts),
        batch=BATCH,
        memories_per_s=round(rate, 1),
        floor_per_s=round(floor, 1),
        share_of_floor=round(rate / floor, 3),
        api_rss_mb=rss_mb(os.getpid()),
    )


def rest_ingest_compare(urls: dict[str, str], embedder: Embedder, texts: list[str]) -> None:
    """:func:`rest_ingest` through each API of ``urls`` (before/after) and the floor, batch by
    batch in turn (alternating which API goes first), each API into a scope of its own, so the
    machine's load weighs on all alike; each API takes a few untimed texts first (its models load
    on first use)."""
    spent = {name: 0.0 for name in ["floor", *urls]}
    cpu = {name: 0.0 for name in ["floor", *urls]}  # CPU seconds: the floor's here, each API's its own
    clients = {name: httpx.Client(base_url=url, timeout=600) for name, url in urls.items()}
    try:
        for name, client in clients.items():  # untimed: each API loads its models (spaCy) first
            warm = [
                {"text": f"Warm-up {i}: we meet again next Friday at {i} pm.", "scope": f"/scale/warm-{name}"}
                for i in range(1, 6)
            ]
            client.post("/v1/memories/batch", json={"items": warm}).raise_for_status()
        for n, i in enumerate(range(0, len(texts), BATCH)):
            part = texts[i : i + BATCH]
            started, cpu_started = time.perf_counter(), time.process_time()
            embedder.embed(part)
            spent["floor"] += time.perf_counter() - started
            cpu["floor"] += time.process_time() - cpu_started
            for name in list(urls) if n % 2 == 0 else list(urls)[::-1]:
                items = [{"text": t, "scope": f"/scale/rest-{name}"} for t in part]
                api_started = api_cpu_ms(urls[name]) or 0.0
                started = time.perf_counter()
                clients[name].post("/v1/memories/batch", json={"items": items}).raise_for_status()
                spent[name] += time.perf_counter() - started
                cpu[name] += ((api_cpu_ms(urls[name]) or 0.0) - api_started) / 1000
    finally:
        for client in clients.values():
            client.close()
    floor = len(texts) / spent["floor"]
    for name, url in urls.items():
        rate = len(texts) / spent[name]
        emit(
            metric="rest_ingest",
            variant=name,
            memories=len(texts),
            batch=BATCH,
            memories_per_s=round(rate, 1),
            floor_per_s=round(floor, 1),
            share_of_floor=round(rate / floor, 3),
            # CPU beside the floor's: barely moved by the rest of the machine, unlike the rates
            api_cpu_over_floor_cpu=round(cpu[name] / cpu["floor"], 3) if cpu["floor"] else None,
            api_rss_mb=rss_mb(os.getpid(), url),
        )


REFERENCE_TEXTS = [f"What did speaker {i} say about the trip to the lake last summer?" for i in range(10)]


def host_speed(embedder: Embedder | None = None) -> dict[str, float]:
    """The machine's speed at this moment, as CPU time of fixed work in this process: a pure-Python
    loop (ms) and, with ``embedder``, one MiniLM query embedding (ms, the mean of ten). Beside an
    API's CPU per recall they tell a slower host (both references up too) from a slower API (not):
    three idle runs of one code measured 10.2 / 18.8 / 13.6 ms of API CPU per recall."""
    started = time.process_time()
    total = 0
    for i in range(300_000):
        total += i % 7
    out = {"host_python_loop_cpu_ms": round((time.process_time() - started) * 1000, 2)}
    if embedder is not None:
        started = time.process_time()
        for text in REFERENCE_TEXTS:
            embedder.embed([text])
        out["host_embedding_cpu_ms"] = round((time.process_time() - started) * 1000 / len(REFERENCE_TEXTS), 2)
    return out


def recall_latency(
    urls: dict[str, str],
    queries: list[str],
    scope: str | None,
    clients: int,
    label: str,
    embedder: Embedder | None = None,
) -> None:
    """p50/p95/p99 of REST recall with ``clients`` concurrent clients over ``queries``, through each
    API of ``urls`` (variants: vector cache off/on, or before/after): every client sends each query
    to all of them in turn, alternating which goes first, so the machine's load weighs on each alike.
    Each line carries :func:`host_speed` taken just before (``embedder``: the embedding reference)."""

    def run(part: list[str]) -> dict[str, list[float]]:
        out: dict[str, list[float]] = {cache: [] for cache in urls}
        clients_by = {cache: httpx.Client(base_url=url, timeout=120) for cache, url in urls.items()}
        try:
            for i, q in enumerate(part):
                body: dict[str, Any] = {"query": q, "limit": 10}
                if scope is not None:
                    body["scope"] = scope
                order = list(urls) if i % 2 == 0 else list(urls)[::-1]
                for cache in order:
                    t0 = time.perf_counter()
                    clients_by[cache].post("/v1/recall", json=body).raise_for_status()
                    out[cache].append((time.perf_counter() - t0) * 1000)
        finally:
            for client in clients_by.values():
                client.close()
        return out

    parts = [queries[i::clients] for i in range(clients)]
    host = host_speed(embedder)
    cpu_before = {cache: api_cpu_ms(url) for cache, url in urls.items()}
    with ThreadPoolExecutor(clients) as pool:
        done = list(pool.map(run, parts))
    time.sleep(0.5)  # the background reinforcement of the last recalls
    for cache in urls:
        latencies = [x for d in done for x in d[cache]]
        before, after = cpu_before[cache], api_cpu_ms(urls[cache])
        emit(
            metric="rest_recall_ms",
            where=label,
            variant=cache,
            clients=clients,
            queries=len(latencies),
            p50=round(statistics.median(latencies), 1),
            p95=round(percentile(latencies, 95), 1),
            p99=round(percentile(latencies, 99), 1),
            api_cpu_ms_per_recall=None
            if before is None or after is None
            else round((after - before) / len(latencies), 2),
            **host,
        )


WARM_UP = 10  # --warm-up: queries sent to each API before the measurements


def warm(urls: dict[str, str], queries: list[str]) -> None:
    """Recall each of ``queries`` in one user scope and across the graph through each API of
    ``urls``: caches, Neo4j's and the JVM's JIT, the embedder."""
    for url in urls.values():
        with httpx.Client(base_url=url, timeout=600) as client:
            for q in queries:
                client.post("/v1/recall", json={"query": q, "scope": "/scale/user0"})
                client.post("/v1/recall", json={"query": q})


def recall_all(
    urls: dict[str, str],
    queries: list[str],
    per_scope: int,
    warm_up: int = WARM_UP,
    embedder: Embedder | None = None,
) -> None:
    """REST recall latency in one user scope and across the whole graph through each API of
    ``urls``, interleaved (after :func:`warm`); ``queries`` holds ``warm_up`` and then four equal
    sets, one for each measurement."""
    each = (len(queries) - warm_up) // 4
    sets = iter(queries[warm_up + i * each : warm_up + (i + 1) * each] for i in range(4))
    for scope, label in (("/scale/user0", f"one scope of {per_scope}"), (None, "whole graph")):
        for clients in (1, 10):
            recall_latency(urls, next(sets), scope, clients, label, embedder)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--n", type=int, default=10_000, help="memories to build (10000, 100000, 1000000)")
    parser.add_argument("--per-scope", type=int, default=1000, help="memories per user scope")
    parser.add_argument("--layout", choices=["users", "one"], default="users")
    parser.add_argument("--rest-sample", type=int, default=1000, help="texts ingested through REST")
    parser.add_argument("--queries", type=int, default=200, help="recall queries per measurement")
    parser.add_argument("--consolidate", action="store_true", help="time one nightly run (slow)")
    parser.add_argument(
        "--compare-cache",
        action="store_true",
        help="measure recall through an API without the in-process vector cache first, then with it",
    )
    parser.add_argument(
        "--compare-with",
        type=Path,
        metavar="DIR",
        help="also measure recall through the API of the checkout in DIR (variant 'before'; this "
        "tree is 'after'), e.g. git archive <commit> | tar -x -C DIR",
    )
    parser.add_argument("--ingest-only", action="store_true", help="skip the recall measurements")
    parser.add_argument(
        "--again",
        action="store_true",
        help="measure one-scope recall with 1 client once more after the others, with questions of its "
        "own: a drift within the run (API CPU per recall 1.84 / 1.67 / 1.30 / 1.03 times another run's, "
        "in the order measured, in session 25) shows as a first and a last that differ",
    )
    parser.add_argument(
        "--settle",
        type=float,
        default=SETTLE_SECONDS,
        metavar="SECONDS",
        help="after the build and the warm-up, wait at most this long for the managed Neo4j's JVM "
        "to be quiet before measuring (0: measure at once, as before session 25)",
    )
    parser.add_argument(
        "--warm-up",
        type=int,
        default=WARM_UP,
        help="recall queries sent before the measurements (a server that has answered a few hundred "
        "is past Neo4j's and the JVM's compilation: 200 measured 22.3 -> 18.4 ms p50 at 100k)",
    )
    args = parser.parse_args()

    texts = corpus(args.n + args.rest_sample)
    bulk, sample = texts[: args.n], texts[args.n :]
    questions = [str(item["question"]) for _, item in locomo.questions(locomo.load())]
    random.Random(7).shuffle(questions)
    sets = 5 if args.again else 4
    queries = questions[: args.warm_up + 4 * args.queries]
    if len(questions) < args.warm_up + sets * args.queries:
        most = (len(questions) - args.warm_up) // sets
        parser.error(f"--queries: at most {most} distinct LoCoMo questions per measurement")
    embedder = create_embedder("onnx")
    embedder.embed(["warm up"])
    vectors = vectors_of(embedder, bulk, embedder.model_name.replace("/", "_"))
    scopes = max(1, args.n // args.per_scope) if args.layout == "users" else 1
    emit(
        metric="setup",
        n=args.n,
        layout=args.layout,
        scopes=scopes,
        heap=HEAP,
        pagecache=PAGECACHE,
        warm_up=args.warm_up,
    )

    with stack.neo4j_server(heap=HEAP, pagecache=PAGECACHE) as (target, jvm):
        with open_memory(Settings(llm="none"), target, embedder=embedder) as memory:
            memory.prepare()
            build(memory._executor, bulk, vectors, scopes)
        emit(metric="neo4j_memory", settings=neo4j_memory(target))
        with ExitStack() as servers:
            urls = {}
            # No consolidation heartbeat: a nightly run started in one API process would weigh on
            # its recalls only (it is timed apart, with --consolidate).
            env = {"GRAPHMEM_LLM": "none", "GRAPHMEM_CONSOLIDATION_HEARTBEAT_MINUTES": "0"}
            if args.compare_cache:
                off = {**env, "GRAPHMEM_RECALL_VECTOR_CACHE_ROWS": "0"}
                urls["cache off"] = servers.enter_context(stack.api_server(target, off))
            if args.compare_with is not None:
                urls["before"] = servers.enter_context(stack.api_server(target, env, args.compare_with))
            this = "cache on" if args.compare_cache else "after" if args.compare_with else "this"
            url = urls[this] = servers.enter_context(stack.api_server(target, env))
            emit(metric="api_rss_mb", when="started", rss_mb=rss_mb(os.getpid(), url))
            if not args.ingest_only:
                warm(urls, queries[: args.warm_up])
                # Probed with questions none of the measurements asks (the API keeps query vectors).
                # The last --queries questions are kept for --again; the probes take the rest.
                again = questions[-args.queries :] if args.again else []
                probes = questions[len(queries) : len(questions) - len(again)]
                settle(jvm, args.settle, probe_recalls(url, probes, "/scale/user0"))
                recall_all(urls, queries, args.n // scopes, args.warm_up, embedder)
                if again:
                    label = f"one scope of {args.n // scopes}, again"
                    recall_latency(urls, again, "/scale/user0", 1, label, embedder)
                emit(metric="api_rss_mb", when="after recall", rss_mb=rss_mb(os.getpid(), url))
            if sample and args.compare_with is not None:
                rest_ingest_compare({"before": urls["before"], "after": url}, embedder, sample)
            elif sample:
                with httpx.Client(base_url=url, timeout=600) as client:
                    rest_ingest(client, embedder, sample, "/scale/rest")
        if args.consolidate:
            with open_memory(Settings(llm="none"), target, embedder=embedder) as memory:
                started = time.perf_counter()
                run = memory.consolidate(["nightly"]).runs[0]
                emit(
                    metric="nightly",
                    memories=args.n + len(sample),
                    seconds=round(time.perf_counter() - started, 1),
                    status=run.status,
                    step_seconds={k: round(v / 1000, 1) for k, v in run.step_ms.items()},
                )


if __name__ == "__main__":
    main()
