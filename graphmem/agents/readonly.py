"""Safe read-only Cypher for agents (X4): an agent's own query, or a ready-made one by name.

An agent's query is checked (:mod:`graphmem.agents.guard`), run in a READ transaction with a time
limit, cut at a row limit, and its rows confined to the caller's scopes
(:mod:`graphmem.agents.confine`, which also says what that confinement cannot protect). Values
travel as ``$parameters`` only; the caller's scopes arrive as ``$scopes``, so a query can filter
on them itself: ``WHERE any(s IN $scopes WHERE s = '/' OR m.scope = s OR m.scope STARTS WITH s + '/')``.

Ready-made queries are the files directly in ``cypher/agents/``; each takes ``$scopes`` and
``$limit`` (filled in here) and the parameters its file names.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from graphmem.agents import confine, guard
from graphmem.agents.models import AgentQuery, CypherResult
from graphmem.errors import InvalidInputError, NotFoundError
from graphmem.store.executor import QueryExecutor

DEFAULT_ROW_LIMIT = 100
MAX_ROW_LIMIT = 1000
DEFAULT_TIMEOUT_SECONDS = 10.0
MAX_TIMEOUT_SECONDS = 60.0
MAX_QUERY_CHARS = 20_000
READY_MADE_FOLDER = "agents"
FILLED_PARAMETERS = frozenset({"scopes", "limit"})
"""Parameters graphmem sets itself; a caller may not pass them."""

_READY_MADE_NAME = re.compile(r"^[a-z][a-z0-9_]*$")
_SCOPE_LOOKUP = "agents/confine/node_scopes"


def _check_limits(limit: int, timeout: float) -> None:
    if not 1 <= limit <= MAX_ROW_LIMIT:
        raise InvalidInputError(f"limit must be between 1 and {MAX_ROW_LIMIT}, not {limit}.")
    if not 0 < timeout <= MAX_TIMEOUT_SECONDS:
        raise InvalidInputError(f"timeout must be above 0 and at most {MAX_TIMEOUT_SECONDS:g} seconds.")


def _check_params(params: Mapping[str, Any] | None, filled: frozenset[str]) -> dict[str, Any]:
    given = dict(params or {})
    taken = sorted(filled & set(given))
    if taken:
        raise InvalidInputError(
            f"params may not set {taken}: graphmem fills them in (pass scopes and limit beside params)."
        )
    return given


class ReadOnlyCypher:
    """Runs agents' read queries over one executor; see the module doc for the rules."""

    def __init__(self, executor: QueryExecutor) -> None:
        self._executor = executor

    def run(
        self,
        query: str,
        params: Mapping[str, Any] | None = None,
        scopes: Sequence[str] | None = None,
        *,
        limit: int = DEFAULT_ROW_LIMIT,
        timeout: float = DEFAULT_TIMEOUT_SECONDS,
        graph_only: bool = False,
    ) -> CypherResult:
        """Run an agent's own read query; ``graph_only`` refuses rows holding plain values.

        Raises ForbiddenQueryError (could write, off the allow-lists, plain values under
        ``graph_only``), InvalidQueryError (Neo4j rejects it), InvalidInputError (blank or too long
        text, bad scopes, limits or params), QueryTimeoutError, DatabaseUnavailableError.
        """
        if not query.strip() or len(query) > MAX_QUERY_CHARS:
            raise InvalidInputError(f"query must be a Cypher statement of 1 to {MAX_QUERY_CHARS} characters.")
        _check_limits(limit, timeout)
        given = _check_params(params, frozenset({"scopes"}))
        allowed = confine.narrow_scopes(scopes, None)
        guard.check_text(query)
        columns, rows = self._executor.read_caller_query(
            query, {**given, "scopes": allowed}, vet=guard.check_plan, timeout=timeout, fetch=limit + 1
        )
        return self._confined(columns, rows, allowed, limit, graph_only)

    def ready_made(self) -> list[AgentQuery]:
        """The ready-made queries, by name, with what each returns and the parameters it takes."""
        catalog = self._executor.catalog
        found = []
        for full_name in catalog.names():
            folder, _, name = full_name.partition("/")
            if folder != READY_MADE_FOLDER or "/" in name:
                continue
            query = catalog.get(full_name)
            found.append(
                AgentQuery(name=name, doc=query.doc, parameters=sorted(query.parameters - FILLED_PARAMETERS))
            )
        return found

    def run_ready_made(
        self,
        name: str,
        params: Mapping[str, Any] | None = None,
        scopes: Sequence[str] | None = None,
        *,
        limit: int = DEFAULT_ROW_LIMIT,
    ) -> CypherResult:
        """Run the ready-made query ``name`` with ``params`` in ``scopes`` (default ``/``).

        Raises NotFoundError for an unknown name, InvalidInputError when params do not match the
        query's, and what :meth:`run` raises for the run itself.
        """
        known = {q.name: q for q in self.ready_made()}
        if not _READY_MADE_NAME.match(name) or name not in known:
            raise NotFoundError(f"No ready-made query {name!r}; choose one of {sorted(known)}.")
        _check_limits(limit, DEFAULT_TIMEOUT_SECONDS)
        given = _check_params(params, FILLED_PARAMETERS)
        wanted = set(known[name].parameters)
        if set(given) != wanted:
            raise InvalidInputError(
                f"{name} takes the parameters {sorted(wanted)}; got {sorted(given)}. "
                "Pass exactly those in params."
            )
        allowed = confine.narrow_scopes(scopes, None)
        text = self._executor.catalog.get(f"{READY_MADE_FOLDER}/{name}").text
        # The file says LIMIT $limit: one row more than asked shows whether there were more.
        columns, rows = self._executor.read_caller_query(
            text,
            {**given, "scopes": allowed, "limit": limit + 1},
            vet=guard.check_plan,
            timeout=DEFAULT_TIMEOUT_SECONDS,
            fetch=limit + 1,
        )
        return self._confined(columns, rows, allowed, limit, graph_only=False)

    def _confined(
        self,
        columns: list[str],
        rows: list[list[Any]],
        scopes: list[str],
        limit: int,
        graph_only: bool,
    ) -> CypherResult:
        truncated = len(rows) > limit
        rows = rows[:limit]
        if graph_only:
            for row in rows:
                for column, value in zip(columns, row, strict=True):
                    if confine.has_plain_values(value):
                        raise confine.plain_value_refusal(column, scopes)
        markers = self._markers(rows)
        kept = [row for row in rows if confine.row_allowed(row, markers, scopes)]
        return CypherResult(
            columns=columns,
            rows=[[confine.plain(v) for v in row] for row in kept],
            truncated=truncated,
            withheld=len(rows) - len(kept),
            scopes=scopes,
        )

    def _markers(self, rows: list[list[Any]]) -> confine.Markers:
        known, missing = confine.known_markers(rows)
        if missing:
            found = self._executor.read(_SCOPE_LOOKUP, element_ids=sorted(missing))
            known.update({r["element_id"]: (r["scope"], r["group_id"]) for r in found})
        return confine.Markers(known)
