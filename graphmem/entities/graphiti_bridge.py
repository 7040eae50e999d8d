"""W6 with graphiti: a memory also becomes a graphiti episode, on the same entities.

Only for deployments with a language model: graphiti's ``add_episode`` extracts entities and
facts with several LLM calls per episode. The bridge runs it with graphmem's embedder (so names
are embedded as graphmem embeds them, 384-d), a reranker that keeps graphiti's own order (no
vendor reranker), and the scope's ``group_id`` (:func:`~graphmem.entities.names.group_id_for_scope`).
graphiti's dedup then finds the ``Entity`` nodes graphmem made (they carry graphiti's property
names), and the entities graphiti makes are adopted into the scope: they get ``scope``, ``key``
and ``id`` and the memory ``MENTIONS`` them. The memory is linked to graphiti's ``Episodic`` node
with ``(:Memory)-[:RECORDED_AS]->(:Episodic)``.

graphiti-core is an optional extra (``pip install graphmem[graphiti]``); importing this module
without it raises ImportError. graphiti's async Neo4j driver is bound to the event loop it was
created in, so build the Graphiti object (:func:`build_graphiti`) and call the bridge inside one
loop.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from graphiti_core import Graphiti
from graphiti_core.cross_encoder.client import CrossEncoderClient
from graphiti_core.driver.neo4j_driver import Neo4jDriver
from graphiti_core.embedder.client import EmbedderClient
from graphiti_core.llm_client import LLMClient
from graphiti_core.nodes import EpisodeType

from graphmem.embedding.base import Embedder
from graphmem.entities.extract import EntityMention
from graphmem.entities.linker import EntityLinker
from graphmem.entities.names import group_id_for_scope
from graphmem.errors import LLMError
from graphmem.store.entities import EntityStore
from graphmem.store.executor import QueryExecutor, Transaction

TELEMETRY_VARIABLE = "GRAPHITI_TELEMETRY_ENABLED"
SOURCE_DESCRIPTION = "graphmem memory"


class GraphitiEmbedder(EmbedderClient):
    """graphmem's embedder as graphiti's EmbedderClient (graphiti asks for one text or a batch)."""

    def __init__(self, embedder: Embedder) -> None:
        self._embedder = embedder

    async def create(
        self, input_data: str | list[str] | Iterable[int] | Iterable[Iterable[int]]
    ) -> list[float]:
        """The vector of one text (the first, when given a list of texts)."""
        if isinstance(input_data, str):
            text = input_data
        else:
            items = list(input_data)
            if not items or not isinstance(items[0], str):
                raise LLMError("graphiti asked to embed token ids; graphmem's embedder takes text only")
            text = items[0]
        return [float(x) for x in self._embedder.embed_one(text)]

    async def create_batch(self, input_data_list: list[str]) -> list[list[float]]:
        """The vectors of many texts, in order."""
        if not input_data_list:
            return []
        return [[float(x) for x in row] for row in self._embedder.embed(input_data_list)]


class KeepOrderReranker(CrossEncoderClient):
    """A reranker that keeps graphiti's own order (scores 1, 1/2, 1/3...): no vendor call."""

    async def rank(self, query: str, passages: list[str]) -> list[tuple[str, float]]:
        """``passages`` as given, scored by their rank."""
        return [(p, 1.0 / (i + 1)) for i, p in enumerate(passages)]


def build_graphiti(
    uri: str, user: str, password: str, database: str, llm_client: LLMClient, embedder: Embedder
) -> Graphiti:
    """A Graphiti on graphmem's Neo4j with graphmem's embedder and no telemetry.

    Sets ``GRAPHITI_TELEMETRY_ENABLED=false`` in this process's environment (graphiti reads it
    when it would send an event). Call it inside the event loop the bridge will run in.
    """
    os.environ[TELEMETRY_VARIABLE] = "false"
    return Graphiti(
        graph_driver=Neo4jDriver(uri, user, password, database),
        llm_client=llm_client,
        embedder=GraphitiEmbedder(embedder),
        cross_encoder=KeepOrderReranker(),
    )


def anthropic_llm_client(api_key: str, model: str) -> LLMClient:
    """graphiti's own Anthropic client for ``model`` (its SDK client is built by graphiti)."""
    from graphiti_core.llm_client.anthropic_client import AnthropicClient
    from graphiti_core.llm_client.config import LLMConfig

    return AnthropicClient(config=LLMConfig(api_key=api_key, model=model, small_model=model))


@dataclass(frozen=True)
class EpisodeLink:
    """What the bridge stored for one memory."""

    memory_id: str
    episode_uuid: str
    entity_names: list[str]
    rows: list[dict[str, Any]]


class GraphitiBridge:
    """Adds memories to graphiti as episodes and ties them to graphmem's memories and entities."""

    def __init__(self, graphiti: Graphiti, executor: QueryExecutor, linker: EntityLinker) -> None:
        self._graphiti = graphiti
        self._executor = executor
        self._linker = linker

    async def prepare(self) -> None:
        """Create graphiti's indexes and constraints (idempotent).

        graphiti's Neo4j driver starts building them itself when created inside a running loop;
        that task is awaited first, since two concurrent builds trip over each other.
        """
        started = getattr(self._graphiti.driver, "_init_task", None)
        if isinstance(started, asyncio.Task):
            await started
        else:
            await self._graphiti.build_indices_and_constraints()

    async def add_memory(
        self, memory_id: str, text: str, scope: str, occurred_at: datetime, speaker: str | None = None
    ) -> EpisodeLink:
        """Run graphiti's ``add_episode`` for a stored memory, then link the memory to the episode
        and to the episode's entities (adopting graphiti's new ones into ``scope``).

        Raises whatever graphiti raises (its LLM client's errors included) before anything of
        graphmem's is written; DatabaseUnavailableError when the linking fails.
        """
        result = await self._graphiti.add_episode(
            name=memory_id,
            episode_body=f"{speaker}: {text}" if speaker else text,
            source_description=SOURCE_DESCRIPTION,
            reference_time=occurred_at,
            source=EpisodeType.message if speaker else EpisodeType.text,
            group_id=group_id_for_scope(scope),
        )
        episode_uuid = result.episode.uuid
        mentions = [EntityMention(name=node.name) for node in result.nodes]
        rows = await asyncio.to_thread(self._linker.plan_mentions, [(memory_id, scope, mentions)])

        def work(tx: Transaction) -> None:
            EntityStore.link_episode(tx, memory_id, episode_uuid)
            EntityStore.link(tx, rows)

        await asyncio.to_thread(self._executor.write_unit, work, "graphiti_bridge")
        return EpisodeLink(memory_id, episode_uuid, [m.name for m in mentions], rows)
