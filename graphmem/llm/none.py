"""The provider used when no language model is configured: every call says so."""

from __future__ import annotations

from graphmem.errors import LLMUnavailableError
from graphmem.llm.base import LLMReply, T

UNAVAILABLE_MESSAGE = (
    "no language model configured: set GRAPHMEM_LLM=anthropic and ANTHROPIC_API_KEY; "
    "the deterministic fallback is used meanwhile"
)


class NoLLM:
    """No language model: :attr:`available` is False and :meth:`structured` always raises."""

    @property
    def name(self) -> str:
        """Always ``none``."""
        return "none"

    @property
    def available(self) -> bool:
        """Always False."""
        return False

    def structured(
        self, *, task: str, system: str, prompt: str, output: type[T], max_tokens: int = 1024
    ) -> LLMReply[T]:
        """Raises LLMUnavailableError, whose message says how to configure a model."""
        raise LLMUnavailableError(UNAVAILABLE_MESSAGE)
