"""W3 field inference: caller values win, complete items cost nothing, one batched model call,
and keyword rules when there is no model or its answer cannot be used."""

from __future__ import annotations

import pytest

from graphmem.errors import LLMError
from graphmem.llm import NoLLM, ScriptedLLM, Usage
from graphmem.models import MemoryInput
from graphmem.write.field_rules import infer_categories, infer_importance
from graphmem.write.fields import FieldInference, InferredBatch, InferredFields, offline_fields, sub_scope

# --- keyword rules --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "categories"),
    [
        ("Always answer in French.", ["instruction"]),
        ("Don't use emojis in replies.", ["instruction"]),
        ("The user is allergic to peanuts.", ["fact", "health"]),
        ("The user prefers tea over coffee.", ["preference"]),
        ("The user goes running every morning at 6am.", ["routine", "hobby"]),
        ("We decided to use PostgreSQL for the billing service.", ["decision"]),
        ("The user will fly to Tokyo next week.", ["plan"]),
        ("The user went to a concert yesterday.", ["event"]),
        ("The user's sister lives in Rome.", ["fact", "relationship"]),
        ("The user works at Google as a data engineer.", ["fact", "work"]),
        ("The user lives in Berlin.", ["fact"]),
        ("The user loves playing chess with their dad.", ["preference", "relationship", "hobby"]),
    ],
)
def test_categories_from_keywords(text: str, categories: list[str]) -> None:
    assert infer_categories(text) == categories


@pytest.mark.parametrize(
    ("text", "low", "high"),
    [
        ("Never book flights with a layover in Frankfurt.", 0.7, 0.85),
        ("We decided to use PostgreSQL for the billing service.", 0.7, 0.8),
        ("The user is allergic to peanuts.", 0.75, 0.85),
        ("The user prefers tea over coffee.", 0.55, 0.65),
        ("The user lives in Berlin.", 0.45, 0.55),
        ("ok thanks!", 0.2, 0.35),
        ("Nice.", 0.2, 0.35),
        ("It is critical that the user never eats shellfish: severe allergy.", 0.85, 0.95),
    ],
)
def test_importance_from_keywords(text: str, low: float, high: float) -> None:
    assert low <= infer_importance(text, infer_categories(text)) <= high


def test_instructions_outrank_preferences_which_outrank_small_talk() -> None:
    def score(text: str) -> float:
        return infer_importance(text, infer_categories(text))

    assert score("Always reply in German.") > score("The user likes jazz.") > score("haha ok")


def test_given_categories_inform_the_importance() -> None:
    item = MemoryInput(text="Blood type is 0 negative.", categories=["health"])
    assert offline_fields(item) == InferredFields(categories=["health"], importance=0.8)


# --- FieldInference without a model ----------------------------------------------------------------


def test_offline_fills_only_what_is_missing_and_never_invents_a_scope() -> None:
    items = [
        MemoryInput(text="The user is allergic to peanuts."),
        MemoryInput(text="The user prefers tea.", categories=["drinks"]),
        MemoryInput(text="Always reply in German.", importance=0.2, scope="/user/ann"),
    ]
    done, usage = FieldInference(NoLLM()).complete(items)
    assert usage == Usage()
    assert (done[0].categories, done[0].importance, done[0].scope) == (["fact", "health"], 0.8, None)
    assert (done[1].categories, done[1].importance) == (["drinks"], 0.5)
    assert (done[2].categories, done[2].importance, done[2].scope) == (["instruction"], 0.2, "/user/ann")
    assert items[0].categories is None  # the caller's objects are left alone


def test_complete_items_cost_nothing_even_with_a_model() -> None:
    llm = ScriptedLLM({})
    items = [
        MemoryInput(text="x y z", categories=["fact"], importance=0.4),
        MemoryInput(text="a", categories=[], importance=0.1),
    ]
    done, usage = FieldInference(llm).complete(items)
    assert done == items and usage == Usage() and llm.calls == []


# --- FieldInference with a model -------------------------------------------------------------------


