"""A throw-away graphmem stack for benchmarks: a managed Neo4j in a temp home, and the REST API."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

from graphmem.config import Settings, default_home
from graphmem.connect import Neo4jTarget
from graphmem.runtime.ports import free_port
from graphmem.runtime.server import ManagedNeo4j


@contextmanager
def neo4j(heap: str = "2g", pagecache: str = "1g") -> Iterator[Neo4jTarget]:
    """A fresh, empty Neo4j (or the one GRAPHMEM_NEO4J_URI names), stopped afterwards."""
    with neo4j_server(heap, pagecache) as (target, _):
        yield target


@contextmanager
def neo4j_server(heap: str = "2g", pagecache: str = "1g") -> Iterator[tuple[Neo4jTarget, int | None]]:
    """:func:`neo4j`, with the pid of the server's JVM (None for the one GRAPHMEM_NEO4J_URI names)."""
    settings = Settings()
    if settings.neo4j_uri:
        password = settings.neo4j_password.get_secret_value() if settings.neo4j_password else ""
        yield Neo4jTarget(settings.neo4j_uri, settings.neo4j_user, password, settings.neo4j_database), None
        return
    with tempfile.TemporaryDirectory(prefix="graphmem-bench-") as home:
        server = ManagedNeo4j(
            home=Path(home),
            version=settings.neo4j_version,
            bolt_port=free_port(),
            http_port=free_port(),
            heap=heap,
            pagecache=pagecache,
            start_timeout=180.0,
            jars_dir=default_home() / "neo4j" / "lib",
        )
        info = server.start()
        try:
            target = Neo4jTarget(info.uri, info.user, info.password.get_secret_value(), "neo4j")
            yield target, server.status().pid
        finally:
            server.stop()


OFFLINE_API = {"GRAPHMEM_LLM": "none", "GRAPHMEM_CONSOLIDATION_HEARTBEAT_MINUTES": "0"}
"""The settings of an API a bench measures: no LLM, no consolidation heartbeat."""


def api_env(
    target: Neo4jTarget, extra_env: dict[str, str] | None = None, source: Path | None = None
) -> dict[str, str]:
    """The environment of an API process against ``target`` (with ``source``: that checkout's
    ``graphmem`` first on the path, then any ``PYTHONPATH`` of ``extra_env``)."""
    extra = extra_env or {}
    path = os.pathsep.join(p for p in (str(source), extra.get("PYTHONPATH")) if p)
    return {
        **os.environ,
        "GRAPHMEM_NEO4J_URI": target.uri,
        "GRAPHMEM_NEO4J_USER": target.user,
        "GRAPHMEM_NEO4J_PASSWORD": target.password,
        **extra,
        **({"PYTHONPATH": path} if source is not None else {}),
    }


def wait_healthy(url: str, timeout: float = 120.0) -> float:
    """Seconds until ``url``'s /v1/health says ok; raises after ``timeout``."""
    started = time.monotonic()
    while time.monotonic() - started < timeout:
        try:
            if httpx.get(f"{url}/v1/health", timeout=5).json().get("status") == "ok":
                return time.monotonic() - started
        except (httpx.HTTPError, ValueError):
            pass
        time.sleep(0.3)
    raise RuntimeError(f"the API at {url} did not report ok within {timeout:.0f}s")


@contextmanager
def api_server(
    target: Neo4jTarget, extra_env: dict[str, str] | None = None, source: Path | None = None
) -> Iterator[str]:
    """``graphmem serve`` in a subprocess against ``target``; yields its base URL. With ``source``
    (a checkout of another commit, e.g. ``git archive <commit> | tar -x -C DIR``), that tree's
    ``graphmem`` serves instead of the one importing this module."""
    port = free_port()
    env = api_env(target, extra_env, source)
    # The server's log goes to a file, not a pipe: a pipe nobody reads fills up and blocks the
    # server at its next log line (a long bench then hangs on one request).
    with tempfile.TemporaryFile() as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "graphmem.cli", "serve", "--port", str(port)],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=log,
            cwd=source,  # `python -m` puts the working directory first on sys.path
        )
        url = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 120
            while True:
                try:
                    if httpx.get(f"{url}/v1/health", timeout=2).status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                if process.poll() is not None or time.monotonic() > deadline:
                    log.seek(0)
                    tail = log.read().decode(errors="replace")[-4000:]
                    raise RuntimeError(f"the API did not start: {tail}")
                time.sleep(0.3)
            yield url
        finally:
            process.terminate()
            process.wait(timeout=30)
