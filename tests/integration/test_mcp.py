"""graphmem's MCP server, driven by the MCP client library against the real stack.

The main scenario runs over the real stdio transport: the test spawns ``python -m graphmem.cli
mcp`` pointed at the session's Neo4j, as Claude Desktop or Claude Code would. The other tools are
exercised in-process, and one smoke test talks streamable HTTP to ``graphmem mcp --transport http``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp_types import CallToolResult

from graphmem.connect import Neo4jTarget
from graphmem.mcp.server import build_server
from graphmem.memory import Memory
from graphmem.runtime.ports import free_port, port_answers
from tests.serving import command_env

pytestmark = pytest.mark.integration

REPO = Path(__file__).resolve().parents[2]
TOOLS = {
    "remember",
    "recall",
    "forget",
    "get_memory_history",
    "list_decisions",
    "session_start",
    "run_read_query",
    "run_saved_query",
}


def data(result: CallToolResult) -> dict[str, Any]:
    """A successful tool result's JSON."""
    assert not result.is_error, result.content
    if result.structured_content is not None:
        return dict(result.structured_content)
    text = result.content[0].text  # type: ignore[union-attr]
    parsed: dict[str, Any] = json.loads(text)
    return parsed


def error_text(result: CallToolResult) -> str:
    """A failed tool result's message."""
    assert result.is_error, result.content
    return " ".join(getattr(part, "text", "") for part in result.content)


def count_nodes(memory: Memory) -> int:
    return int(memory.read_query("MATCH (n) RETURN count(n) AS n").rows[0][0])


def test_an_agent_remembers_recalls_and_follows_history_over_stdio(
    neo4j_target: Neo4jTarget, memory: Memory, scope: str
) -> None:
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "graphmem.cli", "mcp"], env=command_env(neo4j_target), cwd=REPO
    )

    async def session() -> None:
        async with Client(params, read_timeout_seconds=120) as client:
            listed = await client.list_tools()
            assert {tool.name for tool in listed.tools} == TOOLS
            assert all(tool.description for tool in listed.tools)

            paris = data(
                await client.call_tool(
                    "remember",
                    {"text": "Alice lives in Paris.", "scope": scope, "occurred_at": "2023-03-01T09:00:00Z"},
                )
            )
            berlin = data(
                await client.call_tool(
                    "remember",
                    {"text": "Alice moved to Berlin.", "scope": scope, "occurred_at": "2024-06-01T09:00:00Z"},
                )
            )
            paris_id, berlin_id = paris["memory"]["id"], berlin["memory"]["id"]
            assert f"superseded:{paris_id}" in berlin["actions"]

            answer = data(
                await client.call_tool("recall", {"query": "Where does Alice live?", "scope": scope})
            )
            assert answer["results"][0]["id"] == berlin_id
            assert paris_id not in [hit["id"] for hit in answer["results"]]  # superseded: history only

            history = data(await client.call_tool("get_memory_history", {"memory_id": berlin_id}))
            [older] = history["history"]
            assert (older["id"], older["relation"], older["text"]) == (
                paris_id,
                "supersedes",
                "Alice lives in Paris.",
            )
            back = data(await client.call_tool("get_memory_history", {"memory_id": paris_id}))
            assert back["memory"]["status"] == "superseded"
            assert [h["id"] for h in back["history"] if h["relation"] == "superseded_by"] == [berlin_id]

            blank = error_text(await client.call_tool("remember", {"text": "   ", "scope": scope}))
            assert blank.startswith("invalid_input: ")  # no "Error executing tool remember: " prefix
            unknown = error_text(await client.call_tool("get_memory_history", {"memory_id": "no-such-id"}))
            assert unknown.startswith("not_found: ")
            mistyped = error_text(await client.call_tool("recall", {"query": "x", "limit": "many"}))
            assert mistyped.startswith("invalid_input: limit: ")

            before = count_nodes(memory)
            refused = error_text(
                await client.call_tool("run_read_query", {"query": "CREATE (:Pwned {by: 'mcp'}) RETURN 1"})
            )
            assert "forbidden_query" in refused
            refused = error_text(
                await client.call_tool(
                    "run_read_query", {"query": "CALL apoc.cypher.runWrite('CREATE (:Pwned)', {})"}
                )
            )
            assert "apoc.cypher.runWrite" in refused
            assert count_nodes(memory) == before

            # The server survived every refusal and still answers.
            rows = data(
                await client.call_tool(
                    "run_read_query",
                    {
                        "query": "MATCH (m:Memory) WHERE m.id IN $ids RETURN m.text AS text ORDER BY text",
                        "params": {"ids": [paris_id, berlin_id]},
                        "scopes": [scope],
                    },
                )
            )
            assert rows["rows"] == [["Alice lives in Paris."], ["Alice moved to Berlin."]]

    anyio.run(session)


