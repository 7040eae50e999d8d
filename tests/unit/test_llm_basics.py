"""The provider-independent pieces of graphmem.llm: usage, the meter, pricing, backoff, the tool
definition, the ``none`` provider and the scripted test double."""

from __future__ import annotations

import threading
from typing import Generic, TypeVar

import pytest
from pydantic import BaseModel, Field, RootModel, ValidationError

from graphmem.errors import LLMError, LLMUnavailableError
from graphmem.llm import (
    DEFAULT_PRICES,
    LLM,
    LLMReply,
    NoLLM,
    ScriptedCall,
    ScriptedLLM,
    Usage,
    UsageMeter,
    cost_usd,
    price_for,
)
from graphmem.llm.backoff import backoff_delay, is_retryable_status, retry_after_seconds
from graphmem.llm.tool_output import corrected_prompt, output_tool, parse_tool_input, tool_name

Item = TypeVar("Item")


class Verdict(BaseModel):
    """Whether the new statement replaces the old one."""

    replaces: bool
    reason: str = Field(min_length=1)


class Other(BaseModel):
    replaces: bool
    reason: str


# --- Usage and the meter ---------------------------------------------------------------------


def test_usage_adds_field_by_field_and_is_frozen() -> None:
    total = Usage(calls=1, input_tokens=100, output_tokens=10, cost_usd=0.00015) + Usage(
        calls=2, input_tokens=50, output_tokens=5, cost_usd=0.0001
    )
    assert (total.calls, total.input_tokens, total.output_tokens) == (3, 150, 15)
    assert total.cost_usd == pytest.approx(0.00025)
    assert Usage() + Usage() == Usage()
    with pytest.raises(ValidationError):
        total.calls = 0  # type: ignore[misc]


def test_the_meter_sums_per_task_and_in_total() -> None:
    meter = UsageMeter()
    assert meter.total() == Usage()
    assert meter.by_task() == {}
    meter.record("extract", Usage(calls=1, input_tokens=1000, output_tokens=100, cost_usd=0.0015))
    meter.record("belief_update", Usage(calls=1, input_tokens=400, output_tokens=40, cost_usd=0.0006))
    meter.record("extract", Usage(calls=2, input_tokens=2000, output_tokens=200, cost_usd=0.003))

    by_task = meter.by_task()
    extract = by_task["extract"]
    assert (extract.calls, extract.input_tokens, extract.output_tokens) == (3, 3000, 300)
    assert extract.cost_usd == pytest.approx(0.0045)
    assert by_task["belief_update"].calls == 1
    total = meter.total()
    assert (total.calls, total.input_tokens, total.output_tokens) == (4, 3400, 340)
    assert total.cost_usd == pytest.approx(0.0051)
    by_task.clear()  # a copy: the meter keeps its sums
    assert meter.total().calls == 4


