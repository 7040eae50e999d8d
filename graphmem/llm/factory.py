"""Builds the language model the settings name (``GRAPHMEM_LLM``)."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from graphmem.config import Settings
from graphmem.llm.anthropic import AnthropicLLM
from graphmem.llm.base import LLM
from graphmem.llm.none import NoLLM

if TYPE_CHECKING:
    import httpx2

logger = logging.getLogger(__name__)


def create_llm(settings: Settings, http_client: httpx2.Client | None = None) -> LLM:
    """Claude when ``settings.llm`` is ``anthropic`` and an API key is set, else :class:`NoLLM`.

    Asking for ``anthropic`` without a key logs a warning and falls back to NoLLM, so graphmem
    keeps working on its deterministic paths. ``http_client`` (an ``httpx2.Client``) is handed to
    the Anthropic SDK, e.g. to share a connection pool or to serve recorded replies in tests.
    Raises nothing; a missing SDK surfaces as LLMError on the first call.
    """
    if settings.llm != "anthropic":
        return NoLLM()
    key = settings.anthropic_api_key.get_secret_value().strip() if settings.anthropic_api_key else ""
    if not key:
        logger.warning(
            "GRAPHMEM_LLM=anthropic but ANTHROPIC_API_KEY is not set: running without a language "
            "model (deterministic fallback)"
        )
        return NoLLM()
    return AnthropicLLM(
        key,
        settings.anthropic_model,
        timeout=settings.llm_timeout,
        max_retries=settings.llm_max_retries,
        http_client=http_client,
    )
