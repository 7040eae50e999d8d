"""X4 over HTTP: agents' read-only Cypher, confined to their scopes, and the ready-made queries.

Every attempted write or escape must be refused (403, or 400 when Neo4j itself cannot run it)
and leave the database exactly as it was, checked through a separate driver.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import neo4j
import pytest
from fastapi.testclient import TestClient

from graphmem.api.app import create_app
from graphmem.connect import Neo4jTarget
from graphmem.entities.names import group_id_for_scope
from graphmem.memory import Memory

CANARY = "canary-" + uuid.uuid4().hex[:8]

ATTACKS: list[tuple[str, str]] = [
    ("create", "CREATE (:Pwned)"),
    ("merge", "MERGE (p:Pwned {id: 1}) RETURN p"),
    ("set", "MATCH (n:Canary {canary: $canary}) SET n.pwned = true RETURN n"),
    ("set map", "MATCH (n:Canary {canary: $canary}) SET n += {pwned: true} RETURN n"),
    ("set label", "MATCH (n:Canary {canary: $canary}) SET n:Pwned RETURN n"),
    ("delete", "MATCH (n:Canary {canary: $canary}) DELETE n"),
    ("detach delete", "MATCH (n:Canary {canary: $canary}) DETACH DELETE n"),
    ("remove property", "MATCH (n:Canary {canary: $canary}) REMOVE n.canary RETURN n"),
    ("remove label", "MATCH (n:Canary {canary: $canary}) REMOVE n:Canary RETURN n"),
    ("foreach set", "MATCH (n:Canary {canary: $canary}) FOREACH (x IN [1] | SET n.pwned = true)"),
    ("foreach create", "FOREACH (x IN range(1, 3) | CREATE (:Pwned))"),
    ("merge edge", "MATCH (n:Canary {canary: $canary}) MERGE (n)-[:PWNED]->(:Pwned) RETURN n"),
    ("load csv file", "LOAD CSV FROM 'file:///etc/passwd' AS line RETURN line"),
    ("load csv tab", "LOAD\tCSV WITH HEADERS FROM 'http://127.0.0.1:9/x.csv' AS row CREATE (:Pwned)"),
    ("apoc runWrite", "CALL apoc.cypher.runWrite('CREATE (:Pwned)', {})"),
    ("apoc create", "CALL apoc.create.node(['Pwned'], {}) YIELD node RETURN node"),
    ("apoc function", "RETURN apoc.cypher.runFirstColumnSingle('CREATE (p:Pwned) RETURN p', {}) AS p"),
    (
        "string-built runWrite",
        "WITH 'CREATE (:' + 'Pwned)' AS q CALL apoc.cypher.runWrite(q, {}) YIELD value RETURN value",
    ),
    ("backticked apoc", "CALL `apoc`.`cypher`.`runWrite`('CREATE (:Pwned)', {})"),
    ("spaced apoc", "CALL apoc /* x */ . cypher . runWrite('CREATE (:Pwned)', {})"),
    (
        "vector property",
        "MATCH (n:Canary {canary: $canary}) CALL db.create.setNodeVectorProperty(n, 'embedding', [1.0, 2.0])",
    ),
    ("db.createLabel", "CALL db.createLabel('Pwned')"),
    ("dbms components", "CALL dbms.components() YIELD name RETURN name"),
    ("dbms createUser", "CALL dbms.security.createUser('pwned', 'pwned-password', false)"),
    ("dbms setConfig", "CALL dbms.setConfigValue('db.logs.query.enabled', 'OFF')"),
    ("tx metadata", "CALL tx.setMetaData({pwned: true})"),
    ("gds", "CALL gds.graph.drop('pwned')"),
    ("subquery set", "MATCH (n:Canary {canary: $canary}) CALL (n) { SET n.pwned = true } RETURN n"),
    ("old subquery set", "MATCH (n:Canary {canary: $canary}) CALL { WITH n SET n.pwned = true } RETURN n"),
    ("subquery create", "CALL () { CREATE (p:Pwned) RETURN p } RETURN p"),
    ("optional subquery", "OPTIONAL CALL () { CREATE (p:Pwned) RETURN p } RETURN p"),
    ("union create", "RETURN 1 AS x UNION CALL () { CREATE (p:Pwned) RETURN 1 AS x } RETURN x"),
    (
        "in transactions",
        "UNWIND range(1, 3) AS i CALL (i) { CREATE (:Pwned) } IN TRANSACTIONS OF 1 ROW RETURN i",
    ),
    ("concurrent", "UNWIND range(1, 3) AS i CALL { WITH i CREATE (:Pwned) } IN 2 CONCURRENT TRANSACTIONS"),
    ("two statements", "MATCH (n) RETURN count(n); CREATE (:Pwned)"),
    ("two statements delete", "MATCH (n) RETURN count(n) AS c ; MATCH (n:Canary) DETACH DELETE n"),
    ("use system", "USE system SHOW USERS"),
    ("use neo4j write", "USE neo4j CREATE (:Pwned)"),
    ("create index", "CREATE INDEX pwned_index IF NOT EXISTS FOR (n:Pwned) ON (n.x)"),
    ("create constraint", "CREATE CONSTRAINT pwned_c IF NOT EXISTS FOR (n:Pwned) REQUIRE n.x IS UNIQUE"),
    ("drop index", "DROP INDEX pwned_missing_index IF EXISTS"),
    ("show users", "SHOW USERS"),
    ("show transactions", "SHOW TRANSACTIONS"),
    ("terminate", "TERMINATE TRANSACTIONS 'neo4j-transaction-1'"),
    ("create user", "CREATE USER pwned SET PASSWORD 'pwned-password' CHANGE NOT REQUIRED"),
    ("grant", "GRANT ROLE admin TO pwned"),
    ("stop database", "STOP DATABASE pwned"),
    ("mixed case", "cReAtE (:Pwned)"),
    ("comments", "/* read only */ create (:Pwned) // RETURN 1"),
    ("explain prefix", "EXPLAIN CREATE (:Pwned)"),
    ("cypher options", "CYPHER runtime=slotted CREATE (:Pwned)"),
    ("after a procedure", "CALL db.labels() YIELD label CREATE (:Pwned {label: label})"),
    ("profile", "PROFILE CREATE (:Pwned)"),
    ("syntax trick", "MATCH (n:Canary) RETURN n.canary AS `x` SET n.pwned = 1"),
]


@pytest.fixture(scope="module")
def driver(neo4j_target: Neo4jTarget) -> Iterator[neo4j.Driver]:
    """A driver of its own, to check the database independently of the code under test."""
    with neo4j.GraphDatabase.driver(
        neo4j_target.uri, auth=(neo4j_target.user, neo4j_target.password), notifications_min_severity="OFF"
    ) as own:
        yield own


def snapshot(driver: neo4j.Driver) -> dict[str, Any]:
    """Everything an escape could change: counts, the canary, marker labels and properties, indexes."""
    records, _, _ = driver.execute_query(
        """
        CALL () { MATCH (n) RETURN count(n) AS nodes }
        CALL () { MATCH ()-[r]->() RETURN count(r) AS edges }
        CALL () { MATCH (n:Pwned) RETURN count(n) AS pwned }
        CALL () { MATCH (n) WHERE n.pwned IS NOT NULL RETURN count(n) AS flagged }
        CALL () { OPTIONAL MATCH (c:Canary {canary: $canary})
                  RETURN collect(c {.*, labels: labels(c)}) AS canary }
        RETURN nodes, edges, pwned, flagged, canary
        """,
        canary=CANARY,
        database_="neo4j",
    )
    state = records[0].data()
    indexes, _, _ = driver.execute_query("SHOW INDEXES YIELD name RETURN collect(name) AS names")
    state["indexes"] = sorted(indexes[0]["names"])
    users, _, _ = driver.execute_query(
        "SHOW USERS YIELD user RETURN collect(user) AS users", database_="system"
    )
    state["users"] = sorted(users[0]["users"])
    return state


@pytest.fixture(scope="module")
def canary(driver: neo4j.Driver) -> Iterator[None]:
    """One node the attacks aim at."""
    driver.execute_query("CREATE (:Canary {canary: $canary, scope: '/test/canary'})", canary=CANARY)
    yield
    driver.execute_query("MATCH (c:Canary {canary: $canary}) DETACH DELETE c", canary=CANARY)


@pytest.mark.parametrize(("what", "query"), ATTACKS, ids=[a[0] for a in ATTACKS])
def test_an_attempted_write_or_escape_is_refused_and_changes_nothing(
    client: TestClient, driver: neo4j.Driver, canary: None, what: str, query: str
) -> None:
    before = snapshot(driver)
    assert before["canary"] and before["pwned"] == 0
    params = {"canary": CANARY} if "$canary" in query else {}
    response = client.post("/v1/cypher", json={"query": query, "params": params})
    assert response.status_code in (400, 403), (what, response.status_code, response.text)
    error = response.json()["error"]
    assert error["message"]
    if response.status_code == 403:
        assert error["code"] == "forbidden_query"
    assert snapshot(driver) == before, f"{what} changed the database"


def test_the_attack_list_is_long_and_mostly_refused_as_forbidden(client: TestClient) -> None:
    assert len(ATTACKS) >= 30
    forbidden = [
        what
        for what, query in ATTACKS
        if client.post("/v1/cypher", json={"query": query, "params": {"canary": CANARY}}).status_code == 403
    ]
    assert len(forbidden) >= len(ATTACKS) - 3  # only Neo4j's own syntax refusals may be 400


@pytest.fixture
def people(memory: Memory, scope: str) -> dict[str, str]:
    """Alice's and Bob's memories in two sibling scopes below the test's scope."""
    alice = memory.remember("Alice keeps bees on the roof.", scope=f"{scope}/alice")
    bob = memory.remember("Bob collects vintage radios.", scope=f"{scope}/bob")
    return {"alice": alice.memory.id, "bob": bob.memory.id, "scope": scope}


