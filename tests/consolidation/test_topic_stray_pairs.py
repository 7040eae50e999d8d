"""C1 leaves out a stray that has a partner: a member held to the topic by one strong tie alone."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from datetime import datetime

import neo4j

from graphmem.consolidate.settings import ConsolidationSettings
from graphmem.consolidate.topics import TopicWeights
from graphmem.memory import Memory
from tests.consolidation.conftest import cypher

EXAM = "Theory exam passed, 46 out of 50; decompression limits were the tricky part."
# two threads of the dev half of bench/eval/topics4.json, as dated there
THREADS = {
    "diving": [
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
    ],
    "citizenship": [
        (
            "2026-08-17T17:31:00Z",
            "Started my application for British citizenship now that I've had settled status for a year.",
        ),
        ("2026-08-28T21:41:00Z", "Booked the Life in the UK test; revising kings, queens and Magna Carta."),
        ("2026-09-23T03:06:00Z", "Passed the Life in the UK test, 22 out of 24."),
        (
            "2026-10-18T05:42:00Z",
            "Two referees signed the form: my manager and a neighbour who's a teacher.",
        ),
        ("2026-11-03T09:08:00Z", "Biometrics appointment done at the service point in Croydon."),
        (
            "2026-11-10T13:51:00Z",
            "The approval letter arrived; the ceremony is at the town hall on the 12th.",
        ),
    ],
}
SOURCES = (
    "MATCH (s:SemanticMemory {status: 'active', scope: $scope})-[:DERIVED_FROM]->(e:Memory) "
    "RETURN s.id AS s, e.id AS e ORDER BY s, e"
)


def _topics(memory: Memory, driver: neo4j.Driver, scope: str) -> list[Counter[str]]:
    """Write the threads in date order, run the nightly job; each semantic memory's sources by
    thread (the theory exam apart, as 'exam')."""
    rows = sorted((at, text, thread) for thread, episodes in THREADS.items() for at, text in episodes)
    label: dict[str, str] = {}
    for at, text, thread in rows:
        made = memory.remember(text, scope=scope, occurred_at=datetime.fromisoformat(at))
        label[made.memory.id] = "exam" if text == EXAM else thread
    run = memory.consolidate(["nightly"]).runs[0]
    assert run.status == "succeeded", run.error
    by_memory: dict[str, Counter[str]] = {}
    for row in cypher(driver, SOURCES, scope=scope):
        by_memory.setdefault(str(row["s"]), Counter())[label[str(row["e"])]] += 1
    return list(by_memory.values())


def test_a_diving_theory_exam_stays_out_of_the_citizenship_tests_topic(  # type: ignore[no-untyped-def]
    build, sleep_driver: neo4j.Driver
) -> None:
    """The diving theory exam ('passed, 46 out of 50') is tied to the citizenship test's pass ('22
    out of 24') as strongly as the test's booking and pass are to each other, and weakly to the
    rest: counted with that one tie it looks a member, and the stray rule took a citizenship
    episode instead, leaving a memory a third of which is the exam; its strongest tie left out,
    the exam goes and the citizenship memory is the thread's alone. A second run changes nothing."""
    without = build(ConsolidationSettings(topics=replace(TopicWeights(), stray_leave_out=0)))
    loose = _topics(without, sleep_driver, "/user/stray-pairs-kept")
    assert any(c["citizenship"] and c["exam"] for c in loose), loose  # what the rule is for

    memory = build(None)
    found = _topics(memory, sleep_driver, "/user/stray-pairs")
    citizenship = [c for c in found if c["citizenship"]]
    assert len(citizenship) == 1 and citizenship[0]["citizenship"] >= 3, found
    assert set(citizenship[0]) == {"citizenship"}, f"the citizenship memory holds {citizenship[0]}"

    before = cypher(sleep_driver, SOURCES, scope="/user/stray-pairs")
    again = memory.consolidate(["nightly"]).runs[0]
    assert {k: v for k, v in again.counts.items() if v and not k.startswith("seen_")} == {}
    assert cypher(sleep_driver, SOURCES, scope="/user/stray-pairs") == before
