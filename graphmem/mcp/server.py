"""graphmem as an MCP server: the Memory facade's operations as tools an LLM agent can call.

:func:`build_server` only wraps a ready :class:`~graphmem.memory.Memory`; the CLI
(``graphmem mcp``) connects it and picks the transport. Every failure reaches the model as a tool
error (``isError``) whose text starts with graphmem's error code and says what to change; nothing
a tool raises stops the server.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Annotated, Any, TypeVar

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError
from mcp_types import CallToolResult, InputRequiredResult, ToolAnnotations
from pydantic import BaseModel, Field, ValidationError

from graphmem.agents.confine import narrow_scopes
from graphmem.errors import GraphmemError
from graphmem.mcp.views import decision_view, memory_view, recalled_view
from graphmem.memory import Memory
from graphmem.models import ForgetFilter
from graphmem.tenancy import Grant

INSTRUCTIONS = """\
graphmem is your long-term memory, kept as a graph. At the start of a conversation call
session_start for the user. Before answering anything that depends on what you were told earlier,
call recall. When the user states a durable fact, preference, plan or decision, call remember with
one self-contained sentence (name people, no 'I'/'he'); newer statements supersede older ones on
their own. Scopes are paths such as /user/alice; use the user's scope for their memories."""

_READ = ToolAnnotations(read_only_hint=True, open_world_hint=False)
_WRITE = ToolAnnotations(read_only_hint=False, destructive_hint=False, open_world_hint=False)
_DELETE = ToolAnnotations(read_only_hint=False, destructive_hint=True, open_world_hint=False)

_Tool = TypeVar("_Tool", bound=Callable[..., Any])

Scope = Annotated[
    str | None, Field(description="Scope path such as /user/alice (that scope and everything below it).")
]


def _problems(error: ValidationError) -> str:
    return "; ".join(
        f"{'.'.join(str(p) for p in err['loc']) or 'input'}: {err['msg']}" for err in error.errors()
    )


class _GraphmemMCP(MCPServer):
    """An MCP server whose tool errors read ``invalid_input: ...``, not ``Error executing tool
    recall: invalid_input: ...``: the SDK's prefix names the tool the model just called."""

    async def call_tool(
        self, name: str, arguments: dict[str, Any], context: Context[Any, Any] | None = None
    ) -> CallToolResult | InputRequiredResult:
        try:
            return await super().call_tool(name, arguments, context)
        except UnexpectedToolError:
            raise
        except ToolError as e:
            cause = e.__cause__
            if isinstance(cause, ToolError):  # raised by _answer: already graphmem's own words
                raise ToolError(str(cause)) from cause.__cause__ or cause
            if isinstance(cause, ValidationError):  # the arguments do not fit the tool's schema
                raise ToolError(f"invalid_input: {_problems(cause)}") from cause
            raise


def _answer(work: Callable[[], Any]) -> dict[str, Any]:
    """Run a tool body; graphmem's errors become tool errors the model can read and act on."""
    try:
        value = work()
    except GraphmemError as e:
        raise ToolError(f"{e.code}: {e}") from e
    except ValidationError as e:
        raise ToolError(f"invalid_input: {_problems(e)}") from e
    if isinstance(value, BaseModel):
        dumped: dict[str, Any] = value.model_dump(mode="json")
        return dumped
    result: dict[str, Any] = value
    return result


def _tool(server: MCPServer, annotations: ToolAnnotations) -> Callable[[_Tool], _Tool]:
    """Register a tool whose description is its docstring, dedented for the model to read."""

    def register(fn: _Tool) -> _Tool:
        server.add_tool(fn, description=inspect.cleandoc(fn.__doc__ or ""), annotations=annotations)
        return fn

    return register


def build_server(memory: Memory, *, allowed: Sequence[str] | None = None) -> MCPServer:
    """An MCP server whose tools remember, recall, forget and query ``memory`` (not yet running).

    With ``allowed`` (an API key's scopes, ``graphmem mcp --api-key``), every tool is confined to
    those scopes exactly as the REST API is: others' memories are unknown ids, writes outside
    them are refused, agent queries see only graph values inside them.
    """
    # A Grant (an agent's key, X5) is kept whole: it confines writes to the agent's own space.
    scopes = None if allowed is None else allowed if isinstance(allowed, Grant) else list(allowed)
    server = _GraphmemMCP(name="graphmem", instructions=INSTRUCTIONS)
    _memory_tools(server, memory, scopes)
    _context_tools(server, memory, scopes)
    _graph_tools(server, memory, scopes)
    return server


