"""Session start on the real stack: memories that named a future day come back on that day (W10),
and the core profile shows current beliefs only, within its budget (W13)."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from graphmem.api.app import create_app
from graphmem.memory import Memory

pytestmark = pytest.mark.integration

WEDNESDAY = "2026-03-04T10:00:00Z"


@pytest.fixture
def user() -> str:
    """A user nobody else writes about."""
    return f"u{uuid.uuid4().hex[:10]}"


def remember(client: TestClient, text: str, scope: str, at: str = WEDNESDAY, **extra: Any) -> dict[str, Any]:
    response = client.post("/v1/memories", json={"text": text, "scope": scope, "occurred_at": at, **extra})
    assert response.status_code == 201, response.text
    memory: dict[str, Any] = response.json()["memory"]
    return memory


def due_texts(client: TestClient, user: str, on: str, **params: Any) -> list[str]:
    response = client.get("/v1/sessions/start", params={"user": user, "on": on, **params})
    assert response.status_code == 200, response.text
    return [d["memory"]["text"] for d in response.json()["due"]]


def test_a_memory_naming_a_future_day_is_loaded_on_that_day(client: TestClient, user: str) -> None:
    scope = f"/user/{user}"
    remember(client, "Dentist appointment next Friday at 9.", scope)  # Friday 6 March
    remember(client, "The quarterly review is on 15 March.", scope)
    remember(client, "Send Bob the slides tomorrow.", scope)  # 5 March
    remember(client, "Visa renewal due 20/03/2026.", scope)
    remember(client, "The launch is planned for 2026-04-01.", scope)
    remember(client, "I went hiking last Friday.", scope)  # a past day: no trigger
    remember(client, "The board meeting was on 2 March.", scope)  # past tense: no trigger

    assert due_texts(client, user, "2026-03-05") == ["Send Bob the slides tomorrow."]
    # overdue by one day is still shown (due_window_days defaults to 1), by two days no longer
    assert due_texts(client, user, "2026-03-06") == [
        "Send Bob the slides tomorrow.",
        "Dentist appointment next Friday at 9.",
    ]
    assert due_texts(client, user, "2026-03-06", due_window_days=0) == [
        "Dentist appointment next Friday at 9."
    ]
    assert due_texts(client, user, "2026-03-07") == ["Dentist appointment next Friday at 9."]
    assert due_texts(client, user, "2026-03-08") == []
    assert due_texts(client, user, "2026-03-09", due_window_days=3) == [
        "Dentist appointment next Friday at 9."
    ]
    assert due_texts(client, user, "2026-03-15") == ["The quarterly review is on 15 March."]
    assert due_texts(client, user, "2026-03-20") == ["Visa renewal due 20/03/2026."]
    assert due_texts(client, user, "2026-04-01") == ["The launch is planned for 2026-04-01."]

    listed = client.get("/v1/triggers", params={"scope": scope}).json()
    assert [t["due_on"] for t in listed] == [
        "2026-03-05",
        "2026-03-06",
        "2026-03-15",
        "2026-03-20",
        "2026-04-01",
    ]
    window = client.get("/v1/triggers", params={"scope": scope, "from": "2026-03-06", "to": "2026-03-20"})
    assert [t["memory"]["text"] for t in window.json()] == [
        "Dentist appointment next Friday at 9.",
        "The quarterly review is on 15 March.",
        "Visa renewal due 20/03/2026.",
    ]
    assert all(t["scope"] == scope for t in listed)


def test_relative_days_count_from_when_the_memory_happened(client: TestClient, user: str) -> None:
    scope = f"/user/{user}"
    remember(client, "My exam is in two weeks.", scope, at="2025-11-10T08:00:00Z")
    assert due_texts(client, user, "2025-11-24") == ["My exam is in two weeks."]


def test_text_without_a_future_day_makes_no_trigger_and_no_error(client: TestClient, user: str) -> None:
    scope = f"/user/{user}"
    for text in ["I like green tea.", "May I ask something?", "Today I feel great.", "On 99/99/9999 zzz."]:
        remember(client, text, scope)
    assert client.get("/v1/triggers", params={"scope": scope}).json() == []


def test_a_superseded_or_deleted_memory_takes_its_trigger_with_it(client: TestClient, user: str) -> None:
    scope = f"/user/{user}"
    dentist = remember(client, "Dentist appointment next Friday.", scope)
    flight = remember(client, "My flight to Rome leaves on 20 March.", scope)
    assert len(client.get("/v1/triggers", params={"scope": scope}).json()) == 2

    assert client.delete(f"/v1/memories/{dentist['id']}").status_code == 204
    replaced = remember(client, "My flight to Rome leaves on 22 March.", scope, at="2026-03-05T10:00:00Z")
    assert client.get(f"/v1/memories/{flight['id']}").json()["status"] == "superseded"

    listed = client.get("/v1/triggers", params={"scope": scope}).json()
    assert [(t["due_on"], t["memory"]["id"]) for t in listed] == [("2026-03-22", replaced["id"])]
    assert due_texts(client, user, "2026-03-20") == []


def test_patching_a_memory_text_moves_or_removes_its_trigger(client: TestClient, user: str) -> None:
    scope = f"/user/{user}"
    dentist = remember(client, "Dentist appointment next Friday.", scope)  # Friday 6 March
    other = remember(client, "Send Bob the slides tomorrow.", scope)  # 5 March, left alone

    def listed() -> list[tuple[str, str]]:
        triggers = client.get("/v1/triggers", params={"scope": scope}).json()
        return [(t["due_on"], t["memory"]["text"]) for t in triggers]

    moved = client.patch(f"/v1/memories/{dentist['id']}", json={"text": "Dentist appointment on 12 March."})
    assert moved.status_code == 200, moved.text
    assert listed() == [
        ("2026-03-05", "Send Bob the slides tomorrow."),
        ("2026-03-12", "Dentist appointment on 12 March."),
    ]
    assert due_texts(client, user, "2026-03-06", due_window_days=0) == []

    # a text without a future day takes the trigger away; other fields leave triggers as they are
    saw = client.patch(f"/v1/memories/{dentist['id']}", json={"text": "I saw the dentist."})
    assert saw.status_code == 200
    assert client.patch(f"/v1/memories/{other['id']}", json={"importance": 0.9}).status_code == 200
    assert listed() == [("2026-03-05", "Send Bob the slides tomorrow.")]

    # a refused patch changes nothing
    assert client.patch(f"/v1/memories/{other['id']}", json={"text": ""}).status_code == 422
    assert listed() == [("2026-03-05", "Send Bob the slides tomorrow.")]


def test_bad_days_are_refused(client: TestClient, user: str) -> None:
    for params in [{"on": "next friday"}, {"on": "2026-02-30"}, {"due_window_days": -1}]:
        response = client.get("/v1/sessions/start", params={"user": user, **params})
        assert response.status_code == 422, params
        assert response.json()["error"]["code"] == "invalid_input"
    for params in [{"from": "soon"}, {"from": "2026-03-10", "to": "2026-03-01"}]:
        response = client.get("/v1/triggers", params=params)
        assert response.status_code == 422, params
        assert response.json()["error"]["message"]


@pytest.fixture
def alice_only(memory: Memory) -> Iterator[tuple[TestClient, str]]:
    """An API whose key k-a may only read /user/<alice>."""
    alice = f"a{uuid.uuid4().hex[:10]}"
    app = create_app(
        memory, api_keys=["k-a", "k-all"], api_key_scopes={"k-a": [f"/user/{alice}"]}, flush_idle_minutes=None
    )
    with TestClient(app) as keyed:
        yield keyed, alice


def test_a_key_sees_triggers_of_its_own_scopes_only(alice_only: tuple[TestClient, str], user: str) -> None:
    keyed, alice = alice_only
    everyone = {"Authorization": "Bearer k-all"}
    as_alice = {"Authorization": "Bearer k-a"}
    for who in (alice, user):
        response = keyed.post(
            "/v1/memories",
            json={"text": "Team offsite next Friday.", "scope": f"/user/{who}", "occurred_at": WEDNESDAY},
            headers=everyone,
        )
        assert response.status_code == 201
    mine = keyed.get("/v1/triggers", params={"from": "2026-03-06", "to": "2026-03-06"}, headers=as_alice)
    assert {t["scope"] for t in mine.json()} == {f"/user/{alice}"}
    assert keyed.get("/v1/triggers", params={"scope": f"/user/{user}"}, headers=as_alice).status_code == 404
    other = keyed.get("/v1/sessions/start", params={"user": user, "on": "2026-03-06"}, headers=as_alice)
    assert other.status_code == 404
    own = keyed.get("/v1/sessions/start", params={"user": alice, "on": "2026-03-06"}, headers=as_alice)
    assert [d["memory"]["text"] for d in own.json()["due"]] == ["Team offsite next Friday."]


def profile_texts(client: TestClient, user: str, **params: Any) -> dict[str, list[str]]:
    response = client.get("/v1/sessions/start", params={"user": user, **params})
    assert response.status_code == 200, response.text
    profile = response.json()["profile"]
    return {
        k: [line["text"] for line in profile[k]]
        for k in ("identity", "preferences", "relationships", "priorities")
    }


def test_the_profile_holds_current_beliefs_by_section(client: TestClient, user: str) -> None:
    scope = f"/user/{user}"
    remember(client, "I live in Berlin.", scope, at="2025-01-10T10:00:00Z")
    remember(client, "I work as a nurse at the Charité hospital.", scope, at="2025-01-10T10:05:00Z")
    remember(client, "I prefer green tea over coffee.", scope, at="2025-01-11T10:00:00Z")
    remember(client, "My sister Mireille lives in Toronto.", scope, at="2025-01-12T10:00:00Z")
    remember(client, "I plan to run the Berlin marathon in September.", scope, at="2025-01-13T10:00:00Z")
    remember(client, "Always answer me in French.", scope, at="2025-01-13T11:00:00Z")

    before = profile_texts(client, user)
    assert "I live in Berlin." in before["identity"]
    assert "I work as a nurse at the Charité hospital." in before["identity"]
    assert before["preferences"] == ["I prefer green tea over coffee."]
    assert before["relationships"] == ["My sister Mireille lives in Toronto."]
    assert before["priorities"] == ["I plan to run the Berlin marathon in September."]
    assert all("Always answer me in French." not in lines for lines in before.values())  # a lesson

    remember(client, "I live in Munich now.", scope, at="2025-06-01T10:00:00Z")
    remember(client, "I work as a teacher at the Park School now.", scope, at="2025-06-02T10:00:00Z")
    after = profile_texts(client, user)
    assert "I live in Munich now." in after["identity"]
    assert "I work as a teacher at the Park School now." in after["identity"]
    assert "I live in Berlin." not in after["identity"]
    assert "I work as a nurse at the Charité hospital." not in after["identity"]


def test_the_profile_keeps_to_its_character_budget(client: TestClient, user: str) -> None:
    scope = f"/user/{user}"
    likes = [
        "I prefer window seats on long flights.",
        "I love the novels of Ursula K. Le Guin.",
        "My favourite food is Sichuan hotpot.",
        "I enjoy playing chess on Sunday mornings.",
        "I like dark roast coffee without sugar.",
        "I hate loud open-plan offices.",
    ]
    for i, text in enumerate(likes):
        remember(client, text, scope, at=f"2025-02-0{i + 1}T10:00:00Z")
    full = client.get("/v1/sessions/start", params={"user": user}).json()["profile"]
    assert len(full["preferences"]) == 5  # at most five lines a section
    small = client.get("/v1/sessions/start", params={"user": user, "profile_chars": 100}).json()["profile"]
    assert small["chars"] <= 100
    assert sum(len(line["text"]) for line in small["preferences"]) == small["chars"]
    assert 1 <= len(small["preferences"]) < len(full["preferences"])
    too_big = client.get("/v1/sessions/start", params={"user": user, "profile_chars": 10**9})
    assert too_big.status_code == 422
