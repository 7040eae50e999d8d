"""W3 field inference: categories, importance (and a finer scope) for memories whose caller gave none.

Caller values always win: only missing fields are filled, and items that already carry both
categories and importance cost nothing. With a language model, one call labels every item that
needs it; without one, when the call fails, or when its answer does not line up with the items,
the keyword rules of :mod:`graphmem.write.field_rules` decide. The fallback never invents a scope;
the model may only move an item below the scope its caller gave (``/user/ann`` ->
``/user/ann/health``), never elsewhere and never out of the root.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from pydantic import BaseModel, Field

from graphmem.errors import InvalidInputError, LLMError, LLMUnavailableError
from graphmem.llm.base import LLM, Usage
from graphmem.models import MemoryInput
from graphmem.scopes import ROOT, normalize_scope
from graphmem.write.extract import CATEGORIES
from graphmem.write.field_rules import infer_categories, infer_importance

log = logging.getLogger(__name__)

PROMPT_TEXT_CHARS = 600
MAX_CATEGORIES = 8
BASE_MAX_TOKENS = 256
TOKENS_PER_ITEM = 64
MAX_OUTPUT_TOKENS = 32_000

SYSTEM = (
    "You label memories for an AI assistant's long-term memory. For each numbered memory return "
    "exactly one entry, in the same order:\n"
    f"- categories: one or more of {', '.join(CATEGORIES)}. Start with what the memory is (fact, "
    "preference, instruction, routine, decision, plan or event), then add the topics that apply "
    "(work, health, relationship, hobby).\n"
    "- importance from 0 to 1: about 0.3 for small talk, 0.5 for an ordinary fact, 0.6 for "
    "preferences and plans, 0.7-0.8 for instructions, decisions and health, 0.9 and above for "
    "safety-critical information.\n"
    "- scope: null, unless the memory has a scope and clearly belongs to a narrower topic below "
    "it; then that sub-scope, e.g. /user/ann -> /user/ann/health. Never a scope outside the given one."
)


class InferredFields(BaseModel):
    """The fields inferred for one memory."""

    categories: list[str] = Field(description=f"one or more of: {', '.join(CATEGORIES)}")
    importance: float = Field(ge=0.0, le=1.0, description="0 small talk .. 1 must never be forgotten")
    scope: str | None = Field(default=None, description="a sub-scope of the given scope, or null")


class InferredBatch(BaseModel):
    """The model's answer: one entry per numbered memory, in input order."""

    items: list[InferredFields]


class FieldInference:
    """Fills in the categories and importance callers left out (LLM, else keyword rules)."""

    def __init__(self, llm: LLM) -> None:
        self._llm = llm

    def complete(self, items: Sequence[MemoryInput]) -> tuple[list[MemoryInput], Usage]:
        """``items`` with missing categories and importance filled in, in input order, and the cost.

        Given values are kept as they are. Never raises for a failed model call: the keyword
        rules are used instead and the failure is logged.
        """
        missing = [i for i, item in enumerate(items) if item.categories is None or item.importance is None]
        completed = list(items)
        if not missing:
            return completed, Usage()
        inferred, usage = self._infer([items[i] for i in missing])
        for index, fields in zip(missing, inferred, strict=True):
            completed[index] = _merge(items[index], fields)
        return completed, usage

    def _infer(self, items: list[MemoryInput]) -> tuple[list[InferredFields], Usage]:
        if not self._llm.available:
            return [offline_fields(item) for item in items], Usage()
        try:
            reply = self._llm.structured(
                task="infer_fields",
                system=SYSTEM,
                prompt=_prompt(items),
                output=InferredBatch,
                max_tokens=min(MAX_OUTPUT_TOKENS, BASE_MAX_TOKENS + TOKENS_PER_ITEM * len(items)),
            )
        except LLMUnavailableError as e:
            log.warning("field inference falls back to keyword rules: %s", e)
            return [offline_fields(item) for item in items], Usage()
        except LLMError as e:
            log.warning("field inference falls back to keyword rules: %s", e)
            return [offline_fields(item) for item in items], Usage(calls=1)
        answers = reply.value.items
        if len(answers) != len(items):
            log.warning(
                "field inference got %d answers for %d memories; keyword rules used instead",
                len(answers),
                len(items),
            )
            return [offline_fields(item) for item in items], reply.usage
        return [_checked(item, answer) for item, answer in zip(items, answers, strict=True)], reply.usage


def offline_fields(item: MemoryInput) -> InferredFields:
    """The keyword rules' fields for ``item`` (given categories inform its importance); no scope."""
    categories = item.categories if item.categories is not None else infer_categories(item.text)
    return InferredFields(categories=categories, importance=infer_importance(item.text, categories))


def sub_scope(suggested: str | None, given: str | None) -> str | None:
    """``suggested`` when it is a valid scope at or below ``given``; None otherwise.

    Nothing is accepted when the caller gave no scope, or the root: that would invent one.
    """
    if suggested is None or given is None or given == ROOT:
        return None
    try:
        value = normalize_scope(suggested)
    except InvalidInputError:
        return None
    return value if value == given or value.startswith(given + "/") else None


def _checked(item: MemoryInput, answer: InferredFields) -> InferredFields:
    """The model's answer made safe: tidy categories (rules when none), scope under the caller's."""
    categories = list(dict.fromkeys(c.strip().lower() for c in answer.categories if c.strip()))
    if not categories:
        categories = infer_categories(item.text)
    return InferredFields(
        categories=categories[:MAX_CATEGORIES],
        importance=answer.importance,
        scope=sub_scope(answer.scope, item.scope),
    )


def _merge(item: MemoryInput, fields: InferredFields) -> MemoryInput:
    """``item`` with only its missing fields taken from ``fields``."""
    update: dict[str, object] = {}
    if item.categories is None:
        update["categories"] = fields.categories
    if item.importance is None:
        update["importance"] = fields.importance
    if fields.scope is not None and fields.scope != item.scope:
        update["scope"] = fields.scope
    return item.model_copy(update=update)


def _prompt(items: list[MemoryInput]) -> str:
    lines = [f"{len(items)} memories:"]
    for number, item in enumerate(items, start=1):
        text = " ".join(item.text.split())
        if len(text) > PROMPT_TEXT_CHARS:
            text = text[:PROMPT_TEXT_CHARS] + "..."
        scope = f" [scope: {item.scope}]" if item.scope and item.scope != ROOT else ""
        lines.append(f"{number}.{scope} {text}")
    return "\n".join(lines)
