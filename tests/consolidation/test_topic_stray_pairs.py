"""C1 leaves out a stray that has a partner: a member held to the topic by one strong tie alone."""

from __future__ import annotations

from dataclasses import replace

import neo4j

from graphmem.consolidate.settings import ConsolidationSettings
from graphmem.consolidate.topic_weights import TopicWeights
from tests.consolidation.conftest import cypher
from tests.consolidation.threads import DIVING, EXAM, SOURCES, topics_of

# two threads of the dev half of bench/eval/topics4.json, as dated there
THREADS = {
    "diving": DIVING,
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


def test_a_diving_theory_exam_stays_out_of_the_citizenship_tests_topic(  # type: ignore[no-untyped-def]
    build, sleep_driver: neo4j.Driver
) -> None:
    """The diving theory exam ('passed, 46 out of 50') is tied to the citizenship test's pass ('22
    out of 24') as strongly as the test's booking and pass are to each other, and weakly to the
    rest: counted with that one tie it looks a member, and the stray rule took a citizenship
    episode instead, leaving a memory a third of which is the exam; its strongest tie left out,
    the exam goes and the citizenship memory is the thread's alone. A second run changes nothing."""
    without = build(ConsolidationSettings(topics=replace(TopicWeights(), stray_leave_out=0)))
    loose = topics_of(without, sleep_driver, "/user/stray-pairs-kept", THREADS, {EXAM: "exam"})
    assert any(c["citizenship"] and c["exam"] for c in loose), loose  # what the rule is for

    memory = build(None)
    found = topics_of(memory, sleep_driver, "/user/stray-pairs", THREADS, {EXAM: "exam"})
    citizenship = [c for c in found if c["citizenship"]]
    assert len(citizenship) == 1 and citizenship[0]["citizenship"] >= 3, found
    assert set(citizenship[0]) == {"citizenship"}, f"the citizenship memory holds {citizenship[0]}"

    before = cypher(sleep_driver, SOURCES, scope="/user/stray-pairs")
    again = memory.consolidate(["nightly"]).runs[0]
    assert {k: v for k, v in again.counts.items() if v and not k.startswith("seen_")} == {}
    assert cypher(sleep_driver, SOURCES, scope="/user/stray-pairs") == before
