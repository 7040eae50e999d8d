"""The executor: runs catalog queries on Neo4j, checking parameters and routing reads as reads.

This is the only place that touches the driver's query API; every transaction carries the
query's name as metadata so it can be found in Neo4j's query log.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar

import neo4j
from neo4j import exceptions as neo4j_errors

from graphmem.errors import DatabaseUnavailableError, GraphmemError, QueryCatalogError
from graphmem.store.catalog import Catalog, CypherQuery

Row = dict[str, Any]
T = TypeVar("T")

_UNAVAILABLE = (
    neo4j_errors.ServiceUnavailable,
    neo4j_errors.SessionExpired,
    neo4j_errors.AuthError,
    ConnectionError,
    OSError,
)


def _check_parameters(query: CypherQuery, params: Mapping[str, Any]) -> None:
    given = set(params)
    missing = query.parameters - given
    extra = given - query.parameters
    if missing or extra:
        raise QueryCatalogError(
            f"{query.name}: parameters do not match the file "
            f"(missing {sorted(missing)}, unexpected {sorted(extra)})."
        )


def _unavailable(error: Exception) -> DatabaseUnavailableError:
    return DatabaseUnavailableError(
        f"Neo4j is unreachable ({type(error).__name__}: {error}). Start it with "
        "`graphmem neo4j start`, or check GRAPHMEM_NEO4J_URI / _USER / _PASSWORD."
    )


class Transaction:
    """A transaction handed to a unit of work; runs catalog queries inside it."""

    def __init__(self, tx: neo4j.ManagedTransaction, catalog: Catalog) -> None:
        self._tx = tx
        self._catalog = catalog

    def run(self, name: str, **params: Any) -> list[Row]:
        """Run the query ``name`` in this transaction and return its rows as dicts."""
        query = self._catalog.get(name)
        _check_parameters(query, params)
        result = self._tx.run(query.text, params)
        return [record.data() for record in result]


class QueryExecutor:
    """Runs named queries from the catalog against one database."""

    def __init__(self, driver: neo4j.Driver, catalog: Catalog, database: str) -> None:
        self._driver = driver
        self._catalog = catalog
        self._database = database

    @property
    def catalog(self) -> Catalog:
        """The catalog queries are read from."""
        return self._catalog

    def read(self, name: str, **params: Any) -> list[Row]:
        """Run a read query in its own read transaction."""
        return self.read_unit(lambda tx: tx.run(name, **params), name)

    def write(self, name: str, **params: Any) -> list[Row]:
        """Run a write query in its own write transaction."""
        return self.write_unit(lambda tx: tx.run(name, **params), name)

    def read_unit(self, work: Callable[[Transaction], T], label: str) -> T:
        """Run ``work`` in one read transaction (retried by the driver on transient errors)."""
        return self._unit(work, label, write=False)

    def write_unit(self, work: Callable[[Transaction], T], label: str) -> T:
        """Run ``work`` in one write transaction: all of it commits, or none of it."""
        return self._unit(work, label, write=True)

    def run_schema(self, name: str, **params: Any) -> list[Row]:
        """Run a schema statement (auto-commit: Neo4j refuses schema changes in explicit transactions)."""
        query = self._catalog.get(name)
        _check_parameters(query, params)
        try:
            with self._driver.session(database=self._database) as session:
                result = session.run(neo4j.Query(query.text, metadata={"graphmem": name}), params)
                return [record.data() for record in result]
        except _UNAVAILABLE as e:
            raise _unavailable(e) from e

    def _unit(self, work: Callable[[Transaction], T], label: str, *, write: bool) -> T:
        def body(tx: neo4j.ManagedTransaction) -> T:
            return work(Transaction(tx, self._catalog))

        body_with_meta = neo4j.unit_of_work(metadata={"graphmem": label})(body)
        try:
            with self._driver.session(database=self._database) as session:
                if write:
                    return session.execute_write(body_with_meta)
                return session.execute_read(body_with_meta)
        except GraphmemError:
            raise
        except _UNAVAILABLE as e:
            raise _unavailable(e) from e

    def ping(self) -> None:
        """Check that Neo4j answers; raises DatabaseUnavailableError otherwise."""
        try:
            self._driver.verify_connectivity()
        except _UNAVAILABLE as e:
            raise _unavailable(e) from e
        except neo4j_errors.Neo4jError as e:
            raise _unavailable(e) from e