def _memory_tools(server: MCPServer, memory: Memory, allowed: list[str] | None) -> None:
    @_tool(server, _WRITE)
    def remember(
        text: Annotated[str, Field(description="One self-contained statement worth keeping.")],
        scope: Scope = None,
        categories: Annotated[
            list[str] | None, Field(description="Labels such as preference, location, health.")
        ] = None,
        importance: Annotated[float | None, Field(ge=0, le=1, description="0..1; inferred if unset.")] = None,
        occurred_at: Annotated[
            datetime | None, Field(description="When it happened or was said (ISO-8601); default now.")
        ] = None,
    ) -> dict[str, Any]:
        """Store a fact, preference, plan or decision in long-term memory.

        Returns the stored memory and `actions`: created, reinforced (it was already known),
        superseded:<id> (it replaced an older belief, which stays in its history),
        contradicts:<id>. The memory with the later occurred_at wins a conflict.
        """

        def work() -> dict[str, Any]:
            result = memory.remember(
                text,
                scope=scope,
                categories=categories,
                importance=importance,
                occurred_at=occurred_at,
                allowed=allowed,
            )
            return {"memory": memory_view(result.memory), "actions": result.actions}

        return _answer(work)

    @_tool(server, _READ)
    def recall(
        query: Annotated[str, Field(description="A question or topic in plain language.")],
        scope: Scope = None,
        limit: Annotated[int, Field(ge=1, le=50, description="Most memories returned.")] = 10,
        include_superseded: Annotated[
            bool, Field(description="Also return beliefs that were replaced (history).")
        ] = False,
        categories: Annotated[
            list[str] | None,
            Field(description="Only memories with one of these categories (a domain such as engineering)."),
        ] = None,
    ) -> dict[str, Any]:
        """Find the memories that answer a question, best first, current beliefs only by default.

        Each result has an id, text, score and tags (conflict, stale, uncertain). `confidence`
        (0..1) says how well the memories cover the question; `evidence_gaps` what they miss.
        """

        def work() -> dict[str, Any]:
            answer = memory.recall(
                query,
                scope=scope,
                limit=limit,
                include_superseded=include_superseded,
                categories=categories,
                allowed=allowed,
            )
            return {
                "results": [recalled_view(hit) for hit in answer.results],
                "confidence": answer.confidence,
                "evidence_gaps": answer.evidence_gaps,
            }

        return _answer(work)

    @_tool(server, _DELETE)
    def forget(
        memory_ids: Annotated[list[str] | None, Field(description="Ids of memories to delete.")] = None,
        scope: Scope = None,
        categories: Annotated[list[str] | None, Field(description="Only memories with these labels.")] = None,
        older_than: Annotated[datetime | None, Field(description="Only memories from before then.")] = None,
    ) -> dict[str, Any]:
        """Permanently delete memories matching ALL given filters (at least one is required).

        Use it when the user asks you to forget something; prefer memory_ids. Returns `deleted`.
        """

        def work() -> dict[str, Any]:
            what = ForgetFilter(ids=memory_ids, scope=scope, categories=categories, older_than=older_than)
            return {"deleted": memory.forget(what, allowed=allowed)}

        return _answer(work)

    @_tool(server, _READ)
    def get_memory_history(
        memory_id: Annotated[str, Field(description="A memory id from recall or remember.")],
    ) -> dict[str, Any]:
        """One memory with its belief history: the older beliefs it superseded and the newer ones
        that superseded it (relation supersedes / superseded_by, depth 1 = direct), and for a
        summary memory the ids it was derived from."""

        def work() -> dict[str, Any]:
            detail = memory.get(memory_id, allowed=allowed)
            return {
                "memory": memory_view(detail),
                "history": [h.model_dump(mode="json") for h in detail.history],
                "derived_from": detail.derived_from,
            }

        return _answer(work)


