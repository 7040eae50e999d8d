"""Recall's in-process vector cache as pure logic: exact nearest memories, rows replaced and
dropped, which scopes changed; and the times recall details decode without the driver."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import numpy as np
import pytest

from graphmem.recall.vector_cache import Opened, Subtree, VectorCache, first_check
from graphmem.store.pool_rows import (
    DETAIL_COLUMNS,
    RECORD_TIMES,
    TIME_PARTS,
    DetailRows,
    detail_facts,
    detail_row,
    detail_times,
)
from graphmem.store.records import instant
from graphmem.store.scope_vectors import ScopeRows
from graphmem.store.search import facts_of


def rows(ids: list[str], scope: str, vectors: list[list[float]]) -> ScopeRows:
    return ScopeRows(
        ids, [scope] * len(ids), np.asarray(vectors, dtype=np.float32), [f"text of {i}" for i in ids]
    )


def test_nearest_is_the_exact_cosine_order_and_skips_dropped_rows() -> None:
    tree = Subtree("/u", "/u/", {})
    tree.upsert(rows(["a", "b", "c"], "/u", [[1, 0], [0.6, 0.8], [0, 1]]))
    query = np.asarray([1, 0], dtype=np.float32)
    assert [m for m, _ in tree.nearest(query, 3)] == ["a", "b", "c"]
    assert tree.nearest(query, 1)[0] == ("a", 1.0)
    tree.drop({"a"})
    assert [m for m, _ in tree.nearest(query, 5)] == ["b", "c"]


def test_a_re_embedded_or_moved_memory_keeps_one_row() -> None:
    tree = Subtree("/u", "/u/", {})
    tree.upsert(rows(["a", "b"], "/u", [[1, 0], [0, 1]]))
    tree.upsert(
        ScopeRows(["a"], ["/u/work"], np.asarray([[0, 3]], dtype=np.float32), ["a re-worded"])
    )  # not normalised on the way in
    query = np.asarray([0, 1], dtype=np.float32)
    assert tree.live() == 2
    assert tree.text("a") == "a re-worded" and tree.text("b") == "text of b"
    assert tree.cosine("a", query) == 1.0
    assert tree.count("/u/work") == 1 and tree.count("/u") == 1


def test_many_rows_grow_the_matrix() -> None:
    tree = Subtree("/u", "/u/", {})
    vectors = np.random.default_rng(1).normal(size=(300, 8)).astype(np.float32)
    tree.upsert(ScopeRows([str(i) for i in range(300)], ["/u"] * 300, vectors, ["x"] * 300))
    best = tree.nearest(vectors[123] / np.linalg.norm(vectors[123]), 1)
    assert best[0][0] == "123"


def test_scopes_whose_revision_moved_are_stale() -> None:
    tree = Subtree("/u", "/u/", {"/u": 3, "/u/a": 1})
    graph = {"/u": 3, "/u/a": 2, "/u/b": 1, "/other": 9}
    assert tree.stale(graph) == {"/u/a": 1, "/u/b": 0}
    assert tree.stale({"/u": 3, "/u/a": 1}) == {}


def test_instants_decode_like_the_driver() -> None:
    moment = datetime(2025, 1, 2, 3, 4, 5, 123456, tzinfo=UTC)
    assert instant([int(moment.timestamp()), 123456789, 0]) == moment
    assert instant(None) is None
    oslo = instant([int(moment.timestamp()), 0, 3600])
    assert oslo is not None and oslo.utcoffset() == timedelta(hours=1)
    assert oslo.tzinfo == timezone(timedelta(hours=1))


def test_the_episode_context_of_a_memory_comes_from_the_cached_vectors() -> None:
    tree = Subtree("/u", "/u/", {})
    tree.upsert(rows(["a", "b", "c"], "/u", [[1, 0], [0.6, 0.8], [0, 2]]))
    cache = VectorCache(dimension=2, max_rows=10)
    opened = Opened([tree], [])
    query = np.asarray([0, 1], dtype=np.float32)
    around = cache.surroundings(opened, query, {"a": ["b", "c"]})
    assert around is not None
    context = around["a"]
    assert context.to_query == pytest.approx((0.8, 1.0))
    assert context.to_memory == pytest.approx((0.6, 0.0))
    assert context.among[0] == pytest.approx((1.0, 0.8)) and context.among[1] == pytest.approx((0.8, 1.0))
    assert context.texts == ("text of b", "text of c")  # the cached texts
    # a neighbour the cache does not hold (another scope): the graph reads the context instead
    assert cache.surroundings(opened, query, {"a": ["b", "elsewhere"]}) is None


def test_the_first_check_sends_the_candidates_asked_for_and_a_fifth_more() -> None:
    assert first_check(50, 100) == 60
    assert first_check(5, 10) == 6
    assert first_check(50, 40) == 40  # never more hits than the cache ranked


def test_a_neighbour_s_cosine_and_text_come_from_the_cache_or_not_at_all() -> None:
    tree = Subtree("/u", "/u/", {})
    tree.upsert(rows(["a", "b"], "/u", [[1, 0], [0.6, 0.8]]))
    cache = VectorCache(dimension=2, max_rows=10)
    opened = Opened([tree], [])
    query = np.asarray([0, 1], dtype=np.float32)
    held = cache.held(opened, query, ["a", "b"])
    assert held is not None
    assert held["a"][0] == pytest.approx(0.0) and held["b"][0] == pytest.approx(0.8)
    assert held["b"][1] == "text of b"
    assert cache.held(opened, query, ["a", "written since"]) is None  # the graph reads them instead


def _detail(memory: dict[str, Any], times: list[Any], extra: dict[str, Any]) -> list[Any]:
    """A detail row as the check sends it: a list in DETAIL_COLUMNS order (each time as three
    values of the row)."""
    known = {**memory, **extra}
    for time, parts in zip(RECORD_TIMES, times, strict=True):
        known |= dict(zip([f"{time}_{part}" for part in TIME_PARTS], parts or [None] * 3, strict=True))
    return [known.get(name) for name in DETAIL_COLUMNS]


def test_a_detail_row_gives_the_ranking_facts_a_candidate_row_gives() -> None:
    occurred, accessed = [1_700_000_000, 5, 0], [1_700_100_000, 0, 3600]
    memory = {"importance": 0.7, "strength": 0.9, "layer": "episodic", "categories": ["pets"]}
    memory |= {"pinned": True, "status": "superseded"}
    extra = {"spaced": 3, "priority": 0.25, "fade": 0.5, "faded_at": 1_700_200_000}
    candidate = {**memory, **extra, "occurred": occurred[0], "accessed": accessed[0]}
    values = _detail(memory, [None, occurred, accessed, None], extra)
    assert detail_facts(values) == facts_of(candidate)
    assert detail_times(values) == [None, occurred, accessed, None]  # as search/recall_details sends them
    # never accessed, no categories, importance unset, never faded: the same defaults
    bare = {**memory, "importance": None, "categories": [], "pinned": False}
    plain = {"spaced": 0, "priority": 0.0, "fade": 1.0, "faded_at": None}
    candidate = {**bare, "categories": None, **plain, "occurred": occurred[0], "accessed": occurred[0]}
    assert detail_facts(_detail(bare, [None, occurred, None, None], plain)) == facts_of(candidate)


def test_detail_rows_are_made_when_read_with_the_cached_text() -> None:
    values = _detail({"id": "a", "layer": "episodic", "status": "active"}, [None] * 4, {"sources": ["b"]})
    rows = DetailRows({"a": values}, {"a": "text of a"})
    assert "a" in rows and "b" not in rows and list(rows) == ["a"] and len(rows) == 1
    assert rows.get("b") is None
    assert rows["a"]["memory"]["text"] == "text of a" and rows["a"]["sources"] == ["b"]
    assert rows["a"] is rows["a"]  # made once
    assert rows.facts("a") == detail_facts(values)
    want = detail_row(values)
    want["memory"]["text"] = "text of a"
    assert {name: rows["a"][name] for name in want} == want
    with pytest.raises(KeyError):
        rows["a"]["embedding"]
    with pytest.raises(KeyError):
        rows["a"]["layer"]  # a record's value is the record's, as in detail_row


def test_records_take_their_texts_from_the_cache_or_not_at_all() -> None:
    tree = Subtree("/u", "/u/", {})
    tree.upsert(rows(["a", "b"], "/u", [[1, 0], [0.6, 0.8]]))
    cache = VectorCache(dimension=2, max_rows=10)
    opened = Opened([tree], [])
    assert cache.texts(opened, ["b", "a"]) == {"b": "text of b", "a": "text of a"}
    assert cache.texts(opened, ["a", "written since"]) is None


def test_centrality_from_the_cache_is_the_mean_cosine_to_the_others_in_one_or_more_subtrees() -> None:
    vectors = [[1.0, 0.0], [0.6, 0.8], [0.0, 1.0]]
    one = Subtree("/u", "/u/", {})
    one.upsert(rows(["a", "b", "c"], "/u", vectors))
    left, right = Subtree("/v", "/v/", {}), Subtree("/w", "/w/", {})
    left.upsert(rows(["a", "b"], "/v", vectors[:2]))
    right.upsert(rows(["c"], "/w", vectors[2:]))
    cache = VectorCache(dimension=2, max_rows=10)
    want = {"a": (0.6 + 0.0) / 2, "b": (0.6 + 0.8) / 2, "c": (0.0 + 0.8) / 2}
    for trees in ([one], [left, right]):
        got = cache.centrality(Opened(trees, []), ["a", "b", "c"])
        assert got is not None and got == pytest.approx(want)
        assert cache.centrality(Opened(trees, []), ["a", "written since"]) is None
        assert cache.centrality(Opened(trees, []), ["a"]) == {}
        assert cache.centrality(Opened(trees, []), []) == {}
