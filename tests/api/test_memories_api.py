"""The REST contract of api.md: remember, batch, get, patch, delete, forget, recall, health, errors."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

pytestmark = pytest.mark.integration


def error_of(response: Any) -> dict[str, str]:
    body = response.json()
    assert set(body) == {"error"}, body
    assert body["error"]["message"]
    return dict(body["error"])


def test_remember_get_patch_delete_roundtrip(client: TestClient, scope: str) -> None:
    made = client.post(
        "/v1/memories",
        json={
            "text": "Hana speaks Japanese and Portuguese.",
            "scope": scope,
            "categories": ["fact"],
            "importance": 0.7,
            "occurred_at": "2024-05-01T10:00:00+02:00",
            "metadata": {"k": "v"},
        },
    )
    assert made.status_code == 201, made.text
    body = made.json()
    assert body["actions"] == ["created"]
    memory = body["memory"]
    assert "embedding" not in memory
    assert memory["metadata"] == {"k": "v"}
    assert memory["occurred_at"].startswith("2024-05-01T08:00:00")

    got = client.get(f"/v1/memories/{memory['id']}")
    assert got.status_code == 200
    assert got.json()["history"] == [] and got.json()["derived_from"] == []

    patched = client.patch(
        f"/v1/memories/{memory['id']}", json={"importance": 0.2, "categories": ["language"]}
    )
    assert patched.status_code == 200
    assert patched.json()["importance"] == 0.2 and patched.json()["categories"] == ["language"]

    assert client.delete(f"/v1/memories/{memory['id']}").status_code == 204
    missing = client.get(f"/v1/memories/{memory['id']}")
    assert missing.status_code == 404 and error_of(missing)["code"] == "not_found"
    assert client.delete(f"/v1/memories/{memory['id']}").status_code == 404


def test_batch_in_input_order_with_duplicates(client: TestClient, scope: str) -> None:
    items = [
        {"text": t, "scope": scope}
        for t in ("Ivan owns a red kayak.", "Ivan owns a red kayak.", "Ivan likes rye bread.")
    ]
    response = client.post("/v1/memories/batch", json={"items": items})
    assert response.status_code == 201
    results = response.json()["results"]
    assert [r["memory"]["text"] for r in results] == [i["text"] for i in items]
    assert [r["actions"] for r in results] == [["created"], ["duplicate"], ["created"]]
    again = client.post("/v1/memories", json=items[0])
    assert again.json()["actions"] == ["reinforced"]


def test_recall_ranks_the_answer_first(client: TestClient, scope: str) -> None:
    texts = [
        "Jun's sister lives in Toronto.",
        "Jun bought a sourdough starter.",
        "Jun's bike was stolen in May.",
    ]
    client.post("/v1/memories/batch", json={"items": [{"text": t, "scope": scope} for t in texts]})
    response = client.post(
        "/v1/recall", json={"query": "Which city does Jun's sister live in?", "scope": scope, "limit": 3}
    )
    assert response.status_code == 200
    body = response.json()
    assert body["results"][0]["text"] == texts[0]
    first = body["results"][0]
    assert {"score", "tags", "match_reasons"} <= set(first)
    assert 0 <= body["confidence"] <= 1 and isinstance(body["evidence_gaps"], list)


def test_forget_needs_a_filter_and_deletes_matches(client: TestClient, scope: str) -> None:
    client.post(
        "/v1/memories/batch",
        json={"items": [{"text": "Kai's locker is 42.", "scope": scope, "categories": ["work"]}]},
    )
    empty = client.post("/v1/forget", json={})
    assert empty.status_code == 422 and error_of(empty)["code"] == "invalid_input"
    done = client.post("/v1/forget", json={"scope": scope, "categories": ["work"]})
    assert done.status_code == 200 and done.json() == {"deleted": 1}


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({}, "text"),
        ({"text": "   "}, "text"),
        ({"text": "x", "importance": 2}, "importance"),
        ({"text": "x", "scope": "bad scope"}, "scope"),
        ({"text": "x", "unknown": 1}, "unknown"),
        ({"text": "x", "occurred_at": "yesterday"}, "occurred_at"),
    ],
)
def test_validation_errors_are_422_with_the_field_named(
    client: TestClient, body: dict[str, Any], field: str
) -> None:
    response = client.post("/v1/memories", json=body)
    assert response.status_code == 422
    assert field in error_of(response)["message"]


def test_text_over_the_limit_is_413_and_batch_writes_nothing(client: TestClient, scope: str) -> None:
    items = [{"text": "Lena's first day is Monday.", "scope": scope}, {"text": "y" * 33_000, "scope": scope}]
    response = client.post("/v1/memories/batch", json={"items": items})
    assert response.status_code == 413
    assert error_of(response)["code"] == "text_too_long"
    assert client.post("/v1/recall", json={"query": "Lena first day", "scope": scope}).json()["results"] == []


def test_batch_over_1000_items_is_422(client: TestClient, scope: str) -> None:
    response = client.post(
        "/v1/memories/batch", json={"items": [{"text": f"n{i}", "scope": scope} for i in range(1001)]}
    )
    assert response.status_code == 422


def test_health_is_open_and_counts(client: TestClient) -> None:
    response = client.get("/v1/health")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok" and body["neo4j"]["reachable"] is True
    assert body["counts"]["memories"] >= 0


def test_api_keys(keyed_client: TestClient, scope: str) -> None:
    assert keyed_client.get("/v1/health").status_code == 200
    denied = keyed_client.post("/v1/recall", json={"query": "anything"})
    assert denied.status_code == 401 and error_of(denied)["code"] == "unauthorized"
    wrong = keyed_client.post("/v1/recall", json={"query": "x"}, headers={"Authorization": "Bearer nope"})
    assert wrong.status_code == 401
    ok = keyed_client.post(
        "/v1/recall", json={"query": "x", "scope": scope}, headers={"Authorization": "Bearer k-two"}
    )
    assert ok.status_code == 200


def test_openapi_documents_the_routes(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    for path in (
        "/v1/memories",
        "/v1/memories/batch",
        "/v1/memories/{memory_id}",
        "/v1/forget",
        "/v1/recall",
        "/v1/health",
    ):
        assert path in paths


def test_openapi_documents_every_status_consolidate_answers(client: TestClient) -> None:
    # 202 with a run id, or with ?wait=true 200 with the report (409 when the jobs run elsewhere)
    answers = client.get("/openapi.json").json()["paths"]["/v1/consolidate"]["post"]["responses"]
    assert {"200", "202", "409"} <= set(answers)