def test_one_batched_call_for_every_item_missing_fields() -> None:
    answer = InferredBatch(
        items=[
            InferredFields(categories=["Health", "fact", "health"], importance=0.9, scope="/user/ann/health"),
            InferredFields(categories=["preference"], importance=0.6, scope="/elsewhere"),
            InferredFields(categories=["instruction"], importance=0.8, scope="/user/ann/health"),
        ]
    )
    llm = ScriptedLLM({"infer_fields": [answer]}, usage_per_call=Usage(calls=1, output_tokens=90))
    items = [
        MemoryInput(text="Ann is allergic to peanuts.", scope="/user/ann"),
        MemoryInput(text="done already", categories=["fact"], importance=0.5),
        MemoryInput(text="Ann prefers tea.", scope="/user/ann", importance=0.3),
        MemoryInput(text="Always reply in German.", categories=["rule"]),
    ]
    done, usage = FieldInference(llm).complete(items)
    assert usage == Usage(calls=1, output_tokens=90) and len(llm.calls) == 1
    assert (done[0].categories, done[0].importance, done[0].scope) == (
        ["health", "fact"],
        0.9,
        "/user/ann/health",
    )
    assert done[1] == items[1]
    # caller's importance wins; a scope outside the caller's is ignored
    assert (done[2].categories, done[2].importance, done[2].scope) == (["preference"], 0.3, "/user/ann")
    # no caller scope: the model may not invent one
    assert (done[3].categories, done[3].importance, done[3].scope) == (["rule"], 0.8, None)
    prompt = llm.calls[0].prompt
    assert "done already" not in prompt
    assert (
        "1. [scope: /user/ann] Ann is allergic to peanuts." in prompt
        and "3. Always reply in German." in prompt
    )


def test_a_length_mismatch_falls_back_to_keywords_for_all() -> None:
    answer = InferredBatch(items=[InferredFields(categories=["event"], importance=0.1)])
    llm = ScriptedLLM({"infer_fields": [answer]})
    items = [MemoryInput(text="The user is allergic to peanuts."), MemoryInput(text="The user likes jazz.")]
    done, usage = FieldInference(llm).complete(items)
    assert [d.categories for d in done] == [["fact", "health"], ["preference"]]
    assert [d.importance for d in done] == [0.8, 0.6]
    assert usage.calls == 1


def test_a_failing_model_falls_back_to_keywords() -> None:
    llm = ScriptedLLM({"infer_fields": [LLMError("overloaded")]})
    done, usage = FieldInference(llm).complete([MemoryInput(text="Never call before 9am.")])
    assert (done[0].categories, done[0].importance) == (["instruction"], 0.8)
    assert usage.calls == 1


def test_an_out_of_range_answer_falls_back() -> None:
    llm = ScriptedLLM({"infer_fields": [{"items": [{"categories": ["fact"], "importance": 3}]}]})
    done, _ = FieldInference(llm).complete([MemoryInput(text="The user lives in Berlin.")])
    assert (done[0].categories, done[0].importance) == (["fact"], 0.5)


def test_empty_model_categories_are_replaced_by_keywords() -> None:
    llm = ScriptedLLM({"infer_fields": [{"items": [{"categories": [" "], "importance": 0.7}]}]})
    done, _ = FieldInference(llm).complete([MemoryInput(text="We decided to ship on Monday.")])
    assert (done[0].categories, done[0].importance) == (["decision"], 0.7)


@pytest.mark.parametrize(
    ("suggested", "given", "kept"),
    [
        ("/user/ann/health", "/user/ann", "/user/ann/health"),
        ("user/ann/health/", "/user/ann", "/user/ann/health"),
        ("/user/ann", "/user/ann", "/user/ann"),
        ("/user/anna", "/user/ann", None),
        ("/user", "/user/ann", None),
        ("/health", None, None),
        ("/health", "/", None),
        ("/user/ann/bad scope!", "/user/ann", None),
        (None, "/user/ann", None),
    ],
)
def test_sub_scope_stays_under_the_callers(
    suggested: str | None, given: str | None, kept: str | None
) -> None:
    assert sub_scope(suggested, given) == kept
