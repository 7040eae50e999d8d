"""Recall: the memories that answer a query."""

from __future__ import annotations

from functools import partial

from fastapi import APIRouter
from starlette.concurrency import run_in_threadpool

from graphmem.api.deps import AllowedDep, MemoryDep
from graphmem.api.schemas import ERROR_RESPONSES
from graphmem.models import Feedback, FeedbackResult, RecallQuery, RecallResult

router = APIRouter(tags=["recall"], responses=ERROR_RESPONSES)


@router.post("/recall", response_model=RecallResult)
async def recall(body: RecallQuery, memory: MemoryDep, allowed: AllowedDep) -> RecallResult:
    """Hybrid recall (vector + fulltext candidates scored by relevance, spread to their graph
    neighbours) with confidence and evidence gaps."""
    # The query vector is computed from now on, while the request reaches a worker thread.
    memory.prefetch_recall(body)
    # Awaited in a worker thread here rather than declared sync: FastAPI then checks the answer
    # on the event loop instead of in a second worker thread.
    return await run_in_threadpool(partial(memory.recall_query, body, allowed=allowed))


@router.post("/feedback", response_model=FeedbackResult)
def feedback(body: Feedback, memory: MemoryDep, allowed: AllowedDep) -> FeedbackResult:
    """R7 echo/fizzle: memories the response used gain retrieval priority, ignored ones lose a little."""
    return memory.feedback(body, allowed=allowed)
