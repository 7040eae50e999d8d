"""Recall: the memories that answer a query."""

from __future__ import annotations

from fastapi import APIRouter

from graphmem.api.deps import AllowedDep, MemoryDep
from graphmem.api.schemas import ERROR_RESPONSES
from graphmem.models import Feedback, FeedbackResult, RecallQuery, RecallResult

router = APIRouter(tags=["recall"], responses=ERROR_RESPONSES)


@router.post("/recall", response_model=RecallResult)
def recall(body: RecallQuery, memory: MemoryDep, allowed: AllowedDep) -> RecallResult:
    """Hybrid recall (vector + fulltext, fused by reciprocal rank) with confidence and evidence gaps."""
    return memory.recall_query(body, allowed=allowed)


@router.post("/feedback", response_model=FeedbackResult)
def feedback(body: Feedback, memory: MemoryDep, allowed: AllowedDep) -> FeedbackResult:
    """R7 echo/fizzle: memories the response used gain retrieval priority, ignored ones lose a little."""
    return memory.feedback(body, allowed=allowed)
