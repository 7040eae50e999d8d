"""C1 clusters again the memories no topic took: a thread whose nearest episodes are other threads'."""

from __future__ import annotations

from dataclasses import replace

import neo4j

from graphmem.consolidate.settings import ConsolidationSettings
from graphmem.consolidate.topic_weights import TopicWeights
from tests.consolidation.conftest import cypher
from tests.consolidation.threads import SOURCES, topics_of

# five threads of the dev halves of bench/eval/topics.json, topics2.json and topics3.json, each
# set's dates shifted to one start as bench.topic_mixed does (a user's threads interleave)
THREADS = {
    "dog": [
        (
            "2025-01-04T08:00:00Z",
            "User adopted a rescue dog this weekend, a three-year-old border collie mix called Max.",
        ),
        (
            "2025-01-13T13:11:00Z",
            "Max pulls hard on the lead during the morning walks along the canal; the user is trying a "
            "front-clip harness.",
        ),
        (
            "2025-01-27T18:22:00Z",
            "The vet at Greenway Clinic said Max is about two kilos overweight and should get "
            "smaller portions.",
        ),
        (
            "2025-02-14T10:33:00Z",
            "During last night's thunderstorm Max hid under the bed shaking for hours; the user wants to try "
            "a calming vest.",
        ),
        (
            "2025-03-05T15:44:00Z",
            "Ordered an orthopedic bed for Max because he has started sleeping on the cold kitchen tiles.",
        ),
        (
            "2025-04-02T20:55:00Z",
            "Max passed the intermediate obedience course; the trainer said his recall is now "
            "reliable off-lead.",
        ),
    ],
    "parrot": [
        (
            "2025-02-25T00:32:00Z",
            "We adopted Kiwi, a twelve-year-old African grey, from a rescue after her owner went "
            "into a care home.",
        ),
        (
            "2025-03-28T08:00:00Z",
            "Kiwi has started plucking feathers on her chest; the rescue thinks it's stress from the move.",
        ),
        (
            "2025-04-09T07:53:00Z",
            "Avian vet did bloods on Kiwi — low calcium — so she's on a supplement and a UV lamp "
            "over the cage.",
        ),
        (
            "2025-04-17T05:01:00Z",
            "Kiwi learned to imitate the microwave beep and now does it at 6am every day.",
        ),
        (
            "2025-05-14T04:29:00Z",
            "Built a foraging box for Kiwi out of cardboard and walnuts; the plucking has slowed right down.",
        ),
        (
            "2025-06-13T02:02:00Z",
            "Kiwi's chest feathers are growing back and the vet said her calcium is normal at the recheck.",
        ),
    ],
    "cat": [
        ("2025-06-20T14:16:00Z", "Priya's cat Luna moved in with them; she's a nine-year-old tabby."),
        ("2025-07-01T19:27:00Z", "Luna keeps scratching the new sofa; got a tall sisal scratching post."),
        ("2025-07-29T11:38:00Z", "Luna was diagnosed with early kidney disease and needs a renal diet."),
        (
            "2025-09-01T16:49:00Z",
            "Luna hates the renal food; the vet suggested warming it slightly, which worked.",
        ),
        ("2025-10-08T08:00:00Z", "Blood test shows Luna's kidney values are stable."),
    ],
    "sleep": [
        ("2025-02-20T04:57:00Z", "User has been waking at 4am most nights and can't get back to sleep."),
        (
            "2025-04-16T09:10:00Z",
            "Started wearing a tracker ring; it says I get about 40 minutes of deep sleep.",
        ),
        ("2025-04-18T04:08:00Z", "Cut out caffeine after noon and banned screens from the bedroom."),
        ("2025-04-26T08:52:00Z", "Trying CBT-I from an app: a strict bed window from midnight to 6:30."),
        ("2025-06-03T07:33:00Z", "After four weeks of the programme I'm sleeping through most nights."),
    ],
    "food bank": [
        ("2025-04-01T10:37:00Z", "User started volunteering at the Trussell food bank on Saturday mornings."),
        ("2025-04-28T15:48:00Z", "Was moved from sorting donations to the welcome desk, talking to clients."),
        (
            "2025-06-09T20:59:00Z",
            "Helped organise a supermarket collection that brought in 600 kilos of food.",
        ),
        ("2025-07-20T12:10:00Z", "The coordinator, Denise, asked the user to train new volunteers."),
        (
            "2025-09-16T17:21:00Z",
            "Food bank demand is up a third this winter; they're short of tinned meat and toiletries.",
        ),
    ],
}


def test_a_dogs_thread_among_other_pets_is_a_topic(  # type: ignore[no-untyped-def]
    build, sleep_driver: neo4j.Driver
) -> None:
    """The dog's episodes are nearest by vector to the parrot's and the cat's (a rescue, the vet, a
    bed), so ranked among every memory they get little of the nearness bonus and no topic takes
    them; ranked among the memories the first pass left, they are each other's nearest and Max
    ties them: the dog has a semantic memory of its own, the other threads keep theirs, and a
    second run changes nothing."""
    without = build(ConsolidationSettings(topics=replace(TopicWeights(), leftover_agreement=0.0)))
    first_only = topics_of(without, sleep_driver, "/user/leftovers-off", THREADS, {})
    assert not any(c["dog"] for c in first_only), first_only  # what the second pass is for

    memory = build(None)
    found = topics_of(memory, sleep_driver, "/user/leftovers", THREADS, {})
    dog = [c for c in found if c["dog"]]
    assert len(dog) == 1 and dog[0]["dog"] >= 3 and set(dog[0]) == {"dog"}, found
    assert all(c in found for c in first_only), (
        first_only,
        found,
    )  # the first pass's topics stay as they were

    before = cypher(sleep_driver, SOURCES, scope="/user/leftovers")
    again = memory.consolidate(["nightly"]).runs[0]
    assert {k: v for k, v in again.counts.items() if v and not k.startswith("seen_")} == {}
    assert cypher(sleep_driver, SOURCES, scope="/user/leftovers") == before
