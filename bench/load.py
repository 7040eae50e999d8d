"""Load and faults: many writers and readers on the REST API, then Neo4j killed mid-ingest.

    python -m bench.load                      # 50 writers, 10 readers, 2,000 + 600 writes
    python -m bench.load --scale 0.25         # the same, a quarter of the writes
    python -m bench.load --distinct --no-fault --readers 0 --compare-with DIR
        # every writer on a scope of its own; the API of the checkout in DIR (variant 'before')
        # and this one ('after') in turn on one Neo4j, twice each, alternating which goes first

Phase ``contention``: writers on distinct scopes and on one shared scope (near-duplicates: the
same facts in other casing and punctuation; conflicting texts: one slot, several values) while
readers recall. Phase ``fault``: the same load, with Neo4j killed (SIGKILL) mid-ingest and
restarted while the API keeps running; a tenth of the writes are background batches (202).
Writers behave as a careful client does: every write carries an ``Idempotency-Key`` and is sent
again with the same key after a 5xx or a dropped connection (bounded).

Prints one JSON line per phase: writes acknowledged / present / lost / duplicated, 5xx inside and
outside the outage, latency p50/p95/p99 (ms) of acknowledged requests, whether the API recovered,
and the API process's CPU time per acknowledged write (ms, from /proc: robust to a busy machine).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import neo4j

from bench.scale import api_cpu_ms
from bench.stack import OFFLINE_API, api_env, wait_healthy
from graphmem.config import Settings, default_home
from graphmem.connect import Neo4jTarget
from graphmem.runtime.ports import free_port
from graphmem.runtime.server import ManagedNeo4j

SHARED = "/load/shared"
FACTS = [
    "The staging database runs on port {n}.",
    "Team {n} deploys from the main branch.",
    "The on-call rota for squad {n} changes on Mondays.",
    "Room {n} has a broken projector.",
    "The API gateway for region {n} sits behind a load balancer.",
]
SLOTS = ["The release freeze for project {n} starts on {v}.", "The office in city {n} opens at {v}."]
VALUES = ["Monday", "Tuesday", "Thursday", "8am", "9am", "10am"]


def _variants(text: str) -> list[str]:
    return [text, text.rstrip("."), text.lower(), text.upper().rstrip(".") + "!"]


def _normal(text: str) -> str:
    return " ".join("".join(c for c in text.lower() if c.isalnum() or c.isspace()).split())


@dataclass
class Tally:
    """What the clients saw in one phase (shared between threads, under ``lock``)."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    acked: dict[str, str] = field(default_factory=dict)  # idempotency key -> memory id
    texts: dict[str, tuple[str, str]] = field(default_factory=dict)  # key -> (scope, text)
    jobs: dict[str, list[tuple[str, str]]] = field(default_factory=dict)  # job id -> items
    errors_5xx: list[float] = field(default_factory=list)  # when each 5xx came
    other_errors: list[str] = field(default_factory=list)
    latencies: list[float] = field(default_factory=list)
    reads: int = 0
    read_5xx: list[float] = field(default_factory=list)


def _work(
    phase: str, writes: int, writers: int, background_share: float, distinct: bool = False
) -> list[dict[str, Any]]:
    """The writes of one phase: half to distinct scopes, half to the shared one (all to distinct
    scopes when ``distinct``)."""
    rng = random.Random(phase)
    items: list[dict[str, Any]] = []
    for i in range(writes):
        key = f"{phase}-{i}-{uuid.uuid4().hex[:8]}"
        if i % 2 == 0 or distinct:
            scope, text = (
                f"/load/{phase}/w{i % writers}",
                f"Fact {i} of {phase}: ticket {rng.randint(1, 10**9)}.",
            )
        elif i % 6 == 5:
            scope = SHARED
            text = rng.choice(SLOTS).format(n=rng.randint(1, 5), v=rng.choice(VALUES))
        else:
            scope = SHARED
            text = rng.choice(_variants(rng.choice(FACTS).format(n=rng.randint(1, 8))))
        background = rng.random() < background_share
        items.append({"key": key, "scope": scope, "text": text, "background": background})
    return items


