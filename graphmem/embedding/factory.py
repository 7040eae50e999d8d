"""Builds the embedder the settings name (``GRAPHMEM_EMBEDDER``)."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from graphmem.embedding.base import Embedder
from graphmem.embedding.onnx_minilm import OnnxMiniLMEmbedder
from graphmem.embedding.sentence_transformers import SentenceTransformerEmbedder
from graphmem.errors import EmbeddingError

EmbedderName = Literal["onnx", "sentence-transformers"]


def create_embedder(
    name: EmbedderName, threads: int | None = None, *, fused_dir: Path | None = None
) -> Embedder:
    """An embedder, not yet loaded: ``onnx`` (default, int8) or ``sentence-transformers`` (torch).

    Both run all-MiniLM-L6-v2 and report the same model name, so either can read a graph the
    other wrote. ``threads`` caps the CPU threads inference uses (default: usable CPUs, at most
    4). ``fused_dir`` is where the ONNX embedder keeps its fused graph between loads (None: it
    rewrites the graph at every load). Raises EmbeddingError for any other name; missing
    packages surface on first use.
    """
    if name == "onnx":
        return OnnxMiniLMEmbedder(threads=threads, fused_dir=fused_dir)
    if name == "sentence-transformers":
        return SentenceTransformerEmbedder(threads=threads)
    raise EmbeddingError(f"unknown embedder {name!r}: choose 'onnx' or 'sentence-transformers'")