def test_a_read_returns_columns_and_rows_with_nodes_as_plain_data(
    client: TestClient, people: dict[str, str]
) -> None:
    response = client.post(
        "/v1/cypher",
        json={
            "query": "MATCH (m:Memory {id: $id}) RETURN m, m.text AS text, m.occurred_at AS at",
            "params": {"id": people["alice"]},
        },
    )
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["columns"] == ["m", "text", "at"]
    assert body["truncated"] is False and body["withheld"] == 0 and body["scopes"] == ["/"]
    [[node, text, at]] = body["rows"]
    assert text == "Alice keeps bees on the roof."
    assert datetime.fromisoformat(at.replace("Z", "+00:00")).tzinfo is not None
    assert {"Memory", "EpisodicMemory"} <= set(node["labels"])
    assert node["properties"]["id"] == people["alice"] and "embedding" not in node["properties"]
    assert node["element_id"]


def test_the_query_gets_the_callers_scopes_as_a_parameter(client: TestClient, people: dict[str, str]) -> None:
    query = (
        "MATCH (m:Memory) "
        "WHERE any(s IN $scopes WHERE s = '/' OR m.scope = s OR m.scope STARTS WITH s + '/') "
        "RETURN m.text AS text ORDER BY text"
    )
    body = client.post("/v1/cypher", json={"query": query, "scopes": [people["scope"]]}).json()
    assert body["rows"] == [["Alice keeps bees on the roof."], ["Bob collects vintage radios."]]
    passed = client.post(
        "/v1/cypher", json={"query": "RETURN $scopes AS s", "scopes": [people["scope"] + "/"]}
    )
    assert passed.json()["rows"] == [[[people["scope"]]]]


