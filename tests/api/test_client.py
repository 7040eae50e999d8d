"""graphmem.Client and graphmem.AsyncClient end to end: a real uvicorn server on the session's Neo4j."""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import Iterator
from datetime import UTC, date, datetime

import pytest
from fastapi import FastAPI

import graphmem
from graphmem.agents.models import CypherResult
from graphmem.api.app import create_app
from graphmem.api.schemas import BatchResponse, QueuedBatch
from graphmem.client import Client
from graphmem.config import Settings
from graphmem.connect import Neo4jTarget, open_memory
from graphmem.consolidate.models import ConsolidationReport, HealthDetail
from graphmem.embedding.base import Embedder
from graphmem.errors import (
    AuthenticationError,
    DatabaseUnavailableError,
    ForbiddenQueryError,
    InvalidInputError,
    NotFoundError,
)
from graphmem.memory import Memory
from graphmem.models import MemoryDetail, MemoryInput, Recalled
from graphmem.runtime.ports import free_port
from tests.serving import serve

pytestmark = pytest.mark.integration

KEY = "client-test-key"


@pytest.fixture(scope="module")
def app(memory: Memory) -> FastAPI:
    return create_app(memory, flush_idle_minutes=None)


@pytest.fixture(scope="module")
def url(app: FastAPI) -> Iterator[str]:
    """An open API (no keys)."""
    with serve(app) as base:
        yield base


@pytest.fixture(scope="module")
def keyed_url(memory: Memory) -> Iterator[str]:
    """An API that demands the key KEY."""
    with serve(create_app(memory, api_keys=[KEY], flush_idle_minutes=None)) as base:
        yield base


@pytest.fixture
def gm(url: str) -> Iterator[Client]:
    with graphmem.Client(url) as client:
        yield client


def has_route(app: FastAPI, method: str, path: str) -> bool:
    """Whether the server serves ``method path`` (read from its OpenAPI schema)."""
    return method.lower() in app.openapi()["paths"].get(path, {})


def test_remember_recall_history_update_forget(gm: Client, scope: str) -> None:
    old = gm.remember(
        "We use PostgreSQL for the user database.", scope=scope, occurred_at=datetime(2024, 1, 1, tzinfo=UTC)
    )
    new = gm.remember(
        "We migrated the user database to MySQL.", scope=scope, occurred_at=datetime(2024, 3, 1, tzinfo=UTC)
    )
    assert old.actions == ["created"]
    assert f"superseded:{old.memory.id}" in new.actions

    answer = gm.recall("which database holds user data", scope=scope)
    assert isinstance(answer.results[0], Recalled)
    assert [r.id for r in answer.results] == [new.memory.id]

    stale = gm.get(old.memory.id)
    assert isinstance(stale, MemoryDetail) and stale.status == "superseded"
    assert [(h.id, h.relation) for h in stale.history] == [(new.memory.id, "superseded_by")]

    changed = gm.update(new.memory.id, importance=0.9, categories=["Infra"])
    assert changed.importance == 0.9 and changed.categories == ["infra"]
    assert gm.get(new.memory.id).importance == 0.9

    assert gm.forget(scope=scope) == 2
    with pytest.raises(NotFoundError):
        gm.get(new.memory.id)


def test_batches_in_order_and_in_the_background(gm: Client, scope: str) -> None:
    done = gm.remember_batch(
        [
            MemoryInput(text="Ivan owns a red kayak.", scope=scope),
            {"text": "Ivan likes rye bread.", "scope": scope},
        ]
    )
    assert isinstance(done, BatchResponse)
    assert [r.memory.text for r in done.results] == ["Ivan owns a red kayak.", "Ivan likes rye bread."]
    assert {r.memory.scope for r in done.results} == {scope}

    queued = gm.remember_batch([{"text": "Ivan rows on Sundays.", "scope": scope}], background=True)
    assert isinstance(queued, QueuedBatch) and queued.queued == 1
    hits = gm.recall("Ivan rows on Sundays", scope=scope)  # waits for the queued write
    assert "Ivan rows on Sundays." in [r.text for r in hits.results]
    deadline = time.monotonic() + 30
    while (job := gm.batch_job(queued.job_id)).status in ("queued", "running"):
        assert time.monotonic() < deadline, job
        time.sleep(0.1)
    assert job.status == "done" and job.created == 1