def _percentiles(values: list[float]) -> dict[str, float]:
    if not values:
        return {"p50": 0.0, "p95": 0.0, "p99": 0.0}
    ordered = sorted(values)

    def at(q: float) -> float:
        return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000, 1)

    return {"p50": at(0.50), "p95": at(0.95), "p99": at(0.99)}


def _write(client: httpx.Client, item: dict[str, Any], tally: Tally, deadline: float) -> None:
    headers = {"Idempotency-Key": item["key"]}
    body = {"text": item["text"], "scope": item["scope"]}
    while time.monotonic() < deadline:
        started = time.monotonic()
        try:
            if item["background"]:
                response = client.post(
                    "/v1/memories/batch",
                    params={"background": "true"},
                    json={"items": [body]},
                    headers=headers,
                )
            else:
                response = client.post("/v1/memories", json=body, headers=headers)
        except httpx.HTTPError as e:
            with tally.lock:
                tally.other_errors.append(type(e).__name__)
            time.sleep(1.0)
            continue
        if response.status_code >= 500:
            with tally.lock:
                tally.errors_5xx.append(time.time())
            time.sleep(float(response.headers.get("retry-after", "1")))
            continue
        if response.status_code == 409:  # the same key still running: its answer comes shortly
            time.sleep(0.5)
            continue
        if response.status_code not in (201, 202):
            with tally.lock:
                tally.other_errors.append(f"{response.status_code}: {response.text[:200]}")
            return
        with tally.lock:
            tally.latencies.append(time.monotonic() - started)
            tally.texts[item["key"]] = (item["scope"], item["text"])
            if response.status_code == 202:
                tally.jobs[response.json()["job_id"]] = [(item["scope"], item["text"])]
            else:
                tally.acked[item["key"]] = response.json()["memory"]["id"]
        return


def _writer(url: str, queue: list[dict[str, Any]], tally: Tally, deadline: float) -> None:
    with httpx.Client(base_url=url, timeout=120.0) as client:
        while True:
            with tally.lock:
                if not queue:
                    return
                item = queue.pop()
            _write(client, item, tally, deadline)


def _reader(url: str, scopes: list[str], tally: Tally, stop: threading.Event) -> None:
    rng = random.Random()
    with httpx.Client(base_url=url, timeout=120.0) as client:
        while not stop.is_set():
            body = {
                "query": rng.choice(["staging database", "release freeze", "ticket"]),
                "scope": rng.choice(scopes),
            }
            try:
                response = client.post("/v1/recall", json=body)
            except httpx.HTTPError:
                time.sleep(0.5)
                continue
            with tally.lock:
                tally.reads += 1
                if response.status_code >= 500:
                    tally.read_5xx.append(time.time())
            time.sleep(0.05)


@contextmanager
def _api(target: Neo4jTarget, log: Path, source: Path | None = None) -> Iterator[str]:
    port = free_port()
    env = api_env(target, OFFLINE_API, source)
    with log.open("wb") as sink:
        process = subprocess.Popen(
            [sys.executable, "-m", "graphmem.cli", "serve", "--port", str(port)],
            env=env,
            stdout=sink,
            stderr=sink,
            cwd=source,  # `python -m` puts the working directory first on sys.path
        )
        url = f"http://127.0.0.1:{port}"
        try:
            wait_healthy(url, 180.0)
            yield url
        finally:
            process.terminate()
            process.wait(timeout=60)


def _wait_jobs(url: str, tally: Tally, timeout: float) -> dict[str, int]:
    states: dict[str, int] = {}
    deadline = time.monotonic() + timeout
    with httpx.Client(base_url=url, timeout=30.0) as client:
        for job_id in tally.jobs:
            status = "unknown"
            while time.monotonic() < deadline:
                status = client.get(f"/v1/memories/batch/{job_id}").json().get("status", "unknown")
                if status in ("done", "failed"):
                    break
                time.sleep(0.5)
            states[status] = states.get(status, 0) + 1
    return states


