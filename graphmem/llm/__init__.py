"""Language models behind the small :class:`LLM` protocol, answering in pydantic models.

Importing this package is cheap: the Anthropic SDK is imported when a model is first called.
"""

from graphmem.llm.anthropic import AnthropicLLM
from graphmem.llm.base import LLM, LLMReply, Usage, UsageMeter
from graphmem.llm.factory import create_llm
from graphmem.llm.none import NoLLM
from graphmem.llm.pricing import DEFAULT_PRICES, UNKNOWN_MODEL_PRICE, Price, cost_usd, price_for
from graphmem.llm.scripted import ScriptedCall, ScriptedLLM, ScriptedReply

__all__ = [
    "DEFAULT_PRICES",
    "LLM",
    "UNKNOWN_MODEL_PRICE",
    "AnthropicLLM",
    "LLMReply",
    "NoLLM",
    "Price",
    "ScriptedCall",
    "ScriptedLLM",
    "ScriptedReply",
    "Usage",
    "UsageMeter",
    "cost_usd",
    "create_llm",
    "price_for",
]
