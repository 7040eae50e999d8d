"""X6 on the real stack: under a tight budget recall skips its deeper search and a turn's review
skips the language model, each saying so in ``cost``; every turn reports what it cost."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

from graphmem.api.app import create_app
from graphmem.llm.scripted import ScriptedLLM
from graphmem.memory import Memory
from graphmem.recall.budget import estimate_tokens

pytestmark = pytest.mark.integration

QUESTION = "Who maintains the quantum ledger, and who audits the harbour cranes?"


def test_a_tight_recall_budget_skips_the_deeper_search(client: TestClient, scope: str) -> None:
    texts = ["Zyphora maintains the quantum ledger.", "Quillon audits the harbour cranes every spring."]
    client.post("/v1/memories/batch", json={"items": [{"text": t, "scope": scope} for t in texts]})
    ask = {"query": QUESTION, "scope": scope, "reinforce": False, "limit": 10}

    free = client.post("/v1/recall", json=ask).json()
    assert free["cost"]["skipped"] == []

    tight = client.post("/v1/recall", json={**ask, "max_tokens": 40}).json()
    assert tight["cost"]["skipped"] == ["sub_queries"]
    assert tight["cost"]["tokens"] <= 40
    assert not any("matched a sub-query" in r["match_reasons"] for r in tight["results"])

    # a budget that holds `limit` memories of a sentence or two is not tight
    roomy = client.post("/v1/recall", json={**ask, "max_tokens": 10 * 30}).json()
    assert roomy["cost"]["skipped"] == []


def test_every_turn_reports_its_cost(client: TestClient, scope: str) -> None:
    text = "I keep my climbing shoes in the blue locker at the gym."
    r = client.post(
        f"/v1/conversations/c-{uuid.uuid4().hex[:10]}/turns",
        json={"role": "user", "text": text, "scope": scope},
    )
    assert r.status_code == 201, r.text
    cost = r.json()["cost"]
    assert cost["tokens"] == estimate_tokens(text)
    assert cost["llm_calls"] == 0 and cost["usd"] == 0.0 and cost["ms"] > 0
    assert cost["skipped"] == [] and r.json()["review_offline"] is False


def test_a_turn_budget_below_a_review_runs_the_review_without_the_model(
    other_memory: Callable[..., Memory], scope: str
) -> None:
    model = ScriptedLLM({})  # no scripted answers: any call it receives fails, and is counted
    session = f"s-{uuid.uuid4().hex[:10]}"
    with TestClient(
        create_app(other_memory(llm=model), nudge_every_user_turns=2, flush_idle_minutes=None)
    ) as api:

        def say(text: str, **extra: Any) -> dict[str, Any]:
            r = api.post(f"/v1/conversations/{session}/turns", json={"role": "user", "text": text, **extra})
            assert r.status_code == 201, r.text
            body: dict[str, Any] = r.json()
            return body

        say("My sister Mireille lives in Toronto.", scope=scope, max_llm_calls=0)
        turn = say("I'm allergic to penicillin.", max_llm_calls=0)
        assert turn["review_scheduled"] is True and turn["review_offline"] is True
        assert turn["cost"]["skipped"] == ["llm_review"]
        assert model.calls == []  # the review ran (after the reply) without the model
        state = api.get(f"/v1/conversations/{session}").json()
        assert state["turns_since_review"] == 0
        found = api.post("/v1/recall", json={"query": "Where does the sister live?", "scope": scope}).json()
        assert any("Toronto" in r["text"] for r in found["results"])

        say("I work as a nurse in Leeds.", max_llm_calls=5)
        turn = say("I run every morning.", max_llm_calls=5)
        assert turn["review_offline"] is False and turn["cost"]["skipped"] == []
        assert model.calls != []  # within the budget the review asks the model


def test_a_negative_turn_budget_is_a_422(client: TestClient) -> None:
    r = client.post("/v1/conversations/c-neg/turns", json={"role": "user", "text": "hi", "max_llm_calls": -1})
    assert r.status_code == 422 and "max_llm_calls" in r.json()["error"]["message"]
