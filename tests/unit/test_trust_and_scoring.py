"""R2 composite factor, R3 intents and the R5 trust pass, without a database."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from graphmem.models import Recalled
from graphmem.recall.scoring import ScoreWeights, composite_factor, intent_boost
from graphmem.recall.trust import in_conflict, trust_pass, trust_tags
from graphmem.store.search import Facts

NOW = datetime(2025, 1, 1, tzinfo=UTC)


def facts(**changes: object) -> Facts:
    base = dict(
        importance=0.5,
        strength=1.0,
        layer="episodic",
        categories=("fact",),
        occurred=NOW.timestamp(),
        accessed=NOW.timestamp(),
        spaced=0,
        priority=0.0,
        pinned=False,
    )
    base.update(changes)
    return Facts(**base)  # type: ignore[arg-type]


def recalled(memory_id: str, text: str, *, confidence: float = 1.0, occurred: datetime = NOW) -> Recalled:
    return Recalled(
        id=memory_id,
        text=text,
        layer="episodic",
        scope="/s",
        categories=[],
        importance=0.5,
        confidence=confidence,
        strength=1.0,
        status="active",
        created_at=occurred,
        occurred_at=occurred,
        last_accessed_at=occurred,
        score=1.0,
    )


def test_composite_prefers_important_strong_recent_memories() -> None:
    w = ScoreWeights()
    assert composite_factor(facts(importance=0.9), NOW, w) > composite_factor(facts(importance=0.1), NOW, w)
    faded = facts(accessed=(NOW - timedelta(days=200)).timestamp())
    assert composite_factor(faded, NOW, w) < composite_factor(facts(), NOW, w)
    assert composite_factor(facts(pinned=True, accessed=0.0), NOW, w) >= composite_factor(faded, NOW, w)
    assert composite_factor(facts(priority=0.1), NOW, w) > composite_factor(facts(priority=-0.05), NOW, w)


def test_intent_profiles() -> None:
    assert intent_boost("decision", ("decision",), "episodic") > 1.0
    assert intent_boost("tasks", ("routine",), "episodic") > intent_boost("tasks", ("hobby",), "episodic")
    assert intent_boost(None, ("decision",), "schema") == 1.0


def test_trust_pass_tags_conflicts_only_along_contradicts_edges_and_never_reorders() -> None:
    old = recalled("a", "Alice works at Google.", confidence=0.6, occurred=NOW - timedelta(days=400))
    new = recalled("b", "Alice now works at Microsoft.", confidence=0.9)
    shaky = recalled("c", "The moon is made of cheese.", confidence=0.2)
    tagged = trust_pass([old, new, shaky], [("b", "a")], NOW, timedelta(days=180))
    assert [r.id for r in tagged] == ["a", "b", "c"]
    assert set(tagged[0].tags) == {"stale", "conflict"} and tagged[1].tags == ["conflict"]
    assert tagged[2].tags == ["uncertain"]


def test_unrelated_facts_about_one_person_are_not_tagged_conflict() -> None:
    diet = recalled("a", "Ingrid is vegetarian.")
    job = recalled("b", "Ingrid works as a nurse.")
    tagged = trust_pass([diet, job], [], NOW, timedelta(days=180))
    assert [r.tags for r in tagged] == [[], []]


def test_sub_queries_split_complex_questions_only() -> None:
    from graphmem.recall.subqueries import sub_queries

    assert sub_queries("Where does Alice live and which team does Bob manage?") == [
        "Where does Alice live",
        "which team does Bob manage",
    ]
    assert sub_queries("Where does Alice live?") == []


def test_trust_tags_of_one_result_are_those_the_trust_pass_gives() -> None:
    """Recall tags each result as it builds it (trust_tags): what trust_pass gives the same list."""
    shaky = recalled("c", "maybe", confidence=0.2, occurred=NOW - timedelta(days=400))
    old, new = recalled("a", "lives in Bergen"), recalled("b", "moved to Tromsø")
    tagged = trust_pass([old, new, shaky], [("b", "a")], NOW, timedelta(days=180))
    conflicted = in_conflict({"a", "b", "c"}, [("b", "a")])
    assert conflicted == {"a", "b"}
    for r, t in zip([old, new, shaky], tagged, strict=True):
        assert trust_tags(r, r.id in conflicted, NOW, timedelta(days=180)) == t.tags
