"""The FastAPI application factory."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

from fastapi import Depends, FastAPI

from api.deps import require_api_key
from api.errors import install_error_handlers
from api.routes import health, memories, recall
from graphmem.errors import GraphmemError
from graphmem.memory import Memory

log = logging.getLogger(__name__)


def create_app(
    memory: Memory, *, api_keys: list[str] | None = None, on_shutdown: Callable[[], None] | None = None
) -> FastAPI:
    """The REST API over ``memory``; ``on_shutdown`` runs when the server stops (e.g. close the driver)."""

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        try:
            memory.prepare()
        except GraphmemError as e:  # the API still starts; /v1/health reports the problem
            log.warning("graphmem is not ready yet: %s", e)
        yield
        if on_shutdown is not None:
            on_shutdown()

    app = FastAPI(
        title="graphmem",
        version="0.1.0",
        summary="Long-term memory for LLM agents, kept as a living graph in Neo4j.",
        lifespan=lifespan,
    )
    app.state.memory = memory
    app.state.api_keys = list(api_keys or [])
    install_error_handlers(app)
    secured = [Depends(require_api_key)]
    app.include_router(health.router, prefix="/v1")
    app.include_router(memories.router, prefix="/v1", dependencies=secured)
    app.include_router(recall.router, prefix="/v1", dependencies=secured)
    return app
