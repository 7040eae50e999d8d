"""Recall beyond v1 on the real stack: slices, time travel, context, intent, trust tags, episodes."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from graphmem.memory import Memory
from graphmem.models import MemoryInput, RecallQuery

pytestmark = pytest.mark.integration


def when(year: int, month: int = 1) -> datetime:
    return datetime(year, month, 1, tzinfo=UTC)


def test_slice_reads_several_branches_and_nothing_else(memory: Memory, scope: str) -> None:
    for who, city in (("ann", "Oslo"), ("ben", "Rome"), ("cat", "Lima")):
        memory.remember(f"{who.title()}'s favourite city is {city}.", scope=f"{scope}/{who}")
    found = memory.recall_query(RecallQuery(query="favourite city", scopes=[f"{scope}/ann", f"{scope}/ben"]))
    assert sorted(r.scope for r in found.results) == [f"{scope}/ann", f"{scope}/ben"]


def test_as_of_answers_with_what_was_believed_then(memory: Memory, scope: str) -> None:
    paris = memory.remember("I live in Paris.", scope=scope, occurred_at=when(2022)).memory
    berlin = memory.remember("I moved to Berlin.", scope=scope, occurred_at=when(2024)).memory
    now = memory.recall("where do I live", scope=scope)
    assert [r.id for r in now.results] == [berlin.id]
    then = memory.recall_query(RecallQuery(query="where do I live", scope=scope, as_of=when(2023)))
    assert [r.id for r in then.results] == [paris.id]
    before = memory.recall_query(RecallQuery(query="where do I live", scope=scope, as_of=when(2021)))
    assert before.results == []


def test_recent_context_steers_an_ambiguous_query(memory: Memory, scope: str) -> None:
    memory.remember_batch(
        [
            MemoryInput(text="The Python service needs version 3.12 to build.", scope=scope),
            MemoryInput(text="The python in the reptile house eats rabbits on Sundays.", scope=scope),
        ]
    )

    def similarity_of_reptile(context: list[str] | None) -> float:
        found = memory.recall_query(RecallQuery(query="python", scope=scope, recent_context=context))
        hit = next(r for r in found.results if "reptile" in r.text)
        return float(next(m for m in hit.match_reasons if m.startswith("vector")).split()[-1])

    zoo = ["We walked around the zoo and saw the snakes", "reptiles are fed weekly"]
    assert similarity_of_reptile(zoo) > similarity_of_reptile(None)
    top = memory.recall_query(RecallQuery(query="python", scope=scope, limit=1, recent_context=zoo))
    assert "reptile" in top.results[0].text


def test_intent_boosts_decisions(memory: Memory, scope: str) -> None:
    memory.remember_batch(
        [
            MemoryInput(
                text="Postgres tuning notes: raise shared_buffers.", scope=scope, categories=["fact"]
            ),
            MemoryInput(
                text="We decided to keep Postgres for billing.", scope=scope, categories=["decision"]
            ),
        ]
    )
    found = memory.recall_query(RecallQuery(query="Postgres", scope=scope, intent="decision", limit=2))
    assert found.results[0].categories == ["decision"]
    assert any(reason.startswith("fits intent") for reason in found.results[0].match_reasons)


def test_superseded_pair_is_tagged_conflict_and_newer_comes_first(memory: Memory, scope: str) -> None:
    old = memory.remember("Our API is hosted on AWS.", scope=scope, occurred_at=when(2023)).memory
    new = memory.remember("We switched our API hosting to Azure.", scope=scope, occurred_at=when(2024)).memory
    found = memory.recall("where is the API hosted", scope=scope, include_superseded=True)
    assert [r.id for r in found.results][:2] == [new.id, old.id]
    assert all("conflict" in r.tags for r in found.results[:2])


def test_episode_neighbours_come_with_their_match(memory: Memory, scope: str) -> None:
    turns = [
        "Mia: Guess what, I finally adopted a dog!",
        "Leo: No way! What's the name?",
        "Mia: Biscuit. She's a two-year-old beagle.",
        "Leo: I started learning the violin last week.",
    ]
    memory.remember_batch(
        [MemoryInput(text=t, scope=scope, source="chat", occurred_at=when(2024)) for t in turns]
    )
    found = memory.recall("Mia adopted a dog", scope=scope, limit=3)
    texts = [r.text for r in found.results]
    assert turns[0] in texts and turns[2] in texts
    beagle = next(r for r in found.results if r.text == turns[2])
    assert "next to a match in its episode" in beagle.match_reasons or "keyword match" in beagle.match_reasons


def test_a_recalled_memory_is_refined_by_a_qualified_restatement(memory: Memory, scope: str) -> None:
    quiet = memory.remember("I prefer email for work questions.", scope=f"{scope}/quiet").memory
    later = memory.remember("I prefer email for work questions, except for outages.", scope=f"{scope}/quiet")
    assert later.actions == ["created"] and memory.get(quiet.id).status == "active"  # not labile

    old = memory.remember("I prefer async communication.", scope=scope).memory
    memory.recall("how do I like to communicate", scope=scope)
    memory.settle()  # the recall made it labile for six hours
    new = memory.remember("I prefer async communication, except for urgent issues.", scope=scope)
    assert f"refined:{old.id}" in new.actions and not any(a.startswith("contradicts:") for a in new.actions)
    assert memory.get(old.id).status == "superseded"
