"""Bad input is refused with a 4xx that says what to change, and stores nothing; Neo4j's messages
never carry stored values back; anything unexpected is a JSON 500 in the contract's shape."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from graphmem.api.app import create_app
from graphmem.memory import Memory

pytestmark = pytest.mark.integration


def stored(client: TestClient, scope: str) -> int:
    query = "MATCH (m:Memory) WHERE m.scope STARTS WITH $s RETURN count(m) AS n"
    r = client.post("/v1/cypher", json={"query": query, "params": {"s": scope}})
    return int(r.json()["rows"][0][0])


def error_of(response: Any) -> dict[str, str]:
    body: dict[str, dict[str, str]] = response.json()
    return body["error"]


@pytest.mark.parametrize(
    ("body", "says"),
    [
        ({"text": "a\x00b"}, "control character U+0000"),
        ({"text": "bell \x07 here"}, "control character U+0007"),
        ({"text": "ok", "source": "src\x00"}, "source"),
        ({"text": "ok", "metadata": {"blob": "x" * 70_000}}, "over the limit of 65536"),
        ({"text": "ok", "categories": ["a\x1b[31m"]}, "control character"),
        ({"text": "ok", "importance": 2}, "less than or equal to 1"),
        ({"text": "ok", "occurred_at": "0001-01-01T00:00:00+05:00"}, "year between 1 and 9999"),
        ({"text": "ok", "scope": "/user/../admin"}, "segment made only of dots"),
        ({"text": "ok", "scope": "/user//bob"}, "empty one"),
        ({"text": "ok", "scope": "/user/.."}, "segment made only of dots"),
        ({"text": "ok", "scope": "/user/a\x00b"}, "Invalid scope"),
    ],
)
def test_bad_memories_are_refused_with_what_to_change(
    client: TestClient, scope: str, body: dict[str, Any], says: str
) -> None:
    if "scope" not in body:
        body = {**body, "scope": scope}
    r = client.post("/v1/memories", json=body)
    assert r.status_code == 422, r.text
    assert error_of(r)["code"] == "invalid_input"
    assert says in error_of(r)["message"]
    assert stored(client, scope) == 0


def test_metadata_up_to_the_limit_is_kept(client: TestClient, scope: str) -> None:
    r = client.post(
        "/v1/memories", json={"text": "Big notes.", "scope": scope, "metadata": {"n": "x" * 60_000}}
    )
    assert r.status_code == 201, r.text
    patched = client.patch(f"/v1/memories/{r.json()['memory']['id']}", json={"metadata": {"n": "y" * 70_000}})
    assert patched.status_code == 422 and "65536" in error_of(patched)["message"]


@pytest.mark.parametrize(
    ("method", "path", "kwargs"),
    [
        ("POST", "/v1/recall", {"json": {"query": "x", "limit": 10**20}}),
        ("POST", "/v1/recall", {"json": {"query": "x\x00y"}}),
        ("POST", "/v1/recall", {"json": {"query": "x", "scope": "/a/../b"}}),
        ("GET", "/v1/sessions/start", {"params": {"user": "bob", "core_limit": 10**20}}),
        ("POST", "/v1/conversations/c1/turns", {"json": {"role": "user", "text": "hi\x00"}}),
        ("POST", "/v1/extract", {"json": {"text": "I like tea.", "speaker": "a\x00"}}),
        ("POST", "/v1/feedback", {"json": {"response": "x\x00", "injected_ids": ["a"]}}),
        ("POST", "/v1/cypher", {"json": {"query": "RETURN 1", "limit": 10**20}}),
    ],
)
def test_bad_parameters_answer_4xx(
    client: TestClient, method: str, path: str, kwargs: dict[str, Any]
) -> None:
    r = client.request(method, path, **kwargs)
    assert 400 <= r.status_code < 500, r.text
    assert error_of(r)["message"]


def test_a_huge_integer_parameter_is_a_400_that_says_what_to_change(client: TestClient) -> None:
    r = client.post("/v1/cypher", json={"query": "RETURN $n AS n", "params": {"n": 10**30}})
    assert r.status_code == 400, r.text
    assert "64 bits" in error_of(r)["message"]


@pytest.mark.parametrize(
    "expression",
    [
        "date(m.text)",
        "duration(m.text)",
        "localtime(m.text)",
        "datetime(m.text)",
        "1 / (size(m.text) - size(m.text))",
    ],
)
def test_neo4j_errors_never_echo_stored_values(client: TestClient, scope: str, expression: str) -> None:
    secret = f"secret-{uuid.uuid4().hex}"
    client.post("/v1/memories", json={"text": f"The vault code is {secret}.", "scope": scope})
    query = f"MATCH (m:Memory) WHERE m.scope = $s RETURN {expression} AS v"
    r = client.post("/v1/cypher", json={"query": query, "params": {"s": scope}})
    assert r.status_code == 400, r.text
    assert secret not in r.text
    assert error_of(r)["code"] == "invalid_query"
    assert "Neo.ClientError" in error_of(r)["message"]  # the code is kept, the values are not


def test_a_syntax_error_still_points_at_the_mistake(client: TestClient) -> None:
    r = client.post("/v1/cypher", json={"query": "MATCH (m:Memory) RETRUN m"})
    assert r.status_code == 400
    assert "line 1" in error_of(r)["message"]


def test_an_unexpected_error_is_a_json_500_in_the_contracts_shape(memory: Memory) -> None:
    app: FastAPI = create_app(memory, flush_idle_minutes=None)

    def boom() -> None:
        raise RuntimeError("the stored text of someone's memory")

    app.add_api_route("/v1/boom", boom)
    with TestClient(app, raise_server_exceptions=False) as client:
        r = client.get("/v1/boom")
        assert r.status_code == 500
        assert r.headers["content-type"].startswith("application/json")
        assert error_of(r)["code"] == "internal_error"
        assert "stored text" not in r.text
        assert client.get("/v1/health").status_code == 200  # the app keeps answering


# A client that cuts a string in the middle of an emoji (UTF-16 code units) sends JSON such as
# "\ud83d" alone: valid JSON, but no Unicode text, so Neo4j can never receive it.
HALF_EMOJI = '"party \\ud83d"'
BACKGROUND_BATCH = "/v1/memories/batch?background=true"


@pytest.mark.parametrize(
    ("path", "body", "where"),
    [
        ("/v1/memories", '{"text": "ok", "scope": "%s", "source": %s}', "source"),
        ("/v1/memories", '{"text": "ok", "scope": "%s", "categories": [%s]}', "categories.0"),
        ("/v1/memories", '{"text": "ok", "scope": "%s", "metadata": {"note": %s}}', "metadata.note"),
        (BACKGROUND_BATCH, '{"items": [{"text": "ok", "scope": "%s", "source": %s}]}', "0"),
        ("/v1/recall", '{"query": "party", "scope": "%s", "recent_context": [%s]}', "recent_context.0"),
        ("/v1/forget", '{"scope": "%s", "categories": [%s]}', "categories.0"),
        ("/v1/feedback", '{"response": "%s", "injected_ids": [%s]}', "injected_ids.0"),
        ("/v1/cypher", '{"query": "RETURN $p AS p, \'%s\' AS s", "params": {"p": %s}}', "params.p"),
    ],
)
def test_half_an_emoji_is_a_422_that_names_the_field_and_stores_nothing(
    client: TestClient, scope: str, path: str, body: str, where: str
) -> None:
    r = client.post(path, content=body % (scope, HALF_EMOJI), headers={"content-type": "application/json"})
    assert r.status_code == 422, r.text
    assert error_of(r)["code"] == "invalid_input"
    assert where in error_of(r)["message"] and "lone surrogate" in error_of(r)["message"]
    assert stored(client, scope) == 0


def test_a_whole_emoji_sent_as_a_surrogate_pair_is_kept(client: TestClient, scope: str) -> None:
    pair = "\\ud83c\\udf89"  # U+1F389, as JSON spells it in UTF-16
    body = f'{{"text": "Party {pair} on Friday.", "scope": "{scope}"}}'
    r = client.post("/v1/memories", content=body, headers={"content-type": "application/json"})
    assert r.status_code == 201, r.text
    assert r.json()["memory"]["text"] == "Party \U0001f389 on Friday."


@pytest.mark.parametrize("body", [{"job": ["weekly"]}, {"jobs": ["nightly"], "dry_run": True}])
def test_a_consolidation_request_with_an_unknown_field_runs_nothing(
    client: TestClient, body: dict[str, Any]
) -> None:
    # A typo ('job' for 'jobs') used to be ignored, and the default (every job) ran.
    runs = "MATCH (r:JobRun) RETURN count(r) AS n"
    before = client.post("/v1/cypher", json={"query": runs}).json()["rows"][0][0]
    for wait in ("true", "false"):
        r = client.post(f"/v1/consolidate?wait={wait}", json=body)
        assert r.status_code == 422, r.text
        assert error_of(r)["code"] == "invalid_input"
        assert "Extra inputs are not permitted" in error_of(r)["message"]
    assert client.post("/v1/cypher", json={"query": runs}).json()["rows"][0][0] == before


def test_half_an_emoji_in_a_utf16_body_is_refused_before_a_background_batch_is_queued(
    client: TestClient, scope: str
) -> None:
    template = '{"items": [{"text": "ok", "scope": "SCOPE", "metadata": {"note": HALF}}]}'
    body = template.replace("SCOPE", scope).replace("HALF", HALF_EMOJI)
    r = client.post(
        BACKGROUND_BATCH, content=body.encode("utf-16"), headers={"content-type": "application/json"}
    )
    assert r.status_code == 422, r.text
    assert "items.0.metadata.note" in error_of(r)["message"]