def test_the_other_tools_in_process(memory: Memory, scope: str) -> None:
    server = build_server(memory)
    user_scope = f"{scope}/user/dana"

    async def session() -> None:
        async with Client(server) as client:
            data(
                await client.call_tool(
                    "remember",
                    {
                        "text": "We decided to use PostgreSQL for billing because it is transactional.",
                        "scope": user_scope,
                    },
                )
            )
            kept = data(
                await client.call_tool(
                    "remember",
                    {"text": "Dana is allergic to peanuts.", "scope": user_scope, "importance": 0.95},
                )
            )
            decisions = data(
                await client.call_tool("list_decisions", {"topic": "postgresql", "scope": scope})
            )
            assert [d["choice"] for d in decisions["decisions"]] == ["use PostgreSQL for billing"]

            start = data(await client.call_tool("session_start", {"user": "dana", "scope": user_scope}))
            assert "Dana is allergic to peanuts." in [m["text"] for m in start["core_facts"]]

            saved = data(
                await client.call_tool(
                    "run_saved_query",
                    {"name": "decisions_on_topic", "params": {"topic": "billing"}, "scopes": [scope]},
                )
            )
            assert saved["columns"] == ["decision", "reverses", "reversed_by"] and len(saved["rows"]) == 1
            wrong = error_text(await client.call_tool("run_saved_query", {"name": "no_such_query"}))
            assert "belief_history" in wrong

            nothing = error_text(await client.call_tool("forget", {}))
            assert "at least one" in nothing
            gone = data(await client.call_tool("forget", {"memory_ids": [kept["memory"]["id"]]}))
            assert gone == {"deleted": 1}
            after = data(await client.call_tool("recall", {"query": "peanut allergy", "scope": user_scope}))
            assert kept["memory"]["id"] not in [hit["id"] for hit in after["results"]]

    anyio.run(session)


@pytest.fixture
def http_server(neo4j_target: Neo4jTarget) -> Iterator[str]:
    """``graphmem mcp --transport http`` on a free port; its URL."""
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "graphmem.cli", "mcp", "--transport", "http", "--port", str(port)],
        cwd=REPO,
        env={**os.environ, **command_env(neo4j_target)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 120
        while not port_answers(port):
            if process.poll() is not None or time.monotonic() > deadline:
                err = process.stderr.read().decode() if process.stderr else ""
                pytest.fail(f"graphmem mcp --transport http did not come up: {err[-2000:]}")
            time.sleep(0.3)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def test_streamable_http_serves_the_same_tools(http_server: str, scope: str) -> None:
    async def session() -> None:
        async with Client(http_server, read_timeout_seconds=60) as client:
            assert {tool.name for tool in (await client.list_tools()).tools} == TOOLS
            text = f"The HTTP smoke test ran in {uuid.uuid4().hex[:6]}."
            data(await client.call_tool("remember", {"text": text, "scope": scope}))
            found = data(await client.call_tool("recall", {"query": "HTTP smoke test", "scope": scope}))
            assert found["results"][0]["text"] == text

    anyio.run(session)
