"""The write path with a language model (a scripted one: no network), on the real Neo4j."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from graphmem.config import Settings
from graphmem.connect import MemoryConnection, Neo4jTarget, open_memory
from graphmem.embedding.base import Embedder
from graphmem.errors import LLMError
from graphmem.llm.scripted import ScriptedLLM
from graphmem.models import MemoryInput

pytestmark = pytest.mark.integration


def connect(target: Neo4jTarget, embedder: Embedder, llm: ScriptedLLM) -> MemoryConnection:
    connection = open_memory(Settings(), target, embedder=embedder, llm=llm)
    connection.memory.prepare()
    return connection


def test_fields_given_and_nothing_similar_costs_zero_calls(
    neo4j_target: Neo4jTarget, embedder: Embedder, scope: str
) -> None:
    llm = ScriptedLLM({})  # any call would fail: it has no replies
    with connect(neo4j_target, embedder, llm) as memory:
        result = memory.remember_batch(
            [
                MemoryInput(
                    text="Quinn collects vintage typewriters.",
                    scope=scope,
                    categories=["hobby"],
                    importance=0.4,
                )
            ]
        )[0]
    assert result.actions == ["created"] and result.llm_calls == 0
    assert llm.calls == []


def test_llm_infers_missing_fields_in_one_call(
    neo4j_target: Neo4jTarget, embedder: Embedder, scope: str
) -> None:
    llm = ScriptedLLM(
        {
            "infer_fields": [
                {
                    "items": [
                        {"categories": ["health"], "importance": 0.9},
                        {"categories": ["hobby"], "importance": 0.3},
                    ]
                }
            ]
        }
    )
    with connect(neo4j_target, embedder, llm) as memory:
        results = memory.remember_batch(
            [
                MemoryInput(text="Rosa takes insulin twice a day.", scope=scope),
                MemoryInput(text="Rosa knits scarves.", scope=scope),
            ]
        )
    assert [r.memory.categories for r in results] == [["health"], ["hobby"]]
    assert results[0].memory.importance == 0.9
    assert sum(r.llm_calls for r in results) == 1 and len(llm.calls) == 1


def test_llm_plan_supersedes_and_counts_the_call(
    neo4j_target: Neo4jTarget, embedder: Embedder, scope: str
) -> None:
    first = ScriptedLLM({})
    with connect(neo4j_target, embedder, first) as memory:
        old = memory.remember(
            "Sam's team deploys on Tuesdays.",
            scope=scope,
            categories=["work"],
            importance=0.5,
            occurred_at=datetime(2024, 1, 1, tzinfo=UTC),
        ).memory
    llm = ScriptedLLM(
        {
            "belief_update": [
                {
                    "actions": [{"memory_id": old.id, "action": "update", "reason": "new day"}],
                    "insert_new": True,
                }
            ]
        }
    )
    with connect(neo4j_target, embedder, llm) as memory:
        new = memory.remember(
            "Sam's team deploys on Thursdays now.",
            scope=scope,
            categories=["work"],
            importance=0.5,
            occurred_at=datetime(2024, 5, 1, tzinfo=UTC),
        )
        assert f"superseded:{old.id}" in new.actions and new.llm_calls == 1
        assert memory.get(old.id).status == "superseded"
    assert old.id in llm.calls[0].prompt


def test_failing_llm_falls_back_to_the_offline_judge(
    neo4j_target: Neo4jTarget, embedder: Embedder, scope: str
) -> None:
    with connect(neo4j_target, embedder, ScriptedLLM({})) as memory:
        old = memory.remember(
            "I live in Lyon.",
            scope=scope,
            categories=["fact"],
            importance=0.5,
            occurred_at=datetime(2023, 1, 1, tzinfo=UTC),
        ).memory
    llm = ScriptedLLM({"belief_update": [LLMError("overloaded")]})
    with connect(neo4j_target, embedder, llm) as memory:
        new = memory.remember(
            "I moved to Porto.",
            scope=scope,
            categories=["fact"],
            importance=0.5,
            occurred_at=datetime(2024, 1, 1, tzinfo=UTC),
        )
        assert f"superseded:{old.id}" in new.actions
        assert memory.get(old.id).status == "superseded"
