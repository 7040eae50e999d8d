"""Request dependencies: the Memory facade, API-key authentication and the caller's allowed scopes.

Tenancy in one dependency: a route that touches memories takes ``allowed: AllowedDep`` (the
scopes the presented key is bound to; None: unrestricted) and passes it to the Memory facade as
``allowed=``; the facade hands it to every Cypher file as ``$allowed``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, HTTPException, Request
from starlette.concurrency import run_in_threadpool

from graphmem.errors import GraphmemError
from graphmem.keys import KeyRing
from graphmem.memory import Memory
from graphmem.tenancy import Grant


@dataclass(frozen=True)
class Caller:
    """Who is calling: whether a key was checked, and the scopes it is bound to (None: all)."""

    scopes: Sequence[str] | None  # a Grant when the key writes in fewer scopes than it reads (X5)


async def get_memory(request: Request) -> Memory:
    """The app's Memory facade."""
    memory: Memory = request.app.state.memory
    return memory


def _token(request: Request) -> str | None:
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


def _unauthorized() -> HTTPException:
    return HTTPException(
        status_code=401,
        detail=(
            "Missing or wrong API key: send 'Authorization: Bearer <key>' with a key from "
            "GRAPHMEM_API_KEYS or `graphmem keys create`."
        ),
        headers={"WWW-Authenticate": "Bearer"},
    )


async def authenticate(request: Request) -> Caller:
    """The caller behind ``Authorization: Bearer <key>``; 401 when keys exist and it is none of them.

    Keys come from GRAPHMEM_API_KEYS and, when the app reads them, ``graphmem keys`` (stored
    hashed). With no key at all the API is open and unrestricted. Compared in constant time.
    Checked on the event loop while the stored keys are fresh (no I/O: a hop to a worker thread
    per dependency added up on every request), in a worker thread when they must be read again.
    """
    ring: KeyRing = request.app.state.key_ring
    if ring.current():
        return _caller(request, ring)
    return await run_in_threadpool(_caller, request, ring)


def _caller(request: Request, ring: KeyRing) -> Caller:
    if not ring.enabled():
        return Caller(scopes=None)
    token = _token(request)
    if token is None:
        raise _unauthorized()
    found, scopes = ring.lookup(token)
    if not found:
        raise _unauthorized()
    return Caller(scopes=scopes)


CallerDep = Annotated[Caller, Depends(authenticate)]


def sees_every_tenant(request: Request) -> bool:
    """Whether the request may see figures about every tenant's memories (counts on /v1/health).

    True when the API is open (no key at all) or ``Authorization`` carries a key bound to no scope;
    False without a key, with a wrong one, with a scope-bound one, or when the stored keys cannot
    be read (a route that needs no key still answers, without those figures)."""
    try:
        return _caller(request, request.app.state.key_ring).scopes is None
    except (HTTPException, GraphmemError):
        return False


async def require_api_key(caller: CallerDep) -> None:
    """When API keys are configured, demand ``Authorization: Bearer <key>`` with one of them."""
    del caller  # authenticating is the whole job


async def allowed_scopes(caller: CallerDep) -> list[str] | None:
    """The scopes the caller may read and write (its key's binding); None: unrestricted.

    An agent's key (X5) gives a :class:`graphmem.tenancy.Grant`: the list of scopes it reads,
    with the narrower ones it writes in, which the Memory facade confines every write to."""
    if caller.scopes is None:
        return None
    return caller.scopes if isinstance(caller.scopes, Grant) else list(caller.scopes)


async def key_scopes(caller: CallerDep) -> list[str] | None:
    """The scopes the presented API key is bound to (``secret@/user/alice|/team/x``); None if unbound."""
    return await allowed_scopes(caller)


MemoryDep = Annotated[Memory, Depends(get_memory)]
AllowedDep = Annotated[list[str] | None, Depends(allowed_scopes)]
KeyScopesDep = AllowedDep
