"""C1 reads a topic's members once: the fields read with the topic signals are those the members
read gives (the derived memory each feeds included)."""

from __future__ import annotations

from dataclasses import asdict
from datetime import datetime

import neo4j

from graphmem.store.consolidation import ConsolidationStore
from tests.consolidation.conftest import cypher
from tests.consolidation.threads import DIVING


def test_members_read_with_the_topic_signals_are_the_members_read_alone(
    sleeper, sleep_driver: neo4j.Driver
) -> None:  # type: ignore[no-untyped-def]
    scope = "/user/member-reads"
    for at, text in DIVING:
        sleeper.remember(text, scope=scope, occurred_at=datetime.fromisoformat(at))
    made = sleeper.remember("Priya moved to Leeds and started at the hospital.", scope=scope)
    cypher(sleep_driver, "MATCH (m:Memory {id: $id}) SET m.pinned = true", id=made.memory.id)
    assert sleeper.consolidate(["nightly"]).runs[0].status == "succeeded"
    ids = [
        str(r["id"])
        for r in cypher(
            sleep_driver, "MATCH (m:EpisodicMemory {scope: $scope}) RETURN m.id AS id", scope=scope
        )
    ]
    store = ConsolidationStore(sleeper._executor)
    signals = store.topic_signals(ids, "active", history=True, owner_keys=["user"])
    alone = store.members(ids, "semantic")
    read_once = store.members(
        ids, "semantic", vectors={i: alone[i].embedding for i in ids}, details=signals.details
    )

    def fields(rows):  # type: ignore[no-untyped-def]
        return {i: {k: v for k, v in asdict(row).items() if k != "embedding"} for i, row in rows.items()}

    assert fields(read_once) == fields(alone)
    assert len(alone) == len(ids)
    assert any(row.derived_by for row in alone.values())  # a semantic memory was made and is seen
    assert any(row.entities for row in alone.values())
