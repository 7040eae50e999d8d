"""C1 leaves out a topic's minor part: a piece of another thread, tied to the topic's main part far
less than that part is tied within and tied outside the topic too."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from datetime import datetime

import neo4j

from graphmem.consolidate.settings import ConsolidationSettings
from graphmem.consolidate.topics import TopicWeights
from graphmem.memory import Memory
from tests.consolidation.conftest import cypher

# two threads of the dev halves of bench/eval/topics3.json and topics.json, dated as
# bench.topic_mixed shifts them (both sets from one day)
THREADS = {
    "dashboard": [
        (
            "2025-01-04T19:44:00Z",
            "Priya and I are building a new sales dashboard in Looker to replace the weekly Excel pack.",
        ),
        (
            "2025-01-06T23:09:00Z",
            "The finance team's revenue numbers don't match the CRM export; Priya traced it to refunds "
            "being counted twice.",
        ),
        (
            "2025-01-11T05:33:00Z",
            "Wrote the dbt models for pipeline stages and added tests so nulls in close dates fail "
            "the build.",
        ),
        (
            "2025-02-09T22:02:00Z",
            "Demoed the dashboard to the sales directors; they want a regional filter and a forecast vs "
            "target chart.",
        ),
        ("2025-02-24T19:50:00Z", "Dashboard went live to 60 users; the Excel pack is officially retired."),
    ],
    "pottery": [
        (
            "2025-02-25T18:24:00Z",
            "User enrolled in a ten-week wheel-throwing course at Clayworks on Tuesday evenings.",
        ),
        ("2025-03-11T10:35:00Z", "Centering the clay is the hardest part; most pots still collapse."),
        (
            "2025-04-01T15:46:00Z",
            "Managed a small bowl that survived trimming; the teacher, Marguerite, said the walls were even.",
        ),
        ("2025-04-22T20:57:00Z", "Glazed the bowls in a celadon glaze; firing takes a week."),
        (
            "2025-05-09T12:08:00Z",
            "The course ended; user signed up for open studio membership at 45 pounds a month.",
        ),
    ],
}
SOURCES = (
    "MATCH (s:SemanticMemory {status: 'active', scope: $scope})-[:DERIVED_FROM]->(e:Memory) "
    "RETURN s.id AS s, e.id AS e ORDER BY s, e"
)


def _topics(memory: Memory, driver: neo4j.Driver, scope: str) -> list[Counter[str]]:
    """Write the threads in date order, run the nightly job; each semantic memory's sources by thread."""
    rows = sorted((at, text, thread) for thread, episodes in THREADS.items() for at, text in episodes)
    label: dict[str, str] = {}
    for at, text, thread in rows:
        made = memory.remember(text, scope=scope, occurred_at=datetime.fromisoformat(at))
        label[made.memory.id] = thread
    run = memory.consolidate(["nightly"]).runs[0]
    assert run.status == "succeeded", run.error
    by_memory: dict[str, Counter[str]] = {}
    for row in cypher(driver, SOURCES, scope=scope):
        by_memory.setdefault(str(row["s"]), Counter())[label[str(row["e"])]] += 1
    return list(by_memory.values())


def test_two_pottery_episodes_stay_out_of_the_dashboards_topic(  # type: ignore[no-untyped-def]
    build, sleep_driver: neo4j.Driver
) -> None:
    """Two pottery episodes (a course, a membership priced by the month) are tied to a work
    dashboard's episodes by a word or two and far more weakly than those are to each other, and
    to the other pottery episodes outside: without the rule the dashboard's semantic memory holds
    them (4 + 2: a third from another thread, so it stands for neither); with it the dashboard's
    memory is made of the dashboard's episodes alone, and a second run changes nothing."""
    without = build(ConsolidationSettings(topics=replace(TopicWeights(), minor_part=0.0)))
    loose = _topics(without, sleep_driver, "/user/minor-parts-kept")
    assert any(c["dashboard"] >= 3 and c["pottery"] >= 2 for c in loose), loose  # what the rule is for

    memory = build(None)
    found = _topics(memory, sleep_driver, "/user/minor-parts")
    dashboard = [c for c in found if c["dashboard"]]
    assert len(dashboard) == 1 and dashboard[0]["dashboard"] >= 3, found
    assert set(dashboard[0]) == {"dashboard"}, f"the dashboard's memory holds {dashboard[0]}"

    before = cypher(sleep_driver, SOURCES, scope="/user/minor-parts")
    again = memory.consolidate(["nightly"]).runs[0]
    assert {k: v for k, v in again.counts.items() if v and not k.startswith("seen_")} == {}
    assert cypher(sleep_driver, SOURCES, scope="/user/minor-parts") == before
