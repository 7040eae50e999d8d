"""The Anthropic adapter against Messages API response bodies served by ``httpx2.MockTransport``.

No test touches the network: every request the SDK makes is answered by :class:`FakeAPI`, which
also keeps the requests so that their shape can be checked.
"""

from __future__ import annotations

import json
import logging
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anthropic
import httpx2
import pytest
from pydantic import BaseModel, Field, ValidationError

from graphmem.config import Settings
from graphmem.errors import GraphmemError, LLMError
from graphmem.llm import AnthropicLLM, NoLLM, create_llm

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "anthropic"
KEY = "sk-ant-test-0000"
SYSTEM = "You extract facts from what the user says."
PROMPT = "Priya moved to Lisbon and works at Acme."


class Fact(BaseModel):
    subject: str
    predicate: str
    object: str
    confidence: float = Field(ge=0.0, le=1.0)


class Extraction(BaseModel):
    """The facts a text states."""

    facts: list[Fact]


def body(name: str) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((FIXTURES / f"{name}.json").read_text())
    return loaded


@dataclass
class FakeAPI:
    """Answers requests with the scripted (status, body, headers) replies or raises the scripted errors."""

    replies: list[tuple[int, dict[str, Any], dict[str, str]] | Exception]
    requests: list[httpx2.Request] = field(default_factory=list)

    def __call__(self, request: httpx2.Request) -> httpx2.Response:
        self.requests.append(request)
        reply = self.replies.pop(0)
        if isinstance(reply, Exception):
            raise reply
        status, payload, headers = reply
        return httpx2.Response(status, json=payload, headers={"request-id": "req_test", **headers})

    def client(self) -> httpx2.Client:
        return httpx2.Client(transport=httpx2.MockTransport(self))

    def sent(self, index: int = 0) -> dict[str, Any]:
        decoded: dict[str, Any] = json.loads(self.requests[index].content)
        return decoded


def key_sent(request: httpx2.Request) -> str | None:
    """The API key the request carries: ``x-api-key`` (SDK 1.x, API 2023-06-01) or a bearer token (2.x)."""
    bearer = request.headers.get("authorization", "")
    return request.headers.get("x-api-key") or (bearer.removeprefix("Bearer ") if bearer else None)


def ok(name: str = "tool_use_success") -> tuple[int, dict[str, Any], dict[str, str]]:
    return 200, body(name), {}


def error(status: int, name: str, **headers: str) -> tuple[int, dict[str, Any], dict[str, str]]:
    return status, body(name), headers


