"""The background feed of memories into graphiti: in order, off the write path, failures contained."""

from __future__ import annotations

from datetime import UTC, datetime

from graphmem.entities.episodes import EpisodeSink, EpisodeSource, EpisodeWorker

WHEN = datetime(2024, 1, 1, tzinfo=UTC)


class RecordingSink:
    def __init__(self) -> None:
        self.added: list[str] = []

    async def add_memory(
        self, memory_id: str, text: str, scope: str, occurred_at: datetime, speaker: str | None = None
    ) -> object:
        if text == "boom":
            raise RuntimeError("graphiti failed")
        self.added.append(memory_id)
        return None


def test_memories_reach_graphiti_in_order_and_failures_are_contained() -> None:
    sink = RecordingSink()

    async def build() -> EpisodeSink:
        return sink

    worker = EpisodeWorker(build)
    texts = ["fact 0", "boom", "fact 2", "fact 3"]
    worker.submit([EpisodeSource(str(i), text, "/s", WHEN, None) for i, text in enumerate(texts)])
    worker.join(timeout=10)
    assert sink.added == ["0", "2", "3"]
    assert (worker.done, worker.failed) == (3, 1)


def test_a_worker_that_cannot_start_drops_work_without_raising() -> None:
    async def build() -> EpisodeSink:
        raise ImportError("graphiti-core is not installed")

    worker = EpisodeWorker(build)
    worker.submit([EpisodeSource("a", "fact", "/s", WHEN, None)])
    worker.join(timeout=10)
    assert worker.failed == 1
