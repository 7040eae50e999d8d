"""Building a ready Memory from settings: the driver, the embedder, the clock."""

from __future__ import annotations

from dataclasses import dataclass

import neo4j

from graphmem.beliefs.resolver import BeliefSettings
from graphmem.clock import SystemClock
from graphmem.config import Settings
from graphmem.consolidate.settings import ConsolidationSettings
from graphmem.embedding.base import Embedder
from graphmem.embedding.factory import create_embedder
from graphmem.entities.episodes import graphiti_worker
from graphmem.llm.base import LLM
from graphmem.llm.factory import create_llm
from graphmem.memory import Memory
from graphmem.recall.scoring import ScoreWeights
from graphmem.recall.search import RecallSettings
from graphmem.store.catalog import default_catalog
from graphmem.store.executor import QueryExecutor
from graphmem.write.remember import WriteLimits


@dataclass(frozen=True)
class Neo4jTarget:
    """Where and how to reach Neo4j."""

    uri: str
    user: str
    password: str
    database: str


def write_limits(settings: Settings) -> WriteLimits:
    """The write-path limits the settings ask for."""
    return WriteLimits(
        max_text_bytes=settings.max_text_bytes,
        max_batch_items=settings.max_batch_items,
        batch_duplicate_cosine=settings.batch_duplicate_threshold,
        store_duplicate_cosine=settings.store_duplicate_threshold,
        infer_fields=settings.write_infer_fields,
        belief_checks=settings.write_belief_checks,
        link_graph=settings.write_link_graph,
    )


def consolidation_settings(settings: Settings) -> ConsolidationSettings:
    """The consolidation radii, thresholds and TTLs the settings ask for."""
    return ConsolidationSettings(
        semantic_eps=settings.semantic_eps,
        schema_eps=settings.schema_eps,
        merge_cosine=settings.merge_cosine,
        ttl_days=dict(settings.ttl_days),
        default_ttl_days=settings.default_ttl_days,
        cold_after_days=settings.cold_after_days,
        processes=settings.consolidation_processes,
    )


def recall_settings(settings: Settings) -> RecallSettings:
    """The recall weights the settings ask for."""
    weights = ScoreWeights(
        strength=settings.recall_weight_strength,
        importance=settings.recall_weight_importance,
        recency=settings.recall_weight_recency,
        half_life_days=settings.recall_half_life_days,
    )
    return RecallSettings(
        stale_after_days=settings.recall_stale_after_days,
        weights=weights,
        vector_cache_rows=settings.recall_vector_cache_rows,
    )


class MemoryConnection:
    """A Memory together with the driver it owns; close it when done (or use ``with``)."""

    def __init__(self, memory: Memory, driver: neo4j.Driver) -> None:
        self.memory = memory
        self._driver = driver

    def close(self) -> None:
        """Finish background reinforcement, then close the Neo4j driver."""
        self.memory.settle()
        self._driver.close()

    def __enter__(self) -> Memory:
        return self.memory

    def __exit__(self, *exc: object) -> None:
        self.close()


def open_memory(
    settings: Settings, target: Neo4jTarget, embedder: Embedder | None = None, llm: LLM | None = None
) -> MemoryConnection:
    """Connect to ``target`` and build a Memory with the configured providers (not yet prepared)."""
    driver = neo4j.GraphDatabase.driver(
        target.uri,
        auth=(target.user, target.password),
        max_connection_pool_size=64,  # writers waiting on a scope lock each hold one
        connection_acquisition_timeout=10.0,
        connection_timeout=5.0,
        max_transaction_retry_time=5.0,
        notifications_min_severity="OFF",
    )
    executor = QueryExecutor(driver, default_catalog(), target.database)
    chosen = embedder or create_embedder(settings.embedder, fused_dir=settings.home / "models")
    beliefs = BeliefSettings(
        llm_min_cosine=settings.belief_llm_min_cosine,
        fallback_min_cosine=settings.belief_fallback_min_cosine,
        tuned_pair_reader=settings.belief_tuned_reader,
    )
    model = llm or create_llm(settings)
    episodes = None
    if model.available and settings.graphiti and settings.anthropic_api_key is not None:
        episodes = graphiti_worker(
            uri=target.uri,
            user=target.user,
            password=target.password,
            database=target.database,
            api_key=settings.anthropic_api_key.get_secret_value(),
            model=settings.anthropic_model,
            executor=executor,
            embedder=chosen,
        )
    memory = Memory(
        executor,
        chosen,
        SystemClock(),
        model,
        write_limits(settings),
        beliefs,
        episodes,
        recall_settings(settings),
        consolidation_settings(settings),
    )
    return MemoryConnection(memory, driver)
