"""X6: skipping model calls under a budget. A block run :func:`without_model` sees the language
model as unavailable, so every caller takes its deterministic path, as with no model configured.

The switch is a context variable: it covers everything the block runs in its thread (a review's
extraction, lesson detection and the writes it makes: field inference, belief and decision checks).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from graphmem.errors import LLMUnavailableError
from graphmem.llm.base import LLM, LLMReply, T

_SKIPPED: ContextVar[bool] = ContextVar("graphmem_model_skipped", default=False)
SKIPPED_MESSAGE = "the language model is skipped for the budget; the deterministic path is used"


@contextmanager
def without_model() -> Iterator[None]:
    """Run the block with the language model unavailable (no calls, no cost)."""
    token = _SKIPPED.set(True)
    try:
        yield
    finally:
        _SKIPPED.reset(token)


class BudgetedLLM:
    """``inner``, unavailable inside :func:`without_model` blocks."""

    def __init__(self, inner: LLM) -> None:
        self._inner = inner

    @property
    def name(self) -> str:
        """The wrapped model's name."""
        return self._inner.name

    @property
    def available(self) -> bool:
        """False inside a :func:`without_model` block, else the wrapped model's availability."""
        return not _SKIPPED.get() and self._inner.available

    def structured(
        self, *, task: str, system: str, prompt: str, output: type[T], max_tokens: int = 1024
    ) -> LLMReply[T]:
        """The wrapped model's answer; LLMUnavailableError inside a :func:`without_model` block."""
        if _SKIPPED.get():
            raise LLMUnavailableError(SKIPPED_MESSAGE)
        return self._inner.structured(
            task=task, system=system, prompt=prompt, output=output, max_tokens=max_tokens
        )
