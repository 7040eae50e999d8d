"""Conversations on the real stack: the memory nudge (W8), lessons at session start (W9), the
session flush and crash catch-up (W11), and background writes that recall waits for (W12)."""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient

from graphmem.api.app import create_app
from graphmem.llm.scripted import ScriptedLLM
from graphmem.memory import Memory

pytestmark = pytest.mark.integration

FACTS = [
    "My sister Mireille lives in Toronto.",
    "I work as a nurse at the Leeds General Infirmary.",
    "I'm allergic to penicillin.",
]
SMALL_TALK = [
    "Hi!",
    "Thanks, that helps.",
    "What's a good name for a cat?",
    "Ha, nice one.",
    "Can you summarise that?",
    "OK.",
    "Sounds good.",
]


@pytest.fixture
def user() -> str:
    """A user nobody else writes about."""
    return f"u{uuid.uuid4().hex[:10]}"


@pytest.fixture
def session_id() -> str:
    """A fresh conversation id."""
    return f"s-{uuid.uuid4().hex[:12]}"


@pytest.fixture(scope="module")
def small_nudge_client(memory: Memory) -> Iterator[TestClient]:
    """An API that reviews every 4 user turns."""
    with TestClient(create_app(memory, nudge_every_user_turns=4)) as test_client:
        yield test_client


def say(client: TestClient, session_id: str, text: str, **extra: Any) -> dict[str, Any]:
    response = client.post(
        f"/v1/conversations/{session_id}/turns", json={"role": "user", "text": text, **extra}
    )
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    return body


def reply(client: TestClient, session_id: str, text: str = "Sure.") -> dict[str, Any]:
    response = client.post(f"/v1/conversations/{session_id}/turns", json={"role": "assistant", "text": text})
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    return body


def recall_texts(client: TestClient, query: str, scope: str) -> list[str]:
    response = client.post("/v1/recall", json={"query": query, "scope": scope, "limit": 10})
    assert response.status_code == 200, response.text
    return [r["text"] for r in response.json()["results"]]


def eventually(check: Callable[[], bool], timeout: float = 30.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.2)
    return check()


def test_ten_user_turns_trigger_one_review_whose_facts_become_recallable(
    client: TestClient, user: str, session_id: str
) -> None:
    said = [*FACTS, *SMALL_TALK]
    scheduled = []
    for i, text in enumerate(said):
        first = say(client, session_id, text, user=user) if i == 0 else say(client, session_id, text)
        scheduled.append(first["review_scheduled"])
        assert reply(client, session_id)["review_scheduled"] is False  # assistant turns do not count
    assert first["turn"]["seq"] == 19 and first["turn"]["role"] == "user"
    assert scheduled == [False] * 9 + [True]

    scope = f"/user/{user}"
    assert eventually(
        lambda: any("Toronto" in t for t in recall_texts(client, "Where does Mireille live?", scope))
    )
    state = client.get(f"/v1/conversations/{session_id}").json()
    assert state["user_turns"] == 10 and state["turns_since_review"] == 0 and state["open"] is True


def test_the_counter_lives_in_the_graph_and_survives_a_restart(
    small_nudge_client: TestClient, other_memory: Callable[..., Memory], scope: str, session_id: str
) -> None:
    for text in ("I collect vintage fountain pens.", "Nice.", "Tell me more."):
        assert say(small_nudge_client, session_id, text, scope=scope)["review_scheduled"] is False

    restarted = other_memory()  # a new process: nothing shared in memory with the app above
    state = restarted.conversation(session_id)
    assert (state.user_turns, state.turns_since_review, state.scope) == (3, 3, scope)

    with TestClient(create_app(restarted, nudge_every_user_turns=4, flush_idle_minutes=None)) as after:
        assert say(after, session_id, "Cool.")["review_scheduled"] is True
        assert eventually(
            lambda: any(
                "fountain pens" in t for t in recall_texts(after, "What does the user collect?", scope)
            )
        )
    again = restarted.conversation(session_id)
    assert (again.user_turns, again.turns_since_review) == (4, 0)


def test_end_flushes_pending_turns_and_closes(client: TestClient, scope: str, session_id: str) -> None:
    say(client, session_id, "My dentist appointment is on the 14th of March.", scope=scope)
    reply(client, session_id, "Noted!")
    say(client, session_id, "I drive a green Volvo estate.")

    ended = client.post(f"/v1/conversations/{session_id}/end")
    assert ended.status_code == 200, ended.text
    body = ended.json()
    assert body["stored"] >= 1 and body["turns_processed"] == 3
    assert body["conversation"]["open"] is False and body["conversation"]["ended_at"]
    assert body["conversation"]["turns_since_review"] == 0  # nothing pending is left to count
    assert any("Volvo" in t for t in recall_texts(client, "What car does the user drive?", scope))

    again = client.post(f"/v1/conversations/{session_id}/end").json()
    assert (again["stored"], again["turns_processed"]) == (0, 0)
    say(client, session_id, "One more thing.")
    assert client.get(f"/v1/conversations/{session_id}").json()["open"] is True  # a new turn reopens

    missing = client.post(f"/v1/conversations/{session_id}-nope/end")
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_found"
    assert client.get(f"/v1/conversations/{session_id}-nope").status_code == 404


