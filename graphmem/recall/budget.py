"""X6 budget awareness: a recall answer that fits the caller's token budget, and what it cost.

Tokens are estimated, not counted with a model's tokenizer (graphmem does not know which model
reads the memories): about four characters a token, the usual rate of English text in the
tokenizers of current LLMs. The estimate rounds up, so a budget is not overrun by rounding.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from graphmem.models import RecallCost, Recalled, RecallResult

CHARS_PER_TOKEN = 4
# A memory is a sentence or two: about 120 characters. A budget below this many tokens per memory
# asked for cannot hold the answer's `limit` memories anyway, so the deeper search (sub-queries,
# which widen the candidate pool for many-part questions) is skipped: the direct matches fill it.
TYPICAL_MEMORY_TOKENS = 30
SUB_QUERIES = "sub_queries"


def tight_budget(max_tokens: int | None, limit: int) -> bool:
    """Whether ``max_tokens`` is too small for ``limit`` typical memories (None: no budget)."""
    return max_tokens is not None and max_tokens < limit * TYPICAL_MEMORY_TOKENS


def estimate_tokens(text: str) -> int:
    """The tokens ``text`` is likely to take in a prompt (at least one)."""
    return max(1, math.ceil(len(text) / CHARS_PER_TOKEN))


def fit_to_budget(results: Sequence[Recalled], max_tokens: int | None) -> tuple[list[Recalled], int]:
    """The results, best first, that fit in ``max_tokens`` together, and how many were cut.

    Greedy in rank order: a memory that would overrun what is left is cut and the next (smaller)
    ones still get their chance, so the fewest are cut without ever putting a weaker memory in
    place of a stronger one that fits. ``None`` keeps everything.
    """
    if max_tokens is None:
        return list(results), 0
    kept: list[Recalled] = []
    left = max_tokens
    for item in results:
        need = estimate_tokens(item.text)
        if need <= left:
            kept.append(item)
            left -= need
    return kept, len(results) - len(kept)


def within_budget(
    answer: RecallResult, max_tokens: int | None, ms: float, skipped: Sequence[str] = ()
) -> RecallResult:
    """``answer`` cut to ``max_tokens`` with its cost (tokens returned, no LLM calls, time taken,
    the expensive steps ``skipped`` for the budget)."""
    kept, cut = fit_to_budget(answer.results, max_tokens)
    gaps = list(answer.evidence_gaps)
    if cut:
        gaps.append(f"{cut} more matching memories left out to fit max_tokens={max_tokens}")
    cost = RecallCost(
        tokens=sum(estimate_tokens(r.text) for r in kept),
        llm_calls=0,  # recall ranks without a language model
        usd=0.0,
        ms=round(ms, 1),
        cut=cut,
        skipped=list(skipped),
    )
    return answer.model_copy(update={"results": kept, "evidence_gaps": gaps, "cost": cost})
