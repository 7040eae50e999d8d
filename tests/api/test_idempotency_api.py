"""Idempotency-Key on every write route: a repeat returns the first answer and creates nothing twice."""

from __future__ import annotations

import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
from fastapi.testclient import TestClient

from graphmem.memory import Memory


def _key() -> dict[str, str]:
    return {"Idempotency-Key": str(uuid.uuid4())}


def _count(memory: Memory, scope: str) -> int:
    result = memory.read_query(
        "MATCH (m:Memory) WHERE m.scope = $scope RETURN count(m)", {"scope": scope}, [scope]
    )
    return int(result.rows[0][0])


def _twice(client: TestClient, method: str, url: str, **kwargs: Any) -> tuple[httpx.Response, httpx.Response]:
    headers = _key()
    first = client.request(method, url, headers=headers, **kwargs)
    second = client.request(method, url, headers=headers, **kwargs)
    assert second.status_code == first.status_code
    assert second.content == first.content
    assert second.headers.get("idempotency-replayed") == "true"
    assert first.headers.get("idempotency-replayed") is None
    return first, second


def test_a_repeated_memory_write_returns_the_first_answer(
    client: TestClient, memory: Memory, scope: str
) -> None:
    first, _ = _twice(
        client, "POST", "/v1/memories", json={"text": "Ines runs the Friday demo.", "scope": scope}
    )
    assert first.status_code == 201
    assert _count(memory, scope) == 1


def test_a_repeated_batch_stores_once(client: TestClient, memory: Memory, scope: str) -> None:
    items = [
        {"text": "The VPN is down on Sundays.", "scope": scope},
        {"text": "Kai owns billing.", "scope": scope},
    ]
    first, _ = _twice(client, "POST", "/v1/memories/batch", json={"items": items})
    assert first.status_code == 201
    assert _count(memory, scope) == 2


def test_a_repeated_background_batch_is_one_job(client: TestClient, memory: Memory, scope: str) -> None:
    items = [{"text": "The office plant is called Gerald.", "scope": scope}]
    first, second = _twice(
        client, "POST", "/v1/memories/batch", params={"background": "true"}, json={"items": items}
    )
    assert first.status_code == 202
    assert first.json()["job_id"] == second.json()["job_id"]
    memory.drain_writes(scope, 30)
    assert _count(memory, scope) == 1


def test_a_repeated_extract_with_store_stores_once(client: TestClient, memory: Memory, scope: str) -> None:
    body = {"text": "I live in Porto. I work as a nurse.", "scope": scope, "store": True}
    first, _ = _twice(client, "POST", "/v1/extract", json=body)
    assert first.status_code == 200
    assert _count(memory, scope) == len(first.json()["stored"])


def test_a_repeated_turn_is_recorded_once(client: TestClient) -> None:
    session_id = f"idem-{uuid.uuid4().hex[:8]}"
    _twice(client, "POST", f"/v1/conversations/{session_id}/turns", json={"role": "user", "text": "Hi there"})
    assert client.get(f"/v1/conversations/{session_id}").json()["turn_count"] == 1


def test_repeated_patch_delete_forget_and_feedback_replay(
    client: TestClient, memory: Memory, scope: str
) -> None:
    created = client.post("/v1/memories", json={"text": "Lea's desk is 4B.", "scope": scope}).json()
    memory_id = created["memory"]["id"]
    patched, _ = _twice(client, "PATCH", f"/v1/memories/{memory_id}", json={"importance": 0.9})
    assert patched.status_code == 200
    feedback = {"response": "Lea sits at 4B.", "injected_ids": [memory_id], "used_ids": [memory_id]}
    fed, _ = _twice(client, "POST", "/v1/feedback", json=feedback)
    assert fed.status_code == 200
    deleted, _ = _twice(client, "DELETE", f"/v1/memories/{memory_id}")
    assert deleted.status_code == 204  # the repeat does not turn into a 404
    client.post("/v1/memories", json={"text": "Temporary note about the fire drill.", "scope": scope})
    forgot, _ = _twice(client, "POST", "/v1/forget", json={"scope": scope})
    assert forgot.json()["deleted"] == 1
    assert _count(memory, scope) == 0


def test_the_same_key_with_another_body_is_refused_and_changes_nothing(
    client: TestClient, memory: Memory, scope: str
) -> None:
    headers = _key()
    client.post("/v1/memories", headers=headers, json={"text": "Noor likes rye bread.", "scope": scope})
    other = client.post("/v1/memories", headers=headers, json={"text": "Noor likes spelt.", "scope": scope})
    assert other.status_code == 422
    assert other.json()["error"]["code"] == "idempotency_key_reused"
    assert "new key" in other.json()["error"]["message"]
    assert _count(memory, scope) == 1


def test_a_malformed_key_is_a_clear_422(client: TestClient, scope: str) -> None:
    response = client.post(
        "/v1/memories", headers={"Idempotency-Key": "x" * 300}, json={"text": "Never stored.", "scope": scope}
    )
    assert response.status_code == 422
    assert "Idempotency-Key" in response.json()["error"]["message"]


def test_concurrent_repeats_of_one_key_create_one_memory(
    client: TestClient, memory: Memory, scope: str
) -> None:
    headers = _key()
    body = {"text": "The release train leaves at noon.", "scope": scope}

    def send(_: int) -> httpx.Response:
        for _attempt in range(60):
            response = client.post("/v1/memories", headers=headers, json=body)
            if response.status_code != 409:
                return response
            time.sleep(0.2)  # the first is still running: its answer comes on a later try
        return response

    with ThreadPoolExecutor(6) as pool:
        answers = list(pool.map(send, range(6)))
    assert {a.status_code for a in answers} == {201}
    assert len({a.json()["memory"]["id"] for a in answers}) == 1
    assert _count(memory, scope) == 1


def test_concurrent_writes_with_their_own_keys_each_replay_their_own_answer(
    client: TestClient, memory: Memory, scope: str
) -> None:
    # Their claims and answers share transactions: each must still get back its own answer.
    sent = [({"Idempotency-Key": str(uuid.uuid4())}, f"{scope}/w{i}") for i in range(12)]

    def write(pair: tuple[dict[str, str], str]) -> httpx.Response:
        headers, where = pair
        return client.post(
            "/v1/memories", headers=headers, json={"text": f"Desk {where} faces east.", "scope": where}
        )

    with ThreadPoolExecutor(12) as pool:
        first = list(pool.map(write, sent))
        again = list(pool.map(write, sent))
    assert [r.status_code for r in first] == [201] * 12
    for (_, where), a, b in zip(sent, first, again, strict=True):
        assert a.json()["memory"]["scope"] == where
        assert b.headers.get("idempotency-replayed") == "true" and b.content == a.content
        assert _count(memory, where) == 1
