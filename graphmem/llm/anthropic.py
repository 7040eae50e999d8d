"""Claude through the Anthropic Messages API, answering in pydantic models by way of tool use.

Retries live here and only here: the SDK client is built with ``max_retries=0``, and this adapter
retries rate limits (429), timeouts, connection errors and server errors (5xx, 529 overloaded)
with exponential backoff that honours the server's ``retry-after``. Owning the loop keeps the
waiting injectable (tests do not sleep) and the attempts visible in graphmem's logs. An answer
that does not validate is retried once, separately, with the validation errors added to the
prompt.

The ``anthropic`` SDK is imported on first use. It talks HTTP through ``httpx2`` (the SDK refuses
``httpx`` objects), so an injected ``http_client`` is an ``httpx2.Client``.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from graphmem.errors import LLMError
from graphmem.llm.backoff import backoff_delay, is_retryable_status, retry_after_seconds
from graphmem.llm.base import LLMReply, T, Usage
from graphmem.llm.pricing import DEFAULT_PRICES, UNKNOWN_MODEL_PRICE, Price, cost_usd, price_for
from graphmem.llm.tool_output import corrected_prompt, output_tool, parse_tool_input, tool_name

if TYPE_CHECKING:
    import anthropic
    import httpx2
    from anthropic.types import Message, ToolChoiceToolParam, ToolParam

logger = logging.getLogger(__name__)

DEFAULT_BASE_URL = "https://api.anthropic.com"
INSTALL_SDK = "pip install anthropic"
ANSWER_ATTEMPTS = 2  # the first answer, then one corrected retry when it does not validate


class AnthropicLLM:
    """A Claude model answering :meth:`structured` calls; safe to share between threads.

    ``timeout`` bounds each HTTP request in seconds; ``max_retries`` is how many times a failed
    request is retried (so at most ``max_retries + 1`` requests per answer). ``prices`` maps
    model names to USD per million (input, output) tokens (default :data:`DEFAULT_PRICES`; an
    unknown model is charged :data:`UNKNOWN_MODEL_PRICE`). ``base_url`` is passed to the SDK
    explicitly so that ``ANTHROPIC_BASE_URL`` in the environment does not redirect it.
    ``backoff_base``, ``backoff_max`` and ``sleep`` shape the waits between retries. Nothing is
    imported or connected until the first call.
    """

    def __init__(
        self,
        api_key: str,
        model: str,
        *,
        timeout: float,
        max_retries: int,
        http_client: httpx2.Client | None = None,
        prices: Mapping[str, Price] | None = None,
        base_url: str = DEFAULT_BASE_URL,
        backoff_base: float = 0.5,
        backoff_max: float = 8.0,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self._api_key = api_key
        self._model = model
        self._timeout = timeout
        self._max_retries = max(0, max_retries)
        self._http_client = http_client
        self._prices = DEFAULT_PRICES if prices is None else prices
        self._base_url = base_url
        self._backoff_base = backoff_base
        self._backoff_max = backoff_max
        self._sleep = sleep
        self._lock = threading.Lock()
        self._client: anthropic.Anthropic | None = None

    def __repr__(self) -> str:
        return f"AnthropicLLM(model={self._model!r})"

    @property
    def name(self) -> str:
        """``anthropic:<model>``."""
        return f"anthropic:{self._model}"

    @property
    def available(self) -> bool:
        """Always True: whether the key works is only known on the first call."""
        return True

    @property
    def price(self) -> Price:
        """USD per million (input, output) tokens charged for this model."""
        return price_for(self._model, self._prices) or UNKNOWN_MODEL_PRICE

    def structured(
        self, *, task: str, system: str, prompt: str, output: type[T], max_tokens: int = 1024
    ) -> LLMReply[T]:
        """Ask Claude to answer ``prompt`` by calling a tool whose input is ``output``.

        The reply's usage covers every answer received (a corrected retry included). Raises
        LLMError when the SDK is missing, a request fails for good (after retries for transient
        errors, at once for others such as 400 or 401), or the answer does not validate twice.
        """
        tool = output_tool(output)
        tool_param: ToolParam = {
            "name": tool["name"],
            "description": tool["description"],
            "input_schema": tool["input_schema"],
        }
        choice: ToolChoiceToolParam = {
            "type": "tool",
            "name": tool["name"],
            "disable_parallel_tool_use": True,
        }
        usage, current_prompt = Usage(), prompt
        for answer in range(1, ANSWER_ATTEMPTS + 1):
            message = self._send(task, system, current_prompt, tool_param, choice, max_tokens)
            usage += self._usage_of(message)
            try:
                value = parse_tool_input(
                    _tool_input(message, tool["name"]), output, stop_reason=message.stop_reason
                )
            except LLMError as problem:
                if answer == ANSWER_ATTEMPTS:
                    raise LLMError(
                        f"{self.name} gave no valid {tool_name(output)} for task {task!r} "
                        f"in {ANSWER_ATTEMPTS} answers: {problem}"
                    ) from (problem.__cause__ or problem)
                logger.warning("%s task %r: invalid answer, asking once more: %s", self.name, task, problem)
                current_prompt = corrected_prompt(prompt, problem)
                continue
            logger.debug(
                "%s task %r: %d in / %d out tokens, $%.6f",
                self.name,
                task,
                usage.input_tokens,
                usage.output_tokens,
                usage.cost_usd,
            )
            return LLMReply(value=value, usage=usage)
        raise AssertionError("unreachable: the last answer either returns or raises")

    def close(self) -> None:
        """Release the SDK's connection pool (not an injected ``http_client``, which its owner closes)."""
        with self._lock:
            client, self._client = self._client, None
        if client is not None and self._http_client is None:
            client.close()

    def _send(
        self,
        task: str,
        system: str,
        prompt: str,
        tool: ToolParam,
        choice: ToolChoiceToolParam,
        max_tokens: int,
    ) -> Message:
        """One Messages API call, retried on transient failures; raises LLMError when it fails for good."""
        client = self._sdk_client()
        import anthropic

        attempts = self._max_retries + 1
        for attempt in range(attempts):
            try:
                return client.messages.create(
                    model=self._model,
                    max_tokens=max_tokens,
                    system=system,
                    messages=[{"role": "user", "content": prompt}],
                    tools=[tool],
                    tool_choice=choice,
                )
            except anthropic.AnthropicError as e:
                retryable, retry_after = _transient(e)
                if not retryable or attempt + 1 == attempts:
                    raise LLMError(self._describe_failure(task, e, attempt + 1)) from e
                delay = backoff_delay(
                    attempt, base=self._backoff_base, cap=self._backoff_max, retry_after=retry_after
                )
                logger.warning(
                    "%s task %r: %s; retry %d of %d in %.2fs",
                    self.name,
                    task,
                    _summary(e),
                    attempt + 1,
                    self._max_retries,
                    delay,
                )
                self._sleep(delay)
        raise AssertionError("unreachable: the last attempt either returns or raises")

    def _sdk_client(self) -> anthropic.Anthropic:
        """The SDK client, built on first use; raises LLMError when the SDK is missing or refuses setup."""
        with self._lock:
            if self._client is not None:
                return self._client
            try:
                import anthropic
            except ImportError as e:
                raise LLMError(
                    f"the anthropic provider needs the Python package 'anthropic': run `{INSTALL_SDK}`"
                ) from e
            if price_for(self._model, self._prices) is None:
                logger.warning(
                    "no price known for model %r: charging $%s/$%s per million tokens",
                    self._model,
                    *UNKNOWN_MODEL_PRICE,
                )
            try:
                self._client = anthropic.Anthropic(
                    api_key=self._api_key,
                    base_url=self._base_url,
                    timeout=self._timeout,
                    max_retries=0,  # retries are this adapter's job
                    http_client=self._http_client,
                )
            except (anthropic.AnthropicError, TypeError, ValueError) as e:
                raise LLMError(f"could not set up the Anthropic client: {e}") from e
            return self._client

    def _usage_of(self, message: Message) -> Usage:
        """The usage and cost of one reply."""
        tokens_in, tokens_out = message.usage.input_tokens, message.usage.output_tokens
        return Usage(
            calls=1,
            input_tokens=tokens_in,
            output_tokens=tokens_out,
            cost_usd=cost_usd(tokens_in, tokens_out, self.price),
        )

    def _describe_failure(self, task: str, error: anthropic.AnthropicError, attempts: int) -> str:
        """What went wrong, for the LLMError message, with what to change when the caller can."""
        import anthropic

        tries = f" after {attempts} attempts" if attempts > 1 else ""
        text = f"{self.name} call for task {task!r} failed{tries}: {_summary(error)}"
        if isinstance(error, anthropic.AuthenticationError | anthropic.PermissionDeniedError):
            text += " (check ANTHROPIC_API_KEY)"
        elif isinstance(error, anthropic.NotFoundError):
            text += " (check GRAPHMEM_ANTHROPIC_MODEL)"
        return text


