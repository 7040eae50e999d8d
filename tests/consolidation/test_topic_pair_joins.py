"""C1 joins two agreed pairs of one thread that no topic took, where TopicWeights.pair_join asks
(off by default): a French course told in two pairs."""

from __future__ import annotations

from dataclasses import replace

import neo4j

from graphmem.consolidate.settings import ConsolidationSettings
from graphmem.consolidate.topic_weights import TopicWeights
from tests.consolidation.conftest import cypher
from tests.consolidation.test_topic_leftovers import THREADS as LEFTOVER_THREADS
from tests.consolidation.threads import SOURCES, topics_of

# four threads of the dev half of bench/eval/topics.json, as dated there
THREADS = {
    "french": [
        (
            "2025-07-01T15:48:00Z",
            "The user's company is opening a Lyon office and they want to reach B1 French within a year.",
        ),
        ("2025-07-15T20:59:00Z", "Booked weekly conversation sessions on italki with a tutor named Amélie."),
        (
            "2025-08-10T12:10:00Z",
            "The subjunctive is the main struggle; Amélie gave them a list of trigger phrases.",
        ),
        ("2025-09-10T17:21:00Z", "Passed a mock DELF B1 listening paper with 19 out of 25."),
        (
            "2025-10-11T09:32:00Z",
            "Spent two days in the Lyon office and managed a whole lunch conversation without switching "
            "to English.",
        ),
    ],
    "book_club": [
        (
            "2025-01-28T12:41:00Z",
            "User joined a monthly book club that meets at the Blue Fox pub on the last Tuesday.",
        ),
        ("2025-02-26T17:52:00Z", "This month's book was Klara and the Sun; the user found the ending flat."),
        ("2025-03-26T09:03:00Z", "User's turn to pick; chose Piranesi by Susanna Clarke."),
        ("2025-04-23T14:14:00Z", "The group loved Piranesi; Eleanor said it was the best pick this year."),
        ("2025-05-28T19:25:00Z", "Book club is voting on whether to read one classic per quarter."),
    ],
    "cat": LEFTOVER_THREADS["cat"],  # the same thread as there
    "promotion": [
        (
            "2025-03-10T09:03:00Z",
            "Sam Whitfield, the user's teammate, applied for the engineering manager role.",
        ),
        (
            "2025-03-27T14:14:00Z",
            "User wrote a peer review for Sam highlighting how he ran the payments incident in January.",
        ),
        ("2025-04-12T19:25:00Z", "Sam got the manager job; the user will report to him from 1 May."),
        (
            "2025-05-07T11:36:00Z",
            "First one-to-one with Sam as manager; he wants the user to own the on-call rota.",
        ),
        ("2025-06-14T16:47:00Z", "Sam asked the user to mentor the two new graduates joining in September."),
    ],
}


def test_a_thread_told_in_two_agreed_pairs_becomes_one_topic(  # type: ignore[no-untyped-def]
    build, sleep_driver: neo4j.Driver
) -> None:
    """The French course falls into pairs the consensus always puts together (the new office in
    Lyon and two days spent there; the tutor Amélie and the subjunctive she drills), and nothing
    else: each pair is under a topic's size, and CPM keeps them apart for the pairs across that tie
    nothing. Joined, the four are as dense as a topic: the course gets a semantic memory
    of its own, no other thread's episode in it, and every other thread keeps its own. A second
    run changes nothing."""
    apart = build(ConsolidationSettings(topics=replace(TopicWeights(), pair_join=0.0)))
    loose = topics_of(apart, sleep_driver, "/user/pairs-apart", THREADS, {})
    assert not any(c["french"] for c in loose), loose  # what the join is for

    memory = build(ConsolidationSettings(topics=replace(TopicWeights(), pair_join=1.0)))
    found = topics_of(memory, sleep_driver, "/user/pairs-joined", THREADS, {})
    french = [c for c in found if c["french"]]
    assert len(french) == 1 and french[0]["french"] >= 3, found
    assert set(french[0]) == {"french"}, f"the French course's memory holds {french[0]}"
    for thread in ("book_club", "cat", "promotion"):
        assert any(set(c) == {thread} for c in found), f"{thread} has no memory of its own: {found}"

    before = cypher(sleep_driver, SOURCES, scope="/user/pairs-joined")
    again = memory.consolidate(["nightly"]).runs[0]
    assert {k: v for k, v in again.counts.items() if v and not k.startswith("seen_")} == {}
    assert cypher(sleep_driver, SOURCES, scope="/user/pairs-joined") == before
