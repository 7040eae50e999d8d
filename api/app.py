"""The FastAPI application factory."""

from __future__ import annotations

import asyncio
import gc
import logging
import threading
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta

from fastapi import Depends, FastAPI

from graphmem.api.deps import require_api_key
from graphmem.api.errors import install_error_handlers
from graphmem.api.idempotency import IdempotencyMiddleware
from graphmem.api.ratelimit import RateLimits, enforce_rate_limit
from graphmem.api.routes import (
    browser,
    consolidate,
    conversations,
    cypher,
    decisions,
    extract,
    health,
    memories,
    recall,
    scopes,
    sessions,
    triggers,
)
from graphmem.api.unicode_body import UnicodeBodyMiddleware
from graphmem.consolidate.background import BackgroundRuns
from graphmem.errors import GraphmemError
from graphmem.keys import KeyRing
from graphmem.memory import Memory

log = logging.getLogger(__name__)

# How long shutdown waits for the start-up flush and queued background writes before closing.
SHUTDOWN_WAIT_SECONDS = 30.0
# Container allocations (net of frees) between two young garbage collections in the API process.
YOUNG_COLLECTION_THRESHOLD = 10_000


def start_idle_flush(memory: Memory, idle_minutes: float | None) -> threading.Thread | None:
    """Flush open conversations idle for over ``idle_minutes`` (a crash's leftovers) in a thread.

    Start-up is not blocked; ``None`` disables the flush. Failures are logged, never raised.
    """
    if idle_minutes is None:
        return None
    thread = threading.Thread(
        target=memory.flush_idle_conversations,
        args=(timedelta(minutes=idle_minutes),),
        name="graphmem-idle-flush",
        daemon=True,
    )
    thread.start()
    return thread


def create_app(
    memory: Memory,
    *,
    api_keys: list[str] | None = None,
    api_key_scopes: dict[str, list[str]] | None = None,
    stored_keys: bool = False,
    rate_limits: RateLimits | None = None,
    on_shutdown: Callable[[], None] | None = None,
    nudge_every_user_turns: int = 10,
    flush_idle_minutes: float | None = 30.0,
    consolidation_heartbeat: timedelta | None = None,
) -> FastAPI:
    """The REST API over ``memory``; ``on_shutdown`` runs when the server stops (e.g. close the driver).

    A memory review runs every ``nudge_every_user_turns`` user turns of a conversation; at start-up
    the open conversations idle for over ``flush_idle_minutes`` are flushed (None: not at all).
    With ``consolidation_heartbeat``, overdue consolidation jobs run in the background at start-up
    and are checked again at that interval (None: only on request).
    """

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        try:
            memory.prepare()
            memory.resume_background_writes()  # W12: batches a dead process accepted (202)
        except GraphmemError as e:  # the API still starts; /v1/health reports the problem
            log.warning("graphmem is not ready yet: %s", e)
        # What start-up made (modules, routes, schemas, the driver) lives as long as the process:
        # frozen, the collector's full passes no longer walk it on the request path (about half
        # of the collector's work in a recall at 100k memories, by perf).
        gc.freeze()
        # A young collection runs once YOUNG_COLLECTION_THRESHOLD more containers are alive than
        # at the last one, not 700 (Python's default): a recall holds a few thousand at its peak
        # (the driver's rows, the candidates), all freed by reference counting when it ends, so
        # the default ran about two young passes per recall (bench.recall_cpu's gc_passes) over
        # objects that were about to go anyway.
        gc.set_threshold(YOUNG_COLLECTION_THRESHOLD, *gc.get_threshold()[1:])
        flusher = start_idle_flush(memory, flush_idle_minutes)
        scheduler = None
        if consolidation_heartbeat is not None:  # C8: overdue jobs now, then on every beat
            scheduler = memory.consolidation_schedule(consolidation_heartbeat)
            scheduler.start()
        yield
        if scheduler is not None:
            await asyncio.to_thread(scheduler.stop, SHUTDOWN_WAIT_SECONDS)
        await asyncio.to_thread(app.state.consolidation_runs.join, SHUTDOWN_WAIT_SECONDS)
        if flusher is not None:
            await asyncio.to_thread(flusher.join, SHUTDOWN_WAIT_SECONDS)
        if not await asyncio.to_thread(memory.drain_writes, None, SHUTDOWN_WAIT_SECONDS):
            log.warning("shutting down with background writes still queued; the next start resumes them")
        if on_shutdown is not None:
            on_shutdown()

    app = FastAPI(
        title="graphmem",
        version="0.1.0",
        summary="Long-term memory for LLM agents, kept as a living graph in Neo4j.",
        lifespan=lifespan,
    )
    app.state.memory = memory
    app.state.consolidation_runs = BackgroundRuns(
        lambda jobs, trigger: memory.consolidate(jobs, trigger=trigger),
        lambda: datetime.now(UTC),
        memory.consolidation_requests(),
    )
    app.state.api_keys = list(api_keys or [])
    app.state.api_key_scopes = dict(api_key_scopes or {})  # keys confined to scopes (tenancy)
    # Tenancy: configured keys, and with stored_keys those of `graphmem keys` (kept hashed in Neo4j).
    configured: dict[str, list[str] | None] = {k: app.state.api_key_scopes.get(k) for k in app.state.api_keys}
    app.state.key_ring = KeyRing(configured, memory.api_keys().live if stored_keys else None)
    app.state.rate_limits = rate_limits  # per key, reads and writes apart (None: unlimited)
    app.state.nudge_every_user_turns = nudge_every_user_turns
    app.add_middleware(IdempotencyMiddleware)  # inside the JSON-500 middleware installed next
    app.add_middleware(UnicodeBodyMiddleware)  # a body with a lone surrogate: 422 before any route
    install_error_handlers(app)
    secured = [Depends(require_api_key), Depends(enforce_rate_limit)]
    app.include_router(health.router, prefix="/v1")
    app.include_router(browser.router)  # static Neo4j Browser assets, no key needed
    app.include_router(memories.router, prefix="/v1", dependencies=secured)
    app.include_router(recall.router, prefix="/v1", dependencies=secured)
    app.include_router(extract.router, prefix="/v1", dependencies=secured)
    app.include_router(conversations.router, prefix="/v1", dependencies=secured)
    app.include_router(sessions.router, prefix="/v1", dependencies=secured)
    app.include_router(decisions.router, prefix="/v1", dependencies=secured)
    app.include_router(consolidate.router, prefix="/v1", dependencies=secured)
    app.include_router(cypher.router, prefix="/v1", dependencies=secured)
    app.include_router(triggers.router, prefix="/v1", dependencies=secured)
    app.include_router(scopes.router, prefix="/v1", dependencies=secured)
    return app
