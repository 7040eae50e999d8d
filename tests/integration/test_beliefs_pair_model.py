"""News the grammar cannot read as a change, read by the belief check's pair model
(beliefs/pair_head.py) on the real MiniLM vectors: what it ends is superseded, and a person's other
facts stay."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest

from graphmem.config import Settings
from graphmem.connect import Neo4jTarget, open_memory
from graphmem.embedding.base import Embedder
from graphmem.memory import Memory
from graphmem.models import MemoryInput


def _day(n: int) -> datetime:
    return datetime(2025, 6, 1, 9, 0, tzinfo=UTC) + timedelta(days=n)


def test_a_new_doctor_replaces_the_old_one(memory: Memory, scope: str) -> None:
    old = memory.remember("Mum's GP is Dr Okafor.", scope=scope, occurred_at=_day(0)).memory
    new = memory.remember(
        "Mum registered with a new practice; she sees Dr Lim now.", scope=scope, occurred_at=_day(40)
    ).memory
    assert memory.get(old.id).status == "superseded"
    assert memory.get(new.id).status == "active"


def test_a_band_that_split_up_no_longer_plays_every_friday(memory: Memory, scope: str) -> None:
    old = memory.remember(
        "Ravi's band plays at the Crown every Friday.", scope=scope, occurred_at=_day(0)
    ).memory
    memory.remember("Ravi's band split up after the summer tour.", scope=scope, occurred_at=_day(90))
    assert memory.get(old.id).status == "superseded"


def test_news_about_a_person_leaves_their_unrelated_facts(memory: Memory, scope: str) -> None:
    """A job, a layoff: Nadia's birthday, her cat and her sister's home are still true."""
    kept = [
        memory.remember(text, scope=scope, occurred_at=_day(i)).memory
        for i, text in enumerate(
            [
                "Nadia's birthday is 9 October.",
                "Nadia's cat is called Pip.",
                "Nadia's sister lives in Rabat.",
            ]
        )
    ]
    memory.remember("Nadia started a new job at Unilever.", scope=scope, occurred_at=_day(30))
    memory.remember("Nadia was laid off in March.", scope=scope, occurred_at=_day(200))
    assert [memory.get(m.id).status for m in kept] == ["active"] * 3


def test_written_in_one_batch_the_same_news_replaces_the_same_fact(memory: Memory, scope: str) -> None:
    results = memory.remember_batch(
        [
            MemoryInput(text="Mum's GP is Dr Okafor.", scope=scope, occurred_at=_day(0)),
            MemoryInput(
                text="Mum registered with a new practice; she sees Dr Lim now.",
                scope=scope,
                occurred_at=_day(40),
            ),
        ]
    )
    assert memory.get(results[0].memory.id).status == "superseded"
    assert memory.get(results[1].memory.id).status == "active"


def test_a_doctor_who_changes_the_medication_ends_the_old_one(memory: Memory, scope: str) -> None:
    """The sentence's subject is the psychiatrist, but the news is Priya's: the judge reads two
    subjects, and the pair model reads the change (someone who is not a relative or friend)."""
    old = memory.remember("Priya takes sertraline for anxiety.", scope=scope, occurred_at=_day(0)).memory
    memory.remember(
        "Priya's psychiatrist took her off sertraline and started her on bupropion.",
        scope=scope,
        occurred_at=_day(60),
    )
    assert memory.get(old.id).status == "superseded"


def test_a_relatives_news_leaves_the_users_own_fact(memory: Memory, scope: str) -> None:
    """A sister leaving the user's employer is her news, whatever the pair model reads."""
    kept = memory.remember("I work at Deloitte.", scope=scope, occurred_at=_day(0)).memory
    memory.remember("My sister quit Deloitte and joined KPMG.", scope=scope, occurred_at=_day(30))
    assert memory.get(kept.id).status == "active"


@pytest.fixture(scope="module")
def tuned_memory(neo4j_target: Neo4jTarget, embedder: Embedder) -> Iterator[Memory]:
    """A Memory whose belief check reads pairs with the tuned reader (GRAPHMEM_BELIEF_TUNED_READER)."""
    connection = open_memory(Settings(belief_tuned_reader=True), neo4j_target, embedder=embedder)
    yield connection.memory
    connection.close()


def test_a_new_team_lead_read_by_the_tuned_reader_replaces_the_old_one(
    tuned_memory: Memory, scope: str
) -> None:
    """The judge reads no common slot in "moved to the payments team; Dana is her lead now" and
    leaves the pair to the learned readers (the tuned one reads p(update) 0.99)."""
    old = tuned_memory.remember("Priya's team lead is Marco.", scope=scope, occurred_at=_day(0)).memory
    tuned_memory.remember(
        "Priya moved to the payments team; Dana is her lead now.", scope=scope, occurred_at=_day(45)
    )
    assert tuned_memory.get(old.id).status == "superseded"


def test_a_restated_value_left_to_the_tuned_reader_keeps_the_stored_fact(
    tuned_memory: Memory, scope: str
) -> None:
    """The same password said again in other words is no change (tuned reader p(update) 0.03)."""
    old = tuned_memory.remember(
        "The office wifi password is sunflower42.", scope=scope, occurred_at=_day(0)
    ).memory
    tuned_memory.remember(
        "The password for the office wifi is sunflower42.", scope=scope, occurred_at=_day(20)
    )
    assert tuned_memory.get(old.id).status == "active"
