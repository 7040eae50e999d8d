"""Fixtures shared by the unit tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from graphmem.embedding.onnx_minilm import OnnxMiniLMEmbedder


@pytest.fixture(scope="module")
def onnx() -> Iterator[OnnxMiniLMEmbedder]:
    """The ONNX MiniLM embedder, loaded (the real model, offline)."""
    embedder = OnnxMiniLMEmbedder()
    embedder.load()
    yield embedder
