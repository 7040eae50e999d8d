"""graphmem: long-term memory for LLM agents, kept as a living graph in Neo4j.

``graphmem.Client`` and ``graphmem.AsyncClient`` (the REST API's Python clients) are imported on
first use, so ``import graphmem`` stays light. Every error graphmem raises is importable from here
too (``graphmem.NotFoundError``), and derives from ``graphmem.GraphmemError``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from graphmem.errors import (
    APIError,
    APIUnreachableError,
    AuthenticationError,
    DatabaseUnavailableError,
    EmbeddingError,
    EmbeddingModelMismatchError,
    ForbiddenQueryError,
    GraphmemError,
    InvalidInputError,
    InvalidQueryError,
    JobBusyError,
    JobLockLostError,
    LLMError,
    LLMUnavailableError,
    NotFoundError,
    QueryCatalogError,
    QueryTimeoutError,
    RuntimeSetupError,
    SchemaError,
    TextTooLongError,
    WriteQueueFullError,
)

if TYPE_CHECKING:
    from graphmem.client import AsyncClient, Client

__all__ = [
    "APIError",
    "APIUnreachableError",
    "AsyncClient",
    "AuthenticationError",
    "Client",
    "DatabaseUnavailableError",
    "EmbeddingError",
    "EmbeddingModelMismatchError",
    "ForbiddenQueryError",
    "GraphmemError",
    "InvalidInputError",
    "InvalidQueryError",
    "JobBusyError",
    "JobLockLostError",
    "LLMError",
    "LLMUnavailableError",
    "NotFoundError",
    "QueryCatalogError",
    "QueryTimeoutError",
    "RuntimeSetupError",
    "SchemaError",
    "TextTooLongError",
    "WriteQueueFullError",
]


def __getattr__(name: str) -> Any:
    if name in ("Client", "AsyncClient"):
        from graphmem import client

        return getattr(client, name)
    raise AttributeError(f"module 'graphmem' has no attribute {name!r}")
