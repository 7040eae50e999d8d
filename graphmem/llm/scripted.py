"""A deterministic language model for unit tests of the code paths that use one.

It answers from a script instead of a model, so it proves how callers handle answers and
failures, never how good real answers would be.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeAlias

from pydantic import BaseModel, ValidationError

from graphmem.errors import LLMError
from graphmem.llm.base import LLMReply, T, Usage

ScriptedReply: TypeAlias = BaseModel | Mapping[str, Any] | BaseException
"""One scripted answer: a model instance, a dict to validate as the requested output, or an
exception to raise."""


@dataclass(frozen=True)
class ScriptedCall:
    """One call a :class:`ScriptedLLM` received."""

    task: str
    system: str
    prompt: str
    output: type[BaseModel]
    max_tokens: int


class ScriptedLLM:
    """Answers each task's calls with that task's scripted replies, in order; safe to share between threads.

    A dict reply is validated as the requested output and a model instance of another type is
    re-validated through its fields, both raising LLMError when they do not fit, as the real
    provider does; an exception reply is raised as it is. Every call counts as ``usage_per_call``.
    Raises LLMError when a task has no replies left (or never had any).
    """

    def __init__(
        self,
        replies: Mapping[str, Sequence[ScriptedReply]],
        *,
        name: str = "scripted",
        usage_per_call: Usage | None = None,
    ) -> None:
        self._queues = {task: deque(items) for task, items in replies.items()}
        self._name = name
        self._usage_per_call = usage_per_call or Usage(calls=1)
        self._lock = threading.Lock()
        self._calls: list[ScriptedCall] = []

    @property
    def name(self) -> str:
        """The name given at construction (default ``scripted``)."""
        return self._name

    @property
    def available(self) -> bool:
        """Always True."""
        return True

    @property
    def calls(self) -> list[ScriptedCall]:
        """A copy of the calls received so far, in order."""
        with self._lock:
            return list(self._calls)

    def remaining(self) -> dict[str, int]:
        """How many scripted replies each task has left (to assert that all were used)."""
        with self._lock:
            return {task: len(queue) for task, queue in self._queues.items()}

    def structured(
        self, *, task: str, system: str, prompt: str, output: type[T], max_tokens: int = 1024
    ) -> LLMReply[T]:
        """The next scripted reply of ``task`` as ``output``; raises as the class docstring says."""
        with self._lock:
            self._calls.append(ScriptedCall(task, system, prompt, output, max_tokens))
            queue = self._queues.get(task)
            if not queue:
                raise LLMError(f"{self._name}: no scripted reply left for task {task!r}")
            reply = queue.popleft()
        if isinstance(reply, BaseException):
            raise reply
        return LLMReply(value=_as_output(reply, output), usage=self._usage_per_call)


def _as_output(reply: BaseModel | Mapping[str, Any], output: type[T]) -> T:
    """``reply`` as an instance of ``output``; raises LLMError when it does not fit."""
    if isinstance(reply, output):
        return reply
    data = reply.model_dump() if isinstance(reply, BaseModel) else reply
    try:
        return output.model_validate(data)
    except ValidationError as e:
        raise LLMError(f"scripted reply does not fit {output.__name__}: {e}") from e
