"""An agent's query whose result Neo4j cannot send (it drops that connection) is the query's fault
(InvalidQueryError, a 400 that says to return less), not "Neo4j is unreachable" (503), as long as
Neo4j still answers a fresh connection.

Reproduced on a real Neo4j by ``RETURN range(1, 100000000) AS x`` (Neo4j logs "Response write
failure" and the driver reports a defunct connection after about 100 s); too slow and too heavy
for the suite, so the driver here stands in for that one failure.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from neo4j.exceptions import ServiceUnavailable

from graphmem.errors import DatabaseUnavailableError, InvalidQueryError
from graphmem.store.catalog import Catalog
from graphmem.store.executor import QueryExecutor


class _DroppingSession:
    def __enter__(self) -> _DroppingSession:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def execute_read(self, work: Any) -> Any:
        raise ServiceUnavailable("Failed to read from defunct connection")


class _Driver:
    def __init__(self, *, still_up: bool) -> None:
        self.still_up = still_up

    def session(self, **_: Any) -> _DroppingSession:
        return _DroppingSession()

    def verify_connectivity(self) -> None:
        if not self.still_up:
            raise ServiceUnavailable("Couldn't connect")


def run(driver: _Driver, tmp_path: Path) -> None:
    executor = QueryExecutor(driver, Catalog(tmp_path), "neo4j")  # type: ignore[arg-type]
    executor.read_caller_query(
        "RETURN range(1, 100000000) AS x", {}, vet=lambda *_: None, timeout=10, fetch=10
    )


def test_a_dropped_connection_while_neo4j_answers_is_the_querys_fault(tmp_path: Path) -> None:
    with pytest.raises(InvalidQueryError, match="too large to send"):
        run(_Driver(still_up=True), tmp_path)


def test_a_dropped_connection_while_neo4j_is_down_is_still_unavailable(tmp_path: Path) -> None:
    with pytest.raises(DatabaseUnavailableError):
        run(_Driver(still_up=False), tmp_path)