def _transient(error: Exception) -> tuple[bool, float | None]:
    """Whether ``error`` is worth retrying, and the wait the server asked for, if it did."""
    import anthropic

    if isinstance(error, anthropic.APIStatusError):
        headers = error.response.headers
        return is_retryable_status(error.status_code, headers), retry_after_seconds(headers)
    return isinstance(error, anthropic.APIConnectionError), None  # timeouts are connection errors


def _summary(error: Exception) -> str:
    """A one-line account of an SDK error: HTTP status, error type and the API's message."""
    import anthropic

    if isinstance(error, anthropic.APIStatusError):
        detail = _api_message(error.body) or error.message
        return f"HTTP {error.status_code} {error.type or 'error'}: {detail}"
    if isinstance(error, anthropic.APITimeoutError):
        return "the request timed out"
    if isinstance(error, anthropic.APIConnectionError):
        cause = error.__cause__
        return f"could not reach the API ({type(cause).__name__ if cause else 'connection error'}: {cause})"
    return f"{type(error).__name__}: {error}"


def _api_message(body: object) -> str | None:
    """``error.message`` of an API error body (``{"type": "error", "error": {...}}``), if there is one."""
    error = body.get("error") if isinstance(body, dict) else None
    message = error.get("message") if isinstance(error, dict) else None
    return message if isinstance(message, str) else None


def _tool_input(message: Message, name: str) -> object:
    """The input of the reply's first call of tool ``name``; None when it made no such call."""
    for block in message.content:
        if block.type == "tool_use" and block.name == name:
            return block.input
    return None
