"""R7 feedback, pinning and retrieval reinforcement (D2, D3) through REST on the real stack."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from graphmem.memory import Memory

pytestmark = pytest.mark.integration


def test_feedback_raises_used_and_lowers_ignored(client: TestClient, memory: Memory, scope: str) -> None:
    items = [
        {"text": t, "scope": scope} for t in ("Nora's bike is a red Bianchi.", "Nora's cat is called Pixel.")
    ]
    ids = [
        r["memory"]["id"] for r in client.post("/v1/memories/batch", json={"items": items}).json()["results"]
    ]
    response = client.post(
        "/v1/feedback", json={"response": "Your red Bianchi bike is in the garage.", "injected_ids": ids}
    )
    assert response.status_code == 200
    assert response.json() == {"used": [ids[0]], "ignored": [ids[1]]}
    found = client.post("/v1/recall", json={"query": "Nora", "scope": scope}).json()["results"]
    assert "priority" not in found[0]  # priority is internal: it moves the score, not the record
    bad = client.post("/v1/feedback", json={"response": "x", "injected_ids": []})
    assert bad.status_code == 422


def test_pinning_and_retrieval_reinforcement(client: TestClient, memory: Memory, scope: str) -> None:
    made = client.post(
        "/v1/memories", json={"text": "Omar's passport expires in 2031.", "scope": scope}
    ).json()
    memory_id = made["memory"]["id"]
    pinned = client.patch(f"/v1/memories/{memory_id}", json={"pinned": True})
    assert pinned.status_code == 200 and pinned.json()["pinned"] is True
    client.post("/v1/recall", json={"query": "When does Omar's passport expire?", "scope": scope})
    memory.settle()
    after = client.get(f"/v1/memories/{memory_id}").json()
    assert after["access_count"] == 1
    assert after["last_accessed_at"] >= made["memory"]["last_accessed_at"]


def test_a_recall_that_only_looks_changes_nothing(client: TestClient, memory: Memory, scope: str) -> None:
    made = client.post("/v1/memories", json={"text": "Pia's locker code is 4412.", "scope": scope}).json()
    memory_id = made["memory"]["id"]
    looked = client.post(
        "/v1/recall", json={"query": "What is Pia's locker code?", "scope": scope, "reinforce": False}
    )
    assert [r["id"] for r in looked.json()["results"]][:1] == [memory_id]
    memory.settle()
    after = client.get(f"/v1/memories/{memory_id}").json()
    assert after["access_count"] == 0
    assert after["last_accessed_at"] == made["memory"]["last_accessed_at"]


def test_recalls_in_quick_succession_each_reinforce(client: TestClient, memory: Memory, scope: str) -> None:
    made = client.post("/v1/memories", json={"text": "Quentin's boat is moored at pier 7.", "scope": scope})
    memory_id = made.json()["memory"]["id"]
    for _ in range(3):  # within one coalescing window: written together, each one counted
        client.post("/v1/recall", json={"query": "Where is Quentin's boat moored?", "scope": scope})
    memory.settle()
    after = client.get(f"/v1/memories/{memory_id}").json()
    assert after["access_count"] == 3
    assert after["last_accessed_at"] >= made.json()["memory"]["last_accessed_at"]
