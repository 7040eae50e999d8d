"""W6 entities and W7 decisions against the real Neo4j and the real embedder, offline (no LLM).

Memories are created directly through the store's query, then linked by EntityLinker and
recorded by DecisionRecorder the way the write path does: plan() first, write() inside a write
transaction. A few probes read the graph with their own Cypher to check what graphiti would see.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

import neo4j
import pytest
from fastapi.testclient import TestClient

from graphmem.api.app import create_app
from graphmem.connect import MemoryConnection, Neo4jTarget
from graphmem.decisions.recorder import DecisionRecorder
from graphmem.embedding.base import Embedder
from graphmem.entities.linker import EntityLinker
from graphmem.entities.names import group_id_for_scope
from graphmem.llm.none import NoLLM
from graphmem.memory import Memory
from graphmem.store.catalog import default_catalog
from graphmem.store.decisions import DecisionStore
from graphmem.store.entities import EntityStore
from graphmem.store.executor import QueryExecutor
from graphmem.store.memories import NewMemory

pytestmark = pytest.mark.integration

T0 = datetime(2024, 1, 10, 9, 0, tzinfo=UTC)


@pytest.fixture(scope="module")
def driver(neo4j_target: Neo4jTarget, connection: MemoryConnection) -> Iterator[neo4j.Driver]:
    """A driver of the test's own on the session's Neo4j (``connection`` has applied the schema)."""
    with neo4j.GraphDatabase.driver(neo4j_target.uri, auth=(neo4j_target.user, neo4j_target.password)) as d:
        yield d


@pytest.fixture(scope="module")
def executor(driver: neo4j.Driver, neo4j_target: Neo4jTarget) -> QueryExecutor:
    return QueryExecutor(driver, default_catalog(), neo4j_target.database)


@pytest.fixture
def linker(executor: QueryExecutor, embedder: Embedder) -> EntityLinker:
    return EntityLinker(NoLLM(), embedder, EntityStore(executor))


@pytest.fixture
def recorder(executor: QueryExecutor, embedder: Embedder) -> DecisionRecorder:
    return DecisionRecorder(NoLLM(), embedder, DecisionStore(executor))


def create_memories(
    executor: QueryExecutor, embedder: Embedder, scope: str, texts: Sequence[str], at: datetime = T0
) -> list[str]:
    """Create episodic memories directly (no write pipeline) and return their ids."""
    vectors = embedder.embed(list(texts))
    items = [
        NewMemory(
            id=str(uuid.uuid4()),
            text=text,
            scope=scope,
            categories=[],
            importance=0.5,
            confidence=1.0,
            strength=1.0,
            created_at=at,
            occurred_at=at,
            source=None,
            metadata={},
            embedding=vectors[i].tolist(),
        )
        for i, text in enumerate(texts)
    ]
    rows = [item.row(i) for i, item in enumerate(items)]
    executor.write_unit(lambda tx: tx.run("memories/create_memories", rows=rows), "test")
    return [item.id for item in items]


def link(
    executor: QueryExecutor,
    linker: EntityLinker,
    scope: str,
    ids: Sequence[str],
    texts: Sequence[str],
    speakers: Sequence[str | None] | None = None,
) -> list[dict[str, Any]]:
    who = list(speakers) if speakers is not None else [None] * len(texts)
    rows, usage = linker.plan([(i, t, scope, s) for i, t, s in zip(ids, texts, who, strict=True)])
    assert usage.calls == 0
    executor.write_unit(lambda tx: linker.write(tx, rows), "test")
    return rows


def probe(driver: neo4j.Driver, query: str, **params: Any) -> list[dict[str, Any]]:
    records, _, _ = driver.execute_query(query, params)
    return [r.data() for r in records]


def entities_of(executor: QueryExecutor, scope: str) -> dict[str, int]:
    return {e.name: e.mentions for e in EntityStore(executor).list_entities(scope)}


def test_possessive_and_case_variants_share_one_entity(
    executor: QueryExecutor, embedder: Embedder, linker: EntityLinker, scope: str
) -> None:
    texts = [
        "Alice went to Lisbon with Bob.",
        "Yesterday Alice's dog ran away.",
        "I painted the lake at dawn.",
    ]
    ids = create_memories(executor, embedder, scope, texts)
    link(executor, linker, scope, ids, texts, [None, None, "alice"])
    found = entities_of(executor, scope)
    assert found == {"Alice": 3, "Lisbon": 1, "Bob": 1}


def test_short_form_resolves_to_the_stored_full_name_across_batches(
    executor: QueryExecutor, embedder: Embedder, linker: EntityLinker, scope: str
) -> None:
    first = ["Melanie painted a sunrise over the lake."]
    link(executor, linker, scope, create_memories(executor, embedder, scope, first), first)
    later = ["Mel signed up for a pottery class.", "melanie's pottery bowl cracked in the kiln."]
    rows = link(executor, linker, scope, create_memories(executor, embedder, scope, later), later)
    assert {r["name"] for r in rows} == {"Melanie"}
    assert entities_of(executor, scope) == {"Melanie": 2}


def test_an_ambiguous_short_form_gets_an_entity_of_its_own(
    executor: QueryExecutor, embedder: Embedder, linker: EntityLinker, scope: str
) -> None:
    texts = ["Melanie and Melvin went climbing.", "Mel forgot the rope."]
    link(executor, linker, scope, create_memories(executor, embedder, scope, texts), texts)
    assert set(entities_of(executor, scope)) == {"Melanie", "Melvin", "Mel"}


def test_a_person_presented_by_a_role_is_not_a_known_longer_name(
    executor: QueryExecutor, embedder: Embedder, linker: EntityLinker, scope: str
) -> None:
    texts = [
        "Sam Whitfield, the user's teammate, applied for the engineering manager role.",
        "User wrote a peer review for Sam.",
        "User's nephew Sam turns seven on 14 June and is obsessed with dinosaurs.",
        "Sam's party is at a soft play in Didsbury.",
    ]
    for text in texts:  # one write at a time, as the threads were told
        link(executor, linker, scope, create_memories(executor, embedder, scope, [text]), [text])
    found = entities_of(executor, scope)
    assert found["Sam Whitfield"] == 2 and found["Sam"] == 2


def test_entities_carry_graphiti_property_names(
    driver: neo4j.Driver, executor: QueryExecutor, embedder: Embedder, linker: EntityLinker, scope: str
) -> None:
    texts = ["We migrated the billing service from MySQL to postgres."]
    link(executor, linker, scope, create_memories(executor, embedder, scope, texts), texts)
    nodes = probe(
        driver,
        "MATCH (e:Entity {scope: $scope}) RETURN e {.*} AS e, labels(e) AS labels ORDER BY e.name",
        scope=scope,
    )
    assert [n["e"]["name"] for n in nodes] == ["MySQL", "PostgreSQL"]
    for node in nodes:
        e = node["e"]
        assert node["labels"] == ["Entity"]
        assert e["uuid"] == e["id"]
        assert e["group_id"] == group_id_for_scope(scope)
        assert e["summary"] == ""
        assert e["kind"] == "technology"
        assert len(e["name_embedding"]) == embedder.dimension
        assert e["created_at"] is not None


def test_mentions_are_scoped_and_linking_twice_changes_nothing(
    driver: neo4j.Driver, executor: QueryExecutor, embedder: Embedder, linker: EntityLinker, scope: str
) -> None:
    texts = ["Caroline joined the LGBTQ support group in Sweden."]
    here = create_memories(executor, embedder, f"{scope}/a", texts)
    there = create_memories(executor, embedder, f"{scope}/b", texts)
    rows = link(executor, linker, f"{scope}/a", here, texts)
    executor.write_unit(lambda tx: linker.write(tx, rows), "test")  # the same rows again
    link(executor, linker, f"{scope}/b", there, texts)
    assert entities_of(executor, f"{scope}/a") == {"Caroline": 1, "LGBTQ": 1, "Sweden": 1}
    counts = probe(
        driver,
        "MATCH (m:Memory)-[r:MENTIONS]->(e:Entity) WHERE m.scope STARTS WITH $scope "
        "RETURN e.scope AS scope, count(r) AS edges, count(DISTINCT e) AS entities ORDER BY scope",
        scope=scope,
    )
    assert counts == [
        {"scope": f"{scope}/a", "edges": 3, "entities": 3},
        {"scope": f"{scope}/b", "edges": 3, "entities": 3},
    ]


def test_neighbours_are_memories_sharing_entities(
    executor: QueryExecutor, embedder: Embedder, linker: EntityLinker, scope: str
) -> None:
    texts = [
        "Jon opened a dance studio in Chicago.",
        "Jon hired Gina to teach salsa in Chicago.",
        "Gina adopted a puppy.",
        "The weather was grey all week.",
    ]
    ids = create_memories(executor, embedder, scope, texts)
    link(executor, linker, scope, ids, texts)
    near = EntityStore(executor).neighbours([ids[0]], scope=scope)
    assert [n.memory_id for n in near] == [ids[1]]
    assert sorted(near[0].shared_entities) == ["Chicago", "Jon"]
    assert EntityStore(executor).neighbours([ids[0]], scope=f"{scope}/elsewhere") == []


def record(
    executor: QueryExecutor,
    embedder: Embedder,
    recorder: DecisionRecorder,
    scope: str,
    said: Sequence[tuple[str, datetime]],
) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for text, at in said:  # one memory per batch, as separate conversations would write them
        (memory_id,) = create_memories(executor, embedder, scope, [text], at)
        planned, _ = recorder.plan([(memory_id, text, scope, at)])
        executor.write_unit(lambda tx, planned=planned: recorder.write(tx, planned), "test")
        rows += planned
    return rows


def test_a_reversal_chain_keeps_one_active_decision(
    driver: neo4j.Driver,
    executor: QueryExecutor,
    embedder: Embedder,
    recorder: DecisionRecorder,
    scope: str,
) -> None:
    rows = record(
        executor,
        embedder,
        recorder,
        scope,
        [
            ("We decided to use PostgreSQL for the main database because it handles JSON well.", T0),
            ("We decided to use React for the frontend.", T0 + timedelta(days=1)),
            (
                "We decided to switch to MySQL for the main database, since the ops team knows it.",
                T0 + timedelta(days=5),
            ),
            ("Decision: go back to PostgreSQL for the main database.", T0 + timedelta(days=9)),
        ],
    )
    postgres, react, mysql, back = (r["id"] for r in rows)
    ledger = {d.id: d for d in DecisionStore(executor).find(scope=scope)}
    assert ledger[postgres].status == "superseded" and ledger[postgres].superseded_by == [mysql]
    assert ledger[mysql].status == "superseded" and ledger[mysql].supersedes == [postgres]
    assert ledger[back].status == "active" and ledger[back].supersedes == [mysql]
    assert ledger[react].status == "active" and ledger[react].supersedes == []
    assert ledger[postgres].reasoning == "it handles JSON well"
    assert ledger[mysql].reasoning == "the ops team knows it"
    assert {d.domain for d in ledger.values()} == {"engineering"}
    recorded_in = probe(
        driver,
        "MATCH (d:Decision {id: $id})-[:RECORDED_IN]->(m:Memory) RETURN m.text AS text",
        id=back,
    )
    assert recorded_in == [{"text": "Decision: go back to PostgreSQL for the main database."}]


def test_a_decision_said_before_a_stored_reversal_arrives_superseded(
    executor: QueryExecutor, embedder: Embedder, recorder: DecisionRecorder, scope: str
) -> None:
    later, earlier = record(
        executor,
        embedder,
        recorder,
        scope,
        [
            ("We decided not to hire contractors this year.", T0 + timedelta(days=30)),
            ("We decided to hire two contractors for the mobile app.", T0),
        ],
    )
    assert earlier["status"] == "superseded"
    ledger = {d.id: d for d in DecisionStore(executor).find(scope=scope)}
    assert ledger[later["id"]].status == "active" and ledger[later["id"]].supersedes == [earlier["id"]]
    assert ledger[earlier["id"]].domain == "hiring"


def test_a_batch_orders_its_own_reversals_by_decided_at(
    executor: QueryExecutor, embedder: Embedder, recorder: DecisionRecorder, scope: str
) -> None:
    said = [
        ("We will use Kafka for the event bus.", T0 + timedelta(days=2)),
        ("We decided to use RabbitMQ for the event bus.", T0),
        ("Nothing was decided about lunch.", T0),
    ]
    ids = create_memories(executor, embedder, scope, [t for t, _ in said])
    rows, _ = recorder.plan([(i, t, scope, at) for i, (t, at) in zip(ids, said, strict=True)])
    executor.write_unit(lambda tx: recorder.write(tx, rows), "test")
    assert len(rows) == 2
    ledger = {d.choice: d for d in DecisionStore(executor).find(scope=scope)}
    assert ledger["use Kafka for the event bus"].status == "active"
    assert ledger["use RabbitMQ for the event bus"].status == "superseded"


def test_find_matches_topic_words_and_domain_case_insensitively(
    executor: QueryExecutor, embedder: Embedder, recorder: DecisionRecorder, scope: str
) -> None:
    record(
        executor,
        embedder,
        recorder,
        scope,
        [
            ("We decided to use PostgreSQL for the main database.", T0),
            ("We agreed to freeze hiring until Q3 due to the budget cut.", T0 + timedelta(days=1)),
        ],
    )
    store = DecisionStore(executor)
    assert [d.choice for d in store.find(topic="main DATABASE", scope=scope)] == [
        "use PostgreSQL for the main database"
    ]
    assert [d.domain for d in store.find(topic="budget", scope=scope)] == ["hiring"]
    assert store.find(domain="Hiring", scope=scope)[0].reasoning == "the budget cut"
    assert store.find(topic="database", domain="hiring", scope=scope) == []
    assert store.find(topic="database", scope=f"{scope}/other") == []


def test_the_decisions_route_serves_the_ledger(
    memory: Memory, executor: QueryExecutor, embedder: Embedder, recorder: DecisionRecorder, scope: str
) -> None:
    rows = record(
        executor,
        embedder,
        recorder,
        scope,
        [
            ("Let's go with Vercel for hosting, since it is cheaper.", T0),
            ("We decided to host the app on AWS instead of Vercel.", T0 + timedelta(days=3)),
        ],
    )
    with TestClient(create_app(memory)) as client:
        answer = client.get("/v1/decisions", params={"topic": "vercel", "domain": "infra", "scope": scope})
        assert answer.status_code == 200
        got = answer.json()["decisions"]
        assert [d["id"] for d in got] == [rows[1]["id"], rows[0]["id"]]
        assert got[0]["status"] == "active" and got[0]["supersedes"] == [rows[0]["id"]]
        assert got[1]["status"] == "superseded" and got[1]["reasoning"] == "it is cheaper"
        assert set(got[0]) >= {"id", "text", "reasoning", "domain", "outcome", "decided_at", "status"}
        assert client.get("/v1/decisions", params={"domain": "astrology"}).status_code == 422
        assert memory.decisions(topic="hosting", scope=scope)[0].id == rows[0]["id"]


def test_a_writes_entity_read_seeks_its_scope_instead_of_scanning_every_entity(driver: neo4j.Driver) -> None:
    """Every write that links entities reads its scopes' entities (entities/find_candidates): that
    read seeks them by index, so its cost follows the scope's entities, not the whole graph's (it
    scanned every Entity twice per scope before the scope and group id indexes)."""
    query = default_catalog().get("entities/find_candidates").text
    with driver.session() as session:
        result = session.run(
            f"EXPLAIN {query}", scopes=[{"scope": "/plan/a", "group_id": "plan_a"}], limit=10
        )
        plan = result.consume().plan
    assert plan is not None

    def operators(step: dict[str, Any]) -> list[str]:
        return [str(step["operatorType"])] + [o for c in step.get("children", []) for o in operators(c)]

    found = operators(dict(plan))
    assert not [o for o in found if o.startswith("NodeByLabelScan") or o.startswith("AllNodesScan")], found
    assert any(o.startswith("NodeIndexSeek") for o in found), found
