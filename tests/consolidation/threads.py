"""Topic threads the C1 tests write as a user's agent stores them, and how one nightly run groups them."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from datetime import datetime

import neo4j

from graphmem.memory import Memory
from tests.consolidation.conftest import cypher

EXAM = "Theory exam passed, 46 out of 50; decompression limits were the tricky part."
# a diving course thread of the dev half of bench/eval/topics4.json, as dated there
DIVING = [
    (
        "2026-06-26T09:08:00Z",
        "Signed up for an open water diving course at the leisure centre: five pool sessions, "
        "then sea dives.",
    ),
    (
        "2026-06-28T07:47:00Z",
        "First pool session: learned to clear my mask and breathe from the tank without panicking.",
    ),
    (
        "2026-07-02T10:26:00Z",
        "Bought my own fins and a mask that fits; the rental one kept leaking round my nose.",
    ),
    ("2026-07-27T10:51:00Z", EXAM),
    (
        "2026-08-07T15:41:00Z",
        "Two open water dives at Stoney Cove, visibility about four metres, swam past a sunken bus.",
    ),
    (
        "2026-08-14T16:46:00Z",
        "My PADI certification card came in the post; planning a dive trip to Malta next spring.",
    ),
]
# each active semantic memory of a scope and its sources
SOURCES = (
    "MATCH (s:SemanticMemory {status: 'active', scope: $scope})-[:DERIVED_FROM]->(e:Memory) "
    "RETURN s.id AS s, e.id AS e ORDER BY s, e"
)


def topics_of(
    memory: Memory,
    driver: neo4j.Driver,
    scope: str,
    threads: Mapping[str, Sequence[tuple[str, str]]],
    apart: Mapping[str, str],
) -> list[Counter[str]]:
    """Write the threads' episodes in date order and run the nightly job; each semantic memory's
    sources counted by thread (an episode whose text ``apart`` names, by the label it gives)."""
    rows = sorted((at, text, thread) for thread, episodes in threads.items() for at, text in episodes)
    label: dict[str, str] = {}
    for at, text, thread in rows:
        made = memory.remember(text, scope=scope, occurred_at=datetime.fromisoformat(at))
        label[made.memory.id] = apart.get(text, thread)
    run = memory.consolidate(["nightly"]).runs[0]
    assert run.status == "succeeded", run.error
    by_memory: dict[str, Counter[str]] = {}
    for row in cypher(driver, SOURCES, scope=scope):
        by_memory.setdefault(str(row["s"]), Counter())[label[str(row["e"])]] += 1
    return list(by_memory.values())
