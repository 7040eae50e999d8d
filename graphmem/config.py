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

from graphmem.consolidate.settings import DEFAULT_TTL_DAYS
from graphmem.tenancy import READ_ONLY_PREFIX, binding


def default_home() -> Path:
    """Where the managed Neo4j keeps jars, data and logs unless ``GRAPHMEM_HOME`` says otherwise."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "graphmem"


def parse_api_key(entry: str) -> tuple[str, list[str] | None]:
    """One ``GRAPHMEM_API_KEYS`` entry: ``secret`` (unbound) or ``secret@/scope|/other`` (bound).

    A bound key reads and writes only those scopes, on every route (see :mod:`graphmem.tenancy`).
    A scope written ``read:/path`` is one the key only reads (X5: ``secret@/org/acme/agent/planner|
    read:/org/acme`` writes in the planner's space and reads all of acme). The secret itself must
    not contain ``@/`` or ``@read:``. Raises InvalidInputError for a malformed scope.
    """
    text = entry.strip()
    at = min((i for i in (text.find("@/"), text.find("@" + READ_ONLY_PREFIX)) if i >= 0), default=-1)
    if at < 0:
        return text, None
    parts = [p.strip() for p in text[at + 1 :].split("|") if p.strip()]
    read_only = [p.removeprefix(READ_ONLY_PREFIX) for p in parts if p.startswith(READ_ONLY_PREFIX)]
    scopes = [p for p in parts if not p.startswith(READ_ONLY_PREFIX)]
    return text[:at], binding(scopes, read_only) or []


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
    # Per API key (or address, when open): e.g. '600/minute'; empty: no limit.
    rate_limit_reads: str = ""
    rate_limit_writes: str = ""
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
    belief_llm_min_cosine: float = 0.5  # ask the LLM about stored memories this similar (beliefs/resolver.py)
    belief_fallback_min_cosine: float = 0.35
    # read the pairs the offline judge leaves to the learned readers with the tuned pair reader
    # (beliefs/pair_tuned.py: MiniLM's top layer fine-tuned) instead of the frozen one; off: on the
    # belief dev halves it ties the frozen one (4.465 both, session 34's refit) at +108 MB resident
    belief_tuned_reader: bool = False

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
    # Scoped recall ranks vectors in process: at most this many memories' embeddings and texts are
    # held (384 float32 and a chat turn each: ~170 MB per 100k); 0 turns the cache off (recall
    # scans scopes in Neo4j).
    recall_vector_cache_rows: int = Field(default=250_000, ge=0)

    # Consolidation (C1-C8): clustering radii, merge threshold, D4 archive TTLs per category (JSON,
    # e.g. GRAPHMEM_TTL_DAYS='{"work": 60}'), and the heartbeat that runs overdue jobs (0: never;
    # then run `graphmem consolidate` from cron).
    semantic_eps: float = Field(default=0.35, gt=0, lt=1)
    schema_eps: float = Field(default=0.45, gt=0, lt=1)
    merge_cosine: float = Field(default=0.85, gt=0, le=1)
    ttl_days: dict[str, float] = Field(default_factory=lambda: dict(DEFAULT_TTL_DAYS))
    default_ttl_days: float = Field(default=90.0, gt=0)
    cold_after_days: float = Field(default=180.0, gt=0)
    consolidation_heartbeat_minutes: float = Field(default=10.0, ge=0)
    # C1's Leiden runs on a large graph: worker processes (0: one per core; 1: in the job's process)
    consolidation_processes: int = Field(default=0, ge=0)

    @property
    def api_key_list(self) -> list[str]:
        """The configured API keys (without their scope bindings); empty means the API is open."""
        return [parse_api_key(k)[0] for k in self.api_keys.split(",") if k.strip()]

    @property
    def api_key_scopes(self) -> dict[str, list[str]]:
        """The scopes each bound key is confined to (``secret@/user/alice|/team/x``); unbound keys absent.

        Raises InvalidInputError for a malformed scope.
        """
        parsed = [parse_api_key(k) for k in self.api_keys.split(",") if k.strip()]
        return {key: scopes for key, scopes in parsed if scopes is not None}

    @property
    def managed(self) -> bool:
        """True when graphmem runs its own local Neo4j (no ``GRAPHMEM_NEO4J_URI``)."""
        return not self.neo4j_uri
