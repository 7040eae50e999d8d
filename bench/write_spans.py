"""Where a concurrent REST write's wall time goes: timing spans inside the API process under load.

    python -m bench.write_spans [--writers 50] [--writes 1000] [--compare-with DIR]

Starts a throw-away Neo4j and ``graphmem serve`` wrapped so that every POST /v1/memories records,
from the moment the ASGI app gets it: the whole request, the Idempotency-Key claim and answer, the
time in the route (the write, its wait for a group included); and every write the group commit
runs (one per group): its size, wall time, and the time spent in each catalog query, the
embedding, the read-ahead join, the scope lock and the commit. Then runs bench.load's distinct
phase (every writer on a scope of its own, no readers) against it. The CPU seconds of the API
process, of this client and of Neo4j during the phase say which of them the 2 cores went to.
Each API first takes ``--warm-up`` untimed writes (models loaded, Neo4j's query plans compiled).
Prints one JSON line per span: mean ms per request or per group, and the run's figures.
"""

from __future__ import annotations

import argparse
import contextvars
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from bench import load, stack
from bench.scale import emit
from graphmem.runtime.ports import free_port

_local = threading.local()  # the spans of the group write running in this thread
# The spans of the request being answered (anyio copies the context into its worker threads).
_request: contextvars.ContextVar[dict[str, Any] | None] = contextvars.ContextVar("request", default=None)


def _timed(name: str, call: Callable[..., Any]) -> Callable[..., Any]:
    def timed(*args: Any, **kwargs: Any) -> Any:
        spans: dict[str, float] | None = getattr(_local, "spans", None)
        t0 = time.perf_counter()
        try:
            return call(*args, **kwargs)
        finally:
            if spans is not None:
                spans[name] = spans.get(name, 0.0) + (time.perf_counter() - t0) * 1000
                spans[f"n {name}"] = spans.get(f"n {name}", 0.0) + 1

    return timed


def serve(port: int, out: Path) -> None:
    """``graphmem serve`` with the write path timed; spans appended to ``out`` as JSON lines."""
    import graphmem.api.app as app_module
    from graphmem.cli import main as cli_main
    from graphmem.store import executor
    from graphmem.write import remember

    sink = out.open("a", buffering=1)
    lock = threading.Lock()

    def write_line(row: dict[str, Any]) -> None:
        with lock:
            sink.write(json.dumps(row) + "\n")

    pipeline_remember = remember.RememberPipeline.remember

    def timed_remember(self: Any, items: Any) -> Any:
        _local.spans = spans = {"kind": "group", "items": len(items)}  # type: ignore[dict-item]
        t0, c0 = time.perf_counter(), time.thread_time()
        try:
            return pipeline_remember(self, items)
        finally:
            spans["wall"] = (time.perf_counter() - t0) * 1000
            spans["thread cpu"] = (time.thread_time() - c0) * 1000
            _local.spans = None
            write_line(spans)

    remember.RememberPipeline.remember = timed_remember  # type: ignore[method-assign]
    remember.read_ahead = _timed("start read-ahead", remember.read_ahead)  # type: ignore[assignment]
    run = executor.Transaction.run

    def timed_run(self: Any, name: str, **params: Any) -> Any:
        return _timed(name, run)(self, name, **params)

    executor.Transaction.run = timed_run  # type: ignore[method-assign]
    unit_once = executor.QueryExecutor._unit_once

    def timed_unit(self: Any, work: Any, label: str, *, write: bool) -> Any:
        return _timed(f"transaction {label}", unit_once)(self, work, label, write=write)

    executor.QueryExecutor._unit_once = timed_unit  # type: ignore[method-assign]
    for cls, names in (
        (remember.RememberPipeline, ["_write_drafts", "_link", "_against_store", "_within_batch"]),
    ):
        for name in names:
            setattr(cls, name, _timed(name, getattr(cls, name)))

    from graphmem.memory import Memory
    from graphmem.store.idempotency import IdempotencyStore

    def in_request(name: str, call: Callable[..., Any]) -> Callable[..., Any]:
        def timed(*args: Any, **kwargs: Any) -> Any:
            t0 = time.perf_counter()
            try:
                return call(*args, **kwargs)
            finally:
                spans = _request.get()
                if spans is not None:
                    spans[name] = (time.perf_counter() - t0) * 1000
                    spans[f"{name} starts at"] = (t0 - spans["t0"]) * 1000

        return timed

    IdempotencyStore.claim = in_request("claim", IdempotencyStore.claim)  # type: ignore[method-assign]
    IdempotencyStore.complete = in_request("complete", IdempotencyStore.complete)  # type: ignore[method-assign]
    try:  # claims and answers in shared transactions (where the checkout has them)
        from graphmem.api.idempotency_batches import IdempotencyBatches
    except ImportError:
        pass
    else:
        IdempotencyBatches.claim = in_request("claim", IdempotencyBatches.claim)  # type: ignore[method-assign]
        IdempotencyBatches.complete = in_request("complete", IdempotencyBatches.complete)  # type: ignore[method-assign]
    Memory.remember_batch = in_request("route write", Memory.remember_batch)  # type: ignore[method-assign]
    create_app = app_module.create_app

    def traced_app(*args: Any, **kwargs: Any) -> Any:
        app = create_app(*args, **kwargs)

        async def traced(scope: Any, receive: Any, send: Any) -> None:
            if scope["type"] != "http" or scope["path"] != "/v1/memories":
                await app(scope, receive, send)
                return
            spans: dict[str, Any] = {"kind": "request", "t0": time.perf_counter()}
            _request.set(spans)

            async def sending(message: Any) -> None:
                if message["type"] == "http.response.start":
                    spans["response starts at"] = (time.perf_counter() - spans["t0"]) * 1000
                await send(message)

            await app(scope, receive, sending)
            spans["asgi total"] = (time.perf_counter() - spans.pop("t0")) * 1000
            write_line(spans)

        traced.state = app.state  # type: ignore[attr-defined]
        return traced

    app_module.create_app = traced_app
    sys.argv = ["graphmem", "serve", "--port", str(port)]
    cli_main()


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of process ``pid`` (and its reaped children) so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return sum(int(f) for f in fields[11:15]) / ticks


