"""The language-model protocol every provider implements, and the usage it reports.

A provider answers one kind of question: given a system text and a prompt, fill in a pydantic
model. Free text never leaves this package, so callers deal with typed values or an
:class:`~graphmem.errors.LLMError`, and fall back to their deterministic path on the latter.
"""

from __future__ import annotations

import threading
from typing import Generic, Protocol, TypeVar

from pydantic import BaseModel, ConfigDict

T = TypeVar("T", bound=BaseModel)


class Usage(BaseModel):
    """What model calls consumed: replies received, tokens billed, and their price in USD."""

    model_config = ConfigDict(frozen=True)

    calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float = 0.0

    def __add__(self, other: Usage) -> Usage:
        """The usage of both, field by field."""
        return Usage(
            calls=self.calls + other.calls,
            input_tokens=self.input_tokens + other.input_tokens,
            output_tokens=self.output_tokens + other.output_tokens,
            cost_usd=self.cost_usd + other.cost_usd,
        )


class LLMReply(BaseModel, Generic[T]):
    """A validated answer and the usage of every call it took (a corrected retry included)."""

    model_config = ConfigDict(frozen=True)

    value: T
    usage: Usage


class LLM(Protocol):
    """A language model that fills in pydantic models; safe to share between threads."""

    @property
    def name(self) -> str:
        """Provider and model, e.g. ``anthropic:claude-haiku-4-5``; ``none`` when there is no model."""
        ...

    @property
    def available(self) -> bool:
        """False when calls can only fail with LLMUnavailableError (the ``none`` provider)."""
        ...

    def structured(
        self, *, task: str, system: str, prompt: str, output: type[T], max_tokens: int = 1024
    ) -> LLMReply[T]:
        """Ask the model to answer ``prompt`` by filling in ``output``.

        ``task`` is a short name for logs and cost accounting (``extract``, ``belief_update``...).
        Raises LLMUnavailableError when no model is configured, LLMError when the call failed
        after retries or the answer does not validate against ``output``.
        """
        ...


class UsageMeter:
    """Adds up usage per task, e.g. to report what one write cost; safe to share between threads."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._by_task: dict[str, Usage] = {}

    def record(self, task: str, usage: Usage) -> None:
        """Add ``usage`` to the running sum of ``task``."""
        with self._lock:
            self._by_task[task] = self._by_task.get(task, Usage()) + usage

    def total(self) -> Usage:
        """The sum over every task recorded so far."""
        with self._lock:
            return sum(self._by_task.values(), Usage())

    def by_task(self) -> dict[str, Usage]:
        """A copy of the running sums, one per task recorded so far."""
        with self._lock:
            return dict(self._by_task)