def test_server_errors_become_graphmem_errors(gm: Client) -> None:
    missing = f"no-such-{uuid.uuid4().hex}"
    with pytest.raises(NotFoundError, match=missing):
        gm.get(missing)
    with pytest.raises(NotFoundError):
        gm.delete(missing)
    with pytest.raises(InvalidInputError, match=r"^Invalid session id 'not a valid id'"):
        gm.record_turn("not a valid id", "user", "Hello there.")
    with pytest.raises(InvalidInputError, match=r"^Invalid request: query\.domain"):
        gm.decisions(domain="astrology")


def test_api_keys(keyed_url: str, scope: str) -> None:
    with Client(keyed_url, api_key="wrong-key") as wrong:
        with pytest.raises(AuthenticationError, match="GRAPHMEM_API_KEYS"):
            wrong.recall("anything", scope=scope)
        assert wrong.health().status == "ok"  # health needs no key
    with Client(keyed_url) as keyless, pytest.raises(AuthenticationError):
        keyless.get("whatever")
    with Client(keyed_url, api_key=KEY) as right:
        stored = right.remember("Keyed clients can write.", scope=scope)
        assert right.get(stored.memory.id).text == "Keyed clients can write."


def test_extract_decisions_feedback_conversations(gm: Client, scope: str) -> None:
    extracted = gm.extract("I moved to Lisbon last year. I work as a nurse.", store=True, scope=scope)
    assert extracted.facts and extracted.stored is not None
    assert len(extracted.stored) == len(extracted.facts)

    decided = gm.remember("We decided to use Kafka for the event bus because it scales well.", scope=scope)
    ledger = gm.decisions(topic="Kafka", scope=scope)
    assert [d.memory_id for d in ledger] == [decided.memory.id]

    moved = extracted.stored[0].memory.id
    echo = gm.feedback("You moved to Lisbon, so try the trams.", injected_ids=[moved], used_ids=[moved])
    assert echo.used == [moved] and echo.ignored == []

    session = f"s-{uuid.uuid4().hex[:10]}"
    turn = gm.record_turn(session, "user", "Please keep answers short.", scope=scope)
    assert turn.turn.seq == 1 and not turn.review_scheduled
    assert gm.conversation(session).open
    ended = gm.end_conversation(session)
    assert ended.conversation.open is False and ended.turns_processed == 1

    user = f"u{uuid.uuid4().hex[:10]}"
    context = gm.session_start(user, scope=scope)
    assert context.user == user and context.scope == scope


def test_async_client_end_to_end(url: str, scope: str) -> None:
    async def scenario() -> None:
        async with graphmem.AsyncClient(url) as gm:
            stored = await gm.remember("Noor's cat is called Pixel.", scope=scope, categories=["pet"])
            assert stored.actions == ["created"]
            answer = await gm.recall("What is the name of Noor's cat?", scope=scope)
            assert answer.results[0].id == stored.memory.id
            assert (await gm.get(stored.memory.id)).history == []
            changed = await gm.update(stored.memory.id, text="Noor's cat is called Pixel; she is grey.")
            assert changed.text.endswith("she is grey.")
            assert (await gm.health()).status == "ok"
            assert await gm.forget(ids=[stored.memory.id]) == 1
            with pytest.raises(NotFoundError):
                await gm.delete(stored.memory.id)
            with pytest.raises(InvalidInputError, match="Invalid session id"):
                await gm.record_turn("bad session", "user", "Hi.")

    asyncio.run(scenario())


def test_unreachable_neo4j_is_retried_then_raised(embedder: Embedder) -> None:
    target = Neo4jTarget(uri=f"bolt://127.0.0.1:{free_port()}", user="neo4j", password="x", database="neo4j")
    connection = open_memory(Settings(), target, embedder=embedder)
    waits: list[float] = []
    try:
        with serve(create_app(connection.memory, flush_idle_minutes=None)) as base:
            with Client(base, retries=1, sleep=waits.append) as gm:
                assert gm.health().status == "unavailable"
                assert waits == []  # a health report is an answer, not retried
                with pytest.raises(DatabaseUnavailableError, match="graphmem neo4j start"):
                    gm.remember("Is anyone there?")
            assert len(waits) == 1  # the write was sent twice: a 503 means nothing was done
    finally:
        connection.close()


