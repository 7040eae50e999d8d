"""Recall's in-process vector cache on the real stack: two Memory facades on one Neo4j stand for
two API processes, each with its own cache; what one writes, moves or deletes, the other's next
recall reflects at once, and a caller's allowed scopes still bound what comes back."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from graphmem.config import Settings
from graphmem.connect import Neo4jTarget, open_memory
from graphmem.embedding.base import Embedder
from graphmem.memory import Memory
from graphmem.models import MemoryInput, MemoryPatch, Recalled, RecallQuery, RecallResult

pytestmark = pytest.mark.integration

TEA = "Which hot drink does Ingrid prefer in the morning?"


@pytest.fixture
def other(neo4j_target: Neo4jTarget, embedder: Embedder) -> Iterator[Memory]:
    """A second Memory on the same Neo4j: another process, with a cache of its own."""
    conn = open_memory(Settings(), neo4j_target, embedder=embedder)
    conn.memory.prepare()
    yield conn.memory
    conn.close()


def by_vector(found: RecallResult) -> list[str]:
    """Ids of results the vector retriever found (not the fulltext one), best first."""
    return [r.id for r in found.results if any(m.startswith("vector") for m in r.match_reasons)]


def seed(memory: Memory, scope: str) -> None:
    memory.remember_batch(
        [
            MemoryInput(text="Ingrid keeps bees on the roof of her building.", scope=scope),
            MemoryInput(text="The quarterly report is due on the first Friday of March.", scope=scope),
            MemoryInput(text="Bjorn repaired the bicycle chain last weekend.", scope=scope),
        ]
    )


def test_a_write_through_another_process_is_recalled_at_once(
    memory: Memory, other: Memory, scope: str
) -> None:
    seed(memory, scope)
    assert memory.recall(TEA, scope=scope, reinforce=False).results  # this process caches the scope
    tea = other.remember("Every morning Ingrid drinks a pot of lapsang souchong.", scope=scope).memory
    assert tea is not None
    assert by_vector(memory.recall(TEA, scope=scope, reinforce=False))[0] == tea.id


def test_a_memory_deleted_or_moved_elsewhere_leaves_the_other_process_s_recall(
    memory: Memory, other: Memory, scope: str
) -> None:
    seed(memory, scope)
    tea = memory.remember("Every morning Ingrid drinks a pot of lapsang souchong.", scope=scope).memory
    coffee = memory.remember("Ingrid takes her espresso with two sugars.", scope=scope).memory
    assert tea is not None and coffee is not None
    assert {tea.id, coffee.id} <= set(by_vector(memory.recall(TEA, scope=scope, reinforce=False)))
    other.delete(tea.id)
    other.update(coffee.id, MemoryPatch(scope=f"{scope}-elsewhere"))
    left = [r.id for r in memory.recall(TEA, scope=scope, reinforce=False).results]
    assert tea.id not in left and coffee.id not in left
    moved = memory.recall(TEA, scope=f"{scope}-elsewhere", reinforce=False)
    assert [r.id for r in moved.results] == [coffee.id]


def similarity(found: RecallResult, memory_id: str) -> float:
    """The vector similarity a result reports (0 when the vector retriever did not find it)."""
    for r in found.results:
        for reason in r.match_reasons if r.id == memory_id else []:
            if reason.startswith("vector similarity"):
                return float(reason.split()[-1])
    return 0.0


def test_a_re_worded_memory_is_ranked_by_its_new_text(memory: Memory, other: Memory, scope: str) -> None:
    seed(memory, scope)
    note = memory.remember("Ingrid's locker code is 4471.", scope=scope).memory
    assert note is not None
    before = similarity(memory.recall(TEA, scope=scope, reinforce=False), note.id)
    other.update(note.id, MemoryPatch(text="Ingrid starts each morning with a pot of green tea."))
    after = memory.recall(TEA, scope=scope, reinforce=False)
    assert similarity(after, note.id) > before + 0.2
    assert after.results[0].id == note.id


def test_allowed_scopes_bound_a_cached_recall(memory: Memory, scope: str) -> None:
    mine = memory.remember("Ingrid drinks rooibos tea every morning.", scope=f"{scope}/ingrid").memory
    memory.remember("Ola drinks black coffee every morning.", scope=f"{scope}/ola")
    assert mine is not None
    assert len(memory.recall(TEA, scope=scope, reinforce=False).results) == 2  # the subtree is cached
    confined = memory.recall(TEA, scope=scope, reinforce=False, allowed=[f"{scope}/ingrid"])
    assert [r.id for r in confined.results] == [mine.id]
    outside = memory.recall(TEA, scope=f"{scope}/ola", reinforce=False, allowed=[f"{scope}/ingrid"])
    assert outside.results == []


def test_a_scope_too_large_for_the_cache_is_recalled_from_the_graph(
    neo4j_target: Neo4jTarget, embedder: Embedder, memory: Memory, scope: str
) -> None:
    seed(memory, scope)
    tea = memory.remember("Every morning Ingrid drinks a pot of lapsang souchong.", scope=scope).memory
    assert tea is not None
    conn = open_memory(Settings(recall_vector_cache_rows=2), neo4j_target, embedder=embedder)
    try:
        conn.memory.prepare()
        for _ in range(2):  # the second recall does not try to cache the scope again
            assert by_vector(conn.memory.recall(TEA, scope=scope, reinforce=False))[0] == tea.id
    finally:
        conn.close()


def reasons(result: Recalled) -> list[str]:
    """Its match reasons without their numbers."""
    return [re.sub(r"[0-9.]+$", "#", m) for m in result.match_reasons]


def test_a_cached_recall_answers_as_a_recall_from_the_graph(
    neo4j_target: Neo4jTarget, embedder: Embedder, memory: Memory, scope: str
) -> None:
    turns = [
        "Mia: Guess what, I finally adopted a dog!",
        "Leo: No way! What's the name?",
        "Mia: Biscuit. She's a two-year-old beagle.",
        "Leo: I started learning the violin last week.",
        "Mia: The violin? Who is teaching you?",
        "Leo: A retired teacher from the conservatory, on Thursdays.",
    ]
    memory.remember_batch([MemoryInput(text=t, scope=scope, source="chat") for t in turns])
    memory.remember("Mia walks Biscuit along the river every evening.", scope=scope, categories=["pets"])
    memory.remember("Leo keeps his violin at the conservatory lockers.", scope=scope, categories=["music"])
    memory.remember("Ingrid lives in Bergen.", scope=scope)
    memory.remember("Ingrid moved to Tromsø last spring.", scope=scope)
    conn = open_memory(Settings(recall_vector_cache_rows=0), neo4j_target, embedder=embedder)
    try:
        conn.memory.prepare()
        asks = [
            RecallQuery(query="What kind of dog did Mia adopt?", scope=scope, reinforce=False),
            RecallQuery(query="Who teaches Leo the violin?", scope=scope, reinforce=False),
            RecallQuery(query="Where does Ingrid live now?", scope=scope, reinforce=False),
            RecallQuery(
                query="Where does Ingrid live now?", scope=scope, reinforce=False, include_superseded=True
            ),
            # the filter drops cached hits: the expansion chosen ahead of the check is read again
            RecallQuery(
                query="What does Mia do with her dog?", scope=scope, reinforce=False, categories=["pets"]
            ),
            RecallQuery(query="an instrument", scope=scope, reinforce=False, limit=2),
        ]
        for ask in asks:
            cached = memory.recall_query(ask)
            graph = conn.memory.recall_query(ask)
            # the same memories for the same reasons (cosines agree to float32: 0.58 or 0.59), in
            # the same order but for two whose scores tie within that (the order of a near tie
            # follows float rounding, and the memories' random ids)
            assert [r.score for r in cached.results] == pytest.approx(
                [r.score for r in graph.results], abs=0.01
            )
            for mine, theirs in zip(cached.results, graph.results, strict=True):
                assert mine.id == theirs.id or abs(mine.score - theirs.score) <= 0.01, ask
            by_id = {r.id: reasons(r) for r in graph.results}
            assert {r.id: reasons(r) for r in cached.results if r.id in by_id} == {
                r.id: by_id[r.id] for r in cached.results if r.id in by_id
            }, ask
            ties = [r for r in cached.results if r.id not in by_id]  # a near tie at the cut
            assert len(ties) <= 1 and all(abs(r.score - graph.results[-1].score) <= 0.01 for r in ties), ask
    finally:
        conn.close()


def test_a_memory_re_worded_or_deleted_through_another_process_changes_the_next_cached_recall(
    memory: Memory, other: Memory, scope: str
) -> None:
    seed(memory, scope)
    note = memory.remember("Ingrid's locker code is 4471.", scope=scope).memory
    bees = memory.recall("Who keeps bees?", scope=scope, reinforce=False).results[0]
    assert note is not None and "bees" in bees.text  # this process caches the scope, texts included
    other.update(note.id, MemoryPatch(text="Ingrid keeps a second hive of bees at the allotment."))
    other.delete(bees.id)
    found = memory.recall("Who keeps bees?", scope=scope, reinforce=False).results
    assert found[0].id == note.id
    assert found[0].text == "Ingrid keeps a second hive of bees at the allotment."
    assert bees.id not in [r.id for r in found]


def test_cached_hits_past_the_first_check_are_found_when_a_filter_drops_the_nearest(
    neo4j_target: Neo4jTarget, embedder: Embedder, memory: Memory, scope: str
) -> None:
    # 60 notes near the query outside the category asked for, then 10 far from it inside it: the
    # first check (the candidates asked for and a fifth more) keeps none, the hits after it answer.
    cities = ["Bergen", "Tromsø", "Oslo", "Bodø", "Ålesund", "Stavanger"]
    weather = ["rain", "sleet", "fog", "sunshine", "wind", "hail", "snow", "drizzle", "a storm", "frost"]
    near = [
        f"Day {d} of the trip: {w} all afternoon in {c}." for c in cities for d, w in enumerate(weather, 1)
    ]
    far = [
        "Biscuit chewed through the garden hose.",
        "The beagle learned to sit for a treat.",
        "Mia bought a blue collar for Biscuit.",
        "Biscuit sleeps under the piano at night.",
        "The vet said Biscuit needs fewer biscuits.",
        "Biscuit barks at the postman every morning.",
        "Mia takes Biscuit to puppy class on Saturdays.",
        "Biscuit found a tennis ball in the hedge.",
        "The dog walker comes at noon on weekdays.",
        "Biscuit had her second birthday party with a cake.",
    ]
    memory.remember_batch([MemoryInput(text=t, scope=scope) for t in near])
    memory.remember_batch([MemoryInput(text=t, scope=scope, categories=["pets"]) for t in far])
    ask = RecallQuery(
        query="What was the weather like on the trip to Bergen?",
        scope=scope,
        reinforce=False,
        categories=["pets"],
    )
    conn = open_memory(Settings(recall_vector_cache_rows=0), neo4j_target, embedder=embedder)
    try:
        conn.memory.prepare()
        cached = memory.recall_query(ask)
        graph = conn.memory.recall_query(ask)
    finally:
        conn.close()
    # the same memories as the graph finds (in an order the episode context may shuffle: it
    # weighs the graph's and the cache's cosines apart)
    assert {r.id for r in cached.results} == {r.id for r in graph.results}
    assert len(cached.results) == 10 and all("pets" in r.categories for r in cached.results)


def test_a_write_between_the_two_round_trips_sends_the_recall_to_the_graph(
    memory: Memory, other: Memory, scope: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    seed(memory, scope)
    note = memory.remember("Ingrid's locker code is 4471.", scope=scope).memory
    assert note is not None
    assert memory.recall("What is Ingrid's locker code?", scope=scope, reinforce=False).results
    cache = memory._recaller._cache  # this process's cache, current with the graph now
    assert cache is not None
    ranked = cache.nearest

    def rewritten_meanwhile(*args: object, **kwargs: object) -> object:
        # another process re-words the note after the first round trip read the revisions
        other.update(note.id, MemoryPatch(text="Ingrid's locker code changed to 9902."))
        monkeypatch.setattr(cache, "nearest", ranked)
        return ranked(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(cache, "nearest", rewritten_meanwhile)
    found = memory.recall("What is Ingrid's locker code?", scope=scope, reinforce=False).results
    # the record and the text it was ranked by are the graph's, never the cache's former text
    assert found[0].id == note.id and found[0].text == "Ingrid's locker code changed to 9902."
