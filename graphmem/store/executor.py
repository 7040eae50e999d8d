"""The executor: runs catalog queries on Neo4j, checking parameters and routing reads as reads.

This is the only place that touches the driver's query API; every transaction carries the
query's name as metadata so it can be found in Neo4j's query log.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

import neo4j
from neo4j import exceptions as neo4j_errors

from graphmem.errors import (
    DatabaseUnavailableError,
    ForbiddenQueryError,
    GraphmemError,
    InvalidQueryError,
    QueryCatalogError,
    QueryTimeoutError,
)
from graphmem.store.catalog import Catalog, CypherQuery

Row = dict[str, Any]
SCHEMA_ATTEMPTS = 5
_ALREADY_EXISTS = (
    "Neo.ClientError.Schema.EquivalentSchemaRuleAlreadyExists",
    "Neo.ClientError.Schema.IndexAlreadyExists",
    "Neo.ClientError.Schema.ConstraintAlreadyExists",
)
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


_EXPLAIN = "EXPLAIN "
_POSITION = re.compile(r"line (\d+), column (\d+) \(offset: (\d+)\)")


def _without_explain(message: str) -> str:
    """Neo4j's message about ``EXPLAIN <query>`` as if about the agent's query: positions shifted back."""

    def shift(match: re.Match[str]) -> str:
        line, column, offset = (int(g) for g in match.groups())
        column -= len(_EXPLAIN) if line == 1 else 0
        return f"line {line}, column {column} (offset: {offset - len(_EXPLAIN)})"

    message = _POSITION.sub(shift, message)
    # Neo4j echoes the statement with a caret under the error; drop the echo (it shows EXPLAIN).
    return message.split('\n"' + _EXPLAIN, 1)[0].strip()


def _caller_query_error(error: neo4j_errors.Neo4jError) -> GraphmemError:
    """What Neo4j's refusal of an agent's own query means for the agent."""
    code = error.code or ""
    message = _without_explain(error.message or str(error))
    if "TransactionTimedOut" in code or "TransactionTerminated" in code:
        return QueryTimeoutError(
            f"The query ran past its time limit and was stopped: narrow it (a LIMIT, a label, an "
            f"indexed property such as id or scope), or allow a longer timeout. Neo4j: {code}"
        )
    if code.endswith("AccessMode") or ".Security." in code:
        return ForbiddenQueryError(f"Neo4j refused the query as a write or a privileged act: {message}")
    return InvalidQueryError(f"Neo4j could not run the query ({code}): {message} Fix the query and retry.")


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
        # Catalog queries return maps, lists and values (never bare nodes), so each record is copied
        # as it is: Record.data()'s recursive conversion costs seconds on pages of vectors.
        keys = result.keys()
        return [dict(zip(keys, values, strict=True)) for values in result.values()]


class QueryExecutor:
    """Runs named queries from the catalog against one database."""

    def __init__(self, driver: neo4j.Driver, catalog: Catalog, database: str) -> None:
        self._driver = driver
        self._catalog = catalog
        self._database = database
        # Causal chaining: every session of this process waits for the bookmarks of the writes
        # before it, so on a cluster (neo4j:// routing) a recall after a write sees it even when
        # a follower answers the read. On one server it costs nothing.
        self._bookmarks = neo4j.GraphDatabase.bookmark_manager()

    def _session(self) -> neo4j.Session:
        return self._driver.session(database=self._database, bookmark_manager=self._bookmarks)

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

    def read_caller_query(
        self,
        text: str,
        params: Mapping[str, Any],
        *,
        vet: Callable[[str, Mapping[str, Any]], None],
        timeout: float,
        fetch: int,
    ) -> tuple[list[str], list[list[Any]]]:
        """Run an agent's own read query: the one Cypher graphmem runs that is not a catalog file.

        The text is the agent's (X4), sent as is with its values as parameters, never pasted into it.
        In one READ transaction limited to ``timeout`` seconds: ``EXPLAIN`` the text, hand Neo4j's
        query type and plan (a dict tree of ``operatorType``, ``args``, ``children``) to ``vet``,
        which raises to refuse it, then run it and keep at most ``fetch`` rows (the rest is
        discarded unread). Returns the column names and the rows with the driver's graph values.
        Raises what ``vet`` raises, QueryTimeoutError past the time limit, ForbiddenQueryError if
        Neo4j still refuses a write, InvalidQueryError for anything else Neo4j rejects, and
        DatabaseUnavailableError.
        """

        @neo4j.unit_of_work(metadata={"graphmem": "agent-cypher"}, timeout=timeout)
        def body(tx: neo4j.ManagedTransaction) -> tuple[list[str], list[list[Any]]]:
            summary = tx.run(_EXPLAIN + text, dict(params)).consume()
            vet(summary.query_type or "", summary.plan or {})
            result = tx.run(text, dict(params))
            rows: list[list[Any]] = []
            for record in result:
                rows.append(list(record.values()))
                if len(rows) >= fetch:
                    break
            return list(result.keys()), rows

        try:
            with self._session() as session:
                return session.execute_read(body)
        except GraphmemError:
            raise
        except _UNAVAILABLE as e:
            raise _unavailable(e) from e
        except neo4j_errors.Neo4jError as e:
            raise _caller_query_error(e) from e

    def run_schema(self, name: str, **params: Any) -> list[Row]:
        """Run a schema statement (auto-commit: Neo4j refuses schema changes in explicit transactions)."""
        query = self._catalog.get(name)
        _check_parameters(query, params)
        for attempt in range(SCHEMA_ATTEMPTS):
            try:
                with self._session() as session:
                    result = session.run(neo4j.Query(query.text, metadata={"graphmem": name}), params)
                    return [record.data() for record in result]
            except _UNAVAILABLE as e:
                raise _unavailable(e) from e
            except neo4j_errors.ClientError as e:
                # IF NOT EXISTS races with another process creating the same rule: it exists now.
                if (e.code or "").startswith(_ALREADY_EXISTS):
                    return []
                raise
            except neo4j_errors.TransientError:
                # Two API processes starting at once create the same indexes and deadlock on the
                # schema lock; auto-commit statements are not retried by the driver, so retry here.
                if attempt == SCHEMA_ATTEMPTS - 1:
                    raise
                time.sleep(0.2 * (attempt + 1))
        raise AssertionError("unreachable")

    def _unit(self, work: Callable[[Transaction], T], label: str, *, write: bool) -> T:
        def body(tx: neo4j.ManagedTransaction) -> T:
            return work(Transaction(tx, self._catalog))

        body_with_meta = neo4j.unit_of_work(metadata={"graphmem": label})(body)
        try:
            with self._session() as session:
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
