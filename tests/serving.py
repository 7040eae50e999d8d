"""Running graphmem from tests: the API served in the test process (uvicorn in a thread, on a free
loopback port), and the environment a `graphmem` command needs to reach the test Neo4j."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from urllib.parse import urlsplit

import uvicorn
from fastapi import FastAPI

from graphmem.connect import Neo4jTarget
from graphmem.runtime.ports import LOOPBACK, free_port


@contextmanager
def serve(app: FastAPI) -> Iterator[str]:
    """Run ``app`` with uvicorn in a thread on a free port; yields its URL (``http://127.0.0.1:N``)."""
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host=LOOPBACK, port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, name=f"uvicorn-{port}", daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError(f"uvicorn did not start on port {port}")
        time.sleep(0.05)
    try:
        yield f"http://{LOOPBACK}:{port}"
    finally:
        server.should_exit = True
        thread.join(60)


def port_of(url: str) -> int:
    """The port of a URL ``serve`` yielded."""
    port = urlsplit(url).port
    assert port is not None, url
    return port


def command_env(target: Neo4jTarget) -> dict[str, str]:
    """The environment of a `graphmem` command (CLI, MCP server) on ``target``, without a language model."""
    return {
        "GRAPHMEM_NEO4J_URI": target.uri,
        "GRAPHMEM_NEO4J_USER": target.user,
        "GRAPHMEM_NEO4J_PASSWORD": target.password,
        "GRAPHMEM_NEO4J_DATABASE": target.database,
        "GRAPHMEM_LLM": "none",
    }