def _verify(target: Neo4jTarget, phase: str, tally: Tally) -> dict[str, int]:
    """Acknowledged writes missing from the graph, and texts stored twice."""
    with neo4j.GraphDatabase.driver(target.uri, auth=(target.user, target.password)) as driver:
        records, _, _ = driver.execute_query(
            "MATCH (m:Memory) WHERE m.scope STARTS WITH '/load/' RETURN m.id AS id, m.scope AS scope, "
            "m.text AS text, m.status AS status",
            database_=target.database,
        )
    ids = {r["id"] for r in records}
    present_texts: dict[tuple[str, str], int] = {}
    for r in records:
        if r["status"] == "active":
            k = (r["scope"], _normal(r["text"]))
            present_texts[k] = present_texts.get(k, 0) + 1
    stored_norm = {(r["scope"], _normal(r["text"])) for r in records}
    lost_ids = [k for k, memory_id in tally.acked.items() if memory_id not in ids]
    lost_jobs = [
        job for job, items in tally.jobs.items() if any((s, _normal(t)) not in stored_norm for s, t in items)
    ]
    duplicated = sum(n - 1 for n in present_texts.values() if n > 1)
    return {
        "present": len(tally.acked) - len(lost_ids) + len(tally.jobs) - len(lost_jobs),
        "lost": len(lost_ids) + len(lost_jobs),
        "duplicated": duplicated,
        "memories_under_load": len(records),
    }


def run_phase(
    phase: str,
    url: str,
    target: Neo4jTarget,
    args: argparse.Namespace,
    writes: int,
    fault: ManagedNeo4j | None = None,
) -> dict[str, Any]:
    """One phase of load (with a Neo4j kill and restart when ``fault`` is given); returns its figures."""
    work = _work(phase, writes, args.writers, 0.1 if fault else 0.0, args.distinct)
    queue = list(reversed(work))
    tally = Tally()
    deadline = time.monotonic() + args.max_seconds
    stop = threading.Event()
    scopes = [SHARED, f"/load/{phase}", "/load"]
    threads = [
        threading.Thread(target=_writer, args=(url, queue, tally, deadline)) for _ in range(args.writers)
    ]
    readers = [threading.Thread(target=_reader, args=(url, scopes, tally, stop)) for _ in range(args.readers)]
    api_cpu_started = api_cpu_ms(url)
    started = time.monotonic()
    for t in threads + readers:
        t.start()
    outage: tuple[float, float] | None = None
    recovered_after: float | None = None
    if fault is not None:
        while len(tally.texts) < writes * 0.3 and any(t.is_alive() for t in threads):
            time.sleep(0.2)
        pid = fault.status().pid
        killed_at = time.time()
        if pid is not None:
            os.kill(pid, signal.SIGKILL)
        time.sleep(args.outage_seconds)
        fault.start()
        recovered_after = wait_healthy(url, 300.0)
        outage = (killed_at, time.time())
    for t in threads:
        t.join()
    stop.set()
    for t in readers:
        t.join()
    elapsed = time.monotonic() - started
    api_cpu_ended = api_cpu_ms(url)
    job_states = _wait_jobs(url, tally, 300.0)
    checked = _verify(target, phase, tally)

    def inside(at: float) -> bool:
        return outage is not None and outage[0] - 1.0 <= at <= outage[1] + 5.0

    return {
        "phase": phase,
        "writers": args.writers,
        "readers": args.readers,
        "writes_sent": writes,
        "writes_acknowledged": len(tally.texts),
        **checked,
        "background_jobs": job_states,
        "5xx_outside_outage": sum(not inside(t) for t in tally.errors_5xx + tally.read_5xx),
        "5xx_inside_outage": sum(inside(t) for t in tally.errors_5xx + tally.read_5xx),
        "other_errors": len(tally.other_errors),
        "other_error_kinds": sorted(set(e[:80] for e in tally.other_errors))[:5],
        "reads": tally.reads,
        "latency_ms": _percentiles(tally.latencies),
        "seconds": round(elapsed, 1),
        "writes_per_s": round(len(tally.texts) / elapsed, 1) if elapsed else None,
        # the API process's CPU per acknowledged write (from /proc): unlike the rate, barely moved
        # by the rest of the machine
        "api_cpu_ms_per_write": round((api_cpu_ended - api_cpu_started) / len(tally.texts), 2)
        if api_cpu_started is not None and api_cpu_ended is not None and tally.texts
        else None,
        "load": round(os.getloadavg()[0], 2),
        "outage_seconds": round(outage[1] - outage[0], 1) if outage else None,
        "api_recovered_after_restart_s": round(recovered_after, 1) if recovered_after is not None else None,
    }