def test_rows_with_nodes_or_edges_outside_the_scopes_are_withheld(
    client: TestClient, people: dict[str, str]
) -> None:
    alice = people["scope"] + "/alice"
    nodes = client.post(
        "/v1/cypher",
        json={
            "query": "MATCH (m:Memory) WHERE m.scope STARTS WITH $root RETURN m",
            "params": {"root": people["scope"] + "/"},
            "scopes": [alice],
        },
    ).json()
    assert [row[0]["properties"]["id"] for row in nodes["rows"]] == [people["alice"]]
    assert nodes["withheld"] == 1
    # Relationships alone: their end nodes are looked up and checked too.
    edges = client.post(
        "/v1/cypher",
        json={
            "query": "MATCH (m:Memory)-[r:MENTIONS]->(:Entity) WHERE m.id IN $ids RETURN r",
            "params": {"ids": [people["alice"], people["bob"]]},
            "scopes": [alice],
        },
    ).json()
    assert edges["rows"] and edges["withheld"] >= 1
    assert all(row[0]["start"] for row in edges["rows"])
    # Paths and lists count as a whole.
    path = client.post(
        "/v1/cypher",
        json={
            "query": "MATCH p = (m:Memory)-[:MENTIONS]->(:Entity) WHERE m.id = $id "
            "RETURN collect(p) AS paths",
            "params": {"id": people["bob"]},
            "scopes": [alice],
        },
    ).json()
    assert path["rows"] == [] and path["withheld"] == 1