def test_session_start_returns_lessons_from_corrections_and_core_facts(
    client: TestClient, user: str, session_id: str
) -> None:
    say(client, session_id, "Can you find me a flight to Oslo?", user=user)
    reply(client, session_id, "Got it! Here are three flights.")
    say(client, session_id, "Please don't start replies with 'Got it'.")
    say(client, session_id, "I prefer aisle seats over window seats.")
    say(client, session_id, "I work as a nurse at the Leeds General Infirmary.")
    assert client.post(f"/v1/conversations/{session_id}/end").json()["lessons"] >= 2

    start = client.get("/v1/sessions/start", params={"user": user})
    assert start.status_code == 200, start.text
    body = start.json()
    assert body["scope"] == f"/user/{user}"
    lessons = [m["text"] for m in body["lessons"]]
    assert "Don't start replies with 'Got it'." in lessons
    assert any("aisle seats over window seats" in t for t in lessons)
    assert all({"instruction", "lesson"} <= set(m["categories"]) for m in body["lessons"])
    assert all(m["importance"] == 0.8 for m in body["lessons"])
    core = [m["text"] for m in body["core_facts"]]
    assert any("nurse" in t for t in core)
    assert not set(core) & set(lessons)

    nobody = client.get("/v1/sessions/start", params={"user": f"{user}-nobody"}).json()
    assert nobody["lessons"] == [] and nobody["core_facts"] == []
    assert client.get("/v1/sessions/start", params={"user": "not a name"}).status_code == 422


def test_background_batch_is_accepted_at_once_and_recall_sees_it(client: TestClient, scope: str) -> None:
    items = [
        {"text": "Quentin's boat is called Sea Biscuit.", "scope": scope},
        {"text": "Quentin keeps bees in his garden.", "scope": scope},
        {"text": "Quentin's daughter studies law in Utrecht.", "scope": scope},
    ]
    queued = client.post("/v1/memories/batch", params={"background": "true"}, json={"items": items})
    assert queued.status_code == 202, queued.text
    job = queued.json()
    assert job["queued"] == 3 and job["job_id"]

    assert any("Utrecht" in t for t in recall_texts(client, "Where does Quentin's daughter study?", scope))
    status = client.get(f"/v1/memories/batch/{job['job_id']}").json()
    assert status["status"] == "done" and status["created"] == 3

    too_long = client.post(
        "/v1/memories/batch", params={"background": "true"}, json={"items": [{"text": "x" * 40_000}]}
    )
    assert too_long.status_code == 413  # validated before it is queued
    assert client.get("/v1/memories/batch/no-such-job").status_code == 404


def test_a_failing_review_does_not_break_the_turn_request(
    client: TestClient, other_memory: Callable[..., Memory], scope: str, session_id: str
) -> None:
    exploding = other_memory(llm=ScriptedLLM({"lessons": [RuntimeError("model exploded")]}))
    with TestClient(create_app(exploding, nudge_every_user_turns=2, flush_idle_minutes=None)) as broken:
        say(broken, session_id, "I run the Berlin marathon every September.", scope=scope)
        turn = say(broken, session_id, "Please remind me to stretch.")
        assert turn["review_scheduled"] is True and turn["turn"]["seq"] == 2

    # The failed review left its turns pending: the flush stores them.
    ended = client.post(f"/v1/conversations/{session_id}/end").json()
    assert ended["turns_processed"] == 2 and ended["stored"] >= 1


def test_open_conversations_a_crash_left_behind_are_flushed_at_start_up(
    memory: Memory, scope: str, session_id: str
) -> None:
    two_hours_ago = datetime.now(UTC) - timedelta(hours=2)
    memory.record_turn(session_id, "user", "My landlord is called Mr Okonkwo.", scope=scope, at=two_hours_ago)
    fresh = f"{session_id}-fresh"
    memory.record_turn(fresh, "user", "I take the 7:40 train.", scope=scope)

    with TestClient(create_app(memory, flush_idle_minutes=30)) as restarted:
        assert eventually(lambda: restarted.get(f"/v1/conversations/{session_id}").json()["open"] is False)
        assert any("Okonkwo" in t for t in recall_texts(restarted, "What is the landlord's name?", scope))
        assert restarted.get(f"/v1/conversations/{fresh}").json()["open"] is True  # not idle: left alone


def test_turn_validation(client: TestClient, session_id: str) -> None:
    url = f"/v1/conversations/{session_id}/turns"
    assert client.post(url, json={"role": "system", "text": "x"}).status_code == 422
    assert client.post(url, json={"role": "user", "text": ""}).status_code == 422
    assert client.post(url, json={"role": "user", "text": "hi", "user": "two words"}).status_code == 422
    assert client.post(url, json={"role": "user", "text": "x" * 40_000}).status_code == 413
    bad_id = client.post("/v1/conversations/has%20space/turns", json={"role": "user", "text": "hi"})
    assert bad_id.status_code == 422