def _compare(target: Neo4jTarget, home: Path, args: argparse.Namespace) -> None:
    """The contention phase through the API of ``args.compare_with`` and this one, in turn (each
    round writes scopes of its own); one JSON line per run, with its ``variant``."""
    writes = int(args.writes * args.scale)
    with ExitStack() as apis:
        urls = {
            "before": apis.enter_context(_api(target, home / "before.log", args.compare_with)),
            "after": apis.enter_context(_api(target, home / "after.log")),
        }
        for round_ in range(2):
            for variant in ("before", "after") if round_ % 2 == 0 else ("after", "before"):
                figures = run_phase(f"{variant}{round_}", urls[variant], target, args, writes)
                print(json.dumps({"variant": variant, **figures}), flush=True)


def main() -> None:
    """Run both phases on a throw-away Neo4j and API; print one JSON line per phase."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--writers", type=int, default=50)
    parser.add_argument("--readers", type=int, default=10)
    parser.add_argument("--writes", type=int, default=2000, help="writes in the contention phase")
    parser.add_argument("--fault-writes", type=int, default=600, help="writes in the fault phase")
    parser.add_argument("--scale", type=float, default=1.0, help="multiply both write counts")
    parser.add_argument("--outage-seconds", type=float, default=3.0)
    parser.add_argument("--max-seconds", type=float, default=1800.0, help="writers give up after this")
    parser.add_argument("--distinct", action="store_true", help="every write to its writer's own scope")
    parser.add_argument("--no-fault", action="store_true", help="skip the fault phase")
    parser.add_argument(
        "--compare-with",
        type=Path,
        metavar="DIR",
        help="run the contention phase through the API of the checkout in DIR ('before') and this "
        "one ('after'), twice each, alternating; e.g. git archive <commit> | tar -x -C DIR",
    )
    args = parser.parse_args()
    settings = Settings()
    with tempfile.TemporaryDirectory(prefix="graphmem-load-") as home:
        server = ManagedNeo4j(
            home=Path(home),
            version=settings.neo4j_version,
            bolt_port=free_port(),
            http_port=free_port(),
            heap="1g",
            pagecache="256m",
            start_timeout=180.0,
            jars_dir=default_home() / "neo4j" / "lib",
        )
        info = server.start()
        target = Neo4jTarget(info.uri, info.user, info.password.get_secret_value(), "neo4j")
        try:
            if args.compare_with is not None:
                _compare(target, Path(home), args)
                return
            with _api(target, Path(home) / "api.log") as url:
                for phase, writes, fault in (
                    ("contention", int(args.writes * args.scale), None),
                    ("fault", int(args.fault_writes * args.scale), server),
                ):
                    if fault is not None and args.no_fault:
                        continue
                    print(json.dumps(run_phase(phase, url, target, args, writes, fault)), flush=True)
        finally:
            server.stop()


if __name__ == "__main__":
    main()
