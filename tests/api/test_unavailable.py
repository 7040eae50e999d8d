"""Neo4j unreachable: health and every route answer 503 with a message saying what to do."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from graphmem.api.app import create_app
from graphmem.config import Settings
from graphmem.connect import Neo4jTarget, open_memory
from graphmem.embedding.base import Embedder
from graphmem.runtime.ports import free_port


@pytest.fixture
def down_client(embedder: Embedder) -> Iterator[TestClient]:
    target = Neo4jTarget(uri=f"bolt://127.0.0.1:{free_port()}", user="neo4j", password="x", database="neo4j")
    connection = open_memory(Settings(), target, embedder=embedder)
    with TestClient(create_app(connection.memory, on_shutdown=connection.close)) as test_client:
        yield test_client


def test_unreachable_neo4j_is_503(down_client: TestClient) -> None:
    health = down_client.get("/v1/health")
    assert health.status_code == 503
    assert health.json()["status"] == "unavailable"
    write = down_client.post("/v1/memories", json={"text": "lost?"})
    assert write.status_code == 503
    body = write.json()["error"]
    assert body["code"] == "neo4j_unavailable" and "graphmem neo4j start" in body["message"]
