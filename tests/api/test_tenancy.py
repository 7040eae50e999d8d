"""Tenancy: a key bound to alice's scope reads, changes and deletes nothing of bob's, on every route,
the MCP tools and the Python client alike; bob's data is checked unchanged through an unbound key.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import anyio
import pytest
from fastapi.testclient import TestClient
from httpx import Response
from mcp import Client as MCPClient

from graphmem.api.app import create_app
from graphmem.client import Client
from graphmem.errors import NotFoundError, ScopeForbiddenError
from graphmem.mcp.server import build_server
from graphmem.memory import Memory
from tests.serving import serve

pytestmark = pytest.mark.integration

TAG = uuid.uuid4().hex[:8]
ALICE, BOB = f"/user/alice-{TAG}", f"/user/bob-{TAG}"
ALICE_KEY, BOB_KEY, ADMIN_KEY = f"alice-{TAG}", f"bob-{TAG}", f"admin-{TAG}"
MARK = f"okapi{TAG}"  # alice searches for it; never sent back unless one of bob's texts is
SECRETS = [f"kiwi{TAG}{n}" for n in range(6)]  # in bob's texts only: a response holding one leaked
BOB_TEXTS = [
    f"Bob's locker code is 4471 {MARK} {SECRETS[0]}.",
    f"Bob is allergic to penicillin {MARK} {SECRETS[1]}.",
    f"We decided to use Postgres for billing because it is reliable {MARK} {SECRETS[2]}.",
]
BOB_CONVERSATION = f"bobchat-{TAG}"


def bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


@pytest.fixture(scope="module")
def http(memory: Memory) -> Iterator[TestClient]:
    app = create_app(
        memory,
        api_keys=[ALICE_KEY, BOB_KEY, ADMIN_KEY],
        api_key_scopes={ALICE_KEY: [ALICE], BOB_KEY: [BOB]},
        flush_idle_minutes=None,
    )
    with TestClient(app) as client:
        yield client


@pytest.fixture(scope="module")
def bob(http: TestClient) -> dict[str, Any]:
    """Bob's memories, a background batch and a conversation, written with bob's own key."""
    ids = []
    for text in BOB_TEXTS:
        r = http.post("/v1/memories", json={"text": text, "scope": BOB}, headers=bearer(BOB_KEY))
        assert r.status_code == 201, r.text
        ids.append(r.json()["memory"]["id"])
    queued = http.post(
        "/v1/memories/batch?background=true",
        json={"items": [{"text": f"Bob walks his dog at seven {MARK} {SECRETS[3]}.", "scope": BOB}]},
        headers=bearer(BOB_KEY),
    )
    assert queued.status_code == 202, queued.text
    turn = {"role": "user", "text": f"I moved to Lisbon {MARK} {SECRETS[4]}.", "user": f"bob-{TAG}"}
    r = http.post(f"/v1/conversations/{BOB_CONVERSATION}/turns", json=turn, headers=bearer(BOB_KEY))
    assert r.status_code == 201, r.text
    memory: Memory = http.app.state.memory  # type: ignore[attr-defined]
    memory.drain_writes(None, 60)
    return {"ids": ids, "job": queued.json()["job_id"]}


def snapshot(http: TestClient) -> dict[str, Any]:
    """Everything of bob's, read through the unbound admin key (after background reinforcement)."""
    http.app.state.memory.settle()  # type: ignore[attr-defined]
    query = (
        "MATCH (n) WHERE n.scope = $s OR n.scope STARTS WITH $s + '/' "
        "RETURN n.id AS id, labels(n) AS labels, properties(n) AS props ORDER BY id"
    )
    r = http.post(
        "/v1/cypher", json={"query": query, "params": {"s": BOB}, "limit": 1000}, headers=bearer(ADMIN_KEY)
    )
    assert r.status_code == 200, r.text
    rows = [row for row in r.json()["rows"]]
    for row in rows:
        row[2].pop("embedding", None)
    turns = http.post(
        "/v1/cypher",
        json={
            "query": "MATCH (t:Turn)-[:IN]->(c:Conversation {id: $c}) RETURN count(t) AS n, c.open AS open",
            "params": {"c": BOB_CONVERSATION},
        },
        headers=bearer(ADMIN_KEY),
    )
    return {"nodes": rows, "turns": turns.json()["rows"]}


def leaked(response: Response, bob: dict[str, Any]) -> bool:
    """Whether a response shows any of bob's data (his ids count only in a successful answer:
    a 404 may repeat the id the caller sent)."""
    return shows_bob(response.text, response.status_code < 400, bob)


def shows_bob(text: str, success: bool, bob: dict[str, Any]) -> bool:
    """Whether ``text`` holds one of bob's secrets, or (in a successful answer) one of his ids."""
    return any(s in text for s in SECRETS) or (success and any(i in text for i in bob["ids"]))


