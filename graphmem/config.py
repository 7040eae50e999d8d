"""Settings, read once at the entry points (CLI, API) and passed down.

Every field comes from the environment with the ``GRAPHMEM_`` prefix (``GRAPHMEM_NEO4J_URI``...),
except ``ANTHROPIC_API_KEY`` which keeps the name the Anthropic SDK uses.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Literal

from pydantic import AliasChoices, Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict


def default_home() -> Path:
    """Where the managed Neo4j keeps jars, data and logs unless ``GRAPHMEM_HOME`` says otherwise."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "graphmem"


class Settings(BaseSettings):
    """Every knob graphmem reads from the environment."""

    model_config = SettingsConfigDict(env_prefix="GRAPHMEM_", extra="ignore")

    # Neo4j: an external server when the URI is set, else the managed local one.
    neo4j_uri: str | None = None
    neo4j_user: str = "neo4j"
    neo4j_password: SecretStr | None = None
    neo4j_database: str = "neo4j"

    # The managed local Neo4j.
    home: Path = Field(default_factory=default_home)
    neo4j_version: str = "5.26.30"
    neo4j_bolt_port: int = 7687
    neo4j_http_port: int = 7474
    neo4j_heap: str = "1g"
    neo4j_pagecache: str = "512m"
    neo4j_start_timeout: float = 120.0

    # API.
    api_keys: str = ""
    host: str = "127.0.0.1"
    port: int = 8000

    # Providers.
    llm: Literal["anthropic", "none"] = "none"
    anthropic_api_key: SecretStr | None = Field(
        default=None, validation_alias=AliasChoices("ANTHROPIC_API_KEY", "GRAPHMEM_ANTHROPIC_API_KEY")
    )
    anthropic_model: str = "claude-haiku-4-5"
    llm_timeout: float = Field(default=20.0, gt=0)  # seconds per request
    llm_max_retries: int = Field(default=2, ge=0)  # retries of a request that failed transiently
    embedder: Literal["onnx", "sentence-transformers"] = "onnx"
    # With an LLM configured, also feed memories to graphiti-core (pip install 'graphmem[graphiti]').
    graphiti: bool = True

    # Write path.
    max_text_bytes: int = 32 * 1024
    max_batch_items: int = 1000
    write_infer_fields: bool = True
    write_belief_checks: bool = True
    write_link_graph: bool = True
    batch_duplicate_threshold: float = 0.98
    store_duplicate_threshold: float = 0.98

    # Belief updates (W5): similarity at which a stored memory is checked against a new one.
    belief_llm_min_cosine: float = 0.85
    belief_fallback_min_cosine: float = 0.35

    # Conversations: a memory review every N user turns (W8); at start-up, flush the pending turns
    # of open conversations idle for longer than this (W11: what a crash left behind).
    nudge_every_user_turns: int = Field(default=10, ge=1)
    flush_idle_minutes: float = Field(default=30.0, ge=0)

    # Recall.
    # Recall (R2 composite score weights, R5 staleness); fusion weights live in RecallSettings.
    recall_weight_strength: float = 0.3
    recall_weight_importance: float = 0.3
    recall_weight_recency: float = 0.1
    recall_half_life_days: float = 30.0
    recall_stale_after_days: float = 180.0

    @property
    def api_key_list(self) -> list[str]:
        """The configured API keys; empty means the API is open."""
        return [k.strip() for k in self.api_keys.split(",") if k.strip()]

    @property
    def managed(self) -> bool:
        """True when graphmem runs its own local Neo4j (no ``GRAPHMEM_NEO4J_URI``)."""
        return not self.neo4j_uri