# Routes being added alongside the client: tested when the server has them.


@pytest.fixture(scope="module")
def own_graph_url(tmp_path_factory: pytest.TempPathFactory, embedder: Embedder) -> Iterator[str]:
    """An API on a Neo4j of its own: consolidation works on the whole graph, not one test's scope."""
    from tests.conftest import test_server

    server = test_server(tmp_path_factory.mktemp("client-consolidation-home"))
    info = server.start()
    target = Neo4jTarget(info.uri, info.user, info.password.get_secret_value(), "neo4j")
    connection = open_memory(Settings(), target, embedder=embedder)
    try:
        with serve(create_app(connection.memory, flush_idle_minutes=None)) as base:
            yield base
    finally:
        connection.close()
        server.stop()


def test_health_report(app: FastAPI, gm: Client, scope: str) -> None:
    if not has_route(app, "GET", "/v1/health/report"):
        pytest.skip("the server has no GET /v1/health/report yet")
    before = gm.health_report()
    gm.remember("Counted in the health report.", scope=scope, categories=["report-check"])
    after = gm.health_report()
    assert isinstance(after, HealthDetail)
    assert after.totals.get("active", 0) == before.totals.get("active", 0) + 1
    assert after.by_category["report-check"]["active"] >= 1


def test_consolidate(app: FastAPI, request: pytest.FixtureRequest) -> None:
    if not has_route(app, "POST", "/v1/consolidate"):
        pytest.skip("the server has no POST /v1/consolidate yet")
    with Client(request.getfixturevalue("own_graph_url")) as gm:
        with pytest.raises(InvalidInputError, match="jobs"):
            gm.consolidate(["hourly"])  # type: ignore[list-item]
        report = gm.consolidate(["nightly"])
        assert isinstance(report, ConsolidationReport)
        assert [(r.job, r.status) for r in report.runs] == [("nightly", "succeeded")]
        assert report.runs[0].run_id in {r.run_id for r in gm.health_report().recent_runs}


def test_cypher_reads_and_refuses_writes(app: FastAPI, gm: Client, scope: str) -> None:
    if not has_route(app, "POST", "/v1/cypher"):
        pytest.skip("the server has no POST /v1/cypher yet")
    stored = gm.remember("Cypher sees this memory.", scope=scope)
    rows = gm.cypher("MATCH (m:Memory {id: $id}) RETURN m.text AS text", {"id": stored.memory.id})
    assert isinstance(rows, CypherResult)
    assert rows.columns == ["text"] and rows.rows == [["Cypher sees this memory."]]
    with pytest.raises(ForbiddenQueryError):
        gm.cypher("MATCH (m:Memory {id: $id}) DETACH DELETE m", {"id": stored.memory.id})
    assert gm.get(stored.memory.id).text == "Cypher sees this memory."

    names = {q.name for q in gm.cypher_queries()}
    assert "belief_history" in names
    history = gm.run_query("belief_history", {"memory_id": stored.memory.id}, scopes=[scope])
    assert history.columns[:2] == ["memory", "relation"] and [r[1] for r in history.rows] == ["this"]
    with pytest.raises(NotFoundError):
        gm.run_query("no_such_query")


def test_session_start_triggers_and_scopes(gm: Client, scope: str) -> None:
    written = gm.remember(
        "Dentist appointment next Friday.", scope=scope, occurred_at=datetime(2026, 3, 4, 10, tzinfo=UTC)
    )
    [trigger] = gm.triggers(scope=scope, start=date(2026, 3, 1), end=date(2026, 3, 31))
    assert (trigger.due_on, trigger.memory.id) == (date(2026, 3, 6), written.memory.id)
    start = gm.session_start("alice", scope=scope, on=date(2026, 3, 6), profile_chars=200)
    assert [t.memory.text for t in start.due] == ["Dentist appointment next Friday."]
    assert start.profile is not None and start.profile.chars <= 200
    assert gm.scopes(scope).subtree.total == 1
    with pytest.raises(InvalidInputError):
        gm.triggers(start=date(2026, 3, 31), end=date(2026, 3, 1))
