"""The read-only guard and the scope confinement of agents' Cypher (X4), without a database."""

from __future__ import annotations

from typing import Any

import pytest

from graphmem.agents import confine, guard
from graphmem.entities.names import group_id_for_scope
from graphmem.errors import ForbiddenQueryError, InvalidInputError

READS = [
    "MATCH (m:Memory) WHERE m.scope IN $scopes RETURN m LIMIT 10",
    "MATCH (m:Memory {id: $id})-[:SUPERSEDES*1..5]->(old) RETURN old.text",
    "CALL db.labels() YIELD label RETURN label",
    "CALL db.index.fulltext.queryNodes('memory_text', $q) YIELD node, score RETURN node, score",
    "RETURN vector.similarity.cosine([1.0, 0.0], [0.0, 1.0]) AS sim, date.truncate('day', datetime()) AS d",
    "MATCH (m:Memory) WHERE m.text CONTAINS 'CREATE (:X)' RETURN m // a comment; with CALL apoc.x()",
    "MATCH (m:Memory) /* DELETE m; USE system */ RETURN count(m) AS n;",
    'MATCH (d:Decision) WHERE d.reasoning = "LOAD CSV FROM x; IN TRANSACTIONS" RETURN d',
    "MATCH (n) WITH n, n.`use` AS settings RETURN settings",
    "MATCH (e:Entity) RETURN e.name AS name, count { (e)<-[:MENTIONS]-() } AS mentions",
]

REFUSED = [
    ("MATCH (n) RETURN n; MATCH (n) DETACH DELETE n", "one statement"),
    ("USE system SHOW USERS", "USE"),
    ("use neo4j MATCH (n) RETURN n", "USE"),
    ("LOAD CSV FROM 'file:///etc/passwd' AS l RETURN l", "LOAD CSV"),
    ("load\n  csv WITH HEADERS FROM $url AS row RETURN row", "LOAD CSV"),
    ("UNWIND $rows AS r CALL (r) { CREATE (:X) } IN TRANSACTIONS OF 10 ROWS", "IN TRANSACTIONS"),
    ("UNWIND $rows AS r CALL { WITH r CREATE (:X) } IN 4 CONCURRENT TRANSACTIONS", "IN TRANSACTIONS"),
    ("CALL apoc.cypher.runWrite('CREATE (:X)', {})", "apoc.cypher.runWrite"),
    ("CALL `apoc`.`cypher`.`runWrite`('CREATE (:X)', {})", "apoc.cypher.runWrite"),
    ("CALL apoc /* hidden */ . cypher.doIt('CREATE (:X)', {})", "apoc.cypher.doIt"),
    ("CALL dbms.components", "dbms.components"),
    ("CALL db.create.setNodeVectorProperty(n, 'embedding', $v)", "db.create.setNodeVectorProperty"),
    ("CALL tx.setMetaData({a: 1})", "tx.setMetaData"),
    ("CALL gds.graph.project('g', '*', '*')", "gds.graph.project"),
    ("RETURN apoc.cypher.runFirstColumnSingle('MATCH (n) DETACH DELETE n', {}) AS x", "apoc.cypher"),
    ("RETURN `apoc.text`.join(['a'], '') AS x", "apoc.text.join"),
    ("RETURN graph.names() AS g", "graph.names"),
    ("SHOW USERS", "Administration"),
    ("  drop index memory_text", "Administration"),
    ("CREATE USER eve SET PASSWORD 'x'", "Administration"),
    ("CREATE VECTOR INDEX v FOR (n:X) ON n.e", "Administration"),
    ("GRANT ROLE admin TO eve", "Administration"),
]


@pytest.mark.parametrize("query", READS)
def test_plain_reads_pass_the_text_check(query: str) -> None:
    guard.check_text(query)


@pytest.mark.parametrize(("query", "names"), REFUSED)
def test_escapes_are_refused_by_their_text_with_a_reason(query: str, names: str) -> None:
    with pytest.raises(ForbiddenQueryError, match="(?i)" + names.replace(".", r"\.")):
        guard.check_text(query)


