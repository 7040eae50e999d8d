"""Pure pieces of the write and recall paths: scopes, Lucene queries, batch dedup, D2."""

from __future__ import annotations

import numpy as np
import pytest

from graphmem.dynamics.reinforcement import is_spaced, reinforce, reinforcement_gain
from graphmem.errors import InvalidInputError
from graphmem.recall.lucene import lucene_query
from graphmem.recall.search import similarity_confidence
from graphmem.scopes import normalize_scope, scope_filter
from graphmem.store.memories import cosine_from_index_score, index_score_from_cosine
from graphmem.write.dedup import batch_duplicates


@pytest.mark.parametrize(
    ("raw", "canonical"),
    [
        (None, "/"),
        ("/", "/"),
        ("user/alice", "/user/alice"),
        ("/user/alice/", "/user/alice"),
        ("/a.b/c-d/e@f", "/a.b/c-d/e@f"),
    ],
)
def test_scopes_are_normalised(raw: str | None, canonical: str) -> None:
    assert normalize_scope(raw) == canonical


@pytest.mark.parametrize("bad", ["/a b", "/a//b", "/a/$x", "/" + "x" * 600, "/a/'; DROP"])
def test_bad_scopes_are_refused_with_an_example(bad: str) -> None:
    with pytest.raises(InvalidInputError, match="/user/alice/health"):
        normalize_scope(bad)


def test_scope_filter_matches_subtree_not_siblings() -> None:
    assert scope_filter("/") == (None, None)
    assert scope_filter("/user/al") == ("/user/al", "/user/al/")


def test_lucene_query_keeps_words_and_drops_operators() -> None:
    assert lucene_query('What is "Bob" AND (title:x) OR y~2?') == "bob OR title"
    assert lucene_query("???") is None
    assert lucene_query("the and of") is None
    assert lucene_query("Bob's car, bob's CAR") == "bobs OR car"


def test_batch_duplicates_needs_same_scope_and_high_cosine() -> None:
    a = np.array([1.0, 0.0], dtype=np.float32)
    near = np.array([0.999, 0.0447], dtype=np.float32)
    near /= np.linalg.norm(near)
    far = np.array([0.0, 1.0], dtype=np.float32)
    vectors = np.stack([a, near, far, a])
    assert batch_duplicates(vectors, ["/s", "/s", "/s", "/other"], 0.98) == [None, 0, None, None]


def test_index_score_and_cosine_round_trip() -> None:
    assert index_score_from_cosine(0.98) == pytest.approx(0.99)
    assert cosine_from_index_score(index_score_from_cosine(0.3)) == pytest.approx(0.3)


@pytest.mark.parametrize(
    ("strength", "hours", "gain"),
    [(1.0, 30 / 3600, 0.0), (1.0, 24 * 7, 0.075), (1.8, 24 * 7, 0.015)],
)
def test_d2_reproduces_the_reference_table(strength: float, hours: float, gain: float) -> None:
    assert reinforcement_gain(strength, hours) == pytest.approx(gain, abs=0.0015)


def test_d2_never_passes_the_ceiling_and_spacing_needs_12_hours() -> None:
    assert reinforce(1.99, 1000) <= 2.0
    assert not is_spaced(11.9) and is_spaced(12)


def test_confidence_grows_with_similarity() -> None:
    assert similarity_confidence(None) == 0.0
    assert similarity_confidence(0.1) == 0.0
    assert 0 < similarity_confidence(0.5) < similarity_confidence(0.7) <= 1.0


def test_texts_equal_but_for_case_and_punctuation_are_batch_duplicates_at_any_cosine() -> None:
    from graphmem.write.dedup import text_key

    assert text_key("ROOM 4 has a broken projector!") == text_key("Room 4 has a  broken projector.")
    assert text_key("Room 4 has a broken projector.") != text_key("Room 5 has a broken projector.")
    vectors = np.eye(3, dtype=np.float32)  # orthogonal: no cosine says duplicate
    keys = [text_key(t) for t in ["Tea at 4.", "tea at 4", "Tea at 5."]]
    assert batch_duplicates(vectors, ["/s", "/s", "/s"], 0.98, keys) == [None, 0, None]