@pytest.fixture(autouse=True)
def no_anthropic_environment(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The adapter must not depend on the environment; make sure a developer's does not leak in."""
    for name in (
        "ANTHROPIC_API_KEY",
        "ANTHROPIC_AUTH_TOKEN",
        "ANTHROPIC_BASE_URL",
        "GRAPHMEM_ANTHROPIC_API_KEY",
        "GRAPHMEM_ANTHROPIC_MODEL",
        "GRAPHMEM_LLM",
        "GRAPHMEM_LLM_TIMEOUT",
        "GRAPHMEM_LLM_MAX_RETRIES",
    ):
        monkeypatch.delenv(name, raising=False)
    yield


def make_llm(api: FakeAPI, sleeps: list[float], **overrides: Any) -> AnthropicLLM:
    options: dict[str, Any] = {"timeout": 5.0, "max_retries": 2, "backoff_base": 0.01, "backoff_max": 0.05}
    options.update(overrides)
    return AnthropicLLM(KEY, "claude-haiku-4-5", http_client=api.client(), sleep=sleeps.append, **options)


def ask(llm: AnthropicLLM, max_tokens: int = 1024) -> Any:
    return llm.structured(
        task="extract", system=SYSTEM, prompt=PROMPT, output=Extraction, max_tokens=max_tokens
    )


def test_a_tool_use_reply_becomes_the_output_model_with_its_usage_and_cost() -> None:
    sleeps: list[float] = []
    api = FakeAPI([ok()])
    reply = ask(make_llm(api, sleeps))

    assert reply.value == Extraction(
        facts=[
            Fact(subject="Priya", predicate="lives_in", object="Lisbon", confidence=0.9),
            Fact(subject="Priya", predicate="works_at", object="Acme", confidence=0.75),
        ]
    )
    assert (reply.usage.calls, reply.usage.input_tokens, reply.usage.output_tokens) == (1, 1234, 156)
    # claude-haiku-4-5 at $1 / $5 per million tokens: 1234 * 1e-6 + 156 * 5e-6
    assert reply.usage.cost_usd == pytest.approx(0.002014)
    assert sleeps == []


def test_the_request_is_a_forced_tool_call_with_the_models_schema() -> None:
    api = FakeAPI([ok()])
    ask(make_llm(api, []), max_tokens=512)

    [request] = api.requests
    assert request.method == "POST"
    assert request.url == "https://api.anthropic.com/v1/messages"
    assert key_sent(request) == KEY
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", request.headers["anthropic-version"])
    assert request.headers["content-type"] == "application/json"
    sent = api.sent()
    assert sent["model"] == "claude-haiku-4-5"
    assert sent["max_tokens"] == 512
    assert sent["system"] == SYSTEM
    assert sent["messages"] == [{"role": "user", "content": PROMPT}]
    [tool] = sent["tools"]
    assert tool["name"] == "Extraction"
    assert "The facts a text states." in tool["description"]
    assert tool["input_schema"] == Extraction.model_json_schema()
    assert tool["input_schema"]["$defs"]["Fact"]["required"] == [
        "subject",
        "predicate",
        "object",
        "confidence",
    ]
    assert sent["tool_choice"] == {"type": "tool", "name": "Extraction", "disable_parallel_tool_use": True}


def test_the_environment_does_not_redirect_or_rekey_the_client(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ANTHROPIC_BASE_URL", "http://proxy.invalid")
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-from-the-environment")
    api = FakeAPI([ok()])
    ask(make_llm(api, []))
    assert api.requests[0].url.host == "api.anthropic.com"
    assert key_sent(api.requests[0]) == KEY


def test_an_overloaded_api_is_retried_after_a_backoff() -> None:
    sleeps: list[float] = []
    api = FakeAPI([error(529, "overloaded_529"), ok()])
    reply = ask(make_llm(api, sleeps))

    assert len(api.requests) == 2
    assert sleeps == [0.01]
    assert reply.value.facts[0].object == "Lisbon"
    assert reply.usage.calls == 1  # the 529 is not a billed reply
    assert api.sent(0) == api.sent(1)


def test_retries_back_off_exponentially_then_give_up_with_the_sdk_error_as_cause() -> None:
    sleeps: list[float] = []
    api = FakeAPI([error(529, "overloaded_529")] * 3)
    with pytest.raises(LLMError) as caught:
        ask(make_llm(api, sleeps))

    assert len(api.requests) == 3  # max_retries=2: the SDK itself retried nothing
    assert sleeps == [0.01, 0.02]
    assert isinstance(caught.value.__cause__, anthropic.OverloadedError)
    assert "after 3 attempts" in str(caught.value)
    assert "HTTP 529 overloaded_error: Overloaded" in str(caught.value)
    assert "'extract'" in str(caught.value)


def test_zero_retries_means_one_request() -> None:
    sleeps: list[float] = []
    api = FakeAPI([error(529, "overloaded_529")])
    with pytest.raises(LLMError):
        ask(make_llm(api, sleeps, max_retries=0))
    assert len(api.requests) == 1
    assert sleeps == []


def test_a_rate_limit_waits_as_long_as_the_server_asks_within_the_cap() -> None:
    sleeps: list[float] = []
    api = FakeAPI([error(429, "rate_limit_429", **{"retry-after": "0.03"}), ok()])
    ask(make_llm(api, sleeps))
    assert sleeps == [0.03]

    sleeps.clear()
    api = FakeAPI([error(429, "rate_limit_429", **{"retry-after": "30"}), ok()])
    ask(make_llm(api, sleeps))
    assert sleeps == [0.05]  # backoff_max wins: the caller would rather fall back than wait


def test_an_invalid_request_fails_at_once_with_the_apis_message() -> None:
    sleeps: list[float] = []
    api = FakeAPI([error(400, "invalid_request_400")])
    with pytest.raises(LLMError) as caught:
        ask(make_llm(api, sleeps), max_tokens=100_000)

    assert len(api.requests) == 1
    assert sleeps == []
    assert isinstance(caught.value.__cause__, anthropic.BadRequestError)
    assert "HTTP 400 invalid_request_error: max_tokens: 100000 > 64000" in str(caught.value)
    assert "after" not in str(caught.value)


def test_a_rejected_key_fails_at_once_and_says_which_setting_to_check() -> None:
    api = FakeAPI([error(401, "authentication_401")])
    with pytest.raises(LLMError) as caught:
        ask(make_llm(api, []))
    assert len(api.requests) == 1
    assert isinstance(caught.value.__cause__, anthropic.AuthenticationError)
    assert "check ANTHROPIC_API_KEY" in str(caught.value)


def test_connection_errors_and_timeouts_are_retried_then_wrapped() -> None:
    def refused(request: httpx2.Request) -> httpx2.ConnectError:
        return httpx2.ConnectError("connection refused", request=request)

    request = httpx2.Request("POST", "https://api.anthropic.com/v1/messages")
    sleeps: list[float] = []
    api = FakeAPI([refused(request), httpx2.ReadTimeout("read timed out", request=request), ok()])
    assert ask(make_llm(api, sleeps)).usage.calls == 1
    assert sleeps == [0.01, 0.02]

    api = FakeAPI([httpx2.ReadTimeout("read timed out", request=request)] * 3)
    with pytest.raises(LLMError) as caught:
        ask(make_llm(api, []))
    assert isinstance(caught.value.__cause__, anthropic.APITimeoutError)
    assert "timed out" in str(caught.value)


def test_an_answer_that_does_not_validate_is_asked_again_with_the_errors() -> None:
    sleeps: list[float] = []
    api = FakeAPI([ok("tool_use_invalid_input"), ok()])
    reply = ask(make_llm(api, sleeps))

    assert reply.value.facts[1].predicate == "works_at"
    assert len(api.requests) == 2
    assert sleeps == []  # not a transport failure: no backoff
    retry_prompt = api.sent(1)["messages"][0]["content"]
    assert retry_prompt.startswith(PROMPT)
    assert "facts.0.predicate: Field required" in retry_prompt
    assert "facts.0.confidence: Input should be less than or equal to 1" in retry_prompt
    assert "errors.pydantic.dev" not in retry_prompt
    # both answers were billed: (1210 + 1234) input and (140 + 156) output tokens
    assert (reply.usage.calls, reply.usage.input_tokens, reply.usage.output_tokens) == (2, 2444, 296)
    assert reply.usage.cost_usd == pytest.approx((2444 * 1 + 296 * 5) / 1e6)


def test_two_invalid_answers_raise_with_the_validation_error_as_cause() -> None:
    api = FakeAPI([ok("tool_use_invalid_input"), ok("tool_use_invalid_input")])
    with pytest.raises(LLMError) as caught:
        ask(make_llm(api, []))
    assert len(api.requests) == 2
    assert isinstance(caught.value.__cause__, ValidationError)
    assert "no valid Extraction for task 'extract' in 2 answers" in str(caught.value)


def test_a_reply_without_the_tool_call_counts_as_invalid() -> None:
    api = FakeAPI([ok("text_reply_no_tool_call"), ok()])
    reply = ask(make_llm(api, []))
    assert reply.usage.calls == 2
    assert "did not call the Extraction tool (stop_reason=end_turn)" in api.sent(1)["messages"][0]["content"]


def test_unknown_models_are_charged_the_conservative_price(caplog: pytest.LogCaptureFixture) -> None:
    api = FakeAPI([ok()])
    llm = AnthropicLLM(
        KEY, "claude-future-9", timeout=5.0, max_retries=0, http_client=api.client(), sleep=lambda s: None
    )
    with caplog.at_level(logging.WARNING, logger="graphmem.llm.anthropic"):
        reply = ask(llm)
    assert llm.price == (15.0, 75.0)
    assert reply.usage.cost_usd == pytest.approx((1234 * 15 + 156 * 75) / 1e6)
    assert "no price known for model 'claude-future-9'" in caplog.text


def test_a_custom_price_table_is_used() -> None:
    api = FakeAPI([ok()])
    llm = make_llm(api, [], prices={"claude-haiku-4-5": (2.0, 10.0)})
    assert ask(llm).usage.cost_usd == pytest.approx((1234 * 2 + 156 * 10) / 1e6)


def test_a_missing_sdk_is_an_llm_error_naming_the_install_command(monkeypatch: pytest.MonkeyPatch) -> None:
    llm = AnthropicLLM(KEY, "claude-haiku-4-5", timeout=5.0, max_retries=0)
    monkeypatch.setitem(sys.modules, "anthropic", None)  # makes `import anthropic` fail
    with pytest.raises(LLMError, match=r"pip install anthropic"):
        ask(llm)


def test_identity_and_no_secret_in_repr() -> None:
    llm = AnthropicLLM(KEY, "claude-sonnet-4-5", timeout=5.0, max_retries=1)
    assert llm.name == "anthropic:claude-sonnet-4-5"
    assert llm.available is True
    assert llm.price == (3.0, 15.0)
    assert KEY not in repr(llm)
    llm.close()  # never connected: nothing to release


def test_errors_share_the_graphmem_root() -> None:
    api = FakeAPI([error(400, "invalid_request_400")])
    with pytest.raises(GraphmemError):
        ask(make_llm(api, []))


# --- the factory -----------------------------------------------------------------------------


def test_the_factory_builds_claude_from_settings_and_hands_it_the_http_client() -> None:
    settings = Settings(
        llm="anthropic",
        ANTHROPIC_API_KEY=KEY,
        anthropic_model="claude-opus-4-1",
        llm_timeout=3.0,
        llm_max_retries=0,
    )
    api = FakeAPI([error(529, "overloaded_529")])
    llm = create_llm(settings, http_client=api.client())

    assert isinstance(llm, AnthropicLLM)
    assert llm.name == "anthropic:claude-opus-4-1"
    with pytest.raises(LLMError):
        llm.structured(task="extract", system=SYSTEM, prompt=PROMPT, output=Extraction)
    assert len(api.requests) == 1  # llm_max_retries=0 was passed down
    assert api.sent()["model"] == "claude-opus-4-1"


def test_the_factory_falls_back_to_no_llm_without_a_key(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="graphmem.llm.factory"):
        llm = create_llm(Settings(llm="anthropic"))
    assert isinstance(llm, NoLLM)
    assert "ANTHROPIC_API_KEY is not set" in caplog.text

    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="graphmem.llm.factory"):
        assert isinstance(create_llm(Settings(llm="anthropic", ANTHROPIC_API_KEY="  ")), NoLLM)
        assert isinstance(create_llm(Settings(llm="none", ANTHROPIC_API_KEY=KEY)), NoLLM)
    assert len(caplog.records) == 1  # only the blank key is worth a warning


def test_llm_settings_defaults() -> None:
    settings = Settings()
    assert (settings.llm, settings.anthropic_model) == ("none", "claude-haiku-4-5")
    assert (settings.llm_timeout, settings.llm_max_retries) == (20.0, 2)
    with pytest.raises(ValidationError):
        Settings(llm_max_retries=-1)


def test_a_cluster_is_distilled_from_a_recorded_shape_reply_and_falls_back_when_the_model_fails() -> None:
    from graphmem.consolidate.distil import Distiller, Member

    members = [
        Member("1", "Max hid under the bed during the thunderstorm.", 0.9, ("Max",)),
        Member("2", "The vet at Greenway Clinic said Max is two kilos overweight.", 0.8, ("Max", "Greenway")),
        Member("3", "Ordered an orthopedic bed for Max.", 0.7, ("Max",)),
    ]
    api = FakeAPI([ok("tool_use_distilled")])
    result = Distiller(make_llm(api, [])).distil("semantic", members)
    assert result.text.startswith("The user's rescue border collie Max is anxious in thunderstorms")
    assert not result.extractive and result.usage.calls == 1
    sent = api.sent()
    assert sent["tool_choice"]["name"] == "Distilled"
    prompt = sent["messages"][0]["content"]
    prompt = prompt if isinstance(prompt, str) else prompt[0]["text"]
    assert prompt.startswith("1. Max hid under the bed") and "They share: Max." in prompt

    failing = FakeAPI([error(400, "invalid_request_400")])
    fallback = Distiller(make_llm(failing, [])).distil("semantic", members)
    assert fallback.extractive and fallback.text.startswith("Max (3 memories): Max hid under the bed")
