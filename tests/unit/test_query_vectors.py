"""Recall's query vectors: one started ahead (as a REST request arrives) is the vector the recall
would compute itself, each query reaches the model once however many wait for it, and an
embedding failure reaches the recall that waits."""

from __future__ import annotations

import threading
from collections.abc import Sequence

import numpy as np
import pytest

from graphmem.embedding.base import Vectors
from graphmem.errors import EmbeddingError
from graphmem.recall.query_vectors import QueryVectors


class SlowEmbedder:
    """A deterministic stand-in that holds each batch until released, and counts the batches."""

    model_name = "slow"
    dimension = 3

    def __init__(self, fail: bool = False) -> None:
        self.release = threading.Event()
        self.batches: list[list[str]] = []
        self._fail = fail

    def embed(self, texts: Sequence[str]) -> Vectors:
        self.batches.append(list(texts))
        self.release.wait(5)
        if self._fail:
            raise EmbeddingError("the model failed")
        return np.asarray([[len(t), 1.0, 0.0] for t in texts], dtype=np.float32)

    def embed_one(self, text: str) -> Vectors:
        vector: Vectors = self.embed([text])[0]
        return vector


def test_a_vector_started_ahead_is_the_one_computed_in_place_and_the_model_runs_once() -> None:
    embedder = SlowEmbedder()
    vectors = QueryVectors(embedder, query_weight=0.6)
    texts = ("Where does Ingrid live?", "we talked about Norway")
    first = vectors.ahead(texts)
    second = vectors.ahead(texts)  # a recall arriving while the first is under way waits for it
    assert vectors.under_way(texts)
    embedder.release.set()
    assert first() == second()
    assert embedder.batches == [list(texts)]
    assert vectors.known(texts) == first()
    assert QueryVectors(embedder, query_weight=0.6).get(texts) == first()


def test_an_embedding_failure_reaches_the_recall_that_waits_and_is_not_kept() -> None:
    embedder = SlowEmbedder(fail=True)
    vectors = QueryVectors(embedder, query_weight=0.6)
    waiting = vectors.ahead(("What did I plan?",))
    embedder.release.set()
    with pytest.raises(EmbeddingError):
        waiting()
    assert vectors.known(("What did I plan?",)) is None
