"""News of a change that the grammar cannot read, found by how the sentence reads (beliefs/change_cue.py)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from graphmem.memory import Memory


def _day(n: int) -> datetime:
    return datetime(2025, 3, 1, 9, 0, tzinfo=UTC) + timedelta(days=n)


def test_a_sentence_that_reads_as_a_change_replaces_what_it_is_most_like(memory: Memory, scope: str) -> None:
    """No change verb ties "Chat is on Discord" to "on Slack", but the sentence reads as news."""
    chat = memory.remember("Our team chat is on Slack.", scope=scope, occurred_at=_day(0)).memory
    allergy = memory.remember("Ana is allergic to cats.", scope=scope, occurred_at=_day(1)).memory
    written = memory.remember(
        "Chat is on Discord since the migration, things changed a lot.", scope=scope, occurred_at=_day(2)
    )
    assert memory.get(chat.id).status == "superseded"
    assert f"superseded:{chat.id}" in written.actions
    assert memory.get(allergy.id).status == "active"


def test_news_about_someone_of_the_subjects_replaces_nothing(memory: Memory, scope: str) -> None:
    """ "Lena's husband switched to cycling" reads as a change, but of the husband's, not Lena's."""
    lena = memory.remember("Lena drives to work.", scope=scope, occurred_at=_day(0)).memory
    memory.remember("Lena's husband switched to cycling to work.", scope=scope, occurred_at=_day(1))
    assert memory.get(lena.id).status == "active"


def test_a_restatement_that_names_the_same_value_replaces_nothing(memory: Memory, scope: str) -> None:
    crm = memory.remember("Customer records are kept in Salesforce.", scope=scope, occurred_at=_day(0)).memory
    memory.remember("Things are the same as before: the CRM is Salesforce.", scope=scope, occurred_at=_day(1))
    assert memory.get(crm.id).status == "active"
