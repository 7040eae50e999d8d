"""C1-C3 on a real graph: planted topics become semantic memories with lineage; duplicates merge."""

from __future__ import annotations

from collections import defaultdict

import neo4j

from bench.planted_corpus import planted_corpus
from graphmem.memory import Memory
from graphmem.models import MemoryInput
from tests.consolidation.conftest import MovableClock, cypher

SCOPE = "/user/ann"


def _plant(memory: Memory, topics: int = 8, per_topic: int = 10, noise: int = 6) -> dict[str, int]:
    corpus = planted_corpus(topics=topics, per_topic=per_topic, noise=noise, seed=3)
    results = memory.remember_batch([MemoryInput(text=e.text, scope=SCOPE) for e in corpus])
    topic_of: dict[str, int] = {}
    for r, e in zip(results, corpus, strict=True):  # a write that joined an earlier memory keeps its topic
        topic_of.setdefault(r.memory.id, e.topic)
    return topic_of


def _lineage(driver: neo4j.Driver) -> dict[str, list[str]]:
    rows = cypher(
        driver,
        "MATCH (s:SemanticMemory {status: 'active'})-[:DERIVED_FROM]->(e:EpisodicMemory) "
        "RETURN s.id AS s, e.id AS e",
    )
    out: dict[str, list[str]] = defaultdict(list)
    for row in rows:
        out[str(row["s"])].append(str(row["e"]))
    return out


def _graph_state(driver: neo4j.Driver) -> tuple[list[object], list[object]]:
    nodes = cypher(
        driver,
        "MATCH (m:Memory) RETURN m.id AS id, m.status AS status, m.strength AS strength, m.text AS text, "
        "m.layer AS layer ORDER BY id",
    )
    edges = cypher(
        driver,
        "MATCH (a:Memory)-[r]->(b:Memory) RETURN a.id AS a, type(r) AS t, b.id AS b ORDER BY a, t, b",
    )
    return nodes, edges


def test_nightly_distils_planted_topics_with_lineage(sleeper: Memory, sleep_driver: neo4j.Driver) -> None:
    topic_of = _plant(sleeper)
    report = sleeper.consolidate(["nightly"])
    run = report.runs[0]
    assert run.status == "succeeded", run.error
    assert run.counts["promoted"] >= 8
    lineage = _lineage(sleep_driver)
    assert len(lineage) == run.counts["promoted"]
    for semantic, sources in lineage.items():
        assert len(sources) >= 3
        assert len({topic_of[s] for s in sources}) == 1, f"{semantic} mixes topics"
    # Sources fade by centrality: gamma = 0.5 + 0.4·(1 - similarity to the centroid) on their stability.
    fades = cypher(
        sleep_driver,
        "MATCH (:SemanticMemory)-[d:DERIVED_FROM]->(e) RETURN e.fade AS fade, d.similarity AS sim",
    )
    for row in fades:
        assert abs(float(row["fade"]) - (0.5 + 0.4 * (1 - float(row["sim"])))) < 1e-6  # type: ignore[arg-type]
    detail = sleeper.get(next(iter(lineage)))
    assert detail.layer == "semantic" and len(detail.derived_from) >= 3


def test_second_run_changes_nothing(sleeper: Memory, sleep_driver: neo4j.Driver, clock: MovableClock) -> None:
    _plant(sleeper)
    sleeper.remember("I really love hiking in the mountains.", scope=SCOPE)
    sleeper.remember("I love hiking in the mountains.", scope=SCOPE)
    first = sleeper.consolidate()
    assert all(r.status == "succeeded" for r in first.runs), [r.error for r in first.runs]
    before = _graph_state(sleep_driver)
    clock.advance(minutes=5)
    second = sleeper.consolidate()
    assert all(r.status == "succeeded" for r in second.runs)
    changed = {
        k: v for k, v in second.counts.items() if v and not k.startswith(("seen_", "drift_", "snapshots"))
    }
    assert changed == {}, changed
    assert _graph_state(sleep_driver) == before


