"""The belief check in a memory that already holds many facts about one person and their people:
news replaces what it changes, and nothing else (beliefs/resolver.py, judge.py)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from graphmem.memory import Memory


def _day(n: int) -> datetime:
    return datetime(2025, 3, 1, 9, 0, tzinfo=UTC) + timedelta(days=n)


def test_a_partners_move_leaves_the_persons_other_facts(memory: Memory, scope: str) -> None:
    """A move that names Giulia ("joined Giulia there") is news of Marco's home and work, not of
    Giulia's parents or her choir."""
    kept = [
        memory.remember(text, scope=scope, occurred_at=_day(i)).memory
        for i, text in enumerate(
            [
                "Giulia's parents live in Turin.",
                "Giulia sings in a choir on Thursdays.",
                "Giulia is a pharmacist.",
            ]
        )
    ]
    memory.remember(
        "Marco moved to Lyon and joined Giulia there; he drives for a courier firm now.",
        scope=scope,
        occurred_at=_day(10),
    )
    assert [memory.get(m.id).status for m in kept] == ["active"] * 3


def test_a_doctors_switch_replaces_the_patients_medication(memory: Memory, scope: str) -> None:
    old = memory.remember(
        "Tomás takes lisinopril for his blood pressure.", scope=scope, occurred_at=_day(0)
    ).memory
    memory.remember(
        "Tomás's doctor switched him from lisinopril to losartan.", scope=scope, occurred_at=_day(5)
    )
    assert memory.get(old.id).status == "superseded"


def test_a_statement_written_late_is_outdated_by_the_later_news_already_stored(
    memory: Memory, scope: str
) -> None:
    """A backfill: the move (dated later) is stored first, the old home (dated earlier) after it."""
    new = memory.remember("Settled into our new place in Oakland.", scope=scope, occurred_at=_day(60)).memory
    old = memory.remember("I live in Sacramento.", scope=scope, occurred_at=_day(0)).memory
    assert memory.get(old.id).status == "superseded"
    assert memory.get(new.id).status == "active"


def test_our_rent_and_a_sisters_rent_are_two_facts(memory: Memory, scope: str) -> None:
    ours = memory.remember("Our rent is 1,400 a month.", scope=scope, occurred_at=_day(0)).memory
    memory.remember("My sister's rent is 900 a month.", scope=scope, occurred_at=_day(1))
    assert memory.get(ours.id).status == "active"


def test_a_relative_named_in_apposition_is_that_person(memory: Memory, scope: str) -> None:
    old = memory.remember(
        "Ravi's wife Meera teaches at a primary school.", scope=scope, occurred_at=_day(0)
    ).memory
    memory.remember("Meera left the school to train as a nurse.", scope=scope, occurred_at=_day(40))
    assert memory.get(old.id).status == "superseded"


def test_news_of_one_of_two_facts_contradicts_the_statement_in_part(memory: Memory, scope: str) -> None:
    """A statement that holds two facts stays current when later news changes only one of them:
    a CONTRADICTS edge marked in part, no SUPERSEDES, and recall still finds the fact that holds
    (beliefs/in_part.py)."""
    both = memory.remember(
        "Oskar has coeliac disease and uses a glucose monitor.", scope=scope, occurred_at=_day(0)
    ).memory
    news = memory.remember(
        "Oskar's glucose monitor was swapped for a Libre 3.", scope=scope, occurred_at=_day(30)
    )
    assert f"contradicts:{both.id}" in news.actions
    assert f"superseded:{both.id}" not in news.actions
    assert memory.get(both.id).status == "active"
    rows = memory._executor.read("beliefs/scope_contradictions_in_part", scope=scope, allowed=None)
    assert [(r["winner_id"], r["loser_id"]) for r in rows] == [(news.memory.id, both.id)]
    assert not memory._executor.read("beliefs/scope_supersessions", scope=scope, allowed=None)
    found = memory.recall("What illness does Oskar have?", scope=scope, reinforce=False)
    assert both.id in [r.id for r in found.results]
    older = memory.get(both.id)
    assert [(c.id, c.relation) for c in older.in_part] == [(news.memory.id, "contradicted_in_part_by")]
    assert older.history == []
    newer = memory.get(news.memory.id)
    assert [(c.id, c.relation) for c in newer.in_part] == [(both.id, "contradicts_in_part")]


def test_news_of_the_one_fact_a_statement_holds_still_supersedes_it(memory: Memory, scope: str) -> None:
    old = memory.remember("I live in Graz.", scope=scope, occurred_at=_day(0)).memory
    news = memory.remember("I moved to Linz.", scope=scope, occurred_at=_day(30))
    assert f"superseded:{old.id}" in news.actions
    assert memory.get(old.id).status == "superseded"
