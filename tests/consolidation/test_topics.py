"""C1 finds topics whose episodes do not paraphrase each other, from the graph around them."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import neo4j
import numpy as np

from graphmem.consolidate.clustering import density_clusters
from graphmem.consolidate.neighbourhood import exact_knn
from graphmem.consolidate.settings import ConsolidationSettings
from graphmem.consolidate.topic_weights import TopicWeights
from graphmem.memory import Memory
from tests.consolidation.conftest import cypher

SCOPE = "/user/topics"
TOPICS = {
    "dog": [
        "User adopted a rescue greyhound called Pepper from the Retired Greyhound Trust.",
        "Pepper is scared of the stairs, so the user carries her down every morning.",
        "The vet at Riverside Clinic found that Pepper has a loose tooth that needs pulling.",
        "Pepper now wears a fleece jumper on walks because greyhounds feel the cold.",
        "Pepper slept through the fireworks on bonfire night, to everyone's surprise.",
    ],
    "boat": [
        "User and their uncle Fergus bought a share in an old wooden sailing boat called Kittiwake.",
        "Kittiwake needs her hull scraped and antifouled before she can go back in the water in April.",
        "Fergus found rot in the cockpit floor of Kittiwake; a boatyard in Oban quoted 2,000 pounds.",
        "User passed the RYA Day Skipper theory exam so they can take Kittiwake out alone.",
        "First overnight trip on Kittiwake to the Isle of Mull; they anchored in Tobermory.",
    ],
    "thesis": [
        "User's PhD thesis on coral bleaching is due to Professor Ndlovu in September.",
        "Chapter three, the field data from the reef surveys, still has no results section.",
        "Professor Ndlovu wants the statistics redone with mixed-effects models instead of ANOVA.",
        "User booked the thesis defence for 12 November with an external examiner from Bangor.",
        "Printed and bound three copies of the thesis at the university print shop.",
    ],
}
NOISE = [
    "User prefers window seats on trains.",
    "User's favourite ice cream flavour is pistachio.",
    "User is allergic to latex.",
]


def _write(memory: Memory, scope: str = SCOPE) -> dict[str, str | None]:
    start = datetime(2025, 1, 6, 9, tzinfo=UTC)
    rows: list[tuple[datetime, str, str | None]] = []
    for t, (topic, texts) in enumerate(TOPICS.items()):
        for i, text in enumerate(texts):  # interleaved in time, a topic every ten days or so
            rows.append((start + timedelta(days=10 * i + 3 * t, hours=t), text, topic))
    rows += [(start + timedelta(days=7 + 13 * i), text, None) for i, text in enumerate(NOISE)]
    rows.sort(key=lambda r: r[0])
    topic_of: dict[str, str | None] = {}
    for at, text, topic in rows:
        result = memory.remember(text, scope=scope, occurred_at=at)
        topic_of[result.memory.id] = topic
    return topic_of


def _semantic(driver: neo4j.Driver, scope: str = SCOPE) -> dict[str, list[str]]:
    rows = cypher(
        driver,
        "MATCH (s:SemanticMemory {status: 'active', scope: $scope})-[:DERIVED_FROM]->(e:Memory) "
        "RETURN s.id AS s, collect(e.id) AS sources",
        scope=scope,
    )
    return {str(r["s"]): [str(e) for e in r["sources"]] for r in rows}  # type: ignore[union-attr]


def test_topics_that_embedding_density_misses_become_semantic_memories(
    sleeper: Memory, sleep_driver: neo4j.Driver
) -> None:
    topic_of = _write(sleeper)
    rows = cypher(
        sleep_driver,
        "MATCH (m:Memory {scope: $scope, layer: 'episodic', status: 'active'}) "
        "RETURN m.id AS id, m.embedding AS v ORDER BY m.id",
        scope=SCOPE,
    )
    ids = [str(r["id"]) for r in rows]
    vectors = np.asarray([r["v"] for r in rows], dtype=np.float32)
    by_vectors_alone = density_clusters(exact_knn(ids, vectors, 15, 0.65, range(len(ids))), 0.35, 3)
    assert len(by_vectors_alone) <= 1  # the former rule finds (almost) no topic here

    run = sleeper.consolidate(["nightly"]).runs[0]
    assert run.status == "succeeded", run.error
    found = _semantic(sleep_driver)
    covered = set()
    for sources in found.values():
        labels = Counter(topic_of.get(s) for s in sources)
        topic, n = labels.most_common(1)[0]
        assert topic is not None and n == len(sources), f"a semantic memory mixes {labels}"
        covered.add(topic)
    assert len(covered) >= 2, f"only {covered} of {sorted(TOPICS)} found"

    again = sleeper.consolidate(["nightly"]).runs[0]
    assert {k: v for k, v in again.counts.items() if v and not k.startswith("seen_")} == {}
    assert _semantic(sleep_driver) == found


def test_an_episode_a_later_statement_superseded_stays_part_of_its_topic(
    sleeper: Memory, sleep_driver: neo4j.Driver
) -> None:
    """A topic is a story: the episode a later one replaced (a moved date, a changed plan) is still
    what happened, so C1 clusters it with its thread; C3's merged duplicates stay out."""
    topic_of = _write(sleeper)
    later = datetime(2025, 3, 20, 9, tzinfo=UTC)
    moved = sleeper.remember(
        "User's thesis defence was moved from 12 November to 3 December, same examiner from Bangor.",
        scope=SCOPE,
        occurred_at=later,
    )
    topic_of[moved.memory.id] = "thesis"
    superseded = [a.split(":", 1)[1] for a in moved.actions if a.startswith("superseded:")]
    assert superseded, f"the write path did not supersede the booked date: {moved.actions}"
    assert all(topic_of.get(s) == "thesis" for s in superseded)

    run = sleeper.consolidate(["nightly"]).runs[0]
    assert run.status == "succeeded", run.error
    found = _semantic(sleep_driver)
    sources = {s for members in found.values() for s in members}
    assert set(superseded) <= sources, "the replaced episode is missing from its topic"
    for members in found.values():
        labels = Counter(topic_of.get(s) for s in members)
        assert len(labels) == 1 and None not in labels, f"a semantic memory mixes {labels}"
    status = cypher(sleep_driver, "MATCH (m:Memory {id: $id}) RETURN m.status AS s", id=superseded[0])
    assert status == [{"s": "superseded"}]  # clustering it does not bring the old belief back
    summary = cypher(
        sleep_driver,
        "MATCH (s:SemanticMemory)-[:DERIVED_FROM]->(:Memory {id: $id}), (old:Memory {id: $id}) "
        "RETURN s.text AS text, old.text AS old",
        id=superseded[0],
    )[0]
    assert str(summary["old"]).rstrip(".") not in str(summary["text"])  # it states what holds now

    again = sleeper.consolidate(["nightly"]).runs[0]
    assert {k: v for k, v in again.counts.items() if v and not k.startswith("seen_")} == {}
    assert _semantic(sleep_driver) == found