def test_merge_keeps_contradictions_and_scopes_apart(sleeper: Memory, sleep_driver: neo4j.Driver) -> None:
    a = sleeper.remember("I love hiking in the mountains.", scope=SCOPE, importance=0.4).memory
    b = sleeper.remember("I really love hiking in the mountains!", scope=SCOPE, importance=0.9).memory
    other = sleeper.remember("I love hiking in the mountains.", scope="/user/bob").memory
    sleeper.remember("Alice lives in Paris.", scope=SCOPE)
    sleeper.remember("Alice lives in Berlin.", scope=SCOPE)
    report = sleeper.consolidate(["nightly"])
    assert report.runs[0].counts["merged"] == 1
    rows = cypher(
        sleep_driver,
        "MATCH (w:Memory)-[s:SUPERSEDES {reason: 'merged'}]->(l:SupersededMemory) "
        "RETURN w.id AS w, l.id AS l, "
        "l.status AS status, w.importance AS importance",
    )
    assert len(rows) == 1
    assert {rows[0]["w"], rows[0]["l"]} == {a.id, b.id}
    assert rows[0]["status"] == "superseded" and rows[0]["importance"] == 0.9
    assert sleeper.get(other.id).status == "active"
    places = cypher(sleep_driver, "MATCH (m:Memory) WHERE m.text STARTS WITH 'Alice' RETURN m.status AS s")
    assert [r["s"] for r in places].count("active") >= 1
    assert (
        cypher(
            sleep_driver,
            "MATCH ()-[s:SUPERSEDES {reason: 'merged'}]->(m) WHERE m.text STARTS WITH 'Alice' RETURN m",
        )
        == []
    )


def test_a_merge_keeps_a_contradiction_in_part_in_part(sleeper: Memory, sleep_driver: neo4j.Driver) -> None:
    """The merged-away duplicate's CONTRADICTS edge moves to the winner with its in-part mark, so the
    winner stays current for the part no news changed."""
    a = sleeper.remember("I love hiking in the mountains.", scope=SCOPE, importance=0.4).memory
    b = sleeper.remember("I really love hiking in the mountains!", scope=SCOPE, importance=0.9).memory
    news = sleeper.remember("The mountain hut we hike to closed for good.", scope=SCOPE).memory
    for old in (a, b):  # whichever is merged away, its edge must move to the winner in part
        cypher(
            sleep_driver,
            "MATCH (n:Memory {id: $n}), (o:Memory {id: $o}) "
            "MERGE (n)-[c:CONTRADICTS]->(o) "
            "SET c.in_part = true, c.strength = 0.5, c.detected_at = datetime()",
            n=news.id,
            o=old.id,
        )
    report = sleeper.consolidate(["nightly"])
    assert report.runs[0].counts["merged"] == 1
    rows = cypher(
        sleep_driver,
        "MATCH (w:Memory {status: 'active'})-[c:CONTRADICTS]-(n:Memory {id: $n}) "
        "WHERE w.id IN [$a, $b] RETURN c.in_part AS in_part",
        n=news.id,
        a=a.id,
        b=b.id,
    )
    assert rows and all(r["in_part"] is True for r in rows)


def test_duplicates_merge_in_each_scope_whatever_batch_its_vectors_are_read_in(
    build, sleep_driver: neo4j.Driver
) -> None:  # type: ignore[no-untyped-def]
    from graphmem.consolidate.settings import ConsolidationSettings

    # Small scopes are read whole a batch of scopes at a time (up to exact_scope_max memories a
    # read): three scopes of three memories each take three reads at a maximum of four.
    memory = build(ConsolidationSettings(exact_scope_max=4))
    pairs = {}
    for user in ("cat", "dan", "eve"):
        scope = f"/user/{user}"
        a = memory.remember("I love hiking in the mountains.", scope=scope).memory
        b = memory.remember("I really love hiking in the mountains!", scope=scope).memory
        memory.remember("The quarterly report is due on Friday.", scope=scope)
        pairs[scope] = {a.id, b.id}
    run = memory.consolidate(["nightly"]).runs[0]
    assert run.status == "succeeded", run.error
    rows = cypher(
        sleep_driver,
        "MATCH (w:Memory)-[:SUPERSEDES {reason: 'merged'}]->(l:Memory) "
        "RETURN w.scope AS scope, w.id AS w, l.id AS l, l.scope AS loser_scope",
    )
    assert sorted(str(r["scope"]) for r in rows) == sorted(pairs)
    for r in rows:
        assert r["loser_scope"] == r["scope"] and {r["w"], r["l"]} == pairs[str(r["scope"])]