def test_the_meter_loses_nothing_under_concurrent_writers() -> None:
    meter = UsageMeter()
    one = Usage(calls=1, input_tokens=3, output_tokens=2)

    def work(task: str) -> None:
        for _ in range(2000):
            meter.record(task, one)

    threads = [threading.Thread(target=work, args=(f"task{i % 3}",)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert meter.total() == Usage(calls=16000, input_tokens=48000, output_tokens=32000)
    assert sum(u.calls for u in meter.by_task().values()) == 16000


def test_a_reply_carries_its_typed_value() -> None:
    reply = LLMReply[Verdict](value=Verdict(replaces=True, reason="moved"), usage=Usage(calls=1))
    assert reply.value.replaces is True
    assert reply.usage.calls == 1


# --- pricing ---------------------------------------------------------------------------------


def test_the_listed_prices() -> None:
    assert DEFAULT_PRICES["claude-haiku-4-5"] == (1.0, 5.0)
    assert DEFAULT_PRICES["claude-sonnet-4-5"] == (3.0, 15.0)
    assert DEFAULT_PRICES["claude-opus-4-1"] == (15.0, 75.0)


def test_cost_is_tokens_times_price_per_million() -> None:
    assert cost_usd(1_000_000, 0, (1.0, 5.0)) == pytest.approx(1.0)
    assert cost_usd(0, 1_000_000, (1.0, 5.0)) == pytest.approx(5.0)
    assert cost_usd(2000, 500, (3.0, 15.0)) == pytest.approx(0.006 + 0.0075)
    assert cost_usd(0, 0, (15.0, 75.0)) == 0.0


def test_a_dated_snapshot_costs_what_its_alias_costs() -> None:
    assert price_for("claude-haiku-4-5-20251001", DEFAULT_PRICES) == (1.0, 5.0)
    assert price_for("claude-opus-4-1-20250805", DEFAULT_PRICES) == (15.0, 75.0)
    assert price_for("claude-sonnet-4-5", DEFAULT_PRICES) == (3.0, 15.0)
    # the longest alias wins, and an alias only matches at a '-' boundary
    assert price_for(
        "claude-sonnet-4-5-20250929", {"claude-sonnet-4": (9, 9), "claude-sonnet-4-5": (3, 15)}
    ) == (3, 15)
    assert price_for("claude-haiku-4-50", {"claude-haiku-4-5": (1.0, 5.0)}) is None
    assert price_for("gpt-4o", DEFAULT_PRICES) is None


# --- backoff ---------------------------------------------------------------------------------


def test_backoff_doubles_and_is_capped() -> None:
    assert [backoff_delay(a, base=0.5, cap=8.0) for a in range(6)] == [0.5, 1.0, 2.0, 4.0, 8.0, 8.0]


def test_backoff_waits_at_least_what_the_server_asks_but_never_beyond_the_cap() -> None:
    assert backoff_delay(0, base=0.5, cap=8.0, retry_after=3.0) == 3.0
    assert backoff_delay(3, base=0.5, cap=8.0, retry_after=1.0) == 4.0
    assert backoff_delay(0, base=0.5, cap=8.0, retry_after=60.0) == 8.0


def test_which_statuses_are_retried() -> None:
    assert [
        s for s in (400, 401, 403, 404, 408, 413, 429, 500, 502, 503, 529) if is_retryable_status(s, {})
    ] == [
        408,
        429,
        500,
        502,
        503,
        529,
    ]
    assert is_retryable_status(400, {"x-should-retry": "true"})
    assert not is_retryable_status(529, {"x-should-retry": "false"})


def test_retry_after_headers() -> None:
    assert retry_after_seconds({"retry-after": "2"}) == 2.0
    assert retry_after_seconds({"retry-after-ms": "250", "retry-after": "9"}) == 0.25
    assert retry_after_seconds({"retry-after": "Wed, 21 Oct 2026 07:28:00 GMT"}) is None
    assert retry_after_seconds({}) is None


# --- the output tool -------------------------------------------------------------------------


def test_the_output_tool_carries_the_models_schema_and_docstring() -> None:
    tool = output_tool(Verdict)
    assert tool["name"] == "Verdict"
    assert tool["input_schema"] == Verdict.model_json_schema()
    assert (
        tool["description"]
        == "Record your answer as Verdict. Whether the new statement replaces the old one."
    )


def test_tool_names_keep_to_the_allowed_characters() -> None:
    class Page(BaseModel, Generic[Item]):
        items: list[Item]

    assert tool_name(Page[Verdict]) == "Page_Verdict_"
    assert output_tool(Page[Verdict])["input_schema"]["$defs"]["Verdict"]["required"] == [
        "replaces",
        "reason",
    ]


def test_a_non_object_output_is_refused() -> None:
    class Names(RootModel[list[str]]):
        pass

    with pytest.raises(LLMError, match="not an object"):
        output_tool(Names)


def test_parse_explains_what_to_fix() -> None:
    assert parse_tool_input(
        {"replaces": False, "reason": "unrelated"}, Verdict, stop_reason="tool_use"
    ) == Verdict(replaces=False, reason="unrelated")
    with pytest.raises(LLMError) as caught:
        parse_tool_input({"replaces": "perhaps", "reason": ""}, Verdict, stop_reason="max_tokens")
    text = str(caught.value)
    assert "cut off at max_tokens" in text
    assert "- replaces: Input should be a valid boolean" in text
    assert "- reason: String should have at least 1 character" in text
    assert isinstance(caught.value.__cause__, ValidationError)
    with pytest.raises(LLMError, match=r"did not call the Verdict tool \(stop_reason=end_turn\)"):
        parse_tool_input(None, Verdict, stop_reason="end_turn")


def test_the_corrected_prompt_keeps_the_original_first() -> None:
    again = corrected_prompt("Does it replace it?", LLMError("reason: too short"))
    assert again.startswith("Does it replace it?\n\nYour previous answer was rejected: reason: too short")


# --- the none provider -----------------------------------------------------------------------


def test_no_llm_is_unavailable_and_says_how_to_configure_one() -> None:
    llm: LLM = NoLLM()
    assert llm.name == "none"
    assert llm.available is False
    with pytest.raises(LLMUnavailableError) as caught:
        llm.structured(task="extract", system="s", prompt="p", output=Verdict)
    assert str(caught.value) == (
        "no language model configured: set GRAPHMEM_LLM=anthropic and ANTHROPIC_API_KEY; "
        "the deterministic fallback is used meanwhile"
    )
    assert isinstance(caught.value, LLMError)  # callers that catch LLMError fall back too


# --- the scripted double ---------------------------------------------------------------------


def test_scripted_replies_come_in_order_per_task_and_calls_are_recorded() -> None:
    llm: LLM
    scripted = ScriptedLLM(
        {
            "belief_update": [
                Verdict(replaces=True, reason="moved"),
                {"replaces": False, "reason": "unrelated"},
            ],
            "extract": [Other(replaces=True, reason="converted")],
        }
    )
    llm = scripted
    first = llm.structured(task="belief_update", system="sys", prompt="p1", output=Verdict)
    other = llm.structured(task="extract", system="sys", prompt="p2", output=Verdict, max_tokens=64)
    second = llm.structured(task="belief_update", system="sys", prompt="p3", output=Verdict)

    assert first.value == Verdict(replaces=True, reason="moved")
    assert second.value == Verdict(replaces=False, reason="unrelated")
    assert isinstance(other.value, Verdict)  # another model is re-validated as the requested one
    assert first.usage == Usage(calls=1)
    assert [(c.task, c.prompt) for c in scripted.calls] == [
        ("belief_update", "p1"),
        ("extract", "p2"),
        ("belief_update", "p3"),
    ]
    assert scripted.calls[1] == ScriptedCall("extract", "sys", "p2", Verdict, 64)
    assert scripted.remaining() == {"belief_update": 0, "extract": 0}
    assert scripted.available is True
    assert scripted.name == "scripted"


def test_scripted_exceptions_are_raised_and_running_out_is_an_llm_error() -> None:
    scripted = ScriptedLLM({"extract": [LLMError("boom"), {"replaces": True, "reason": "ok"}]})
    with pytest.raises(LLMError, match="boom"):
        scripted.structured(task="extract", system="s", prompt="p", output=Verdict)
    assert scripted.structured(task="extract", system="s", prompt="p", output=Verdict).value.replaces
    with pytest.raises(LLMError, match="no scripted reply left for task 'extract'"):
        scripted.structured(task="extract", system="s", prompt="p", output=Verdict)
    with pytest.raises(LLMError, match="'summarise'"):
        scripted.structured(task="summarise", system="s", prompt="p", output=Verdict)
    assert len(scripted.calls) == 4  # failed calls are recorded too


def test_a_scripted_reply_that_does_not_fit_is_an_llm_error() -> None:
    scripted = ScriptedLLM({"extract": [{"replaces": True, "reason": ""}]})
    with pytest.raises(LLMError, match="does not fit Verdict") as caught:
        scripted.structured(task="extract", system="s", prompt="p", output=Verdict)
    assert isinstance(caught.value.__cause__, ValidationError)


def test_scripted_usage_per_call_feeds_a_meter() -> None:
    per_call = Usage(calls=1, input_tokens=500, output_tokens=50, cost_usd=0.00075)
    scripted = ScriptedLLM({"extract": [{"replaces": True, "reason": "a"}] * 3}, usage_per_call=per_call)
    meter = UsageMeter()
    for _ in range(3):
        meter.record(
            "extract", scripted.structured(task="extract", system="s", prompt="p", output=Verdict).usage
        )
    assert meter.total().input_tokens == 1500
    assert meter.total().cost_usd == pytest.approx(0.00225)
