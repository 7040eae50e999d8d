"""The graphiti bridge on the real Neo4j, without network: graphiti's LLM client is a scripted subclass.

The script stands in for the model only; graphiti's own code (extraction flow, dedup, saving) and
graphmem's (entities, linking) run for real.
"""

from __future__ import annotations

import asyncio
import typing
from datetime import UTC, datetime

import neo4j
import pytest

pytest.importorskip("graphiti_core")

from graphiti_core.llm_client import LLMClient
from graphiti_core.llm_client.config import DEFAULT_MAX_TOKENS, LLMConfig, ModelSize
from graphiti_core.prompts.models import Message
from pydantic import BaseModel

from graphmem.connect import Neo4jTarget
from graphmem.embedding.base import Embedder
from graphmem.entities.graphiti_bridge import GraphitiBridge, build_graphiti
from graphmem.entities.linker import EntityLinker
from graphmem.llm.none import NoLLM
from graphmem.store.entities import EntityStore
from graphmem.store.executor import QueryExecutor
from tests.integration.test_entities_decisions import (
    create_memories,
    driver,
    executor,
    link,
    probe,
)

pytestmark = pytest.mark.integration
__all__ = ["driver", "executor"]  # module fixtures reused from the entities tests


class ScriptedGraphitiLLM(LLMClient):
    """Answers graphiti's prompts by response model: the scripted entities, and nothing else."""

    def __init__(self, entities: list[str]) -> None:
        super().__init__(LLMConfig(api_key="unused", model="scripted"), cache=False)
        self.entities = entities
        self.asked: list[str] = []

    async def _generate_response(
        self,
        messages: list[Message],
        response_model: type[BaseModel] | None = None,
        max_tokens: int = DEFAULT_MAX_TOKENS,
        model_size: ModelSize = ModelSize.medium,
        *,
        model: str | None = None,
    ) -> dict[str, typing.Any]:
        name = response_model.__name__ if response_model else "text"
        self.asked.append(name)
        if name == "ExtractedEntities":
            return {"extracted_entities": [{"name": n, "entity_type_id": 0} for n in self.entities]}
        if name == "NodeResolutions":
            return {"entity_resolutions": []}
        if name == "ExtractedEdges":
            return {"edges": []}
        if name == "SummarizedEntities":
            return {"summaries": []}
        return {}


def test_graphiti_reuses_graphmem_entities_and_its_new_ones_join_the_scope(
    neo4j_target: Neo4jTarget,
    driver: neo4j.Driver,
    executor: QueryExecutor,
    embedder: Embedder,
    scope: str,
) -> None:
    linker = EntityLinker(NoLLM(), embedder, EntityStore(executor))
    first = ["Alice went to Lisbon with Bob."]
    link(executor, linker, scope, create_memories(executor, embedder, scope, first), first)
    (alice_before,) = probe(driver, "MATCH (e:Entity {scope: $s, key: 'alice'}) RETURN e {.*} AS e", s=scope)
    text = "Alice adopted a cat named Milo."
    when = datetime(2024, 2, 1, tzinfo=UTC)
    (memory_id,) = create_memories(executor, embedder, scope, [text], when)
    llm = ScriptedGraphitiLLM(["Alice", "Milo"])

    async def run() -> typing.Any:
        graphiti = build_graphiti(
            neo4j_target.uri, neo4j_target.user, neo4j_target.password, neo4j_target.database, llm, embedder
        )
        try:
            bridge = GraphitiBridge(graphiti, executor, linker)
            await bridge.prepare()
            return await bridge.add_memory(memory_id, text, scope, when)
        finally:
            await graphiti.close()

    linked = asyncio.run(run())
    assert "ExtractedEntities" in llm.asked
    (alice_after,) = probe(driver, "MATCH (e:Entity {scope: $s, key: 'alice'}) RETURN e {.*} AS e", s=scope)
    assert alice_after["e"]["uuid"] == alice_before["e"]["uuid"] == alice_before["e"]["id"]
    for kept in ("id", "scope", "key", "group_id"):  # graphiti's save keeps graphmem's properties
        assert alice_after["e"][kept] == alice_before["e"][kept]
    assert len(alice_after["e"]["name_embedding"]) == embedder.dimension  # graphiti embedded with ours
    episode = probe(
        driver,
        "MATCH (m:Memory {id: $id})-[:RECORDED_AS]->(ep:Episodic)-[:MENTIONS]->(e:Entity) "
        "RETURN ep.group_id AS group_id, collect(e.name) AS names, collect(e.uuid) AS uuids",
        id=memory_id,
    )
    assert episode[0]["group_id"] == alice_before["e"]["group_id"]
    assert sorted(episode[0]["names"]) == ["Alice", "Milo"]
    assert alice_before["e"]["uuid"] in episode[0]["uuids"]  # graphiti's dedup found graphmem's Alice
    counts = {e.name: e.mentions for e in EntityStore(executor).list_entities(scope)}
    assert counts == {"Alice": 2, "Lisbon": 1, "Bob": 1, "Milo": 1}
    assert sorted(linked.entity_names) == ["Alice", "Milo"]