def test_graphiti_and_unscoped_nodes_follow_their_group_or_stay_with_root_readers(
    client: TestClient, driver: neo4j.Driver, people: dict[str, str]
) -> None:
    alice, bob = people["scope"] + "/alice", people["scope"] + "/bob"
    marker = uuid.uuid4().hex
    driver.execute_query(
        "UNWIND $groups AS g CREATE (:Episodic {group_id: g, marker: $marker}) "
        "CREATE (:Unscoped {marker: $marker})",
        groups=[group_id_for_scope(alice), group_id_for_scope(bob)],
        marker=marker,
    )
    try:
        query = "MATCH (n {marker: $marker}) RETURN n"
        scoped = client.post(
            "/v1/cypher", json={"query": query, "params": {"marker": marker}, "scopes": [alice]}
        )
        rows = scoped.json()["rows"]
        assert [row[0]["properties"]["group_id"] for row in rows] == [group_id_for_scope(alice)]
        assert scoped.json()["withheld"] == 3  # Bob's group, and twice the node without a scope
        everything = client.post("/v1/cypher", json={"query": query, "params": {"marker": marker}})
        assert len(everything.json()["rows"]) == 4
    finally:
        driver.execute_query("MATCH (n {marker: $marker}) DETACH DELETE n", marker=marker)


def test_the_row_limit_truncates(client: TestClient) -> None:
    query = {"query": "UNWIND range(1, 50) AS i RETURN i"}
    cut = client.post("/v1/cypher", json={**query, "limit": 10}).json()
    assert cut["rows"] == [[i] for i in range(1, 11)] and cut["truncated"] is True
    whole = client.post("/v1/cypher", json={**query, "limit": 50}).json()
    assert len(whole["rows"]) == 50 and whole["truncated"] is False
    assert client.post("/v1/cypher", json={**query, "limit": 100_000}).status_code == 422


def test_a_slow_query_times_out_with_a_clear_error(client: TestClient) -> None:
    started = time.monotonic()
    response = client.post(
        "/v1/cypher",
        json={
            "query": "UNWIND range(1, 100000000) AS a UNWIND range(1, 100000000) AS b RETURN count(*) AS n",
            "timeout": 1.0,
        },
    )
    assert response.status_code == 408, response.text
    assert response.json()["error"]["code"] == "query_timeout"
    assert "time limit" in response.json()["error"]["message"]
    assert time.monotonic() - started < 15


def test_bad_queries_and_arguments_say_what_to_fix(client: TestClient) -> None:
    syntax = client.post("/v1/cypher", json={"query": "MATC (n) RETURN n"})
    assert syntax.status_code == 400 and syntax.json()["error"]["code"] == "invalid_query"
    assert (
        "EXPLAIN" not in syntax.json()["error"]["message"] and "column 1" in syntax.json()["error"]["message"]
    )
    taken = client.post("/v1/cypher", json={"query": "RETURN $scopes", "params": {"scopes": ["/"]}})
    assert taken.status_code == 422 and "scopes" in taken.json()["error"]["message"]
    assert (
        client.post("/v1/cypher", json={"query": "RETURN 1", "scopes": ["not a scope!"]}).status_code == 422
    )
    assert client.post("/v1/cypher", json={"query": ""}).status_code == 422


