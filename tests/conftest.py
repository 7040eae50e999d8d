"""Shared fixtures: one real Neo4j for the whole session, started by graphmem's own runtime code.

Each test isolates its data in a scope of its own instead of wiping the database. Set
GRAPHMEM_TEST_NEO4J_URI (with _USER / _PASSWORD) to run against another server instead.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from graphmem.config import Settings, default_home
from graphmem.connect import MemoryConnection, Neo4jTarget, open_memory
from graphmem.embedding.base import Embedder
from graphmem.embedding.factory import create_embedder
from graphmem.memory import Memory
from graphmem.runtime.ports import free_port
from graphmem.runtime.server import ManagedNeo4j


def test_jars_dir() -> Path:
    """One jar cache shared by every test server (and by the user's own graphmem)."""
    return Path(os.environ.get("GRAPHMEM_TEST_JARS", default_home() / "neo4j" / "lib"))


def test_server(home: Path) -> ManagedNeo4j:
    """A managed Neo4j in ``home`` on free ports, using the shared jar cache (not started)."""
    return ManagedNeo4j(
        home=home,
        version=Settings().neo4j_version,
        bolt_port=free_port(),
        http_port=free_port(),
        heap="1g",
        pagecache="256m",
        start_timeout=180.0,
        jars_dir=test_jars_dir(),
    )


NEO4J_HTTP_URL = pytest.StashKey[str]()


@pytest.fixture(scope="session")
def neo4j_target(
    tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest
) -> Iterator[Neo4jTarget]:
    """A running Neo4j for the test session."""
    uri = os.environ.get("GRAPHMEM_TEST_NEO4J_URI")
    if uri:
        yield Neo4jTarget(
            uri=uri,
            user=os.environ.get("GRAPHMEM_TEST_NEO4J_USER", "neo4j"),
            password=os.environ.get("GRAPHMEM_TEST_NEO4J_PASSWORD", ""),
            database=os.environ.get("GRAPHMEM_TEST_NEO4J_DATABASE", "neo4j"),
        )
        return
    server = test_server(tmp_path_factory.mktemp("graphmem-home"))
    info = server.start()
    request.config.stash[NEO4J_HTTP_URL] = info.http_url
    try:
        yield Neo4jTarget(
            uri=info.uri, user=info.user, password=info.password.get_secret_value(), database="neo4j"
        )
    finally:
        server.stop()


@pytest.fixture(scope="session")
def neo4j_http_url(neo4j_target: Neo4jTarget, request: pytest.FixtureRequest) -> str | None:
    """The session Neo4j's HTTP URL (Browser under /browser/); for an external server only if
    GRAPHMEM_TEST_NEO4J_HTTP_URL gives it."""
    return os.environ.get("GRAPHMEM_TEST_NEO4J_HTTP_URL") or request.config.stash.get(NEO4J_HTTP_URL, None)


@pytest.fixture(scope="session")
def embedder() -> Embedder:
    """The real default embedder (all-MiniLM-L6-v2, ONNX int8)."""
    return create_embedder("onnx")


@pytest.fixture(scope="session")
def connection(neo4j_target: Neo4jTarget, embedder: Embedder) -> Iterator[MemoryConnection]:
    """A Memory on the session's Neo4j, schema applied."""
    conn = open_memory(Settings(), neo4j_target, embedder=embedder)
    conn.memory.prepare()
    yield conn
    conn.close()


@pytest.fixture(scope="session")
def memory(connection: MemoryConnection) -> Memory:
    """The Memory facade under test."""
    return connection.memory


@pytest.fixture
def scope() -> str:
    """A scope no other test writes to."""
    return f"/test/{uuid.uuid4().hex[:12]}"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Tests marked ``runs_last`` (the schemathesis fuzzing, which writes random memories into
    random scopes of the shared graph) run after all others, so no other test reads what they left."""
    items.sort(key=lambda item: item.get_closest_marker("runs_last") is not None)
