"""Applying the graph schema: versioned, idempotent files run once each, then checked.

The files are ``cypher/schema/NNN_*.cypher``. The highest number applied is kept on a
``GraphmemMeta {key: 'schema_version'}`` node, so a later file (a migration) runs exactly once.
"""

from __future__ import annotations

import logging
import re

from graphmem.errors import EmbeddingModelMismatchError, SchemaError
from graphmem.store.executor import QueryExecutor

log = logging.getLogger(__name__)

_NUMBERED = re.compile(r"^schema/(\d{3})_")
SCHEMA_VERSION_KEY = "schema_version"
EMBEDDING_MODEL_KEY = "embedding_model"


def schema_files(executor: QueryExecutor) -> list[tuple[int, str]]:
    """The schema files in the catalog as (number, name), in order."""
    found = []
    for name in executor.catalog.names():
        match = _NUMBERED.match(name)
        if match:
            found.append((int(match.group(1)), name))
    return sorted(found)


def apply_schema(executor: QueryExecutor, *, index_timeout_seconds: int = 300) -> int:
    """Run the schema files not yet applied, wait for indexes, and return the schema version."""
    rows = executor.read("meta/get_meta", key=SCHEMA_VERSION_KEY)
    current = int(rows[0]["value"]) if rows and rows[0]["value"] is not None else 0
    version = current
    for number, name in schema_files(executor):
        if number > current:
            log.info("applying schema file %s", name)
            executor.run_schema(name)
            version = number
    executor.run_schema("meta/await_indexes", timeout_seconds=index_timeout_seconds)
    if version != current:
        executor.write("meta/set_meta", key=SCHEMA_VERSION_KEY, value=version)
    return version


def check_embedding_model(executor: QueryExecutor, model_name: str, dimension: int) -> bool:
    """Check the configured embedder against the vector index and the model recorded in the graph.

    Records the model on first use. Returns True when the recorded model name differs (the
    memories should be re-embedded); raises EmbeddingModelMismatchError when the dimension
    cannot fit the vector index, which no query could survive.
    """
    rows = executor.run_schema("meta/vector_index_dimensions")
    if not rows:
        raise SchemaError("The vector index memory_embedding is missing; restart to re-apply the schema.")
    index_dim = int(rows[0]["dimensions"])
    if index_dim != dimension:
        raise EmbeddingModelMismatchError(
            f"The embedder {model_name} makes {dimension}-dimensional vectors but the graph's vector "
            f"index holds {index_dim}; configure GRAPHMEM_EMBEDDER to a {index_dim}-dimensional model."
        )
    recorded = executor.read("meta/get_meta", key=EMBEDDING_MODEL_KEY)
    value = recorded[0]["value"] if recorded else None
    wanted = f"{model_name}@{dimension}"
    if value is None:
        executor.write("meta/set_meta", key=EMBEDDING_MODEL_KEY, value=wanted)
        return False
    if value != wanted:
        log.warning("memories were embedded with %s, the configured embedder is %s", value, wanted)
        return True
    return False


def record_embedding_model(executor: QueryExecutor, model_name: str, dimension: int) -> None:
    """Record ``model_name@dimension`` as the model every memory vector now comes from (after C7)."""
    executor.write("meta/set_meta", key=EMBEDDING_MODEL_KEY, value=f"{model_name}@{dimension}")
