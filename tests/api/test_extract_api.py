"""POST /v1/extract on the real stack: facts from a turn, storing them, and the error cases."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from graphmem.memory import Memory

pytestmark = pytest.mark.integration

TURN = (
    "Hey! Thanks for yesterday lol. I moved to Lisbon in March and I work at a fintech called Kora. "
    "My sister Ines lives in Porto. Please never suggest meat dishes, I'm vegetarian. "
    "What's the weather like there?"
)


def error_of(response: Any) -> dict[str, str]:
    body = response.json()
    assert set(body) == {"error"}, body
    assert body["error"]["message"]
    return dict(body["error"])


def test_a_turn_becomes_facts_without_storing(client: TestClient, scope: str) -> None:
    response = client.post("/v1/extract", json={"text": TURN, "scope": scope})
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["facts"] == [
        "The user moved to Lisbon in March.",
        "The user works at a fintech called Kora.",
        "The user's sister Ines lives in Porto.",
        "Never suggest meat dishes, the user is vegetarian.",
    ]
    assert body["stored"] is None and body["llm_calls"] == 0
    recalled = client.post("/v1/recall", json={"query": "Where does the user live?", "scope": scope})
    assert recalled.json()["results"] == []  # nothing was written


def test_speaker_names_who_i_is(client: TestClient) -> None:
    response = client.post("/v1/extract", json={"text": "I'm allergic to cats.", "speaker": "Ann"})
    assert response.status_code == 200
    assert response.json()["facts"] == ["Ann is allergic to cats."]


def test_stored_facts_are_recalled(client: TestClient, scope: str) -> None:
    response = client.post("/v1/extract", json={"text": TURN, "scope": scope, "store": True})
    assert response.status_code == 200, response.text
    body = response.json()
    stored = body["stored"]
    assert [s["memory"]["text"] for s in stored] == body["facts"]
    assert all(s["actions"] == ["created"] and s["memory"]["scope"] == scope for s in stored)

    for query, expected in [
        ("When did the user move to Lisbon?", "The user moved to Lisbon in March."),
        ("Where does Ines live?", "The user's sister Ines lives in Porto."),
        ("Which company does the user work for?", "The user works at a fintech called Kora."),
        ("Is the user vegetarian?", "Never suggest meat dishes, the user is vegetarian."),
    ]:
        recalled = client.post("/v1/recall", json={"query": query, "scope": scope, "limit": 3})
        assert recalled.status_code == 200
        assert recalled.json()["results"][0]["text"] == expected, query


def test_storing_again_reinforces_and_a_new_fact_supersedes(client: TestClient, scope: str) -> None:
    first = client.post("/v1/extract", json={"text": "I live in Lisbon.", "scope": scope, "store": True})
    old_id = first.json()["stored"][0]["memory"]["id"]
    again = client.post("/v1/extract", json={"text": "I live in Lisbon!", "scope": scope, "store": True})
    assert again.json()["stored"][0]["actions"] == ["reinforced"]
    moved = client.post(
        "/v1/extract", json={"text": "Big news: I now live in Madrid.", "scope": scope, "store": True}
    )
    assert moved.status_code == 200, moved.text
    assert f"superseded:{old_id}" in moved.json()["stored"][0]["actions"]


def test_nothing_worth_keeping_stores_nothing(client: TestClient, scope: str) -> None:
    response = client.post(
        "/v1/extract", json={"text": "ok thanks, sounds great!", "scope": scope, "store": True}
    )
    assert response.status_code == 200
    assert response.json() == {"facts": [], "stored": [], "llm_calls": 0}


def test_text_over_the_limit_is_413(client: TestClient, memory: Memory, scope: str) -> None:
    limit = memory._limits.max_text_bytes
    response = client.post("/v1/extract", json={"text": "I like tea. " * (limit // 12 + 1), "scope": scope})
    assert response.status_code == 413
    assert error_of(response)["code"] == "text_too_long"


@pytest.mark.parametrize(
    "body",
    [
        {"text": ""},
        {"text": "   \n "},
        {},
        {"text": "I like tea.", "scope": "/bad scope!"},
        {"text": "I like tea.", "unknown": 1},
        {"text": "I like tea.", "store": "maybe"},
    ],
)
def test_invalid_requests_are_422(client: TestClient, body: dict[str, Any]) -> None:
    response = client.post("/v1/extract", json=body)
    assert response.status_code == 422, response.text
    assert error_of(response)["code"] == "invalid_input"


def test_extract_needs_the_api_key_when_keys_are_set(keyed_client: TestClient) -> None:
    assert keyed_client.post("/v1/extract", json={"text": "I like tea."}).status_code == 401
    ok = keyed_client.post(
        "/v1/extract", json={"text": "I like tea."}, headers={"Authorization": "Bearer k-one"}
    )
    assert ok.status_code == 200 and ok.json()["facts"] == ["The user likes tea."]
