"""The Python facade against the real Neo4j and the real embedder."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from graphmem.config import Settings
from graphmem.connect import Neo4jTarget, open_memory
from graphmem.embedding.base import Embedder
from graphmem.errors import InvalidInputError, NotFoundError, TextTooLongError
from graphmem.memory import Memory
from graphmem.models import ForgetFilter, MemoryInput, MemoryPatch

pytestmark = pytest.mark.integration


def test_remember_then_get_returns_every_field(memory: Memory, scope: str) -> None:
    when = datetime(2024, 3, 15, 9, 30, tzinfo=UTC)
    result = memory.remember(
        "Alice prefers green tea over coffee.",
        scope=scope,
        categories=["Preference"],
        importance=0.8,
        occurred_at=when,
        source="chat",
        metadata={"turn": 3},
    )
    assert result.actions == ["created"]
    got = memory.get(result.memory.id)
    assert got.text == "Alice prefers green tea over coffee."
    assert got.scope == scope
    assert got.categories == ["preference"]
    assert got.importance == 0.8
    assert got.layer == "episodic"
    assert got.status == "active"
    assert got.occurred_at == when
    assert got.metadata == {"turn": 3}
    assert got.source == "chat"
    assert got.history == [] and got.derived_from == []


def test_recall_finds_by_meaning_and_by_keyword(memory: Memory, scope: str) -> None:
    memory.remember_batch(
        [
            MemoryInput(text="Bob moved to Lisbon in 2021 for a job at a fintech startup.", scope=scope),
            MemoryInput(text="The team's standup is every weekday at 9:15.", scope=scope),
            MemoryInput(text="Carol is allergic to peanuts.", scope=scope),
            MemoryInput(text="Project Zephyr ships its beta in October.", scope=scope),
        ]
    )
    by_meaning = memory.recall("Where does Bob live now?", scope=scope, limit=2)
    assert by_meaning.results[0].text.startswith("Bob moved to Lisbon")
    assert any(r.startswith("vector") for r in by_meaning.results[0].match_reasons)
    by_keyword = memory.recall("Zephyr", scope=scope, limit=2)
    assert by_keyword.results[0].text.startswith("Project Zephyr")
    assert "keyword match" in by_keyword.results[0].match_reasons
    assert 0.0 <= by_meaning.confidence <= 1.0


def test_recall_stays_inside_the_scope_subtree(memory: Memory, scope: str) -> None:
    memory.remember("Dana's favourite city is Kyoto.", scope=f"{scope}/dana")
    memory.remember("Dana's favourite city is Oslo.", scope=f"{scope}x/dana")
    found = memory.recall("Dana favourite city", scope=scope)
    assert [r.text for r in found.results] == ["Dana's favourite city is Kyoto."]


def test_batch_drops_near_duplicates_and_store_reinforces(memory: Memory, scope: str) -> None:
    results = memory.remember_batch(
        [
            MemoryInput(text="The deploy key rotates every 90 days.", scope=scope),
            MemoryInput(text="The deploy key rotates every 90 days.", scope=scope),
            MemoryInput(text="Eve runs the on-call rota.", scope=scope),
        ]
    )
    assert [r.actions for r in results] == [["created"], ["duplicate"], ["created"]]
    assert results[1].memory.id == results[0].memory.id
    again = memory.remember("The deploy key rotates every 90 days.", scope=scope)
    assert again.actions == ["reinforced"]
    assert again.memory.id == results[0].memory.id
    assert again.memory.access_count == 1
    # the same text in another scope is a different memory
    other = memory.remember("The deploy key rotates every 90 days.", scope=scope + "/other")
    assert other.actions == ["created"]


def test_update_reembeds_new_text(memory: Memory, scope: str) -> None:
    created = memory.remember("Frank drives a blue bicycle.", scope=scope).memory
    updated = memory.update(
        created.id, MemoryPatch(text="Frank plays the cello in an orchestra.", importance=0.9)
    )
    assert updated.text == "Frank plays the cello in an orchestra." and updated.importance == 0.9
    top = memory.recall("musical instrument", scope=scope, limit=1).results[0]
    assert top.id == created.id


def test_delete_and_unknown_ids(memory: Memory, scope: str) -> None:
    created = memory.remember("Temporary note to delete.", scope=scope).memory
    memory.delete(created.id)
    with pytest.raises(NotFoundError):
        memory.get(created.id)
    with pytest.raises(NotFoundError):
        memory.delete(created.id)
    with pytest.raises(NotFoundError):
        memory.update("no-such-id", MemoryPatch(importance=0.1))


def test_forget_by_scope_categories_age_and_ids(memory: Memory, scope: str) -> None:
    old = datetime.now(UTC) - timedelta(days=400)
    items = [
        MemoryInput(text="Gina likes jazz.", scope=f"{scope}/a", categories=["hobby"]),
        MemoryInput(text="Gina works at a bakery.", scope=f"{scope}/a", categories=["work"]),
        MemoryInput(text="Gina visited Rome long ago.", scope=f"{scope}/b", occurred_at=old),
        MemoryInput(text="Gina's cat is called Miso.", scope=f"{scope}/b"),
    ]
    made = [r.memory.id for r in memory.remember_batch(items)]
    assert memory.forget(ForgetFilter(scope=f"{scope}/a", categories=["hobby"])) == 1
    assert memory.forget(ForgetFilter(scope=scope, older_than=datetime.now(UTC) - timedelta(days=30))) == 1
    assert memory.forget(ForgetFilter(ids=[made[3]])) == 1
    assert memory.forget(ForgetFilter(scope=scope)) == 1
    assert memory.recall("Gina", scope=scope).results == []


def test_bad_input_is_refused_and_nothing_is_written(memory: Memory, scope: str) -> None:
    with pytest.raises(TextTooLongError):
        memory.remember_batch(
            [MemoryInput(text="fine", scope=scope), MemoryInput(text="x" * 40_000, scope=scope)]
        )
    with pytest.raises(InvalidInputError):
        memory.remember("no", scope="not a scope!")
    assert memory.recall("fine", scope=scope).results == []


def test_cypher_looking_text_is_stored_literally(memory: Memory, scope: str) -> None:
    text = "'}) MATCH (n) DETACH DELETE n //"
    created = memory.remember(text, scope=scope).memory
    assert memory.get(created.id).text == text
    assert memory.health().counts["memories"] >= 1


def test_health_counts(memory: Memory, scope: str) -> None:
    before = memory.health().counts["memories"]
    memory.remember("Counting memories in health.", scope=scope)
    report = memory.health()
    assert report.status == "ok"
    assert report.counts["memories"] == before + 1
    assert report.embedding["dimension"] == 384


def test_newer_belief_supersedes_and_history_shows_both_ways(memory: Memory, scope: str) -> None:
    old = memory.remember(
        "We use PostgreSQL for the user database.",
        scope=scope,
        occurred_at=datetime(2024, 1, 1, tzinfo=UTC),
    ).memory
    new = memory.remember(
        "We migrated the user database to MySQL.",
        scope=scope,
        occurred_at=datetime(2024, 3, 1, tzinfo=UTC),
    )
    assert f"superseded:{old.id}" in new.actions and f"contradicts:{old.id}" in new.actions
    stale = memory.get(old.id)
    assert stale.status == "superseded" and stale.strength < old.strength
    assert [(h.id, h.relation) for h in stale.history] == [(new.memory.id, "superseded_by")]
    assert [(h.id, h.relation) for h in memory.get(new.memory.id).history] == [(old.id, "supersedes")]
    current = memory.recall("which database holds user data", scope=scope)
    assert [r.id for r in current.results] == [new.memory.id]
    everything = memory.recall("which database holds user data", scope=scope, include_superseded=True)
    assert {r.id for r in everything.results} == {old.id, new.memory.id}


def test_outdated_statement_arriving_late_is_stored_superseded(memory: Memory, scope: str) -> None:
    newer = memory.remember("I moved to Berlin.", scope=scope, occurred_at=datetime(2024, 2, 1, tzinfo=UTC))
    older = memory.remember("I live in Paris.", scope=scope, occurred_at=datetime(2023, 5, 1, tzinfo=UTC))
    assert older.memory.status == "superseded"
    assert f"superseded_by:{newer.memory.id}" in older.actions
    assert memory.get(newer.memory.id).status == "active"


def test_additive_facts_stay_active(memory: Memory, scope: str) -> None:
    first = memory.remember("I like hiking.", scope=scope)
    second = memory.remember("I also enjoy swimming.", scope=scope)
    assert second.actions == ["created"]
    assert memory.get(first.memory.id).status == "active"
    assert first.llm_calls == 0 and second.llm_calls == 0


def test_a_write_sees_a_memory_another_process_changed_since_its_last_write(
    memory: Memory, neo4j_target: Neo4jTarget, embedder: Embedder, scope: str
) -> None:
    first = memory.remember("The build server is called Hermes.", scope=scope)
    memory.remember("Lunch is served at noon on Fridays.", scope=scope)
    with open_memory(Settings(), neo4j_target, embedder=embedder) as other:
        other.update(first.memory.id, MemoryPatch(text="Our office plants need watering every Monday."))
    # this process's write-path cache holds the old vector of that memory: the graph's revision
    # says it changed, so the near-duplicate of its new text is found (and reinforces it)
    again = memory.remember("Our office plants need watering every Monday!", scope=scope)
    assert again.actions == ["reinforced"]
    assert again.memory.id == first.memory.id
    gone = memory.remember("The build server is called Hermes!", scope=scope)
    assert gone.actions == ["created"]


def test_a_lone_surrogate_is_an_invalid_input_error_not_a_driver_crash(memory: Memory, scope: str) -> None:
    # Half of an emoji (a string cut between UTF-16 code units) cannot be encoded for Neo4j.
    with pytest.raises(InvalidInputError, match="lone surrogate"):
        memory.remember("Party on Friday.", scope=scope, metadata={"note": "\ud83d"})
    with pytest.raises(InvalidInputError, match="lone surrogate"):
        memory.read_query("RETURN $p AS p", {"p": "\ud83d"}, ["/"])
    assert memory.recall("Party on Friday", scope=scope).results == []
