"""HTTP clients over the real stack (FastAPI app on the session's Neo4j and embedder)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from graphmem.api.app import create_app
from graphmem.memory import Memory


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
