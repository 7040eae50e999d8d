"""The write path's scope vector cache: it fills in only what the graph does not send again."""

from __future__ import annotations

import numpy as np

from graphmem.store.write_vectors import UNKNOWN, ScopeVectors


def _v(x: float) -> list[float]:
    return [x, 1.0 - x, 0.5]


def test_a_scope_read_whole_then_only_what_changed_gives_every_vector_in_order() -> None:
    cache = ScopeVectors()
    assert cache.known("/s") == UNKNOWN
    first = cache.matrix("/s", 2, UNKNOWN, ["a", "b"], ["a", "b"], [_v(0.1), _v(0.2)])
    assert first is not None and cache.known("/s") == 2
    # b was superseded (no longer listed), c written at revision 3 and a's vector was re-made at 4
    second = cache.matrix("/s", 4, 2, ["c", "a"], ["c", "a"], [_v(0.3), _v(0.9)])
    assert second is not None
    assert np.array_equal(second, np.asarray([_v(0.3), _v(0.9)], dtype=np.float32))
    third = cache.matrix("/s", 4, 4, ["a", "c"], [], [])
    assert third is not None
    assert np.array_equal(third, np.asarray([_v(0.9), _v(0.3)], dtype=np.float32))


def test_a_vector_the_cache_never_had_makes_the_caller_read_the_scope_whole() -> None:
    cache = ScopeVectors()
    cache.matrix("/s", 1, UNKNOWN, ["a"], ["a"], [_v(0.1)])
    # "z" was made active again without a new revision: its vector is neither sent nor cached
    assert cache.matrix("/s", 1, 1, ["a", "z"], [], []) is None
    assert cache.known("/s") == UNKNOWN


def test_a_revision_that_went_back_makes_the_caller_read_the_scope_whole() -> None:
    cache = ScopeVectors()
    cache.matrix("/s", 7, UNKNOWN, ["a"], ["a"], [_v(0.1)])
    assert cache.matrix("/s", 3, 7, ["a"], [], []) is None


def test_the_least_recently_written_scopes_make_room() -> None:
    cache = ScopeVectors(max_vectors=3)
    cache.matrix("/old", 1, UNKNOWN, ["a", "b"], ["a", "b"], [_v(0.1), _v(0.2)])
    cache.matrix("/new", 1, UNKNOWN, ["c", "d"], ["c", "d"], [_v(0.3), _v(0.4)])
    assert cache.known("/old") == UNKNOWN and cache.known("/new") == 1
