"""Structured output through tool use: a pydantic model becomes the one tool the model must call.

The Messages API takes the model's JSON schema as the tool's ``input_schema`` as it is, ``$defs``
and ``$ref`` included, so nested and recursive models need no rewriting.
"""

from __future__ import annotations

import inspect
import re
from typing import Any

from pydantic import BaseModel, ValidationError

from graphmem.errors import LLMError
from graphmem.llm.base import T

_TOOL_NAME_FORBIDDEN = re.compile(r"[^a-zA-Z0-9_-]")


def tool_name(output: type[BaseModel]) -> str:
    """The tool's name: the model's class name, with what tool names may not hold replaced by ``_``.

    Generic models are named like ``Page[Fact]``; tool names allow ``[a-zA-Z0-9_-]{1,64}`` only.
    """
    return _TOOL_NAME_FORBIDDEN.sub("_", output.__name__)[:64] or "output"


def output_tool(output: type[BaseModel]) -> dict[str, Any]:
    """The tool definition (name, description, input_schema) that makes the model fill in ``output``.

    Raises LLMError when ``output``'s schema is not a JSON object (e.g. a RootModel of a list):
    a tool's input is always an object.
    """
    schema = output.model_json_schema()
    if schema.get("type") != "object":
        raise LLMError(f"{output.__name__} cannot be a tool's input: its JSON schema is not an object")
    doc = inspect.cleandoc(output.__doc__ or "")
    description = f"Record your answer as {output.__name__}." + (f" {doc}" if doc else "")
    return {"name": tool_name(output), "description": description, "input_schema": schema}


def forced_tool_choice(output: type[BaseModel]) -> dict[str, str]:
    """The ``tool_choice`` that makes the model call the output tool rather than answer in text."""
    return {"type": "tool", "name": tool_name(output)}


def parse_tool_input(tool_input: object, output: type[T], *, stop_reason: str | None) -> T:
    """``tool_input`` validated as ``output``.

    ``tool_input`` is the ``input`` of the reply's call of the output tool, None when the reply
    made no such call. Raises LLMError whose message tells the model what was wrong, so that it
    can be sent back as a correction; a ValidationError is its ``__cause__``.
    """
    name = tool_name(output)
    if tool_input is None:
        raise LLMError(f"the reply did not call the {name} tool (stop_reason={stop_reason})")
    try:
        return output.model_validate(tool_input)
    except ValidationError as e:
        cut = " The reply was cut off at max_tokens." if stop_reason == "max_tokens" else ""
        raise LLMError(f"the input of the {name} tool does not fit its schema:{cut}\n{_problems(e)}") from e


def corrected_prompt(prompt: str, problem: LLMError) -> str:
    """``prompt`` followed by what was wrong with the previous answer, for the one corrective retry."""
    return (
        f"{prompt}\n\nYour previous answer was rejected: {problem}\n"
        "Answer again by calling the tool with input that fits its schema."
    )


def _problems(error: ValidationError) -> str:
    """One line per validation error, ``location: message``, without pydantic's documentation URLs."""
    lines = []
    for item in error.errors(include_url=False):
        location = ".".join(str(part) for part in item["loc"]) or "(input)"
        lines.append(f"- {location}: {item['msg']}")
    return "\n".join(lines)