def test_a_key_bound_to_scopes_reads_only_those_and_only_graph_values(
    memory: Memory, people: dict[str, str]
) -> None:
    alice = people["scope"] + "/alice"
    app = create_app(
        memory, api_keys=["k-alice", "k-open"], api_key_scopes={"k-alice": [alice]}, flush_idle_minutes=None
    )
    query = "MATCH (m:Memory) WHERE m.scope STARTS WITH $root RETURN m"
    find: dict[str, Any] = {
        "query": query,
        "params": {"root": people["scope"] + "/"},
    }
    with TestClient(app) as keyed:
        as_alice = {"Authorization": "Bearer k-alice"}
        bound = keyed.post("/v1/cypher", json=find, headers=as_alice).json()
        assert bound["scopes"] == [alice]
        assert [row[0]["properties"]["id"] for row in bound["rows"]] == [people["alice"]]
        scalar = keyed.post("/v1/cypher", json={**find, "query": query + ".text"}, headers=as_alice)
        assert scalar.status_code == 403 and "nodes" in scalar.json()["error"]["message"]
        elsewhere = keyed.post(
            "/v1/cypher", json={**find, "scopes": [people["scope"] + "/bob"]}, headers=as_alice
        )
        assert elsewhere.status_code == 403
        unbound = keyed.post("/v1/cypher", json=find, headers={"Authorization": "Bearer k-open"}).json()
        assert len(unbound["rows"]) == 2
        assert keyed.post("/v1/cypher", json=find).status_code == 401


def test_ready_made_queries_are_listed_and_run(
    client: TestClient, driver: neo4j.Driver, memory: Memory, scope: str
) -> None:
    listed = {q["name"]: q for q in client.get("/v1/cypher/queries").json()["queries"]}
    assert {"entity_neighbourhood", "belief_history", "derived_from", "decisions_on_topic"} <= set(listed)
    assert listed["belief_history"]["parameters"] == ["memory_id"] and listed["belief_history"]["doc"]

    paris = memory.remember(
        "Alice lives in Paris.", scope=scope, occurred_at=datetime(2023, 1, 1, tzinfo=UTC)
    )
    berlin = memory.remember(
        "Alice moved to Berlin.", scope=scope, occurred_at=datetime(2024, 1, 1, tzinfo=UTC)
    )
    memory.remember(
        "We decided to use PostgreSQL for billing because it has strong transactions.", scope=scope
    )

    def run(name: str, params: dict[str, Any], scopes: list[str]) -> dict[str, Any]:
        response = client.post(f"/v1/cypher/queries/{name}", json={"params": params, "scopes": scopes})
        assert response.status_code == 200, response.text
        body: dict[str, Any] = response.json()
        return body

    history = run("belief_history", {"memory_id": berlin.memory.id}, [scope])
    assert [(row[0]["properties"]["id"], row[1]) for row in history["rows"]] == [
        (berlin.memory.id, "this"),
        (paris.memory.id, "older"),
    ]
    assert run("belief_history", {"memory_id": berlin.memory.id}, ["/test/elsewhere"])["rows"] == []

    around = run("entity_neighbourhood", {"name": "alice"}, [scope])
    assert around["rows"][0][0]["properties"]["name"] == "Alice"
    assert around["rows"][0][1]["properties"]["id"] == berlin.memory.id

    decisions = run("decisions_on_topic", {"topic": "postgresql billing"}, [scope])
    assert len(decisions["rows"]) == 1 and "PostgreSQL" in decisions["rows"][0][0]["properties"]["text"]

    summary_id = str(uuid.uuid4())
    driver.execute_query(
        "MATCH (e:Memory) WHERE e.id IN $sources "
        "MERGE (s:Memory:SemanticMemory {id: $id}) SET s.layer = 'semantic', s.scope = $scope, "
        "s.text = 'Alice relocated', s.occurred_at = datetime() MERGE (s)-[:DERIVED_FROM]->(e)",
        sources=[paris.memory.id, berlin.memory.id],
        id=summary_id,
        scope=scope,
    )
    derived = run("derived_from", {"memory_id": summary_id}, [scope])
    assert {row[1]["properties"]["id"] for row in derived["rows"]} == {paris.memory.id, berlin.memory.id}
    assert all(row[0]["properties"]["id"] == summary_id and row[2] == 1 for row in derived["rows"])

    limited = client.post(
        "/v1/cypher/queries/derived_from",
        json={"params": {"memory_id": summary_id}, "scopes": [scope], "limit": 1},
    ).json()
    assert len(limited["rows"]) == 1 and limited["truncated"] is True

    unknown = client.post("/v1/cypher/queries/no_such_query", json={})
    assert unknown.status_code == 404 and "belief_history" in unknown.json()["error"]["message"]
    wrong = client.post("/v1/cypher/queries/belief_history", json={"params": {"id": "x"}})
    assert wrong.status_code == 422 and "memory_id" in wrong.json()["error"]["message"]
