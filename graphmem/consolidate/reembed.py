"""C7: when the configured embedder differs from the one recorded in the graph, re-embed every memory.

Pages of 256 memories, each page one transaction; a memory records the model of its vector, so
an interrupted run resumes where it stopped. When all are done the graph records the new model.
"""

from __future__ import annotations

from graphmem.consolidate.context import RunContext
from graphmem.embedding.base import Embedder
from graphmem.store.consolidation import ConsolidationStore
from graphmem.store.executor import QueryExecutor
from graphmem.store.schema import record_embedding_model

STEP = "C7 re-embed"
PAGE = 256


class Reembedding:
    """C7 for one embedder."""

    def __init__(self, store: ConsolidationStore, executor: QueryExecutor, embedder: Embedder) -> None:
        self._store = store
        self._executor = executor
        self._embedder = embedder

    @property
    def model(self) -> str:
        """The model name recorded on re-embedded memories (name@dimension)."""
        return f"{self._embedder.model_name}@{self._embedder.dimension}"

    def run(self, ctx: RunContext, needed: bool) -> bool:
        """Re-embed when ``needed``; True when the graph now records the configured model."""
        if not needed:
            return False
        total = self._store.count_to_reembed(self.model)
        done = 0
        after = ""
        while True:
            rows = self._store.to_reembed(self.model, after, PAGE)
            if not rows:
                break
            vectors = self._embedder.embed([r["text"] for r in rows])
            payload = [
                {"id": r["id"], "embedding": [float(x) for x in v]}
                for r, v in zip(rows, vectors, strict=True)
            ]
            done += self._store.set_embeddings(payload, self.model)
            after = rows[-1]["id"]
            ctx.heartbeat()
            ctx.progress(STEP, done, total)
        ctx.counts["reembedded"] += done
        record_embedding_model(self._executor, self._embedder.model_name, self._embedder.dimension)
        return True