def test_new_episodes_join_their_existing_semantic_memory(
    sleeper: Memory, sleep_driver: neo4j.Driver, clock: MovableClock
) -> None:
    topic_of = _plant(sleeper, topics=3, per_topic=8, noise=0)
    sleeper.consolidate(["nightly"])
    before = _lineage(sleep_driver)
    clock.advance(days=1)
    corpus = planted_corpus(topics=3, per_topic=20, noise=0, seed=11)
    texts = {e.text for e in corpus} - {
        r["t"] for r in cypher(sleep_driver, "MATCH (m:Memory) RETURN m.text AS t")
    }
    late = [e for e in corpus if e.text in texts][:6]
    for e in late:
        r = sleeper.remember(e.text, scope=SCOPE)
        topic_of[r.memory.id] = e.topic
    report = sleeper.consolidate(["nightly"])
    run = report.runs[0]
    assert run.counts.get("extended", 0) >= 1
    after = _lineage(sleep_driver)
    assert set(before) <= set(after)
    for sources in after.values():
        assert len({topic_of[s] for s in sources}) == 1


def test_large_scopes_take_their_neighbours_from_the_vector_index(build, sleep_driver: neo4j.Driver) -> None:  # type: ignore[no-untyped-def]
    from graphmem.consolidate.settings import ConsolidationSettings

    # Every scope counts as large, and none as changed enough to be read whole: Neo4j's ANN path.
    memory = build(ConsolidationSettings(exact_scope_max=0, bulk_share=1.01))
    topic_of = _plant(memory)
    run = memory.consolidate(["nightly"]).runs[0]
    assert run.status == "succeeded" and run.counts["promoted"] >= 8
    for sources in _lineage(sleep_driver).values():
        assert len({topic_of[s] for s in sources}) == 1


def test_a_large_scope_changed_in_bulk_is_indexed_in_process(build, sleep_driver: neo4j.Driver) -> None:  # type: ignore[no-untyped-def]
    from graphmem.consolidate.settings import ConsolidationSettings

    memory = build(ConsolidationSettings(exact_scope_max=0))  # large, and all of it new: faiss HNSW
    topic_of = _plant(memory)
    run = memory.consolidate(["nightly"]).runs[0]
    assert run.status == "succeeded" and run.counts["promoted"] >= 8
    for sources in _lineage(sleep_driver).values():
        assert len({topic_of[s] for s in sources}) == 1


def test_a_summary_counts_its_creation_as_a_use_with_its_sources_strength(
    sleeper: Memory, sleep_driver: neo4j.Driver, clock: MovableClock
) -> None:
    _plant(sleeper, topics=3, per_topic=8, noise=0)
    sleeper.recall("hiking", scope=SCOPE, limit=3)  # some sources are used, most never are
    sleeper.settle()
    clock.advance(days=2)
    sleeper.consolidate(["nightly"])
    rows = cypher(
        sleep_driver,
        "MATCH (s:SemanticMemory)-[:DERIVED_FROM]->(e) "
        "RETURN s.id AS id, s.last_accessed_at AS used, s.strength AS strength, "
        "s.spaced_access_count AS spaced, max(e.last_accessed_at) AS sources_used, "
        "max(e.strength) AS sources_strength, max(coalesce(e.spaced_access_count, 0)) AS sources_spaced",
    )
    assert rows
    for row in rows:  # used when made, as any new memory; no stronger than its strongest source
        assert row["used"].to_native() == clock.now()  # type: ignore[attr-defined]
        assert row["sources_used"].to_native() < clock.now()  # type: ignore[attr-defined]
        assert row["strength"] == row["sources_strength"]
        assert row["spaced"] == row["sources_spaced"]


def test_offline_summaries_are_found_through_their_sources_unless_asked_for(
    sleeper: Memory, sleep_driver: neo4j.Driver
) -> None:
    _plant(sleeper, topics=3, per_topic=8, noise=0)
    sleeper.consolidate(["nightly"])
    lineage = _lineage(sleep_driver)
    assert lineage
    query = sleeper.get(next(iter(lineage))).text
    found = sleeper.recall(query, scope=SCOPE, reinforce=False).results
    assert found and all(r.layer == "episodic" for r in found)  # an extractive copy repeats a source
    asked = sleeper.recall(query, scope=SCOPE, layers=["semantic"], reinforce=False).results
    assert asked and asked[0].id in lineage
