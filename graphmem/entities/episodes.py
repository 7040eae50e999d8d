"""Handing stored memories to graphiti in the background (W6 with a language model).

graphiti's ``add_episode`` makes several model calls per memory, so it never runs on the write
path: the write commits first, then its new memories are queued here. One daemon thread owns an
asyncio loop (graphiti's async driver is bound to the loop it was built in) and feeds them to the
bridge one by one; failures are logged and never reach the writer.
"""

from __future__ import annotations

import asyncio
import logging
import queue
import threading
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from graphmem.embedding.base import Embedder
    from graphmem.store.executor import QueryExecutor

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class EpisodeSource:
    """A stored memory to add to graphiti."""

    memory_id: str
    text: str
    scope: str
    occurred_at: datetime
    speaker: str | None


class EpisodeSink(Protocol):
    """What the worker feeds (the graphiti bridge)."""

    def add_memory(
        self, memory_id: str, text: str, scope: str, occurred_at: datetime, speaker: str | None = None
    ) -> Awaitable[object]:
        """Add one memory as an episode."""
        ...


class EpisodeWorker:
    """A background thread with its own event loop that adds memories to graphiti in order."""

    def __init__(self, build: Callable[[], Awaitable[EpisodeSink]]) -> None:
        self._build = build
        self._queue: queue.Queue[EpisodeSource | None] = queue.Queue()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self.done = 0
        self.failed = 0

    def submit(self, sources: Sequence[EpisodeSource]) -> None:
        """Queue memories for graphiti; starts the worker on first use."""
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="graphmem-graphiti", daemon=True)
                self._thread.start()
        for source in sources:
            self._queue.put(source)

    def join(self, timeout: float | None = None) -> None:
        """Wait until everything queued so far is processed (for tests and shutdown)."""
        if self._thread is None:
            return
        self._queue.put(None)
        self._thread.join(timeout)

    def _run(self) -> None:
        asyncio.run(self._loop())

    async def _loop(self) -> None:
        try:
            sink = await self._build()
        except Exception:  # graphiti missing or misconfigured: say so once, drop the work
            log.exception("graphiti could not be started; memories stay linked by the offline extractor")
            sink = None
        while True:
            source = await asyncio.to_thread(self._queue.get)
            if source is None:
                return
            if sink is None:
                self.failed += 1
                continue
            try:
                await sink.add_memory(
                    source.memory_id, source.text, source.scope, source.occurred_at, source.speaker
                )
                self.done += 1
            except Exception:  # a failed episode must never break the writer
                self.failed += 1
                log.exception("graphiti could not add memory %s", source.memory_id)


def graphiti_worker(
    *,
    uri: str,
    user: str,
    password: str,
    database: str,
    api_key: str,
    model: str,
    executor: QueryExecutor,
    embedder: Embedder,
) -> EpisodeWorker:
    """A worker feeding graphiti (with its Anthropic client) on the same Neo4j; built lazily in its loop."""

    async def build() -> EpisodeSink:
        from graphmem.entities.graphiti_bridge import GraphitiBridge, anthropic_llm_client, build_graphiti
        from graphmem.entities.linker import EntityLinker
        from graphmem.llm.none import NoLLM
        from graphmem.store.entities import EntityStore

        graphiti = build_graphiti(
            uri, user, password, database, anthropic_llm_client(api_key, model), embedder
        )
        linker = EntityLinker(NoLLM(), embedder, EntityStore(executor))
        bridge = GraphitiBridge(graphiti, executor, linker)
        await bridge.prepare()
        return bridge

    return EpisodeWorker(build)
