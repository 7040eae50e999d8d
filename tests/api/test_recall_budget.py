"""X6: recall within a token budget, and what it cost."""

from __future__ import annotations

from fastapi.testclient import TestClient

from graphmem.recall.budget import estimate_tokens


def test_recall_fits_max_tokens_and_reports_its_cost(client: TestClient, scope: str) -> None:
    texts = [
        "Oskar's bike is a green Gazelle city bike.",
        "Oskar locks his bike at the north rack of the office, near the bike repair stand, every morning.",
        "Oskar bought his bike second-hand in Utrecht.",
    ]
    client.post("/v1/memories/batch", json={"items": [{"text": t, "scope": scope} for t in texts]})
    query = {"query": "Oskar's bike", "scope": scope, "reinforce": False}

    full = client.post("/v1/recall", json=query).json()
    assert len(full["results"]) == 3
    assert full["cost"]["tokens"] == sum(estimate_tokens(r["text"]) for r in full["results"])
    assert full["cost"]["llm_calls"] == 0 and full["cost"]["usd"] == 0.0 and full["cost"]["ms"] > 0

    budget = estimate_tokens(texts[0]) + estimate_tokens(texts[2])
    cut = client.post("/v1/recall", json={**query, "max_tokens": budget}).json()
    assert cut["cost"]["tokens"] <= budget
    assert cut["cost"]["cut"] == 1 and len(cut["results"]) == 2
    ranked = [r["id"] for r in full["results"]]
    kept = [r["id"] for r in cut["results"]]
    assert kept == [i for i in ranked if i in kept]  # the rank order is kept
    assert any("max_tokens" in gap for gap in cut["evidence_gaps"])


def test_a_budget_below_one_token_is_a_clear_422(client: TestClient, scope: str) -> None:
    response = client.post("/v1/recall", json={"query": "anything", "scope": scope, "max_tokens": 0})
    assert response.status_code == 422
    assert "max_tokens" in response.json()["error"]["message"]
