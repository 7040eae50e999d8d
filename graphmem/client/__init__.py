"""The Python client of graphmem's REST API, blocking (:class:`Client`) and asyncio (:class:`AsyncClient`).

Both take the same arguments, expose the operations of :class:`~graphmem.memory.Memory` and answer
with the same pydantic models as the server; errors are those of :mod:`graphmem.errors`. Importing
this package needs httpx and pydantic, not the Neo4j driver or the embedding model.
"""

from graphmem.client._calls import BatchItem
from graphmem.client._retry import RetryPolicy
from graphmem.client.async_ import AsyncClient
from graphmem.client.sync import Client

__all__ = ["AsyncClient", "BatchItem", "Client", "RetryPolicy"]