def attempts(bob: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    """(method, path, kwargs) of every attempt alice makes on bob's data."""
    ids = bob["ids"]
    now = datetime.now(UTC).isoformat()
    out: list[tuple[str, str, dict[str, Any]]] = []
    for i in ids:  # read, change, delete by id
        out += [
            ("GET", f"/v1/memories/{i}", {}),
            ("PATCH", f"/v1/memories/{i}", {"json": {"text": "alice was here"}}),
            ("PATCH", f"/v1/memories/{i}", {"json": {"importance": 0.01}}),
            ("PATCH", f"/v1/memories/{i}", {"json": {"scope": ALICE}}),
            ("PATCH", f"/v1/memories/{i}", {"json": {"pinned": True}}),
            ("DELETE", f"/v1/memories/{i}", {}),
        ]
    for scope in (BOB, "/", "/user", None, f"{BOB}/health"):
        body: dict[str, Any] = {"query": f"locker code penicillin Postgres {MARK}", "scope": scope}
        out.append(("POST", "/v1/recall", {"json": body}))
    out += [
        ("POST", "/v1/recall", {"json": {"query": f"locker {MARK}", "scopes": [BOB, ALICE]}}),
        ("POST", "/v1/recall", {"json": {"query": f"locker {MARK}", "scope": BOB, "as_of": now}}),
        ("POST", "/v1/recall", {"json": {"query": f"locker {MARK}", "include_superseded": True}}),
        ("POST", "/v1/recall", {"json": {"query": f"locker {MARK}", "layers": ["episodic", "semantic"]}}),
        ("GET", "/v1/sessions/start", {"params": {"user": f"bob-{TAG}"}}),
        ("GET", "/v1/sessions/start", {"params": {"user": f"bob-{TAG}", "scope": "/"}}),
        ("GET", "/v1/sessions/start", {"params": {"user": "x", "scope": "/user"}}),
        ("GET", "/v1/decisions", {}),
        ("GET", "/v1/decisions", {"params": {"scope": BOB}}),
        ("GET", "/v1/decisions", {"params": {"topic": "Postgres"}}),
        ("GET", "/v1/decisions", {"params": {"scope": "/"}}),
        ("GET", f"/v1/conversations/{BOB_CONVERSATION}", {}),
        (
            "POST",
            f"/v1/conversations/{BOB_CONVERSATION}/turns",
            {"json": {"role": "user", "text": "I hate Lisbon."}},
        ),
        (
            "POST",
            f"/v1/conversations/{BOB_CONVERSATION}/turns",
            {"json": {"role": "user", "text": "Hi.", "scope": ALICE}},
        ),
        ("POST", f"/v1/conversations/{BOB_CONVERSATION}/end", {}),
        (
            "POST",
            f"/v1/conversations/new-{TAG}/turns",
            {"json": {"role": "user", "text": "Hi.", "user": f"bob-{TAG}"}},
        ),
        ("GET", f"/v1/memories/batch/{bob['job']}", {}),
        (
            "POST",
            "/v1/feedback",
            {"json": {"response": "locker code", "injected_ids": ids, "used_ids": ids[:1]}},
        ),
        ("POST", "/v1/feedback", {"json": {"response": "penicillin locker Postgres", "injected_ids": ids}}),
        ("POST", "/v1/forget", {"json": {"ids": ids}}),
        ("POST", "/v1/forget", {"json": {"scope": BOB}}),
        ("POST", "/v1/forget", {"json": {"scope": "/user"}}),
        ("POST", "/v1/forget", {"json": {"older_than": (datetime.now(UTC) + timedelta(days=1)).isoformat()}}),
        ("POST", "/v1/memories", {"json": {"text": f"Bob likes tea {TAG}.", "scope": BOB}}),
        ("POST", "/v1/memories", {"json": {"text": f"Bob likes tea {TAG}."}}),
        ("POST", "/v1/memories", {"json": {"text": f"Bob likes tea {TAG}.", "scope": "/user"}}),
        (
            "POST",
            "/v1/memories/batch",
            {"json": {"items": [{"text": "x tea", "scope": ALICE}, {"text": "y tea", "scope": BOB}]}},
        ),
        (
            "POST",
            "/v1/memories/batch?background=true",
            {"json": {"items": [{"text": "z tea", "scope": BOB}]}},
        ),
        (
            "POST",
            "/v1/extract",
            {"json": {"text": "Bob likes tea. Bob owns a cat.", "store": True, "scope": BOB}},
        ),
        ("POST", "/v1/consolidate", {"json": {"jobs": ["nightly"]}}),
        ("GET", "/v1/health/report", {}),
        (
            "POST",
            "/v1/cypher",
            {"json": {"query": "MATCH (m:Memory) WHERE m.scope = $b RETURN m", "params": {"b": BOB}}},
        ),
        (
            "POST",
            "/v1/cypher",
            {"json": {"query": "MATCH (m:Memory) RETURN m", "scopes": [BOB], "limit": 1000}},
        ),
        (
            "POST",
            "/v1/cypher",
            {"json": {"query": "MATCH (m:Memory) WHERE m.scope = $b RETURN m.text", "params": {"b": BOB}}},
        ),
        (
            "POST",
            "/v1/cypher",
            {
                "json": {
                    "query": "MATCH (m:Memory) WHERE m.scope = $b RETURN date(m.text)",
                    "params": {"b": BOB},
                }
            },
        ),
        (
            "POST",
            "/v1/cypher",
            {
                "json": {
                    "query": "MATCH (m:Memory) WHERE m.scope = $b RETURN toInteger(m.text) + 1",
                    "params": {"b": BOB},
                }
            },
        ),
        (
            "POST",
            "/v1/cypher",
            {
                "json": {
                    "query": "MATCH (m:Memory) WHERE m.scope = $b RETURN duration(m.text)",
                    "params": {"b": BOB},
                }
            },
        ),
        (
            "POST",
            "/v1/cypher",
            {
                "json": {
                    "query": "MATCH (m:Memory) WHERE m.scope = $b RETURN point({x: m.text})",
                    "params": {"b": BOB},
                }
            },
        ),
        (
            "POST",
            "/v1/cypher/queries/belief_history",
            {"json": {"params": {"memory_id": ids[0]}, "scopes": [BOB]}},
        ),
    ]
    return out


def test_alice_cannot_read_change_or_delete_bobs_memories(http: TestClient, bob: dict[str, Any]) -> None:
    before = snapshot(http)
    assert len([n for n in before["nodes"] if "Memory" in n[1]]) >= 4  # three writes and the background one
    tried = attempts(bob)
    assert len(tried) >= 60
    leaks, answers = [], []
    for method, path, kwargs in tried:
        response = http.request(method, path, headers=bearer(ALICE_KEY), **kwargs)
        answers.append((method, path, response.status_code))
        assert response.status_code < 500, (method, path, response.text)
        assert response.headers["content-type"].startswith("application/json"), (method, path)
        if leaked(response, bob):
            leaks.append((method, path, response.text[:300]))
    assert leaks == []
    assert snapshot(http) == before  # 0 changes
    by_path = {(m, p): s for m, p, s in answers}
    assert by_path[("GET", f"/v1/memories/{bob['ids'][0]}")] == 404
    assert by_path[("DELETE", f"/v1/memories/{bob['ids'][0]}")] == 404
    assert by_path[("GET", f"/v1/conversations/{BOB_CONVERSATION}")] == 404
    assert by_path[("GET", f"/v1/memories/batch/{bob['job']}")] == 404
    assert by_path[("POST", "/v1/consolidate")] == 403


def test_another_tenants_id_answers_exactly_as_an_unknown_id(http: TestClient, bob: dict[str, Any]) -> None:
    unknown = str(uuid.uuid4())
    for method in ("GET", "DELETE"):
        theirs = http.request(method, f"/v1/memories/{bob['ids'][1]}", headers=bearer(ALICE_KEY))
        missing = http.request(method, f"/v1/memories/{unknown}", headers=bearer(ALICE_KEY))
        assert theirs.status_code == missing.status_code == 404
        assert theirs.json()["error"]["code"] == missing.json()["error"]["code"] == "not_found"
        assert (
            theirs.json()["error"]["message"].replace(bob["ids"][1], unknown)
            == missing.json()["error"]["message"]
        )


def test_alice_works_in_her_own_scope_and_a_broad_recall_is_narrowed_to_it(
    http: TestClient, bob: dict[str, Any]
) -> None:
    text = f"Alice's locker code is 9911 {TAG}-alice."
    r = http.post("/v1/memories", json={"text": text, "scope": f"{ALICE}/work"}, headers=bearer(ALICE_KEY))
    assert r.status_code == 201, r.text
    mine = r.json()["memory"]["id"]
    for scope in ("/", "/user", None, ALICE):
        found = http.post(
            "/v1/recall", json={"query": "locker code", "scope": scope}, headers=bearer(ALICE_KEY)
        ).json()["results"]
        assert [m["id"] for m in found] == [mine]
    assert http.get(f"/v1/memories/{mine}", headers=bearer(ALICE_KEY)).status_code == 200
    moved = http.patch(f"/v1/memories/{mine}", json={"scope": BOB}, headers=bearer(ALICE_KEY))
    assert moved.status_code == 403 and moved.json()["error"]["code"] == "scope_forbidden"
    assert ALICE in moved.json()["error"]["message"]
    assert http.get(f"/v1/memories/{mine}", headers=bearer(ADMIN_KEY)).json()["scope"] == f"{ALICE}/work"
    # the unbound key still sees everyone's
    everyone = http.post(
        "/v1/recall",
        json={"query": "locker code", "limit": 100, "reinforce": False},
        headers=bearer(ADMIN_KEY),
    )
    ids = {m["id"] for m in everyone.json()["results"]}
    assert mine in ids and bob["ids"][0] in ids
    assert http.delete(f"/v1/memories/{mine}", headers=bearer(ALICE_KEY)).status_code == 204


def test_a_write_outside_the_keys_scopes_is_refused_with_what_to_do(http: TestClient) -> None:
    r = http.post("/v1/memories", json={"text": "Bob likes tea.", "scope": BOB}, headers=bearer(ALICE_KEY))
    assert r.status_code == 403
    error = r.json()["error"]
    assert error["code"] == "scope_forbidden"
    assert ALICE in error["message"] and "scope" in error["message"]


def test_health_counts_every_tenants_memories_only_for_an_unbound_key(
    http: TestClient, bob: dict[str, Any]
) -> None:
    # How much bob (and everyone) keeps is no business of alice's key, nor of a caller with no key.
    for headers in (bearer(ALICE_KEY), {}, bearer("not-a-key")):
        r = http.get("/v1/health", headers=headers)
        assert r.status_code == 200, r.text
        assert r.json()["status"] == "ok" and r.json()["counts"] == {}
    r = http.get("/v1/health", headers=bearer(ADMIN_KEY))
    assert r.json()["counts"]["memories"] >= len(bob["ids"])


def mcp_attempts(bob: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    ids = bob["ids"]
    calls: list[tuple[str, dict[str, Any]]] = [("get_memory_history", {"memory_id": i}) for i in ids]
    calls += [
        ("recall", {"query": f"locker penicillin {MARK}", "scope": s}) for s in (BOB, "/", "/user", None)
    ]
    calls += [
        ("forget", {"memory_ids": ids}),
        ("forget", {"scope": BOB}),
        ("forget", {"scope": "/user"}),
        ("remember", {"text": "Bob likes tea.", "scope": BOB}),
        ("remember", {"text": "Bob likes tea."}),
        ("list_decisions", {"scope": BOB}),
        ("list_decisions", {}),
        ("session_start", {"user": f"bob-{TAG}"}),
        ("session_start", {"user": "x", "scope": "/"}),
        ("run_read_query", {"query": "MATCH (m:Memory) RETURN m", "scopes": [BOB]}),
        (
            "run_read_query",
            {"query": "MATCH (m:Memory) WHERE m.scope = $b RETURN m.text", "params": {"b": BOB}},
        ),
        (
            "run_read_query",
            {"query": "MATCH (m:Memory) WHERE m.scope = $b RETURN date(m.text)", "params": {"b": BOB}},
        ),
        ("run_saved_query", {"name": "belief_history", "params": {"memory_id": ids[0]}, "scopes": [BOB]}),
    ]
    return calls


def test_mcp_tools_of_a_confined_server_leak_and_change_nothing(
    http: TestClient, memory: Memory, bob: dict[str, Any]
) -> None:
    before = snapshot(http)
    server = build_server(memory, allowed=[ALICE])
    calls = mcp_attempts(bob)
    seen: list[str] = []

    async def session() -> None:
        async with MCPClient(server) as client:
            for name, args in calls:
                result = await client.call_tool(name, args)
                seen.append(json.dumps(result.model_dump(mode="json")))

    anyio.run(session)
    assert len(seen) == len(calls) >= 20
    assert [s for s in seen if shows_bob(s, "not_found" not in s, bob)] == []
    assert snapshot(http) == before


def test_the_python_client_with_a_bound_key_is_confined(http: TestClient, bob: dict[str, Any]) -> None:
    before = snapshot(http)
    with serve(http.app) as url, Client(url, ALICE_KEY, retries=0) as client:  # type: ignore[arg-type]
        tries: list[Callable[[], object]] = [
            lambda: client.get(bob["ids"][0]),
            lambda: client.delete(bob["ids"][0]),
            lambda: client.update(bob["ids"][0], text="alice was here"),
            lambda: client.remember("Bob likes tea.", scope=BOB),
        ]
        raised = []
        for attempt in tries:
            with pytest.raises((NotFoundError, ScopeForbiddenError)) as caught:
                attempt()
            raised.append(type(caught.value))
        assert raised[:3] == [NotFoundError] * 3
        found = client.recall(f"locker {MARK}", scope="/")
        assert not any(shows_bob(m.text, True, bob) for m in found.results)
        assert client.forget(ids=bob["ids"]) == 0
    assert snapshot(http) == before
