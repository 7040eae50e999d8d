"""Where a REST recall's wall time goes, end to end: timing spans inside the API process.

    python -m bench.rest_spans [--n 10000] [--queries 200] [--scope /scale/user0] [--no-reinforce]

Builds N memories in user scopes of ~1,000 as bench.scale does (vectors cached by it), starts
``graphmem serve`` wrapped so that every POST /v1/recall records, from the moment the ASGI app
gets the request: when ``Memory.recall_query`` starts (middleware, dependencies, the hop to a
worker thread), the query embedding, each catalog query, the rest of the recall (Python), and
when the response starts (validation, serialisation, the hop back). One client sends LoCoMo
questions, none twice, one after the other (the spans of a request are kept in one place, so
requests must not overlap); its latency minus the ASGI total is the client's share (httpx,
loopback, uvicorn's HTTP parsing). Prints one JSON line per part: median and mean ms per recall.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx

from bench import locomo, scale, stack
from bench.scale import emit
from graphmem.config import Settings
from graphmem.connect import open_memory
from graphmem.embedding.factory import create_embedder
from graphmem.runtime.ports import free_port

WARM_UP = 20
_request: dict[str, float] | None = None  # the spans of the request being answered


def _timed(name: str, call: Callable[..., Any]) -> Callable[..., Any]:
    def timed(*args: Any, **kwargs: Any) -> Any:
        spans, t0 = _request, time.perf_counter()
        try:
            return call(*args, **kwargs)
        finally:
            if spans is not None:
                spans[name] = spans.get(name, 0.0) + (time.perf_counter() - t0) * 1000
                spans.setdefault(f"{name} starts at", (t0 - spans["t0"]) * 1000)

    return timed


def serve(port: int, out: Path) -> None:
    """``graphmem serve`` with the recall path timed; each recall's spans appended to ``out``."""
    import graphmem.api.app as app_module
    from graphmem.cli import main as cli_main
    from graphmem.memory import Memory
    from graphmem.recall.query_vectors import QueryVectors
    from graphmem.store import executor

    Memory.recall_query = _timed("recall", Memory.recall_query)  # type: ignore[method-assign]
    QueryVectors.get = _timed("embed query", QueryVectors.get)  # type: ignore[method-assign]
    run = executor.Transaction.run

    def timed_run(self: Any, name: str, **params: Any) -> Any:
        return _timed(name, run)(self, name, **params)

    executor.Transaction.run = timed_run  # type: ignore[method-assign]
    create_app = app_module.create_app
    sink = out.open("a", buffering=1)

    def traced_app(*args: Any, **kwargs: Any) -> Any:
        app = create_app(*args, **kwargs)

        async def traced(scope: Any, receive: Any, send: Any) -> None:
            global _request
            if scope["type"] != "http" or scope["path"] != "/v1/recall":
                await app(scope, receive, send)
                return
            spans = _request = {"t0": time.perf_counter()}

            async def sending(message: Any) -> None:
                if message["type"] == "http.response.start":
                    spans["response starts at"] = (time.perf_counter() - spans["t0"]) * 1000
                await send(message)

            await app(scope, receive, sending)
            spans["asgi total"] = (time.perf_counter() - spans.pop("t0")) * 1000
            sink.write(json.dumps(spans) + "\n")

        traced.state = app.state  # type: ignore[attr-defined]
        return traced

    app_module.create_app = traced_app
    sys.argv = ["graphmem", "serve", "--port", str(port)]
    cli_main()


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--n", type=int, default=10_000)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--scope", default="/scale/user0", help="'/' for the whole graph")
    parser.add_argument("--no-reinforce", action="store_true", help="recalls with reinforce: false")
    parser.add_argument("--serve", type=int, help=argparse.SUPPRESS)  # the wrapped API process
    parser.add_argument("--spans", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve is not None:
        serve(args.serve, args.spans)
        return

    texts = scale.corpus(args.n + 1000)[: args.n]
    questions = [str(item["question"]) for _, item in locomo.questions(locomo.load())]
    random.Random(11).shuffle(questions)
    embedder = create_embedder("onnx")
    vectors = scale.vectors_of(embedder, texts, embedder.model_name.replace("/", "_"))
    with (
        stack.neo4j_server(heap=scale.HEAP, pagecache=scale.PAGECACHE) as (target, jvm),
        tempfile.TemporaryDirectory() as tmp,
    ):
        with open_memory(Settings(llm="none"), target, embedder=embedder) as memory:
            memory.prepare()
            scale.build(memory._executor, texts, vectors, max(1, args.n // 1000))
        scale.settle(jvm, scale.SETTLE_SECONDS)
        spans_file, port = Path(tmp) / "spans.jsonl", free_port()
        env = stack.api_env(target, stack.OFFLINE_API)
        command = [sys.executable, "-m", "bench.rest_spans", "--serve", str(port), "--spans", str(spans_file)]
        server = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            latencies = ask(f"http://127.0.0.1:{port}", questions[: WARM_UP + args.queries], args, spans_file)
        finally:
            server.terminate()
            server.wait(timeout=30)
        report([json.loads(line) for line in spans_file.read_text().splitlines()], latencies, args)


def ask(url: str, questions: list[str], args: argparse.Namespace, spans_file: Path) -> list[float]:
    """Warm up, then time each recall from the client; the spans file holds only the timed ones."""
    stack.wait_healthy(url)
    body: dict[str, Any] = {"limit": 10, **({} if args.scope == "/" else {"scope": args.scope})}
    if args.no_reinforce:
        body["reinforce"] = False
    latencies = []
    with httpx.Client(base_url=url, timeout=120) as client:
        for q in questions[:WARM_UP]:
            client.post("/v1/recall", json={**body, "query": q}).raise_for_status()
        spans_file.write_text("")
        for q in questions[WARM_UP:]:
            t0 = time.perf_counter()
            client.post("/v1/recall", json={**body, "query": q}).raise_for_status()
            latencies.append((time.perf_counter() - t0) * 1000)
    return latencies


def report(rows: list[dict[str, float]], latencies: list[float], args: argparse.Namespace) -> None:
    """One line per part, then the client's latency and its share outside the ASGI app."""
    where = {"n": args.n, "scope": args.scope, "reinforce": not args.no_reinforce}
    names = sorted({k for r in rows for k in r})
    for name in names:
        values = [r.get(name, 0.0) for r in rows]
        emit(
            metric="rest_recall_span",
            **where,
            part=name,
            p50_ms=round(statistics.median(values), 2),
            mean_ms=round(statistics.mean(values), 2),
        )
    outside = [c - r["asgi total"] for c, r in zip(latencies, rows, strict=False)]
    emit(
        metric="rest_recall_span",
        **where,
        part="client latency",
        p50_ms=round(statistics.median(latencies), 2),
    )
    emit(
        metric="rest_recall_span",
        **where,
        part="client minus asgi",
        p50_ms=round(statistics.median(outside), 2),
    )


if __name__ == "__main__":
    main()
