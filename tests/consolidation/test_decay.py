"""D1 written back by the nightly job: what really went unused fades from recall and archives; an
import of old memories does not."""

from __future__ import annotations

from datetime import UTC, datetime

import neo4j

from graphmem.memory import Memory
from graphmem.models import MemoryPatch
from tests.consolidation.conftest import MovableClock, cypher

SCOPE = "/user/decay"


def _decayed(driver: neo4j.Driver, memory_id: str) -> object:
    rows = cypher(driver, "MATCH (m:Memory {id: $id}) RETURN m.decayed_strength AS s", id=memory_id)
    return rows[0]["s"]


def _found(memory: Memory, query: str) -> set[str]:
    found = {r.id for r in memory.recall(query, scope=SCOPE).results}
    memory.settle()  # the recall's reinforcement is written before the clock moves on
    return found


def test_an_import_of_old_memories_stays_visible_after_the_nightly_decay(
    sleeper: Memory, sleep_driver: neo4j.Driver
) -> None:
    old = sleeper.remember(
        "Caroline went to the LGBTQ support group meeting.",
        scope=SCOPE,
        occurred_at=datetime(2023, 5, 7, 13, tzinfo=UTC),
    ).memory
    run = sleeper.consolidate(["nightly"]).runs[0]
    assert run.status == "succeeded", run.error
    assert run.counts.get("hidden", 0) == 0
    assert _decayed(sleep_driver, old.id) is None  # entering the graph counts as a use: nothing faded
    assert old.id in _found(sleeper, "support group meeting")
    weekly = sleeper.consolidate(["weekly"]).runs[0]
    assert weekly.counts.get("archived", 0) == 0 and sleeper.get(old.id).status == "active"


def test_an_unused_memory_that_really_aged_fades_is_hidden_then_archived_and_a_pin_keeps_one(
    sleeper: Memory, sleep_driver: neo4j.Driver, clock: MovableClock
) -> None:
    aged = sleeper.remember("The spare key is under the blue flowerpot.", scope=SCOPE).memory
    pinned = sleeper.remember("The alarm code for the flat is 4471.", scope=SCOPE).memory
    sleeper.update(pinned.id, MemoryPatch(pinned=True))
    assert aged.id in _found(sleeper, "where is the spare key")
    clock.advance(days=30)
    first = sleeper.consolidate(["nightly"]).runs[0]
    assert first.status == "succeeded", first.error
    faded = _decayed(sleep_driver, aged.id)
    assert isinstance(faded, float) and 0.1 < faded < 1.0  # a month unused: weaker, still visible
    assert first.counts["decayed"] >= 1 and first.counts.get("hidden", 0) == 0
    assert _decayed(sleep_driver, pinned.id) is None

    clock.advance(days=100)  # 130 days unused: 1 / (1 + 0.1 · 130) ≈ 0.07
    second = sleeper.consolidate(["nightly"]).runs[0]
    assert second.counts["hidden"] == 1
    assert aged.id not in _found(sleeper, "where is the spare key")  # hidden, but kept
    assert sleeper.get(aged.id).status == "active"
    assert pinned.id in _found(sleeper, "alarm code for the flat")

    clock.advance(hours=3)  # a second run the same day changes nothing
    again = sleeper.consolidate(["nightly"]).runs[0]
    assert {k: v for k, v in again.counts.items() if v and not k.startswith("seen_")} == {}

    weekly = sleeper.consolidate(["weekly"]).runs[0]
    assert sleeper.get(aged.id).status == "archived" and weekly.counts["archived"] == 1
    assert sleeper.get(pinned.id).status == "active"


def test_a_memory_used_often_outlives_its_ttl_until_it_fades(
    sleeper: Memory, sleep_driver: neo4j.Driver, clock: MovableClock
) -> None:
    kept = sleeper.remember("User plays the cello in a quartet.", scope=SCOPE, categories=["hobby"]).memory
    for _ in range(8):  # used every other day: spaced uses make it fade slower
        clock.advance(days=2)
        assert kept.id in _found(sleeper, "which instrument does the user play")
    clock.advance(days=65)  # past the hobby TTL of 60 days, yet still strong
    weekly = sleeper.consolidate(["weekly"]).runs[0]
    assert weekly.counts.get("archived", 0) == 0 and weekly.counts.get("seen_kept_strong") == 1
    assert sleeper.get(kept.id).status == "active"
    clock.advance(days=400)
    later = sleeper.consolidate(["weekly"]).runs[0]
    assert later.counts["archived"] == 1 and sleeper.get(kept.id).status == "archived"


def test_a_semantic_memory_distilled_from_long_unused_episodes_counts_its_creation_as_a_use(
    sleeper: Memory, sleep_driver: neo4j.Driver, clock: MovableClock
) -> None:
    texts = [
        "User and their uncle Fergus bought a share in an old wooden sailing boat called Kittiwake.",
        "Kittiwake needs her hull scraped and antifouled before she can go back in the water in April.",
        "Fergus found rot in the cockpit floor of Kittiwake; a boatyard in Oban quoted 2,000 pounds.",
        "User passed the RYA Day Skipper theory exam so they can take Kittiwake out alone.",
        "First overnight trip on Kittiwake to the Isle of Mull; they anchored in Tobermory.",
    ]
    episodes = [sleeper.remember(text, scope=SCOPE).memory.id for text in texts]
    clock.advance(days=150)  # the episodes go unused long enough to fall below 0.1
    run = sleeper.consolidate(["nightly"]).runs[0]
    assert run.status == "succeeded", run.error
    assert run.counts["promoted"] == 1
    rows = cypher(
        sleep_driver,
        "MATCH (s:Memory {layer: 'semantic', scope: $scope})-[:DERIVED_FROM]->(e) "
        "RETURN s.id AS id, s.decayed_strength AS decayed, collect(e.id) AS sources",
        scope=SCOPE,
    )
    assert len(rows) == 1 and set(rows[0]["sources"]) <= set(episodes)
    assert rows[0]["decayed"] is None  # made tonight: as strong as a new memory
    assert all(_decayed(sleep_driver, e) < 0.1 for e in rows[0]["sources"])  # its sources faded
    semantic = sleeper.recall("Kittiwake the sailing boat", scope=SCOPE, layers=["semantic"], reinforce=False)
    assert [r.id for r in semantic.results] == [rows[0]["id"]]  # recall of the semantic layer finds it
    clock.advance(days=1)
    later = sleeper.consolidate(["nightly"]).runs[0]
    assert later.counts.get("hidden", 0) == 0  # a day later it has faded a little, not away
