"""X5 cross-agent memory: an agent's key writes in its own space, reads every agent of its tenant
(with a domain filter on recall), changes nothing of another agent's, and sees no other tenant.

Tenant acme has two agents, planner and coder; globex is another tenant. Keys come in the
``GRAPHMEM_API_KEYS`` syntax (``key@/org/acme/agent/planner|read:/org/acme``) and from
``graphmem keys create --scope ... --read-scope ...``. What changed is checked through an
unbound key.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import anyio
import pytest
from fastapi.testclient import TestClient
from mcp import Client as MCPClient

from graphmem.api.app import create_app
from graphmem.config import parse_api_key
from graphmem.keys import KeyRing
from graphmem.mcp.server import build_server
from graphmem.memory import Memory
from graphmem.tenancy import Grant
from tests.api.test_keys import cli

pytestmark = pytest.mark.integration

TAG = uuid.uuid4().hex[:8]
ACME, GLOBEX = f"/org/acme-{TAG}", f"/org/globex-{TAG}"
PLANNER, CODER = f"{ACME}/agent/planner", f"{ACME}/agent/coder"
KEYS = {
    "planner": f"planner-{TAG}@{PLANNER}|read:{ACME}",
    "coder": f"coder-{TAG}@{CODER}|read:{ACME}",
    "globex": f"globex-{TAG}@{GLOBEX}",
    "reader": f"reader-{TAG}@read:{ACME}",
    "admin": f"admin-{TAG}",
}
SECRET = {name: parse_api_key(entry)[0] for name, entry in KEYS.items()}
GLOBEX_SECRETS = [f"quokka{TAG}{n}" for n in range(4)]  # in globex's data only
CODER_TEXTS = [
    ("The build uses Bazel with remote caching.", ["engineering"]),
    ("Deploys go through ArgoCD on Fridays.", ["engineering", "infra"]),
    ("The cloud bill is forty thousand dollars a month.", ["finance"]),
]
CODER_CHAT, GLOBEX_CHAT = f"coderchat-{TAG}", f"globexchat-{TAG}"
# Retrieval dynamics: reading a memory strengthens it, whichever agent of the tenant reads it.
DYNAMICS = frozenset({"strength", "access_count", "spaced_access_count", "last_accessed_at", "labile_until"})


def bearer(name: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {SECRET[name]}"}


@pytest.fixture(scope="module")
def http(memory: Memory) -> Iterator[TestClient]:
    parsed = dict(parse_api_key(entry) for entry in KEYS.values())
    app = create_app(
        memory,
        api_keys=list(parsed),
        api_key_scopes={k: v for k, v in parsed.items() if v is not None},
        stored_keys=True,
        flush_idle_minutes=None,
    )
    app.state.key_ring = KeyRing(parsed, memory.api_keys().live, ttl=0)
    with TestClient(app) as client:
        yield client


@pytest.fixture(scope="module")
def data(http: TestClient) -> dict[str, Any]:
    """Coder's memories and conversation, and globex's, each written with its own key."""
    coder = []
    for text, categories in CODER_TEXTS:
        body = {"text": f"{text} {TAG}", "scope": CODER, "categories": categories}
        r = http.post("/v1/memories", json=body, headers=bearer("coder"))
        assert r.status_code == 201, r.text
        coder.append(r.json()["memory"]["id"])
    globex = []
    for n, secret in enumerate(GLOBEX_SECRETS[:3]):
        body = {"text": f"Globex builds with Bazel too, plan {n} {secret}.", "scope": GLOBEX}
        body["categories"] = ["engineering"]
        r = http.post("/v1/memories", json=body, headers=bearer("globex"))
        assert r.status_code == 201, r.text
        globex.append(r.json()["memory"]["id"])
    turn = {"role": "user", "text": f"Remember the Bazel cache {TAG}.", "scope": CODER}
    assert (
        http.post(f"/v1/conversations/{CODER_CHAT}/turns", json=turn, headers=bearer("coder")).status_code
        == 201
    )
    turn = {"role": "user", "text": f"Our Bazel cache is {GLOBEX_SECRETS[3]}.", "scope": GLOBEX}
    assert (
        http.post(f"/v1/conversations/{GLOBEX_CHAT}/turns", json=turn, headers=bearer("globex")).status_code
        == 201
    )
    return {"coder": coder, "globex": globex}


def snapshot(http: TestClient, scope: str, *, ignore: frozenset[str] = frozenset()) -> dict[str, Any]:
    """Every node of ``scope``'s subtree and its conversations' turns, read with the unbound key."""
    http.app.state.memory.settle()  # type: ignore[attr-defined]
    query = (
        "MATCH (n) WHERE n.scope = $s OR n.scope STARTS WITH $s + '/' "
        "OPTIONAL MATCH (t:Turn)-[:IN]->(n) "
        "RETURN n.id AS id, labels(n) AS labels, properties(n) AS props, count(t) AS turns ORDER BY id"
    )
    r = http.post(
        "/v1/cypher", json={"query": query, "params": {"s": scope}, "limit": 1000}, headers=bearer("admin")
    )
    assert r.status_code == 200, r.text
    rows = r.json()["rows"]
    for row in rows:
        for name in {"embedding", *ignore}:
            row[2].pop(name, None)
    return {"nodes": rows}


def recall(http: TestClient, key: str, **body: Any) -> list[dict[str, Any]]:
    r = http.post("/v1/recall", json={"limit": 20, "reinforce": False, **body}, headers=bearer(key))
    assert r.status_code == 200, r.text
    results: list[dict[str, Any]] = r.json()["results"]
    return results


def test_the_env_syntax_gives_an_agent_its_space_and_its_tenant() -> None:
    _, bound = parse_api_key(KEYS["planner"])
    assert isinstance(bound, Grant)
    assert sorted(bound) == sorted([PLANNER, ACME]) and bound.writes == [PLANNER]
    _, reader = parse_api_key(KEYS["reader"])
    assert isinstance(reader, Grant) and list(reader) == [ACME] and reader.writes == []


def test_an_agent_writes_in_its_space_and_recalls_what_its_tenants_agents_know(
    http: TestClient, data: dict[str, Any]
) -> None:
    r = http.post(
        "/v1/memories",
        json={"text": f"Plan the migration to Bazel 7 next sprint {TAG}.", "scope": PLANNER},
        headers=bearer("planner"),
    )
    assert r.status_code == 201, r.text
    mine = r.json()["memory"]["id"]
    for scope in (ACME, CODER, None, "/"):
        found = {
            m["id"] for m in recall(http, "planner", query="Which build tool do we use, Bazel?", scope=scope)
        }
        assert data["coder"][0] in found, scope
        assert not found & set(data["globex"]), scope  # another tenant's never
    everything = {m["id"] for m in recall(http, "planner", query="Bazel build deploys bill", scope=ACME)}
    assert mine in everything and set(data["coder"]) <= everything
    got = http.get(f"/v1/memories/{data['coder'][1]}", headers=bearer("planner"))
    assert got.status_code == 200 and got.json()["scope"] == CODER
    assert http.delete(f"/v1/memories/{mine}", headers=bearer("planner")).status_code == 204


def test_recall_filters_by_domain_inside_the_query(http: TestClient, data: dict[str, Any]) -> None:
    query = "Bazel build, ArgoCD deploys and the cloud bill"
    engineering = recall(http, "planner", query=query, scope=ACME, categories=["Engineering"])
    assert {m["id"] for m in engineering} == set(data["coder"][:2])
    assert all("engineering" in m["categories"] for m in engineering)
    finance = recall(http, "planner", query=query, scope=ACME, categories=["finance"])
    assert [m["id"] for m in finance] == [data["coder"][2]]
    either = recall(http, "planner", query=query, scope=ACME, categories=["infra", "finance"])
    assert {m["id"] for m in either} == {data["coder"][1], data["coder"][2]}
    assert recall(http, "planner", query=query, scope=ACME, categories=[f"none-{TAG}"]) == []
    bad = http.post("/v1/recall", json={"query": "x", "categories": [""]}, headers=bearer("planner"))
    assert bad.status_code == 422


def test_an_agent_changes_nothing_in_another_agents_space(http: TestClient, data: dict[str, Any]) -> None:
    before = snapshot(http, CODER, ignore=DYNAMICS)
    theirs = data["coder"][0]
    wrote = http.post(
        "/v1/memories", json={"text": "Use Make instead.", "scope": CODER}, headers=bearer("planner")
    )
    assert wrote.status_code == 403 and wrote.json()["error"]["code"] == "scope_forbidden"
    assert PLANNER in wrote.json()["error"]["message"]
    for method, kwargs in (("PATCH", {"json": {"text": "Use Make."}}), ("DELETE", {})):
        r = http.request(method, f"/v1/memories/{theirs}", headers=bearer("planner"), **kwargs)
        assert r.status_code == 403, (method, r.text)
        assert r.json()["error"]["code"] == "scope_forbidden" and PLANNER in r.json()["error"]["message"]
    gone = http.post("/v1/forget", json={"ids": data["coder"]}, headers=bearer("planner"))
    assert gone.status_code == 200 and gone.json()["deleted"] == 0
    turn = {"role": "user", "text": "Switch to Make."}
    r = http.post(f"/v1/conversations/{CODER_CHAT}/turns", json=turn, headers=bearer("planner"))
    assert r.status_code == 403, r.text
    r = http.post(f"/v1/conversations/{CODER_CHAT}/end", headers=bearer("planner"))
    assert r.status_code == 403, r.text
    assert snapshot(http, CODER, ignore=DYNAMICS) == before


def test_a_read_only_key_reads_its_tenant_and_writes_nowhere(http: TestClient, data: dict[str, Any]) -> None:
    found = {m["id"] for m in recall(http, "reader", query="Bazel build", scope=ACME)}
    assert data["coder"][0] in found
    r = http.post("/v1/memories", json={"text": "x", "scope": ACME}, headers=bearer("reader"))
    assert r.status_code == 403 and "only reads" in r.json()["error"]["message"]
    r = http.patch(f"/v1/memories/{data['coder'][0]}", json={"importance": 0.1}, headers=bearer("reader"))
    assert r.status_code == 403


def test_a_stored_agent_key_from_the_cli(
    http: TestClient,
    data: dict[str, Any],
    env: dict[str, str],
    memory: Memory,
) -> None:
    code, out, err = cli(
        env,
        "keys",
        "create",
        "--name",
        f"ops-agent-{TAG}",
        "--scope",
        f"{ACME}/agent/ops",
        "--read-scope",
        ACME,
    )
    assert code == 0, err
    secret = out.strip().splitlines()[-1]
    code, out, err = cli(env, "keys", "list")
    assert code == 0 and f"{ACME}/agent/ops|read:{ACME}" in out
    headers = {"Authorization": f"Bearer {secret}"}
    try:
        r = http.post(
            "/v1/memories", json={"text": f"Ops on call {TAG}", "scope": f"{ACME}/agent/ops"}, headers=headers
        )
        assert r.status_code == 201, r.text
        assert http.get(f"/v1/memories/{data['coder'][0]}", headers=headers).status_code == 200
        assert http.get(f"/v1/memories/{data['globex'][0]}", headers=headers).status_code == 404
        r = http.post("/v1/memories", json={"text": "x", "scope": CODER}, headers=headers)
        assert r.status_code == 403
    finally:
        for record in memory.api_keys().all():
            if record.name == f"ops-agent-{TAG}":
                memory.api_keys().revoke(record.id)


def attempts(data: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    """(method, path, kwargs) of what planner tries on globex's data (read, change) and on coder's
    (change)."""
    out: list[tuple[str, str, dict[str, Any]]] = []
    later = (datetime.now(UTC) + timedelta(days=1)).isoformat()
    for i in data["globex"]:
        out += [
            ("GET", f"/v1/memories/{i}", {}),
            ("PATCH", f"/v1/memories/{i}", {"json": {"text": "planner was here"}}),
            ("PATCH", f"/v1/memories/{i}", {"json": {"scope": PLANNER}}),
            ("DELETE", f"/v1/memories/{i}", {}),
        ]
    for i in data["coder"]:
        out += [
            ("PATCH", f"/v1/memories/{i}", {"json": {"text": "planner was here"}}),
            ("PATCH", f"/v1/memories/{i}", {"json": {"scope": PLANNER}}),
            ("PATCH", f"/v1/memories/{i}", {"json": {"categories": ["junk"]}}),
            ("DELETE", f"/v1/memories/{i}", {}),
        ]
    for scope in (GLOBEX, "/", "/org", None, f"{GLOBEX}/x"):
        out.append(("POST", "/v1/recall", {"json": {"query": "Globex Bazel plan", "scope": scope}}))
    out += [
        ("POST", "/v1/recall", {"json": {"query": "Bazel plan", "scopes": [GLOBEX, ACME]}}),
        ("POST", "/v1/recall", {"json": {"query": "Bazel plan", "categories": ["engineering"]}}),
        (
            "POST",
            "/v1/recall",
            {"json": {"query": "Bazel plan", "scope": "/org", "include_superseded": True}},
        ),
        ("POST", "/v1/forget", {"json": {"ids": data["globex"] + data["coder"]}}),
        ("POST", "/v1/forget", {"json": {"scope": GLOBEX}}),
        ("POST", "/v1/forget", {"json": {"scope": CODER}}),
        ("POST", "/v1/forget", {"json": {"categories": ["engineering", "finance", "infra"]}}),
        ("POST", "/v1/forget", {"json": {"older_than": later}}),
        ("POST", "/v1/memories", {"json": {"text": f"Planner note {TAG}", "scope": CODER}}),
        ("POST", "/v1/memories", {"json": {"text": f"Planner note {TAG}", "scope": GLOBEX}}),
        ("POST", "/v1/memories", {"json": {"text": f"Planner note {TAG}", "scope": ACME}}),
        ("POST", "/v1/memories", {"json": {"text": f"Planner note {TAG}"}}),
        (
            "POST",
            "/v1/memories/batch",
            {"json": {"items": [{"text": "a", "scope": PLANNER}, {"text": "b", "scope": CODER}]}},
        ),
        ("POST", "/v1/memories/batch?background=true", {"json": {"items": [{"text": "c", "scope": CODER}]}}),
        (
            "POST",
            "/v1/extract",
            {"json": {"text": "Coder uses Make. Coder likes tea.", "store": True, "scope": CODER}},
        ),
        (
            "POST",
            "/v1/feedback",
            {"json": {"response": "Bazel", "injected_ids": data["coder"], "used_ids": data["coder"][:1]}},
        ),
        ("POST", "/v1/feedback", {"json": {"response": "Bazel", "injected_ids": data["globex"]}}),
        ("GET", f"/v1/conversations/{GLOBEX_CHAT}", {}),
        ("POST", f"/v1/conversations/{GLOBEX_CHAT}/turns", {"json": {"role": "user", "text": "Hi."}}),
        ("POST", f"/v1/conversations/{GLOBEX_CHAT}/end", {}),
        ("POST", f"/v1/conversations/{CODER_CHAT}/turns", {"json": {"role": "user", "text": "Hi."}}),
        (
            "POST",
            f"/v1/conversations/{CODER_CHAT}/turns",
            {"json": {"role": "user", "text": "Hi.", "scope": PLANNER}},
        ),
        ("POST", f"/v1/conversations/{CODER_CHAT}/end", {}),
        (
            "POST",
            f"/v1/conversations/new-{TAG}/turns",
            {"json": {"role": "user", "text": "Hi.", "scope": CODER}},
        ),
        ("GET", "/v1/sessions/start", {"params": {"user": "x", "scope": GLOBEX}}),
        ("GET", "/v1/sessions/start", {"params": {"user": "x", "scope": "/"}}),
        ("GET", "/v1/decisions", {"params": {"scope": GLOBEX}}),
        ("GET", "/v1/scopes", {"params": {"under": GLOBEX}}),
        ("GET", "/v1/scopes", {"params": {"under": "/"}}),
        ("GET", "/v1/triggers", {"params": {"scope": GLOBEX}}),
        ("POST", "/v1/consolidate", {"json": {"jobs": ["nightly"]}}),
        (
            "POST",
            "/v1/cypher",
            {"json": {"query": "MATCH (m:Memory) WHERE m.scope = $g RETURN m.text", "params": {"g": GLOBEX}}},
        ),
        (
            "POST",
            "/v1/cypher",
            {"json": {"query": "MATCH (m:Memory) RETURN m", "scopes": [GLOBEX], "limit": 1000}},
        ),
        (
            "POST",
            "/v1/cypher",
            {
                "json": {
                    "query": "MATCH (m:Memory) WHERE m.scope = $g RETURN date(m.text)",
                    "params": {"g": GLOBEX},
                }
            },
        ),
        (
            "POST",
            "/v1/cypher",
            {
                "json": {
                    "query": "MATCH (m:Memory {id: $i}) SET m.text = 'x' RETURN m",
                    "params": {"i": data["coder"][0]},
                }
            },
        ),
    ]
    return out


def test_an_agent_key_leaks_nothing_of_another_tenant_and_changes_nothing_of_another_agent(
    http: TestClient, data: dict[str, Any]
) -> None:
    globex_before = snapshot(http, GLOBEX)
    coder_before = snapshot(http, CODER, ignore=DYNAMICS)
    tried = attempts(data)
    assert len(tried) >= 60
    leaks = []
    for method, path, kwargs in tried:
        response = http.request(method, path, headers=bearer("planner"), **kwargs)
        assert response.status_code < 500, (method, path, response.text)
        assert response.headers["content-type"].startswith("application/json"), (method, path)
        shown = any(s in response.text for s in GLOBEX_SECRETS) or (
            response.status_code < 400 and any(i in response.text for i in data["globex"])
        )
        if shown:
            leaks.append((method, path, response.text[:300]))
    assert leaks == []
    assert snapshot(http, GLOBEX) == globex_before  # 0 changes to the other tenant
    assert snapshot(http, CODER, ignore=DYNAMICS) == coder_before  # 0 changes to the other agent


def test_mcp_tools_of_an_agent_key_read_the_tenant_and_write_only_its_space(
    http: TestClient, memory: Memory, data: dict[str, Any]
) -> None:
    coder_before = snapshot(http, CODER, ignore=DYNAMICS)
    globex_before = snapshot(http, GLOBEX)
    _, planner = parse_api_key(KEYS["planner"])
    server = build_server(memory, allowed=planner)
    calls: list[tuple[str, dict[str, Any]]] = [
        ("recall", {"query": "Bazel build", "scope": ACME, "categories": ["engineering"]}),
        ("recall", {"query": "Globex Bazel plan", "scope": "/"}),
        ("get_memory_history", {"memory_id": data["globex"][0]}),
        ("remember", {"text": "Use Make.", "scope": CODER}),
        ("remember", {"text": "Use Make.", "scope": GLOBEX}),
        ("forget", {"memory_ids": data["coder"] + data["globex"]}),
        ("forget", {"scope": ACME}),
    ]
    answers: list[str] = []

    async def session() -> None:
        async with MCPClient(server) as client:
            for name, args in calls:
                result = await client.call_tool(name, args)
                answers.append(json.dumps(result.model_dump(mode="json")))

    anyio.run(session)
    assert data["coder"][0] in answers[0]  # another agent's memory of the tenant, by domain
    assert not any(s in a for a in answers for s in GLOBEX_SECRETS)
    assert "scope_forbidden" in answers[3] and "scope_forbidden" in answers[4]
    assert snapshot(http, CODER, ignore=DYNAMICS) == coder_before
    assert snapshot(http, GLOBEX) == globex_before
