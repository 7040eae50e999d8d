"""The belief check's pair model (beliefs/pair_head.py) and how the checker asks it: only where the
judge keeps both for want of a reading, one stored statement at most, the likeliest, when it is
likely enough and clearly likelier than the rest; never with vectors of another model."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import numpy as np
import pytest

from graphmem.beliefs.pair_head import PairHead, features, shipped_head
from graphmem.beliefs.resolver import LEARNED, BeliefChecker, BeliefSettings, Neighbour
from graphmem.beliefs.statements import read_statement
from graphmem.llm.none import NoLLM

DIM = 4
T0 = datetime(2025, 1, 1, tzinfo=UTC)


class _Named:
    """An embedder stand-in that only names a model (the checker reads nothing else of it here)."""

    def __init__(self, model_name: str, dimension: int) -> None:
        self.model_name, self.dimension = model_name, dimension


def _head_reading_the_first_axis() -> PairHead:
    """A head whose logit is 10 * (old[0] * new[0]) - 5: a pair meeting on axis 0 reads as an
    update (p ~ 0.99 at product 1), anything else as both staying (p ~ 0.007)."""
    weights = np.zeros(3 * DIM + 2)
    weights[0] = 10.0
    weights[-1] = -5.0
    return PairHead("test-model", DIM, weights)


def _unit(*values: float) -> np.ndarray:
    v = np.asarray(values, dtype=np.float32)
    return v / np.linalg.norm(v)


def _checker(margin: float = 0.0) -> BeliefChecker:
    settings = BeliefSettings(pair_model_min=0.5, pair_model_margin=margin)
    return BeliefChecker(
        NoLLM(), settings, None, None, _Named("test-model", DIM), _head_reading_the_first_axis()
    )  # type: ignore[arg-type]


def _stored(memory_id: str, text: str, vector: np.ndarray, day: int = 0) -> Neighbour:
    return Neighbour(memory_id, text, 0.6, T0 + timedelta(days=day), 1.0, read_statement(text), vector)


def test_the_shipped_head_is_for_minilm_vectors_only() -> None:
    head = shipped_head()
    assert head is not None
    assert head.fits("sentence-transformers/all-MiniLM-L6-v2", 384)
    assert not head.fits("sentence-transformers/all-MiniLM-L6-v2", 256)
    assert head.weights.shape == (3 * 384 + 2,)
    other = _Named("some/other-model", 384)
    checker = BeliefChecker(NoLLM(), None, None, None, other)  # type: ignore[arg-type]
    stored = [_stored("band", "Ravi's band plays at the Crown every Friday.", _unit(1.0, 0.0, 0.0, 0.0))]
    assert checker.learned_replacement(stored, T0 + timedelta(days=1), _unit(1.0, 0.0, 0.0, 0.0)) is None


def test_features_are_symmetric_in_the_products_and_directed_in_the_difference() -> None:
    u, v = np.asarray([[1.0, 0.0]]), np.asarray([[0.6, 0.8]])
    forward, backward = features(u, v), features(v, u)
    assert np.allclose(forward[:, :2], backward[:, :2])  # u*v
    assert np.allclose(forward[:, 2:4], backward[:, 2:4])  # |u-v|
    assert np.allclose(forward[:, 4:6], -backward[:, 4:6])  # v-u: which one came later matters
    assert forward[0, 6] == pytest.approx(0.6) and forward[0, 7] == 1.0  # cosine, bias


def test_the_head_replaces_the_one_it_reads_where_the_judge_found_no_slot() -> None:
    checker = _checker()
    stored = [
        _stored("grape", "Grace's favourite fruit is grapes.", _unit(0.0, 1.0, 0.0, 0.0)),
        _stored("band", "Ravi's band plays at the Crown every Friday.", _unit(1.0, 0.0, 0.0, 0.0)),
    ]
    new = read_statement("Ravi's band split up after the summer tour.")
    plan = checker.offline(new, T0 + timedelta(days=30), stored, _unit(1.0, 0.0, 0.0, 0.0))
    assert plan.replaced() == {"band": LEARNED}


def test_several_read_alike_means_none_is_replaced_under_a_margin() -> None:
    """A model that reads two stored statements as equally replaced is reading whom they are about."""
    stored = [
        _stored("a", "Ravi's band plays at the Crown every Friday.", _unit(1.0, 0.0, 0.0, 0.0)),
        _stored("b", "Ravi's band rehearses in a garage in Hackney.", _unit(1.0, 0.0, 0.0, 0.0)),
    ]
    new = read_statement("Ravi's band split up after the summer tour.")
    later = T0 + timedelta(days=30)
    assert len(_checker(margin=0.0).offline(new, later, stored, _unit(1.0, 0.0, 0.0, 0.0)).replaced()) == 1
    assert _checker(margin=0.15).offline(new, later, stored, _unit(1.0, 0.0, 0.0, 0.0)).replaced() == {}


def test_a_reason_the_judge_reads_stands_against_the_head() -> None:
    """Another person's fact, a plan: the judge's reading wins however sure the head is."""
    checker = _checker()
    stored = [_stored("home", "Lena lives in Graz.", _unit(1.0, 0.0, 0.0, 0.0))]
    later = T0 + timedelta(days=30)
    for text in ["Lena's brother moved to Vienna.", "Lena might move to Vienna next year."]:
        plan = checker.offline(read_statement(text), later, stored, _unit(1.0, 0.0, 0.0, 0.0))
        assert plan.replaced() == {}, text


def test_without_vectors_the_head_is_not_asked() -> None:
    checker = _checker()
    stored = [
        Neighbour(
            "band",
            "Ravi's band plays at the Crown every Friday.",
            0.6,
            T0,
            1.0,
            read_statement("Ravi's band plays at the Crown every Friday."),
        )
    ]
    new = read_statement("Ravi's band split up after the summer tour.")
    assert checker.offline(new, T0 + timedelta(days=30), stored, None).replaced() == {}
