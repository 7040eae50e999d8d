"""C1 leaves out a topic's stray: a member tied to the rest far more weakly than they are to each other."""

from __future__ import annotations

from dataclasses import replace

import neo4j

from graphmem.consolidate.settings import ConsolidationSettings
from graphmem.consolidate.topic_weights import TopicWeights
from tests.consolidation.conftest import cypher
from tests.consolidation.threads import DIVING, SOURCES, topics_of

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
    "diving": DIVING,
}


def test_a_swim_after_a_shoulder_injury_stays_out_of_the_cycling_topic(  # type: ignore[no-untyped-def]
    build, sleep_driver: neo4j.Driver
) -> None:
    """The swim back after a shoulder injury is tied to the rides of a cycling sportive (sport,
    distances, time of year) but far more weakly than the rides are to each other: without the
    stray rule it ends in the sportive's semantic memory (four rides and a swim: 80 % from the
    thread); with it the sportive's memory is made of rides alone, and a second run changes nothing."""
    without = build(ConsolidationSettings(topics=replace(TopicWeights(), stray=0.0)))
    loose = topics_of(without, sleep_driver, "/user/strays-kept", THREADS, {SWIM: "swim"})
    assert any(c["sportive"] >= 3 and c["swim"] for c in loose), loose  # the stray the rule is for

    memory = build(None)
    found = topics_of(memory, sleep_driver, "/user/strays", THREADS, {SWIM: "swim"})
    sportive = [c for c in found if c["sportive"]]
    assert len(sportive) == 1 and sportive[0]["sportive"] >= 3, found
    assert set(sportive[0]) == {"sportive"}, f"the sportive's memory holds {sportive[0]}"
    assert not any(c["swim"] and c["sportive"] for c in found)

    before = cypher(sleep_driver, SOURCES, scope="/user/strays")
    again = memory.consolidate(["nightly"]).runs[0]
    assert {k: v for k, v in again.counts.items() if v and not k.startswith("seen_")} == {}
    assert cypher(sleep_driver, SOURCES, scope="/user/strays") == before
