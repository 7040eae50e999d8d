"""Request dependencies: the Memory facade and API-key authentication."""

from __future__ import annotations

import hmac
from typing import Annotated

from fastapi import Depends, HTTPException, Request

from graphmem.memory import Memory


def get_memory(request: Request) -> Memory:
    """The app's Memory facade."""
    memory: Memory = request.app.state.memory
    return memory


def require_api_key(request: Request) -> None:
    """When API keys are configured, demand ``Authorization: Bearer <key>`` with one of them."""
    keys: list[str] = request.app.state.api_keys
    if not keys:
        return
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not any(hmac.compare_digest(token.strip(), k) for k in keys):
        raise HTTPException(
            status_code=401,
            detail=(
                "Missing or wrong API key: send 'Authorization: Bearer <key>' "
                "with a key from GRAPHMEM_API_KEYS."
            ),
            headers={"WWW-Authenticate": "Bearer"},
        )


def key_scopes(request: Request) -> list[str] | None:
    """The scopes the presented API key is bound to (``secret@/user/alice|/team/x``); None if unbound."""
    bound: dict[str, list[str]] = getattr(request.app.state, "api_key_scopes", {})
    _, _, token = request.headers.get("authorization", "").partition(" ")
    for key, scopes in bound.items():
        if hmac.compare_digest(token.strip(), key):
            return scopes
    return None


MemoryDep = Annotated[Memory, Depends(get_memory)]
KeyScopesDep = Annotated[list[str] | None, Depends(key_scopes)]
