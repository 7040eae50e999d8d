"""``graphmem keys create|list|revoke``: keys kept hashed in Neo4j, bound to scopes, refused once revoked."""

from __future__ import annotations

import hashlib
import json
import uuid
from collections.abc import Iterator

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient

from graphmem.api.app import create_app
from graphmem.cli import main
from graphmem.keys import KeyRing
from graphmem.memory import Memory

pytestmark = pytest.mark.integration

TAG = uuid.uuid4().hex[:8]
SCOPE = f"/user/carol-{TAG}"
ENV_KEY = f"env-{TAG}"


def cli(env: dict[str, str], *args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), env=env)
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture(scope="module")
def created(env: dict[str, str], memory: Memory) -> Iterator[dict[str, str]]:
    """A key bound to SCOPE and an unbound one, made with the CLI; revoked afterwards."""
    code, out, err = cli(env, "keys", "create", "--name", f"carol-{TAG}", "--scope", SCOPE)
    assert code == 0, err
    bound = out.strip().splitlines()[-1]
    code, out, err = cli(env, "keys", "create", "--name", f"ops-{TAG}")
    assert code == 0, err
    admin = out.strip().splitlines()[-1]
    ids = {r.name: r.id for r in memory.api_keys().all()}
    yield {"bound": bound, "admin": admin, "bound_id": ids[f"carol-{TAG}"], "admin_id": ids[f"ops-{TAG}"]}
    for key_id in (ids[f"carol-{TAG}"], ids[f"ops-{TAG}"]):
        memory.api_keys().revoke(key_id)


@pytest.fixture(scope="module")
def http(memory: Memory) -> Iterator[TestClient]:
    app = create_app(memory, api_keys=[ENV_KEY], api_key_scopes={ENV_KEY: [SCOPE]}, stored_keys=True)
    app.state.key_ring = KeyRing({ENV_KEY: [SCOPE]}, memory.api_keys().live, ttl=0)  # see revocations at once
    with TestClient(app) as client:
        yield client


def bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def test_only_the_hash_of_a_secret_is_stored(http: TestClient, created: dict[str, str]) -> None:
    assert created["bound"].startswith("gm_")
    query = "MATCH (k:ApiKey {id: $id}) RETURN properties(k) AS p"
    r = http.post(
        "/v1/cypher",
        json={"query": query, "params": {"id": created["bound_id"]}},
        headers=bearer(created["admin"]),
    )
    props = r.json()["rows"][0][0]
    assert props["hash"] == hashlib.sha256(created["bound"].encode()).hexdigest()
    assert created["bound"] not in json.dumps(props)
    assert props["scopes"] == [SCOPE] and props["revoked"] is False


def test_a_stored_key_is_confined_to_its_scopes(http: TestClient, created: dict[str, str]) -> None:
    assert http.post("/v1/recall", json={"query": "x"}).status_code == 401
    assert http.post("/v1/recall", json={"query": "x"}, headers=bearer("gm_nope_nope")).status_code == 401
    mine = http.post(
        "/v1/memories",
        json={"text": "Carol plays the cello.", "scope": SCOPE},
        headers=bearer(created["bound"]),
    )
    assert mine.status_code == 201, mine.text
    elsewhere = http.post(
        "/v1/memories", json={"text": "x", "scope": "/user/dave"}, headers=bearer(created["bound"])
    )
    assert elsewhere.status_code == 403
    theirs = http.post(
        "/v1/memories",
        json={"text": f"Dave plays drums {TAG}.", "scope": f"/user/dave-{TAG}"},
        headers=bearer(created["admin"]),
    )
    assert theirs.status_code == 201
    assert (
        http.get(
            f"/v1/memories/{theirs.json()['memory']['id']}", headers=bearer(created["bound"])
        ).status_code
        == 404
    )
    assert (
        http.get(
            f"/v1/memories/{theirs.json()['memory']['id']}", headers=bearer(created["admin"])
        ).status_code
        == 200
    )


def test_configured_keys_keep_working_beside_stored_ones(http: TestClient) -> None:
    r = http.post("/v1/recall", json={"query": "cello", "scope": "/"}, headers=bearer(ENV_KEY))
    assert r.status_code == 200
    assert all(m["scope"].startswith(SCOPE) for m in r.json()["results"])
    assert (
        http.post(
            "/v1/memories", json={"text": "x", "scope": "/user/dave"}, headers=bearer(ENV_KEY)
        ).status_code
        == 403
    )


def test_keys_list_shows_ids_names_and_scopes_but_never_secrets(
    env: dict[str, str], created: dict[str, str]
) -> None:
    code, out, _ = cli(env, "keys", "list")
    assert code == 0
    line = next(x for x in out.splitlines() if x.startswith(created["bound_id"]))
    assert f"carol-{TAG}" in line and SCOPE in line and "live" in line
    assert created["bound"] not in out and created["admin"] not in out
    code, out, _ = cli(env, "keys", "list", "--json")
    listed = {k["id"]: k for k in json.loads(out)}
    assert listed[created["admin_id"]]["scopes"] is None


def test_a_revoked_key_is_refused(env: dict[str, str], http: TestClient, memory: Memory) -> None:
    code, out, err = cli(env, "keys", "create", "--name", f"temp-{TAG}", "--scope", SCOPE)
    secret = out.strip().splitlines()[-1]
    key_id = next(r.id for r in memory.api_keys().all() if r.name == f"temp-{TAG}")
    assert http.post("/v1/recall", json={"query": "x"}, headers=bearer(secret)).status_code == 200
    code, out, _ = cli(env, "keys", "revoke", key_id)
    assert code == 0 and "revoked" in out
    assert http.post("/v1/recall", json={"query": "x"}, headers=bearer(secret)).status_code == 401
    code, _, err = cli(env, "keys", "revoke", "nosuchid")
    assert code == 1 and "graphmem keys list" in err


def test_a_malformed_scope_is_refused_by_the_cli(env: dict[str, str]) -> None:
    code, _, err = cli(env, "keys", "create", "--name", "x", "--scope", "/user/../root")
    assert code == 1 and "Invalid scope" in err
