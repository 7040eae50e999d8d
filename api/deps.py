"""Request dependencies: the Memory facade, API-key authentication and the caller's allowed scopes.

Tenancy in one dependency: a route that touches memories takes ``allowed: AllowedDep`` (the
scopes the presented key is bound to; None: unrestricted) and passes it to the Memory facade as
``allowed=``; the facade hands it to every Cypher file as ``$allowed``.
"""

from __future__ import annotations

import hmac
from dataclasses import dataclass
from typing import Annotated, Protocol

from fastapi import Depends, HTTPException, Request

from graphmem.memory import Memory


class StoredKeys(Protocol):
    """Keys kept hashed in Neo4j (``graphmem keys``): the scopes of a presented secret."""

    def lookup(self, secret: str) -> tuple[bool, tuple[str, ...] | None]:
        """Whether a live (unrevoked) key has this secret, and the scopes it is bound to (None: all)."""
        ...


@dataclass(frozen=True)
class Caller:
    """Who is calling: whether a key was checked, and the scopes it is bound to (None: all)."""

    scopes: tuple[str, ...] | None


def get_memory(request: Request) -> Memory:
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


def authenticate(request: Request) -> Caller:
    """The caller behind ``Authorization: Bearer <key>``; 401 when keys are configured and it is none.

    With no key configured (neither GRAPHMEM_API_KEYS nor stored keys) the API is open and
    unrestricted. Secrets are compared in constant time.
    """
    keys: list[str] = request.app.state.api_keys
    stored: StoredKeys | None = getattr(request.app.state, "stored_keys", None)
    if not keys and stored is None:
        return Caller(scopes=None)
    token = _token(request)
    if token is None:
        raise _unauthorized()
    bound: dict[str, list[str]] = getattr(request.app.state, "api_key_scopes", {})
    matched = False
    for key in keys:  # every key is compared, so timing does not tell how many matched first
        matched |= hmac.compare_digest(token.encode(), key.encode())
    if matched:
        for key, binding in bound.items():
            if hmac.compare_digest(token.encode(), key.encode()):
                return Caller(scopes=tuple(binding))
        return Caller(scopes=None)
    if stored is not None:
        found, scopes = stored.lookup(token)
        if found:
            return Caller(scopes=scopes)
    raise _unauthorized()


CallerDep = Annotated[Caller, Depends(authenticate)]


def require_api_key(caller: CallerDep) -> None:
    """When API keys are configured, demand ``Authorization: Bearer <key>`` with one of them."""
    del caller  # authenticating is the whole job


def allowed_scopes(caller: CallerDep) -> list[str] | None:
    """The scopes the caller may read and write (its key's binding); None: unrestricted."""
    return None if caller.scopes is None else list(caller.scopes)


def key_scopes(caller: CallerDep) -> list[str] | None:
    """The scopes the presented API key is bound to (``secret@/user/alice|/team/x``); None if unbound."""
    return allowed_scopes(caller)


MemoryDep = Annotated[Memory, Depends(get_memory)]
AllowedDep = Annotated[list[str] | None, Depends(allowed_scopes)]
KeyScopesDep = AllowedDep