def _context_tools(server: MCPServer, memory: Memory, allowed: list[str] | None) -> None:
    @_tool(server, _READ)
    def list_decisions(
        topic: Annotated[str | None, Field(description="Words that must all occur in the decision.")] = None,
        domain: Annotated[
            str | None,
            Field(description="engineering, infra, product, hiring, finance, marketing, personal, general."),
        ] = None,
        scope: Scope = None,
    ) -> dict[str, Any]:
        """The decision ledger, newest first: what was decided, why, and which later decision
        reversed it (superseded_by)."""

        def work() -> dict[str, Any]:
            found = memory.decisions(topic=topic, domain=domain, scope=scope, allowed=allowed)
            return {"decisions": [decision_view(d) for d in found]}

        return _answer(work)

    @_tool(server, _READ)
    def session_start(
        user: Annotated[str, Field(description="The user's name or id, e.g. alice.")],
        scope: Annotated[str | None, Field(description="Their scope; default /user/<user>.")] = None,
    ) -> dict[str, Any]:
        """What to load at the start of a conversation: the user's lessons (how they want to be
        treated, corrections they made), their core facts, most important first, what is due
        today (memories that named this day ahead of time) and their profile (identity,
        preferences, relationships, priorities). Follow the lessons."""

        def work() -> dict[str, Any]:
            context = memory.session_start(user, scope=scope, allowed=allowed)
            profile = (
                context.profile.model_dump(mode="json", exclude={"computed_at"}) if context.profile else {}
            )
            return {
                "user": context.user,
                "scope": context.scope,
                "lessons": [memory_view(m) for m in context.lessons],
                "core_facts": [memory_view(m) for m in context.core_facts],
                "due": [{"due_on": t.due_on.isoformat(), **memory_view(t.memory)} for t in context.due],
                "profile": profile,
            }

        return _answer(work)


def _graph_tools(server: MCPServer, memory: Memory, allowed: list[str] | None) -> None:
    @_tool(server, _READ)
    def run_read_query(
        query: Annotated[str, Field(description="One read-only Cypher statement; values as $parameters.")],
        params: Annotated[dict[str, Any] | None, Field(description="Values for the $parameters.")] = None,
        scopes: Annotated[
            list[str] | None, Field(description="Scopes to read, default ['/']; passed as $scopes.")
        ] = None,
        limit: Annotated[int, Field(ge=1, le=1000, description="Most rows returned.")] = 50,
    ) -> dict[str, Any]:
        """Run a read-only Cypher query on the memory graph (Neo4j 5).

        Nodes: Memory (+ EpisodicMemory/SemanticMemory/SchemaMemory; id, text, scope, layer,
        status, occurred_at, importance, categories), Entity (name, scope), Decision (text, choice,
        reasoning, domain, status, scope). Edges: (Memory)-[:MENTIONS]->(Entity),
        (newer)-[:SUPERSEDES]->(older), (Memory)-[:CONTRADICTS]->(Memory),
        (summary)-[:DERIVED_FROM]->(Memory). Filter on your scopes with
        `any(s IN $scopes WHERE s = '/' OR m.scope = s OR m.scope STARTS WITH s + '/')`.
        Writes, LOAD CSV, USE and procedures other than db.labels / db.index.* searches are refused;
        rows with nodes outside the scopes are withheld (`withheld`); `truncated` means more rows.
        """
        return _answer(
            lambda: memory.read_query(
                query, params, narrow_scopes(scopes, allowed), limit=limit, graph_only=allowed is not None
            )
        )

    saved = "; ".join(f"{q.name}({', '.join(q.parameters)}): {q.doc}" for q in memory.agent_queries())

    @server.tool(annotations=_READ, description=f"Run a ready-made graph query by name. Queries: {saved}")
    def run_saved_query(
        name: Annotated[str, Field(description="The query's name.")],
        params: Annotated[
            dict[str, Any] | None, Field(description="Exactly the parameters the query lists.")
        ] = None,
        scopes: Annotated[list[str] | None, Field(description="Scopes to read, default ['/'].")] = None,
        limit: Annotated[int, Field(ge=1, le=1000, description="Most rows returned.")] = 50,
    ) -> dict[str, Any]:
        return _answer(lambda: memory.agent_query(name, params, narrow_scopes(scopes, allowed), limit=limit))