PROFILE = [
    "User dislikes coriander.",
    "User's blood type is O negative.",
    "User is vegetarian on weekdays but eats fish at weekends.",
    "User is left-handed.",
    "User's shoe size is 7 UK.",
]


def test_facts_phrased_alike_that_share_nothing_else_are_no_topic(build, sleep_driver: neo4j.Driver) -> None:  # type: ignore[no-untyped-def]
    """Profile facts ('User dislikes coriander', 'User is left-handed') sit close by vector and
    share their neighbours, but share no entity or word: no semantic memory is made of them, while
    the topics around them are still found."""
    found: dict[str, list[Counter[str | None]]] = {}
    for scope, settings in (
        ("/user/by-vectors", ConsolidationSettings(topics=replace(TopicWeights(), specific=False))),
        (SCOPE, None),
    ):
        memory = build(settings)
        topic_of = _write(memory, scope)
        start = datetime(2025, 1, 9, 9, tzinfo=UTC)
        for i, text in enumerate(PROFILE):
            made = memory.remember(text, scope=scope, occurred_at=start + timedelta(days=9 * i))
            topic_of[made.memory.id] = "profile"
        run = memory.consolidate(["nightly"]).runs[0]
        assert run.status == "succeeded", run.error
        found[scope] = [
            Counter(topic_of.get(s) for s in members) for members in _semantic(sleep_driver, scope).values()
        ]
    assert any("profile" in labels for labels in found["/user/by-vectors"])  # vectors alone tie them
    assert not any("profile" in labels for labels in found[SCOPE]), found
    assert len({labels.most_common(1)[0][0] for labels in found[SCOPE]}) >= 2
