"""C1 reads whom 'he' and 'she' mean from the memories of the scope that name them."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import replace
from pathlib import Path

import neo4j

from graphmem.consolidate.settings import ConsolidationSettings
from graphmem.consolidate.topic_weights import TopicWeights
from tests.consolidation.conftest import cypher
from tests.consolidation.threads import SOURCES, topics_of

_SET = json.loads((Path(__file__).parents[2] / "bench" / "eval" / "topics5.json").read_text())
# six threads of the dev half, as dated there: a rescue dog named once ('He's called Mango') and
# then 'he cried in the crate', 'his paw', 'his chase instinct'; Maya named twice, then 'she'
NAMES = ("dog", "maya_driving", "migraine", "power_of_attorney", "sourdough", "tender")
THREADS = {
    t["id"]: [(e["occurred_at"], e["text"]) for e in t["episodes"]]
    for t in _SET["topics"]
    if t["id"] in NAMES
}


def _covered(found: list[Counter[str]]) -> set[str]:
    """The threads with a semantic memory nine in ten of whose sources are theirs."""
    return {c.most_common(1)[0][0] for c in found if max(c.values()) >= 0.9 * sum(c.values())}


def test_a_thread_told_with_he_after_naming_him_once_has_a_memory_of_its_own(  # type: ignore[no-untyped-def]
    build, sleep_driver: neo4j.Driver
) -> None:
    """Read as about Mango, the dog's thread has a semantic memory of its own, which it has not
    when the pronouns are not read; no thread loses its own, and a second run changes nothing."""
    assert len(THREADS) == len(NAMES)
    without = build(ConsolidationSettings(topics=replace(TopicWeights(), referents=0)))
    before = _covered(topics_of(without, sleep_driver, "/user/referents-off", THREADS, {}))
    assert "dog" not in before, before  # what reading the pronouns is for

    memory = build(None)
    found = topics_of(memory, sleep_driver, "/user/referents", THREADS, {})
    assert _covered(found) >= before | {"dog"}, found

    sources = cypher(sleep_driver, SOURCES, scope="/user/referents")
    again = memory.consolidate(["nightly"]).runs[0]
    assert {k: v for k, v in again.counts.items() if v and not k.startswith("seen_")} == {}
    assert cypher(sleep_driver, SOURCES, scope="/user/referents") == sources
