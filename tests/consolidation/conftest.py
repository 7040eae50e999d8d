"""Consolidation works on the whole graph, so its tests get a Neo4j of their own, wiped before each test."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import neo4j
import pytest

from graphmem.connect import Neo4jTarget
from graphmem.consolidate.settings import ConsolidationSettings
from graphmem.embedding.base import Embedder
from graphmem.llm.base import LLM
from graphmem.memory import Memory
from graphmem.store.catalog import default_catalog
from graphmem.store.executor import QueryExecutor
from tests.conftest import test_server


class MovableClock:
    """A clock the test moves by hand."""

    def __init__(self, start: datetime) -> None:
        self.current = start

    def now(self) -> datetime:
        return self.current

    def advance(self, **delta: float) -> None:
        self.current += timedelta(**delta)


@pytest.fixture(scope="session")
def sleep_target(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Neo4jTarget]:
    """A second Neo4j, only for consolidation tests."""
    server = test_server(Path(tmp_path_factory.mktemp("graphmem-sleep-home")))
    info = server.start()
    try:
        yield Neo4jTarget(info.uri, info.user, info.password.get_secret_value(), "neo4j")
    finally:
        server.stop()


@pytest.fixture(scope="session")
def sleep_driver(sleep_target: Neo4jTarget) -> Iterator[neo4j.Driver]:
    driver = neo4j.GraphDatabase.driver(
        sleep_target.uri,
        auth=(sleep_target.user, sleep_target.password),
        notifications_min_severity="OFF",
    )
    yield driver
    driver.close()


@pytest.fixture
def clock() -> MovableClock:
    return MovableClock(datetime(2026, 6, 1, 12, 0, tzinfo=UTC))


@pytest.fixture
def build(sleep_driver: neo4j.Driver, embedder: Embedder, clock: MovableClock):  # type: ignore[no-untyped-def]
    """Build a Memory on the wiped consolidation graph: build(settings=None, llm=None)."""
    sleep_driver.execute_query("MATCH (n) DETACH DELETE n")
    made: list[Memory] = []

    def make(settings: ConsolidationSettings | None = None, llm: LLM | None = None) -> Memory:
        executor = QueryExecutor(sleep_driver, default_catalog(), "neo4j")
        memory = Memory(executor, embedder, clock, llm, consolidation=settings)
        memory.prepare()
        made.append(memory)
        return memory

    yield make
    for memory in made:
        memory.settle()


@pytest.fixture
def sleeper(build) -> Memory:  # type: ignore[no-untyped-def]
    """A Memory on the wiped consolidation graph with the default settings."""
    return build()


def cypher(driver: neo4j.Driver, query: str, **params: object) -> list[dict[str, object]]:
    """Test-side inspection of the graph."""
    records, _, _ = driver.execute_query(query, params)
    return [r.data() for r in records]
