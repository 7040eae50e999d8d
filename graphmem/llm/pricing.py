"""What model calls cost: a price table per model and the formula that applies it."""

from __future__ import annotations

from collections.abc import Mapping

Price = tuple[float, float]
"""USD per million (input, output) tokens."""

DEFAULT_PRICES: Mapping[str, Price] = {
    "claude-haiku-4-5": (1.0, 5.0),
    "claude-sonnet-4-5": (3.0, 15.0),
    "claude-sonnet-4": (3.0, 15.0),
    "claude-opus-4-1": (15.0, 75.0),
    "claude-opus-4": (15.0, 75.0),
}
"""List prices of the Anthropic models graphmem is meant to run on (standard tier, no caching)."""

UNKNOWN_MODEL_PRICE: Price = (15.0, 75.0)
"""Charged for a model the table does not know: the dearest listed, so costs are never understated."""


def price_for(model: str, prices: Mapping[str, Price]) -> Price | None:
    """The price of ``model`` in ``prices``, or None when the table does not know it.

    A dated snapshot id takes the price of its alias (``claude-haiku-4-5-20251001`` costs what
    ``claude-haiku-4-5`` costs); the longest matching alias wins.
    """
    if model in prices:
        return prices[model]
    aliases = [alias for alias in prices if model.startswith(alias + "-")]
    return prices[max(aliases, key=len)] if aliases else None


def cost_usd(input_tokens: int, output_tokens: int, price: Price) -> float:
    """The USD cost of one call's tokens at ``price`` (USD per million input, output tokens)."""
    per_input, per_output = price
    return (input_tokens * per_input + output_tokens * per_output) / 1_000_000
