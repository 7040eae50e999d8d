"""The executor: runs catalog queries on Neo4j, checking parameters and routing reads as reads.

This is the only place that touches the driver's query API; every transaction carries the
query's name as metadata so it can be found in Neo4j's query log.
"""

from __future__ import annotations

import logging
import random
import re
import time
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

import neo4j
from neo4j import exceptions as neo4j_errors

from graphmem.errors import (
    DatabaseBusyError,
    DatabaseUnavailableError,
    ForbiddenQueryError,
    GraphmemError,
    InvalidInputError,
    InvalidQueryError,
    QueryCatalogError,
    QueryTimeoutError,
    StoreError,
)
from graphmem.store.catalog import Catalog, CypherQuery
from graphmem.tenancy import ALLOWED_PARAMETER, current_for

log = logging.getLogger(__name__)

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


def _not_unicode(error: UnicodeEncodeError) -> InvalidInputError:
    """A value Neo4j cannot be sent: text with a lone UTF-16 surrogate (JSON's ``"\\ud800"``)."""
    bad = error.object[error.start : error.end] if isinstance(error.object, str) else ""
    code = f" (U+{ord(bad[0]):04X})" if bad else ""
    return InvalidInputError(
        f"A text holds a lone surrogate{code}, half of a UTF-16 pair, which is not Unicode text and "
        "cannot be stored or searched: send whole characters (e.g. '\\ud83d\\ude00', not '\\ud83d' "
        "alone)."
    )


_DROPPED = (
    "Neo4j closed the connection while sending this query's result, and answers other queries: "
    "the result is too large to send (e.g. a list of millions of values in one cell). Return fewer "
    "or smaller values (aggregate, slice lists, add LIMIT)."
)


def _unavailable(error: Exception) -> DatabaseUnavailableError:
    return DatabaseUnavailableError(
        f"Neo4j is unreachable ({type(error).__name__}: {error}). Start it with "
        "`graphmem neo4j start`, or check GRAPHMEM_NEO4J_URI / _USER / _PASSWORD."
    )


# The driver's managed transactions already retry transient errors (deadlocks, leader switches) for
# up to its max_transaction_retry_time; under heavy contention that window can run out, and a
# transient error can also reach us wrapped (a ResultFailedError over a deadlock). Those units of
# work are run again here, a few times with jittered exponential backoff, before the caller hears.
RETRY_ATTEMPTS = 4
RETRY_FIRST_DELAY = 0.2
RETRY_MAX_DELAY = 3.0


def is_transient(error: BaseException) -> bool:
    """Whether ``error`` (or the error it wraps) is one Neo4j says may succeed when run again."""
    seen: BaseException | None = error
    for _ in range(5):  # a short chain: ResultFailedError -> TransientError
        if seen is None:
            return False
        if isinstance(seen, neo4j_errors.TransientError | neo4j_errors.ConnectionAcquisitionTimeoutError):
            return True  # the pool was busy (writers queued on a scope lock): it frees up
        if isinstance(seen, neo4j_errors.Neo4jError | neo4j_errors.DriverError) and seen.is_retryable():
            return not isinstance(seen, neo4j_errors.ServiceUnavailable | neo4j_errors.SessionExpired)
        seen = seen.__cause__ or seen.__context__
    return False


def retry_delay(attempt: int) -> float:
    """Seconds to wait before attempt ``attempt`` (1-based retries): exponential with full jitter."""
    return random.uniform(0.0, min(RETRY_MAX_DELAY, RETRY_FIRST_DELAY * 2 ** (attempt - 1)))


def _busy(error: Exception, label: str) -> DatabaseBusyError:
    return DatabaseBusyError(
        f"The graph stayed busy for {label} after {RETRY_ATTEMPTS} attempts (conflicting concurrent "
        f"writes); nothing was written. Retry the request (with the same Idempotency-Key). "
        f"Neo4j: {getattr(error, 'code', None) or type(error).__name__}"
    )