def plan(*operators: str, details: str = "", children: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """A plan tree like Neo4j's EXPLAIN: ProduceResults on top of ``operators`` (top-down)."""
    node: dict[str, Any] | None = None
    for operator in reversed(operators):
        node = {
            "operatorType": f"{operator}@neo4j",
            "args": {"Details": details},
            "children": [node] if node is not None else list(children or []),
        }
    return {
        "operatorType": "ProduceResults@neo4j",
        "args": {"Details": "x"},
        "children": [node] if node else [],
    }


def test_a_read_plan_passes() -> None:
    guard.check_plan("r", plan("Projection", "Filter", "NodeByLabelScan"))
    guard.check_plan("r", plan("ProcedureCall", details="db.labels() :: (label :: STRING)"))
    guard.check_plan("r", plan("Projection", details="vector.similarity.cosine($a, $b) AS s"))


@pytest.mark.parametrize("query_type", ["w", "rw", "s", "", "weird"])
def test_anything_but_a_read_query_type_is_refused(query_type: str) -> None:
    with pytest.raises(ForbiddenQueryError, match="Only read queries"):
        guard.check_plan(query_type, plan("Projection"))


@pytest.mark.parametrize(
    "operator",
    [
        "Create",
        "MergeInto",
        "LockingMergeInto",
        "SetProperty",
        "SetLabels",
        "RemoveLabels",
        "DetachDelete",
        "Foreach",
        "SubqueryForeach",
        "TransactionForeach",
        "TransactionApply",
        "LoadCSV",
        "ShowTransactions",
        "ShowProcedures",
        "TerminateTransactions",
        "EmptyResult",
        "AdministrationCommand",
    ],
)
def test_a_read_typed_plan_with_a_writing_or_admin_operator_is_refused(operator: str) -> None:
    # Neo4j classifies LOAD CSV and SHOW TRANSACTIONS as reads: the operators must be checked too.
    with pytest.raises(ForbiddenQueryError, match=operator):
        guard.check_plan("r", plan("Projection", operator, "Argument"))


def test_procedures_in_the_plan_must_be_on_the_allow_list() -> None:
    with pytest.raises(ForbiddenQueryError, match=r"apoc\.do\.when"):
        guard.check_plan(
            "r", plan("ProcedureCall", details="apoc.do.when(true, $q, '', {}) :: (value :: MAP)")
        )
    with pytest.raises(ForbiddenQueryError, match=r"apoc\.text\.join"):
        guard.check_plan(
            "r",
            plan(
                "ProcedureCall",
                details="db.index.fulltext.queryNodes($i, apoc.text.join($q, '')) :: (node :: NODE)",
            ),
        )
    with pytest.raises(ForbiddenQueryError, match="cannot identify"):
        guard.check_plan("r", plan("ProcedureCall", details="???"))


def test_functions_in_the_plan_must_be_built_in() -> None:
    with pytest.raises(ForbiddenQueryError, match=r"apoc\.cypher\.runFirstColumnMany"):
        guard.check_plan("r", plan("Projection", details="apoc.cypher.runFirstColumnMany($q, {}) AS x"))


def test_masking_keeps_lengths_and_drops_comments_strings_and_backticks() -> None:
    text = "MATCH (n) // CREATE\nWHERE n.x = 'DELETE' RETURN `apoc`.`x`(n)"
    masked = guard.mask_cypher(text)
    assert "CREATE" not in masked and "DELETE" not in masked
    assert masked.endswith("RETURN apoc.x(n)")
    assert masked.count("\n") == text.count("\n")


@pytest.mark.parametrize(
    ("scope", "allowed", "expected"),
    [
        ("/user/alice", ["/user/alice"], True),
        ("/user/alice/health", ["/user/alice"], True),
        ("/user/alicex", ["/user/alice"], False),
        ("/user", ["/user/alice"], False),
        ("/team/x", ["/user/alice", "/team"], True),
        ("/anything", ["/"], True),
    ],
)
def test_scope_prefix_semantics(scope: str, allowed: list[str], expected: bool) -> None:
    assert confine.in_scopes(scope, allowed) is expected


def test_graphiti_groups_map_back_to_scopes_only_when_unambiguous() -> None:
    assert confine.group_scope("root") == "/"
    assert confine.group_scope("user_alice_health") == "/user/alice/health"
    hashed = group_id_for_scope("/user/alice.b")
    assert confine.group_scope(hashed) is None
    alice = ["/user/alice"]
    assert confine.group_in_scopes(group_id_for_scope("/user/alice"), alice)
    assert confine.group_in_scopes(group_id_for_scope("/user/alice/health"), alice)
    assert not confine.group_in_scopes(group_id_for_scope("/user/bob"), alice)
    # A sibling whose name has an underscore must not pass as /user/alice/x/...
    assert not confine.group_in_scopes(group_id_for_scope("/user/alice_x"), alice)
    assert confine.group_in_scopes(group_id_for_scope("/user/alice_x"), ["/user/alice_x"])
    assert confine.group_in_scopes("anything", ["/"])


def test_unscoped_nodes_are_shown_only_to_root_readers() -> None:
    assert confine.marker_allowed(None, None, ["/"])
    assert not confine.marker_allowed(None, None, ["/user/alice"])
    assert confine.marker_allowed("/user/alice/x", "ignored", ["/user/alice"])


@pytest.mark.parametrize(
    ("requested", "bound", "expected"),
    [
        (None, None, ["/"]),
        (["/user/alice/", "/user/alice/health"], None, ["/user/alice"]),
        (None, ["/user/alice", "/team/x"], ["/team/x", "/user/alice"]),
        (["/user/alice/health"], ["/user/alice"], ["/user/alice/health"]),
        (["/user", "/team/x/y"], ["/user/alice", "/team/x"], ["/team/x/y", "/user/alice"]),
    ],
)
def test_a_keys_scopes_narrow_the_requested_ones(
    requested: list[str] | None, bound: list[str] | None, expected: list[str]
) -> None:
    assert confine.narrow_scopes(requested, bound) == expected


def test_asking_outside_a_keys_scopes_is_forbidden_and_bad_scopes_invalid() -> None:
    with pytest.raises(ForbiddenQueryError, match="/user/alice"):
        confine.narrow_scopes(["/user/bob"], ["/user/alice"])
    with pytest.raises(InvalidInputError):
        confine.narrow_scopes(["/user/../x y"], None)


def test_plain_values_are_told_apart_from_graph_values() -> None:
    assert not confine.has_plain_values(None)
    assert not confine.has_plain_values([None, []])
    assert confine.has_plain_values({"a": 1})
    assert confine.has_plain_values("text")
    assert confine.plain(float("nan")) == "nan"
    assert confine.plain({"a": (1, 2)}) == {"a": [1, 2]}
