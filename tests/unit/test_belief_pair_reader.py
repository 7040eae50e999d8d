"""The belief check's pair reader (beliefs/pair_reader.py): the two statements read together by
MiniLM, and how the checker uses it beside the pair head: the mean of the two, a clause about the
past theirs to read only when both are there, never with states of another model."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

import numpy as np
from numpy.typing import NDArray

from graphmem.beliefs.judge import ABOUT_THE_PAST, NOT_ATOMIC, RESTATES_OR_NARROWS, Verdict
from graphmem.beliefs.pair_head import PairHead
from graphmem.beliefs.pair_reader import PairEncoder, PairReader, pooled, shipped_reader
from graphmem.beliefs.resolver import LEARNED, BeliefChecker, BeliefSettings, Neighbour
from graphmem.beliefs.statements import read_statement
from graphmem.embedding.onnx_minilm import OnnxMiniLMEmbedder
from graphmem.llm.none import NoLLM

DIM = 4
T0 = datetime(2025, 1, 1, tzinfo=UTC)
MINILM = "sentence-transformers/all-MiniLM-L6-v2"


class _Pairs:
    """An embedder stand-in that reads pairs as all-zero states (the reader then reads its biases)."""

    model_name, dimension = "test-model", DIM

    def encode_pairs(
        self, pairs: Sequence[tuple[str, str]], max_tokens: int = 96, layer: int | None = None
    ) -> tuple[NDArray[np.float32], NDArray[np.int64], NDArray[np.int64]]:
        shape = (len(pairs), 6)
        types = np.zeros(shape, dtype=np.int64)
        types[:, 3:] = 1
        return np.zeros((*shape, DIM), dtype=np.float32), np.ones(shape, dtype=np.int64), types


class _Vectors:
    """An embedder stand-in that only names a model: it cannot read pairs."""

    model_name, dimension = "test-model", DIM


def _reader(update_logit: float) -> PairReader:
    """A reader that reads every pair alike: p(update) = e^b / (2 + e^b)."""
    return PairReader(
        "test-model",
        DIM,
        np.zeros((8, 4 * DIM + 1), np.float32),
        np.zeros(8, np.float32),
        np.zeros((3, 8), np.float32),
        np.asarray([0.0, update_logit, 0.0], np.float32),
    )


def _head() -> PairHead:
    """A head reading every pair meeting on axis 0 as an update (p ~ 0.99)."""
    weights = np.zeros(3 * DIM + 2)
    weights[0], weights[-1] = 10.0, -5.0
    return PairHead("test-model", DIM, weights)


def _unit(*values: float) -> np.ndarray:
    v = np.asarray(values, dtype=np.float32)
    return v / np.linalg.norm(v)


def _stored(memory_id: str, text: str) -> Neighbour:
    return Neighbour(memory_id, text, 0.6, T0, 1.0, read_statement(text), _unit(1.0, 0.0, 0.0, 0.0))


def _checker(embedder: object, reader: PairReader, floor: float = 0.6) -> BeliefChecker:
    settings = BeliefSettings(pair_model_min=floor, pair_model_margin=0.0)
    return BeliefChecker(NoLLM(), settings, None, None, embedder, _head(), reader)  # type: ignore[arg-type]


def test_the_shipped_reader_is_for_minilm_states_only() -> None:
    reader = shipped_reader()
    assert reader is not None
    assert reader.fits(MINILM, 384) and not reader.fits(MINILM, 256) and not reader.fits("other/model", 384)
    assert reader.hidden.shape == (128, 4 * 384 + 1) and reader.out.shape == (3, 128)


def test_pooled_reads_each_statement_by_its_own_tokens() -> None:
    states = np.arange(2 * 4 * 2, dtype=np.float32).reshape(2, 4, 2)
    mask = np.asarray([[1, 1, 1, 1], [1, 1, 1, 0]])
    types = np.asarray([[0, 0, 1, 1], [0, 1, 1, 0]])
    features = pooled(states, mask, types, [0.25, 0.5])
    assert features.shape == (2, 4 * 2 + 1)
    np.testing.assert_allclose(features[0, :2], states[0, 0])  # [CLS]
    np.testing.assert_allclose(features[0, 2:4], states[0, :2].mean(axis=0))  # the older statement
    np.testing.assert_allclose(features[1, 4:6], states[1, 1:3].mean(axis=0))  # the newer, padding left out
    np.testing.assert_allclose(features[:, 6:8], features[:, 2:4] - features[:, 4:6])
    np.testing.assert_allclose(features[:, 8], [0.25, 0.5])


def test_the_checker_takes_the_mean_of_head_and_reader() -> None:
    """The head alone reads a replacement at p 0.99; a reader at p 0.01 brings the mean below the floor."""
    stored = [_stored("band", "Ravi's band plays at the Crown every Friday.")]
    new = read_statement("Ravi's band split up after the summer tour.")
    later, vector = T0 + timedelta(days=30), _unit(1.0, 0.0, 0.0, 0.0)
    doubting = _checker(_Pairs(), _reader(-5.0))
    assert doubting.offline(new, later, stored, vector).replaced() == {}
    agreeing = _checker(_Pairs(), _reader(5.0))
    assert agreeing.offline(new, later, stored, vector).replaced() == {"band": LEARNED}
    # an embedder that cannot read pairs leaves the head to decide alone
    alone = _checker(_Vectors(), _reader(-5.0))
    assert alone.offline(new, later, stored, vector).replaced() == {"band": LEARNED}


def test_a_clause_about_the_past_is_read_only_with_both_readers() -> None:
    old = read_statement("Ravi's band plays at the Crown every Friday.")
    new = read_statement("Ravi's band split up after the summer tour.")
    past = Verdict(False, ABOUT_THE_PAST, unread_or_past=True)
    assert _checker(_Pairs(), _reader(0.0)).model_floor(past, old, new) == 0.6
    assert _checker(_Vectors(), _reader(0.0)).model_floor(past, old, new) is None
    unread = Verdict(False, "different slots", unread=True, unread_or_past=True)
    assert _checker(_Vectors(), _reader(0.0)).model_floor(unread, old, new) == 0.6


def test_the_onnx_embedder_reads_a_pair_as_one_input(onnx: OnnxMiniLMEmbedder) -> None:
    assert isinstance(onnx, PairEncoder)
    states, mask, types = onnx.encode_pairs([("Noor lives in Leeds.", "Noor moved to York."), ("a", "b")])
    assert states.shape[0] == 2 and states.shape[2] == 384 and mask.shape == types.shape == states.shape[:2]
    assert types[0].max() == 1 and types[0, 0] == 0  # the newer statement's tokens are of type 1
    assert mask[1].sum() == 5  # [CLS] a [SEP] b [SEP]; the rest is padding
    long = " ".join(["word"] * 200)
    assert onnx.encode_pairs([(long, long)])[0].shape[1] == 96


def test_the_shipped_reader_reads_a_move_above_a_visit(onnx: OnnxMiniLMEmbedder) -> None:
    reader = shipped_reader()
    assert reader is not None
    old = "Tomasz lives in Gdansk."
    pairs = [
        (old, "Tomasz handed back the keys to his Gdansk flat and now rents in Poznan."),
        (old, "Tomasz visited his aunt in Sopot last weekend."),
    ]
    vectors = onnx.embed([old, pairs[0][1], pairs[1][1]])
    moved, visited = reader.update_probability(onnx, pairs, [float(vectors[0] @ v) for v in vectors[1:]])
    assert moved > 0.5 > visited


def test_two_attributes_the_parse_read_apart_stay_whatever_the_readers_read() -> None:
    """A birthday and a job are two things the parse reads: news of one leaves the other, however
    sure both learned readers are."""
    stored = [_stored("birthday", "Tomas's birthday is 3 May.")]
    later, vector = T0 + timedelta(days=30), _unit(1.0, 0.0, 0.0, 0.0)
    plan = _checker(_Pairs(), _reader(5.0)).offline(
        read_statement("Tomas started a new job at Siemens."), later, stored, vector
    )
    assert LEARNED not in plan.replaced().values()


def test_a_message_of_unread_sentences_is_read_only_with_both_readers() -> None:
    old = read_statement("Ravi plays bass in a band.")
    new = read_statement("Ravi's band split up. He is learning the cello now.")
    message = Verdict(False, NOT_ATOMIC, unread_message=True)
    assert _checker(_Pairs(), _reader(0.0)).model_floor(message, old, new) == 0.6
    assert _checker(_Vectors(), _reader(0.0)).model_floor(message, old, new) is None
    assert _checker(_Pairs(), _reader(0.0)).model_floor(Verdict(False, NOT_ATOMIC), old, new) is None


def test_a_restatement_by_the_judge_is_read_only_with_both_readers() -> None:
    """'Married' after 'engaged' reads to the judge as narrowing the same relation; both learned
    readers together may still read a change there, at a bar of its own."""
    old = read_statement("Isabela is engaged to Tiago.")
    new = read_statement("Isabela married Tiago in September.")
    restates = Verdict(False, RESTATES_OR_NARROWS)
    floor = BeliefSettings().pair_model_restates_min
    assert _checker(_Pairs(), _reader(0.0)).model_floor(restates, old, new) == floor < 1.0
    assert _checker(_Vectors(), _reader(0.0)).model_floor(restates, old, new) is None