def _store_error(error: Exception, label: str) -> StoreError:
    # Neo4j's own message can quote stored values; it goes to the server log, not to the caller.
    log.error("Neo4j refused %s", label, exc_info=error)
    code = getattr(error, "code", None) or type(error).__name__
    return StoreError(
        f"Neo4j could not complete {label} ({code}); nothing was written. Retry; if it keeps "
        "failing, report it with the server log."
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


def _caller_query_error(error: neo4j_errors.Neo4jError, *, planning: bool) -> GraphmemError:
    """What Neo4j's refusal of an agent's own query means for the agent.

    While planning (``EXPLAIN``), Neo4j's message is about the query text alone and is echoed. While
    running, its messages quote the values it choked on (``date(m.text)`` quotes the text), which
    may belong to another tenant: the answer then has the code and a message of our own, and the
    detail goes to the server log only.
    """
    code = error.code or ""
    if "TransactionTimedOut" in code or "TransactionTerminated" in code:
        return QueryTimeoutError(
            f"The query ran past its time limit and was stopped: narrow it (a LIMIT, a label, an "
            f"indexed property such as id or scope), or allow a longer timeout. Neo4j: {code}"
        )
    if code.endswith("AccessMode") or ".Security." in code:
        return ForbiddenQueryError(
            f"Neo4j refused the query as a write or a privileged act ({code}); send a read-only query."
        )
    if planning:
        message = _without_explain(error.message or str(error))
        return InvalidQueryError(
            f"Neo4j could not run the query ({code}): {message} Fix the query and retry."
        )
    log.info("agent query failed while running: %s %s", code, error.message)
    return InvalidQueryError(
        f"Neo4j could not run the query ({code}): a value did not suit the function or operator "
        "applied to it (a conversion such as date() or toInteger() of a text, a wrong type, a "
        "division by zero). Check what your query passes to functions and operators, and retry."
    )


class _Unprinted(list):  # type: ignore[type-arg]
    """A list parameter as it is sent, with a short ``repr``.

    The driver formats every RUN's parameters for its debug log whether or not that log is on
    (``" ".join(map(repr, fields))`` before ``log.debug``): a batch of 500 memories with their
    vectors took about a quarter of a second of interpreter time per statement to print.
    """

    __slots__ = ()

    def __repr__(self) -> str:
        return f"<list of {len(self)}>"


def _sendable(params: dict[str, Any]) -> dict[str, Any]:
    return {name: _Unprinted(value) if isinstance(value, list) else value for name, value in params.items()}


class Transaction:
    """A transaction handed to a unit of work; runs catalog queries inside it.

    Over a session instead (``label`` names its queries), each query is its own auto-commit transaction: one
    round trip per query instead of a BEGIN and a COMMIT more around them (see
    :meth:`QueryExecutor.read_statements`).
    """

    def __init__(
        self, tx: neo4j.ManagedTransaction | neo4j.Session, catalog: Catalog, label: str | None = None
    ) -> None:
        self._tx = tx
        self._catalog = catalog
        self._label = label

    def run(self, name: str, **params: Any) -> list[Row]:
        """Run the query ``name`` in this transaction and return its rows as dicts."""
        query = self._catalog.get(name)
        if ALLOWED_PARAMETER in query.parameters and ALLOWED_PARAMETER not in params:
            # Tenancy: the caller's allowed scopes reach every query that filters on them; a write
            # query gets the scopes the caller may write in (X5: an agent's own space).
            params[ALLOWED_PARAMETER] = current_for(query.mode)
        _check_parameters(query, params)
        sent = _sendable(params)
        if isinstance(self._tx, neo4j.Session):
            result = self._tx.run(neo4j.Query(query.text, metadata={"graphmem": self._label}), sent)
        else:
            result = self._tx.run(query.text, sent)
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
        return self._session_for(neo4j.WRITE_ACCESS)  # the driver's default access mode

    def _session_for(self, access_mode: str) -> neo4j.Session:
        return self._driver.session(
            database=self._database, bookmark_manager=self._bookmarks, default_access_mode=access_mode
        )

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

    def read_statements(self, work: Callable[[Transaction], T], label: str) -> T:
        """Run ``work``'s read queries each as its own auto-commit transaction in one session (run
        again as a whole on transient errors): one round trip per query, where a transaction adds
        two (BEGIN, COMMIT). Neo4j reads committed data either way (a transaction holds no snapshot),
        so a unit of reads that checks what it needs within each query loses nothing by it."""

        def once() -> T:
            with self._session_for(neo4j.READ_ACCESS) as session:
                return work(Transaction(session, self._catalog, label))

        return self._retrying(once, label)

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
            try:
                summary = tx.run(_EXPLAIN + text, dict(params)).consume()
            except neo4j_errors.Neo4jError as e:
                if isinstance(e, _UNAVAILABLE) or e.is_retryable():
                    raise
                raise _caller_query_error(e, planning=True) from e
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
        except UnicodeEncodeError as e:
            raise _not_unicode(e) from e
        except _UNAVAILABLE as e:
            if self._answers():  # Neo4j is up: it dropped this query's connection, not every one
                raise InvalidQueryError(_DROPPED) from e
            raise _unavailable(e) from e
        except neo4j_errors.Neo4jError as e:
            raise _caller_query_error(e, planning=False) from e
        except OverflowError as e:  # the driver cannot encode an integer parameter
            raise InvalidQueryError(
                "A parameter cannot be sent to Neo4j: integers must fit in 64 bits (-2^63 .. 2^63-1); "
                "send larger numbers as floats or strings. Change 'params'."
            ) from e

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
        """Run ``work`` in a managed transaction, again on transient errors (bounded, with backoff)."""
        return self._retrying(lambda: self._unit_once(work, label, write=write), label)

    def _retrying(self, once: Callable[[], T], label: str) -> T:
        """``once()``, run again on transient errors (bounded, with jittered backoff)."""
        attempt = 0
        while True:
            try:
                return once()
            except GraphmemError:
                raise
            except UnicodeEncodeError as e:  # raised while packing the parameters: nothing was sent
                raise _not_unicode(e) from e
            except _UNAVAILABLE as e:
                raise _unavailable(e) from e
            except (neo4j_errors.Neo4jError, neo4j_errors.DriverError) as e:
                attempt += 1
                if not is_transient(e):
                    raise _store_error(e, label) from e
                if attempt >= RETRY_ATTEMPTS:
                    raise _busy(e, label) from e
                delay = retry_delay(attempt)
                log.warning("%s hit a transient error (%s); retry %d in %.2fs", label, e, attempt, delay)
                time.sleep(delay)

    def _unit_once(self, work: Callable[[Transaction], T], label: str, *, write: bool) -> T:
        def body(tx: neo4j.ManagedTransaction) -> T:
            return work(Transaction(tx, self._catalog))

        body_with_meta = neo4j.unit_of_work(metadata={"graphmem": label})(body)
        with self._session() as session:
            if write:
                return session.execute_write(body_with_meta)
            return session.execute_read(body_with_meta)

    def _answers(self) -> bool:
        """Whether Neo4j answers a fresh connection now."""
        try:
            self.ping()
        except DatabaseUnavailableError:
            return False
        return True

    def ping(self) -> None:
        """Check that Neo4j answers; raises DatabaseUnavailableError otherwise."""
        try:
            self._driver.verify_connectivity()
        except _UNAVAILABLE as e:
            raise _unavailable(e) from e
        except neo4j_errors.Neo4jError as e:
            raise _unavailable(e) from e
