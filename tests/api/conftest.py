"""HTTP clients over the real stack (FastAPI app on the session's Neo4j and embedder)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from graphmem.api.app import create_app
from graphmem.config import Settings
from graphmem.connect import MemoryConnection, Neo4jTarget, open_memory
from graphmem.embedding.base import Embedder
from graphmem.memory import Memory
from tests.serving import command_env


@pytest.fixture(scope="session")
def client(memory: Memory) -> Iterator[TestClient]:
    """An open API (no keys configured)."""
    with TestClient(create_app(memory)) as test_client:
        yield test_client


@pytest.fixture(scope="session")
def keyed_client(memory: Memory) -> Iterator[TestClient]:
    """An API that demands one of two keys."""
    with TestClient(create_app(memory, api_keys=["k-one", "k-two"])) as test_client:
        yield test_client


@pytest.fixture
def other_memory(neo4j_target: Neo4jTarget, embedder: Embedder) -> Iterator[Callable[..., Memory]]:
    """Builds more Memory objects on the same graph (a restarted process, another LLM)."""
    opened: list[MemoryConnection] = []

    def build(**kwargs: Any) -> Memory:
        connection = open_memory(Settings(), neo4j_target, embedder=embedder, **kwargs)
        opened.append(connection)
        return connection.memory

    yield build
    for connection in opened:
        connection.close()


@pytest.fixture(scope="module")
def env(neo4j_target: Neo4jTarget) -> dict[str, str]:
    """The environment of a `graphmem` command on the test Neo4j."""
    return command_env(neo4j_target)
