"""What is remembered where (R8 scope tree, REST and CLI) and the graph for analysis (networkx export)."""

from __future__ import annotations

import json
import uuid
import xml.etree.ElementTree as ET
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import networkx as nx
import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient

from graphmem.api.app import create_app
from graphmem.cli import main as cli
from graphmem.connect import Neo4jTarget
from graphmem.errors import InvalidInputError, NotFoundError
from graphmem.memory import Memory
from tests.serving import command_env

pytestmark = pytest.mark.integration


@pytest.fixture
def root() -> str:
    """A scope tree nobody else writes to."""
    return f"/tree{uuid.uuid4().hex[:10]}"


def seed(memory: Memory, root: str) -> None:
    memory.remember("I live in Lisbon.", scope=f"{root}/alice", occurred_at=datetime(2025, 1, 1, tzinfo=UTC))
    memory.remember(
        "I live in Porto now.", scope=f"{root}/alice", occurred_at=datetime(2025, 6, 1, tzinfo=UTC)
    )
    memory.remember("My blood pressure is 120/80.", scope=f"{root}/alice/health")
    memory.remember("Bob plays the cello in an orchestra.", scope=f"{root}/bob")
    memory.remember("We decided to use Postgres for the billing service.", scope=f"{root}/team")


def find(node: dict[str, Any], path: str) -> dict[str, Any]:
    if node["path"] == path:
        return node
    for child in node["children"]:
        if path == child["path"] or path.startswith(child["path"] + "/"):
            return find(child, path)
    raise AssertionError(f"{path} not in the tree")


def test_the_scope_tree_counts_each_branch(client: TestClient, memory: Memory, root: str) -> None:
    seed(memory, root)
    tree = client.get("/v1/scopes", params={"under": root}).json()
    assert tree["path"] == root
    assert [c["path"] for c in tree["children"]] == [f"{root}/alice", f"{root}/bob", f"{root}/team"]
    alice = find(tree, f"{root}/alice")
    assert alice["own"]["total"] == 2
    assert alice["own"]["by_status"] == {"active": 1, "superseded": 1}
    assert alice["subtree"]["total"] == 3
    assert alice["subtree"]["by_layer"] == {"episodic": 3}
    assert find(tree, f"{root}/alice/health")["own"]["total"] == 1
    assert tree["own"]["total"] == 0 and tree["subtree"]["total"] == 5
    assert tree["subtree"]["by_status"] == {"active": 4, "superseded": 1}

    empty = client.get("/v1/scopes", params={"under": f"{root}/nobody"}).json()
    assert empty["subtree"]["total"] == 0 and empty["children"] == []
    bad = client.get("/v1/scopes", params={"under": "/user/al'ice"})
    assert bad.status_code == 422 and "Invalid scope" in bad.json()["error"]["message"]


def test_the_scope_tree_stays_within_the_keys_scopes(memory: Memory, root: str) -> None:
    seed(memory, root)
    app = create_app(
        memory,
        api_keys=["k-alice", "k-all"],
        api_key_scopes={"k-alice": [f"{root}/alice"]},
        flush_idle_minutes=None,
    )
    with TestClient(app) as keyed:
        as_alice = {"Authorization": "Bearer k-alice"}
        tree = keyed.get("/v1/scopes", params={"under": root}, headers=as_alice).json()
        assert [c["path"] for c in tree["children"]] == [f"{root}/alice"]
        assert tree["subtree"]["total"] == 3
        outside = keyed.get("/v1/scopes", params={"under": f"{root}/bob"}, headers=as_alice)
        assert outside.status_code == 404 and outside.json()["error"]["code"] == "not_found"
        everything = keyed.get(
            "/v1/scopes", params={"under": root}, headers={"Authorization": "Bearer k-all"}
        )
        assert everything.json()["subtree"]["total"] == 5


def test_graphmem_scopes_prints_the_tree(memory: Memory, neo4j_target: Neo4jTarget, root: str) -> None:
    seed(memory, root)
    result = CliRunner().invoke(cli, ["scopes", "--under", root], env=command_env(neo4j_target))
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == f"{root}  5  active 4, superseded 1"
    assert "  alice  3 (own 2)  active 2, superseded 1" in lines
    assert "    health  1  active 1" in lines
    as_json = CliRunner().invoke(cli, ["scopes", "--under", root, "--json"], env=command_env(neo4j_target))
    assert json.loads(as_json.output)["subtree"]["total"] == 5


def test_subgraph_is_a_networkx_graph_of_the_scope(memory: Memory, root: str) -> None:
    seed(memory, root)
    graph = memory.subgraph(root)
    assert isinstance(graph, nx.MultiDiGraph)
    kinds = nx.get_node_attributes(graph, "kind")
    memories = [n for n, k in kinds.items() if k == "memory"]
    assert len(memories) == 5
    assert "decision" in kinds.values() and "entity" in kinds.values()
    assert all("embedding" not in data for _, data in graph.nodes(data=True))
    types = {t for _, _, t in graph.edges(keys=True)}
    assert {"SUPERSEDES", "MENTIONS", "RECORDED_IN"} <= types
    porto = next(n for n in memories if graph.nodes[n]["text"] == "I live in Porto now.")
    lisbon = next(n for n in memories if graph.nodes[n]["text"] == "I live in Lisbon.")
    assert graph.has_edge(porto, lisbon, key="SUPERSEDES")
    assert nx.degree_centrality(graph)  # graph algorithms run on it as is

    before = memory.subgraph(root, as_of=datetime(2000, 1, 1, tzinfo=UTC))
    assert before.number_of_nodes() == 0
    with pytest.raises(InvalidInputError):
        memory.subgraph(root, as_of=datetime(2026, 1, 1))
    with pytest.raises(NotFoundError):
        memory.subgraph(f"{root}/bob", allowed=[f"{root}/alice"])
    confined = memory.subgraph(root, allowed=[f"{root}/alice"])
    assert {d["scope"] for _, d in confined.nodes(data=True)} <= {f"{root}/alice", f"{root}/alice/health"}


@pytest.mark.parametrize("fmt", ["graphml", "gexf", "json"])
def test_graphmem_export_writes_a_file_tools_read(
    memory: Memory, neo4j_target: Neo4jTarget, root: str, tmp_path: Path, fmt: str
) -> None:
    seed(memory, root)
    out = tmp_path / f"g.{fmt}"
    args = ["export", "--scope", root, "--format", fmt, "-o", str(out)]
    result = CliRunner().invoke(cli, args, env=command_env(neo4j_target))
    assert result.exit_code == 0, result.output
    assert f"{out}: " in result.output
    if fmt == "graphml":
        graph = nx.read_graphml(out)
    elif fmt == "gexf":
        ET.parse(out)  # well-formed XML for Gephi
        graph = nx.read_gexf(out)
    else:
        graph = nx.node_link_graph(json.loads(out.read_text()), edges="edges")
    texts = {d.get("label") for _, d in graph.nodes(data=True)}
    assert "I live in Porto now." in texts
    bad = CliRunner().invoke(
        cli, ["export", "--scope", root, "--as-of", "yesterday"], env=command_env(neo4j_target)
    )
    assert bad.exit_code == 1 and "not an ISO time" in bad.output