def measure(source: Path | None, variant: str, target: Any, neo4j_pid: int | None, args: Any) -> None:
    """One run of the distinct phase through the API of ``source`` (None: this checkout)."""
    with tempfile.TemporaryDirectory() as tmp:
        spans_file, port = Path(tmp) / "spans.jsonl", free_port()
        # The API runs this file as a script from the checkout measured, whose graphmem (and
        # bench) come first on the path; with -m, this checkout's would.
        checkout = source or Path(__file__).resolve().parent.parent
        env = stack.api_env(target, stack.OFFLINE_API, checkout)
        command = [sys.executable, __file__, "--serve", str(port), "--spans", str(spans_file)]
        server = subprocess.Popen(
            command, env=env, cwd=checkout, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        try:
            url = f"http://127.0.0.1:{port}"
            stack.wait_healthy(url, 180.0)
            phase_args = SimpleNamespace(writers=args.writers, readers=0, distinct=True, max_seconds=1800.0)
            if args.warm_up:  # models loaded, Neo4j's plans compiled: the first writes are not timed
                load.run_phase(f"warm-{variant}-{time.monotonic_ns()}", url, target, phase_args, args.warm_up)
            spans_file.write_text("")
            api0, me0 = cpu_seconds(server.pid), time.process_time()
            neo0 = cpu_seconds(neo4j_pid) if neo4j_pid else 0.0
            figures = load.run_phase(f"{variant}-{time.monotonic_ns()}", url, target, phase_args, args.writes)
            cpu = {
                "api_cpu_s": round(cpu_seconds(server.pid) - api0, 1),
                "client_cpu_s": round(time.process_time() - me0, 1),
                "neo4j_cpu_s": round(cpu_seconds(neo4j_pid) - neo0, 1) if neo4j_pid else None,
            }
        finally:
            server.terminate()
            server.wait(timeout=30)
        rows = [json.loads(line) for line in spans_file.read_text().splitlines()]
    report(variant, rows, figures, cpu)


def report(variant: str, rows: list[dict[str, Any]], figures: dict[str, Any], cpu: dict[str, Any]) -> None:
    """One line per span (mean per request or per group), then the run's figures."""
    for kind in ("request", "group"):
        of_kind = [r for r in rows if r["kind"] == kind]
        names = sorted({k for r in of_kind for k in r if k != "kind"})
        for name in names:
            values = [float(r.get(name, 0.0)) for r in of_kind]
            emit(
                metric="write_span",
                variant=variant,
                per=kind,
                part=name,
                mean=round(statistics.mean(values), 2),
                p50=round(statistics.median(values), 2),
                count=len(of_kind),
            )
    seconds = figures["seconds"]
    emit(
        metric="write_spans_run",
        variant=variant,
        writers=figures["writers"],
        writes=figures["writes_acknowledged"],
        writes_per_s=figures["writes_per_s"],
        latency_ms=figures["latency_ms"],
        seconds=seconds,
        **cpu,
        cores_used={k.removesuffix("_s"): round(v / seconds, 2) for k, v in cpu.items() if v is not None},
        load=figures["load"],
    )


def main() -> None:
    """Measure this checkout (and the one in --compare-with, alternating) on one Neo4j."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--writers", type=int, default=50)
    parser.add_argument("--writes", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--warm-up", type=int, default=300, help="untimed writes through each API first")
    parser.add_argument("--compare-with", type=Path, metavar="DIR")
    parser.add_argument("--serve", type=int, help=argparse.SUPPRESS)  # the wrapped API process
    parser.add_argument("--spans", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve is not None:
        serve(args.serve, args.spans)
        return
    with stack.neo4j_server(heap="1g", pagecache="256m") as (target, neo4j_pid):
        for round_ in range(args.rounds):
            variants: list[tuple[str, Path | None]] = [("after", None)]
            if args.compare_with is not None:
                variants.insert(0, ("before", args.compare_with))
            if round_ % 2:
                variants.reverse()
            for variant, source in variants:
                measure(source, variant, target, neo4j_pid, args)


if __name__ == "__main__":
    main()
