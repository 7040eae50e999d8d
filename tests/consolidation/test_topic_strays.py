"""C1 leaves out a topic's stray: a member tied to the rest far more weakly than they are to each other."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from datetime import datetime

import neo4j

from graphmem.consolidate.settings import ConsolidationSettings
from graphmem.consolidate.topics import TopicWeights
from graphmem.memory import Memory
from tests.consolidation.conftest import cypher

SWIM = "Back to front crawl for the first time since spring, only 400 metres."
# three threads of the dev half of bench/eval/topics4.json, as dated there
THREADS = {
    "sportive": [
        (
            "2026-05-12T18:48:00Z",
            "Ravi talked me into riding the Dragon Ride sportive with him in June, 150 km.",
        ),
        ("2026-05-28T22:44:00Z", "Longest ride so far is 80 km; my legs were gone on the last hill."),
        (
            "2026-06-23T02:38:00Z",
            "Had a proper bike fit; they raised the saddle two centimetres and my knee pain went.",
        ),
        ("2026-06-29T22:53:00Z", "Ravi and I did a hilly 120 km loop in the Chilterns, averaging 24 km/h."),
        (
            "2026-07-06T20:22:00Z",
            "Finished the sportive in 6 hours 40; Ravi waited for me at the top of the Bwlch.",
        ),
    ],
    "shoulder": [
        (
            "2026-08-12T10:24:00Z",
            "My right shoulder hurts when I lift my arm above my head; the GP thinks it's impingement.",
        ),
        (
            "2026-08-16T05:52:00Z",
            "First physio appointment: she gave me resistance band exercises, three sets twice a day.",
        ),
        (
            "2026-08-18T08:14:00Z",
            "Ultrasound shows inflammation in the bursa but the rotator cuff isn't torn.",
        ),
        ("2026-08-25T11:54:00Z", "Had a steroid injection; sore for two days, then much better."),
        ("2026-09-01T11:40:00Z", SWIM),
        ("2026-09-02T07:05:00Z", "The physio discharged me; keep the band exercises going twice a week."),
    ],
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
        (
            "2026-07-27T10:51:00Z",
            "Theory exam passed, 46 out of 50; decompression limits were the tricky part.",
        ),
        (
            "2026-08-07T15:41:00Z",
            "Two open water dives at Stoney Cove, visibility about four metres, swam past a sunken bus.",
        ),
        (
            "2026-08-14T16:46:00Z",
            "My PADI certification card came in the post; planning a dive trip to Malta next spring.",
        ),
    ],
}


def _topics(memory: Memory, driver: neo4j.Driver, scope: str) -> tuple[dict[str, str], list[Counter[str]]]:
    """Write the threads in date order, run the nightly job; each memory's id -> its text, and
    each semantic memory's sources by thread (the swim apart, as 'swim')."""
    rows = sorted((at, text, thread) for thread, episodes in THREADS.items() for at, text in episodes)
    label: dict[str, str] = {}
    for at, text, thread in rows:
        made = memory.remember(text, scope=scope, occurred_at=datetime.fromisoformat(at))
        label[made.memory.id] = "swim" if text == SWIM else thread
    run = memory.consolidate(["nightly"]).runs[0]
    assert run.status == "succeeded", run.error
    found = cypher(
        driver,
        "MATCH (s:SemanticMemory {status: 'active', scope: $scope})-[:DERIVED_FROM]->(e:Memory) "
        "RETURN s.id AS s, collect(e.id) AS sources ORDER BY s",
        scope=scope,
    )
    return label, [Counter(label[str(e)] for e in r["sources"]) for r in found]  # type: ignore[attr-defined]


def test_a_swim_after_a_shoulder_injury_stays_out_of_the_cycling_topic(  # type: ignore[no-untyped-def]
    build, sleep_driver: neo4j.Driver
) -> None:
    """The swim back after a shoulder injury is tied to the rides of a cycling sportive (sport,
    distances, time of year) but far more weakly than the rides are to each other: without the
    stray rule it ends in the sportive's semantic memory (four rides and a swim: 80 % from the
    thread); with it the sportive's memory is made of rides alone, and a second run changes nothing."""
    without = build(ConsolidationSettings(topics=replace(TopicWeights(), stray=0.0)))
    _, loose = _topics(without, sleep_driver, "/user/strays-kept")
    assert any(c["sportive"] >= 3 and c["swim"] for c in loose), loose  # the stray the rule is for

    memory = build(None)
    _, found = _topics(memory, sleep_driver, "/user/strays")
    sportive = [c for c in found if c["sportive"]]
    assert len(sportive) == 1 and sportive[0]["sportive"] >= 3, found
    assert set(sportive[0]) == {"sportive"}, f"the sportive's memory holds {sportive[0]}"
    assert not any(c["swim"] and c["sportive"] for c in found)

    before = cypher(
        sleep_driver,
        "MATCH (s:SemanticMemory {status: 'active', scope: $scope})-[:DERIVED_FROM]->(e:Memory) "
        "RETURN s.id AS s, e.id AS e ORDER BY s, e",
        scope="/user/strays",
    )
    again = memory.consolidate(["nightly"]).runs[0]
    assert {k: v for k, v in again.counts.items() if v and not k.startswith("seen_")} == {}
    after = cypher(
        sleep_driver,
        "MATCH (s:SemanticMemory {status: 'active', scope: $scope})-[:DERIVED_FROM]->(e:Memory) "
        "RETURN s.id AS s, e.id AS e ORDER BY s, e",
        scope="/user/strays",
    )
    assert after == before
