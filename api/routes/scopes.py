"""R8: the scope tree, with counts per branch (what is remembered where)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from graphmem.api.deps import KeyScopesDep, MemoryDep
from graphmem.api.schemas import ERROR_RESPONSES, SCOPE_SCHEMA
from graphmem.scopetree import ScopeNode

router = APIRouter(tags=["scopes"], responses=ERROR_RESPONSES)


@router.get("/scopes", response_model=ScopeNode)
def scopes(
    memory: MemoryDep,
    bound: KeyScopesDep,
    under: Annotated[
        str, Query(description="The subtree to show, e.g. /user (default /)", json_schema_extra=SCOPE_SCHEMA)
    ] = "/",
) -> ScopeNode:
    """The scope hierarchy below ``under`` with memory counts per scope (``own``) and per branch
    (``subtree``), by layer and status; only scopes your API key may read (404 outside them)."""
    return memory.scope_tree(under, allowed=bound)
