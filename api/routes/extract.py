"""Extract: raw text to atomic, self-contained facts, optionally stored as memories."""

from __future__ import annotations

from fastapi import APIRouter

from graphmem.api.deps import AllowedDep, MemoryDep
from graphmem.api.schemas import ERROR_RESPONSES, ExtractRequest
from graphmem.models import ExtractResult

router = APIRouter(tags=["extract"], responses=ERROR_RESPONSES)


@router.post("/extract", response_model=ExtractResult)
def extract(body: ExtractRequest, memory: MemoryDep, allowed: AllowedDep) -> ExtractResult:
    """The facts in a turn, document or tool output; with `store`, each is remembered in `scope`."""
    return memory.extract(
        body.text, store=body.store, scope=body.scope, speaker=body.speaker, allowed=allowed
    )
