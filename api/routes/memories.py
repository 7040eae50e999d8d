"""Memories: remember (one and batch), get, patch, delete, forget."""

from __future__ import annotations

from functools import partial

from fastapi import APIRouter, Response, status
from starlette.concurrency import run_in_threadpool

from graphmem.api.deps import AllowedDep, MemoryDep
from graphmem.api.schemas import (
    ERROR_RESPONSES,
    BatchRequest,
    BatchResponse,
    ForgetResponse,
    QueuedBatch,
    WriteJobStatus,
)
from graphmem.models import ForgetFilter, MemoryDetail, MemoryInput, MemoryPatch, MemoryRecord, WriteResult

router = APIRouter(tags=["memories"], responses=ERROR_RESPONSES)


# The write routes are coroutines that hand the write itself to a worker thread: FastAPI runs a
# plain function's whole answer there and then validates its result in a second hop, and under 50
# concurrent writers those hops were a tenth of the API's CPU.


@router.post("/memories", status_code=status.HTTP_201_CREATED, response_model=WriteResult)
async def remember(body: MemoryInput, memory: MemoryDep, allowed: AllowedDep) -> WriteResult:
    """Remember one text as an episodic memory; `actions` says what the write did."""
    results = await run_in_threadpool(partial(memory.remember_batch, [body], allowed=allowed))
    return results[0]


@router.post(
    "/memories/batch",
    status_code=status.HTTP_201_CREATED,
    response_model=BatchResponse | QueuedBatch,
    responses={202: {"model": QueuedBatch, "description": "Queued for writing (background=true)"}},
)
async def remember_batch(
    body: BatchRequest,
    memory: MemoryDep,
    allowed: AllowedDep,
    response: Response,
    background: bool = False,
) -> BatchResponse | QueuedBatch:
    """Remember up to 1000 items in one transaction; results in input order.

    With `background=true` the batch is validated, queued and answered at once (202); a recall of
    its scope waits for it to be written."""
    if background:
        job = await run_in_threadpool(partial(memory.remember_background, body.items, allowed=allowed))
        response.status_code = status.HTTP_202_ACCEPTED
        return QueuedBatch(queued=job.items, job_id=job.id)
    results = await run_in_threadpool(partial(memory.remember_batch, body.items, allowed=allowed))
    return BatchResponse(results=results, llm_calls=sum(r.llm_calls for r in results))


@router.get("/memories/batch/{job_id}", response_model=WriteJobStatus)
def background_batch(job_id: str, memory: MemoryDep, allowed: AllowedDep) -> WriteJobStatus:
    """What became of a background batch: queued, running, done (with counts) or failed (with the error)."""
    job = memory.write_job(job_id, allowed=allowed)
    return WriteJobStatus(
        job_id=job.id,
        status=job.status,
        items=job.items,
        created=job.created,
        reinforced=job.reinforced,
        error=job.error,
        submitted_at=job.submitted_at,
        finished_at=job.finished_at,
    )


@router.get("/memories/{memory_id}", response_model=MemoryDetail)
def get_memory(memory_id: str, memory: MemoryDep, allowed: AllowedDep) -> MemoryDetail:
    """One memory with its SUPERSEDES history (both ways) and the ids it was derived from."""
    return memory.get(memory_id, allowed=allowed)


@router.patch("/memories/{memory_id}", response_model=MemoryRecord)
def patch_memory(memory_id: str, body: MemoryPatch, memory: MemoryDep, allowed: AllowedDep) -> MemoryRecord:
    """Change text, scope, categories, importance or metadata of a memory."""
    return memory.update(memory_id, body, allowed=allowed)


@router.delete("/memories/{memory_id}", status_code=status.HTTP_204_NO_CONTENT)
def delete_memory(memory_id: str, memory: MemoryDep, allowed: AllowedDep) -> Response:
    """Delete one memory and its edges."""
    memory.delete(memory_id, allowed=allowed)
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.post("/forget", response_model=ForgetResponse)
def forget(body: ForgetFilter, memory: MemoryDep, allowed: AllowedDep) -> ForgetResponse:
    """Delete every memory matching all given filters (ids, scope subtree, categories, older_than)."""
    return ForgetResponse(deleted=memory.forget(body, allowed=allowed))
