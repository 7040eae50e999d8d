"""Belief scenarios of the dev half of bench/eval/beliefs.jsonl that the offline judge gets wrong,
through the real Anthropic adapter (Messages API replies in the recorded shape of
tests/fixtures/anthropic/, served by ``httpx2.MockTransport``: no network) on the real Neo4j.

The model is the top path: it is asked about every stored memory alike enough to the new
statement, so it settles updates the parse cannot place ("has been sober since New Year") and keeps
what the parse would wrongly replace (a second client, a different figure)."""

from __future__ import annotations

import copy
import json
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx2
import pytest

from graphmem.config import Settings
from graphmem.connect import Neo4jTarget, open_memory
from graphmem.embedding.base import Embedder
from graphmem.llm import AnthropicLLM, NoLLM

pytestmark = pytest.mark.integration

REPLY = json.loads(
    (
        Path(__file__).resolve().parent.parent / "fixtures" / "anthropic" / "tool_use_belief_plan.json"
    ).read_text()
)


@dataclass
class Claude:
    """Answers each belief_update request with the plan a model gives: ``action`` for every
    stored memory the prompt lists (its id is read from the prompt, as the model would)."""

    action: str
    prompts: list[str] = field(default_factory=list)

    def __call__(self, request: httpx2.Request) -> httpx2.Response:
        sent: dict[str, Any] = json.loads(request.content)
        prompt = sent["messages"][0]["content"]
        prompt = prompt if isinstance(prompt, str) else " ".join(p["text"] for p in prompt)
        self.prompts.append(prompt)
        body = copy.deepcopy(REPLY)
        ids = re.findall(r"id=(\S+) \(", prompt)
        body["content"][0]["input"]["actions"] = [
            {"memory_id": i, "action": self.action, "reason": "as the model judged"} for i in ids
        ]
        return httpx2.Response(200, json=body, headers={"request-id": "req_test"})


SCENARIOS = [
    # (dev scenario id, older statement, newer statement, the model's answer, older one's status)
    (
        "diet-025",
        "Pete drinks alcohol socially.",
        "Pete has been sober since New Year.",
        "update",
        "superseded",
    ),
    (
        "health-025",
        "Chen has a sprained ankle and is on crutches.",
        "Chen's ankle has healed; he's running again.",
        "update",
        "superseded",
    ),
    (
        "schedules-024",
        "The newsletter goes out on Fridays.",
        "The newsletter goes out on Sundays.",
        "update",
        "superseded",
    ),
    ("employer-022", "I freelance for The Guardian.", "I freelance for the BBC.", "keep", "active"),
    ("quantities-008", "Our Q3 budget is £120,000.", "Our Q3 spend so far is £47,000.", "keep", "active"),
]


@pytest.mark.parametrize(("case", "old", "new", "answer", "status"), SCENARIOS, ids=[s[0] for s in SCENARIOS])
def test_the_model_settles_what_the_parse_cannot(
    neo4j_target: Neo4jTarget,
    embedder: Embedder,
    scope: str,
    case: str,
    old: str,
    new: str,
    answer: str,
    status: str,
) -> None:
    fields: dict[str, Any] = {"scope": scope, "categories": ["fact"], "importance": 0.5}
    with open_memory(Settings(), neo4j_target, embedder=embedder, llm=NoLLM()) as offline:
        offline.prepare()
        first = offline.remember(old, occurred_at=datetime(2024, 1, 5, tzinfo=UTC), **fields).memory
    claude = Claude(answer)
    llm = AnthropicLLM(
        "sk-ant-test-0000",
        "claude-haiku-4-5-20251001",
        timeout=5,
        max_retries=0,
        http_client=httpx2.Client(transport=httpx2.MockTransport(claude)),
    )
    with open_memory(Settings(), neo4j_target, embedder=embedder, llm=llm) as memory:
        result = memory.remember(new, occurred_at=datetime(2024, 6, 5, tzinfo=UTC), **fields)
        assert memory.get(first.id).status == status
    assert result.llm_calls == 1 and len(claude.prompts) == 1
    assert f"id={first.id}" in claude.prompts[0] and old in claude.prompts[0]
