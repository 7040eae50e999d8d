"""graphmem: long-term memory for LLM agents, kept as a living graph in Neo4j.

``graphmem.Client`` and ``graphmem.AsyncClient`` (the REST API's Python clients) are imported on
first use, so ``import graphmem`` stays light.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from graphmem.client import AsyncClient, Client

__all__ = ["AsyncClient", "Client"]


def __getattr__(name: str) -> Any:
    if name in ("Client", "AsyncClient"):
        from graphmem import client

        return getattr(client, name)
    raise AttributeError(f"module 'graphmem' has no attribute {name!r}")
