"""C1: the memories' owner ('User's favourite band is Elbow') ties no topic: profile facts that share
only the name the agent calls the user by stay out of the semantic memories."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import replace
from datetime import datetime
from pathlib import Path

import neo4j

from graphmem.consolidate.settings import ConsolidationSettings
from graphmem.consolidate.topic_weights import TopicWeights
from tests.consolidation.conftest import cypher

# four threads the agent wrote in the first person and seven profile facts, five of which name the
# owner 'User', dated as written: the dev half of bench/eval/topics3.json (a subset of its threads)
_SET = json.loads((Path(__file__).parents[2] / "bench" / "eval" / "topics3.json").read_text())
_DEV_NOISE = set(
    json.loads((Path(__file__).parents[2] / "bench" / "eval" / "topics3_split.json").read_text())["noise_dev"]
)
THREADS = {
    t["id"]: [(e["occurred_at"], e["text"]) for e in t["episodes"]]
    for t in _SET["topics"]
    if t["id"] in ("driving_lessons", "eczema", "podcast", "tortoise")
}
PROFILE = [(n["occurred_at"], n["text"]) for n in _SET["noise"] if n["id"] in _DEV_NOISE]


def _semantic(driver: neo4j.Driver, scope: str) -> list[list[str]]:
    rows = cypher(
        driver,
        "MATCH (s:SemanticMemory {status: 'active', scope: $scope})-[:DERIVED_FROM]->(e:Memory) "
        "RETURN s.id AS s, collect(e.id) AS sources ORDER BY s",
        scope=scope,
    )
    return [[str(e) for e in r["sources"]] for r in rows]  # type: ignore[union-attr]


def test_profile_facts_that_share_only_the_owners_name_are_no_topic(
    build, sleep_driver: neo4j.Driver
) -> None:  # type: ignore[no-untyped-def]
    """With 'User' counted as a tie (``owner=()``), five profile facts naming the user become a
    semantic memory; by default none of them feeds one, and every thread is still found."""
    found: dict[str, list[Counter[str | None]]] = {}
    for scope, settings in (
        ("/user/owner-ties", ConsolidationSettings(topics=replace(TopicWeights(), owner=()))),
        ("/user/owner", None),
    ):
        memory = build(settings)
        rows = [(at, text, topic) for topic, episodes in THREADS.items() for at, text in episodes]
        rows += [(at, text, None) for at, text in PROFILE]
        topic_of: dict[str, str | None] = {}
        for at, text, topic in sorted(rows):
            made = memory.remember(
                text, scope=scope, occurred_at=datetime.fromisoformat(at.replace("Z", "+00:00"))
            )
            topic_of[made.memory.id] = topic
        run = memory.consolidate(["nightly"]).runs[0]
        assert run.status == "succeeded", run.error
        found[scope] = [
            Counter(topic_of.get(s) for s in members) for members in _semantic(sleep_driver, scope)
        ]
        if settings is None:
            again = memory.consolidate(["nightly"]).runs[0]
            assert {k: v for k, v in again.counts.items() if v and not k.startswith("seen_")} == {}
    assert any(labels.most_common(1)[0][0] is None for labels in found["/user/owner-ties"])
    assert not any(None in labels for labels in found["/user/owner"]), found["/user/owner"]
    assert {labels.most_common(1)[0][0] for labels in found["/user/owner"]} == set(THREADS)
