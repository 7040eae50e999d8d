"""Graph queries for agents (X4): read-only Cypher confined to the caller's scopes, and ready-made queries.

A key bound to scopes in ``GRAPHMEM_API_KEYS`` (``secret@/user/alice|/team/x``) narrows the scopes
a request asks for, and its own queries may return only nodes, relationships and paths (every
one checked against those scopes); see :mod:`graphmem.agents.confine` for what that covers.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from pydantic import BaseModel, ConfigDict, Field

from graphmem.agents.confine import narrow_scopes
from graphmem.agents.models import AgentQuery, CypherResult
from graphmem.agents.readonly import (
    DEFAULT_ROW_LIMIT,
    DEFAULT_TIMEOUT_SECONDS,
    MAX_QUERY_CHARS,
    MAX_ROW_LIMIT,
    MAX_TIMEOUT_SECONDS,
)
from graphmem.api.deps import KeyScopesDep, MemoryDep
from graphmem.api.schemas import ERROR_RESPONSES, ErrorBody
from graphmem.models import JsonInt

_RESPONSES: dict[int | str, dict[str, Any]] = {
    **ERROR_RESPONSES,
    400: {"model": ErrorBody, "description": "Neo4j cannot parse or run the query"},
    403: {"model": ErrorBody, "description": "The query could write, or calls what is not allowed"},
    408: {"model": ErrorBody, "description": "The query ran past its time limit"},
}

router = APIRouter(tags=["cypher"], responses=_RESPONSES)

_SCOPES = Field(
    default=None,
    max_length=50,
    description="Scopes to read (default ['/']), passed to the query as $scopes; an API key bound to "
    "scopes narrows them.",
)


class CypherRequest(BaseModel):
    """An agent's own read-only query."""

    model_config = ConfigDict(extra="forbid", strict=True)

    query: str = Field(
        min_length=1, max_length=MAX_QUERY_CHARS, description="One read-only Cypher statement."
    )
    params: dict[str, Any] | None = Field(default=None, description="Values for its $parameters.")
    scopes: list[str] | None = _SCOPES
    limit: JsonInt = Field(default=DEFAULT_ROW_LIMIT, ge=1, le=MAX_ROW_LIMIT, description="Most rows given.")
    timeout: float = Field(
        default=DEFAULT_TIMEOUT_SECONDS,
        gt=0,
        le=MAX_TIMEOUT_SECONDS,
        description="Seconds before it is stopped.",
    )


class ReadyMadeRequest(BaseModel):
    """Parameters for a ready-made query."""

    model_config = ConfigDict(extra="forbid", strict=True)

    params: dict[str, Any] | None = Field(default=None, description="The parameters the query lists.")
    scopes: list[str] | None = _SCOPES
    limit: JsonInt = Field(default=DEFAULT_ROW_LIMIT, ge=1, le=MAX_ROW_LIMIT, description="Most rows given.")


class ReadyMadeList(BaseModel):
    """The ready-made queries."""

    queries: list[AgentQuery]


@router.post("/cypher", response_model=CypherResult)
def run_cypher(body: CypherRequest, memory: MemoryDep, bound: KeyScopesDep) -> CypherResult:
    """Run one read-only Cypher statement; rows with nodes or edges outside the scopes are withheld.

    403 when it could write, uses USE / LOAD CSV / IN TRANSACTIONS, or calls a procedure or
    function outside the allow-list; 400 when Neo4j cannot parse or run it; 408 past the timeout.
    """
    scopes = narrow_scopes(body.scopes, bound)
    return memory.read_query(
        body.query, body.params, scopes, limit=body.limit, timeout=body.timeout, graph_only=bound is not None
    )


@router.get("/cypher/queries", response_model=ReadyMadeList)
def list_ready_made(memory: MemoryDep) -> ReadyMadeList:
    """The ready-made queries: name, what each returns, and the parameters it takes."""
    return ReadyMadeList(queries=memory.agent_queries())


@router.post("/cypher/queries/{name}", response_model=CypherResult)
def run_ready_made(name: str, body: ReadyMadeRequest, memory: MemoryDep, bound: KeyScopesDep) -> CypherResult:
    """Run a ready-made query by name; 404 for an unknown name, 422 when params do not match."""
    scopes = narrow_scopes(body.scopes, bound)
    return memory.agent_query(name, body.params, scopes, limit=body.limit)
