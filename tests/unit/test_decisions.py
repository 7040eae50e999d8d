"""W7: decision detection (offline and through a scripted LLM), domains, and reversal. No database."""

from __future__ import annotations

import pytest

from graphmem.decisions.detect import DecisionDetector, classify_domain, detect_decision
from graphmem.decisions.reversal import DecisionFacts, decision_facts, reverses
from graphmem.errors import LLMError
from graphmem.llm.none import NoLLM
from graphmem.llm.scripted import ScriptedLLM


@pytest.mark.parametrize(
    ("text", "choice", "reasoning", "domain"),
    [
        (
            "We decided to use PostgreSQL for the main database because it handles JSON well.",
            "use PostgreSQL for the main database",
            "it handles JSON well",
            "engineering",
        ),
        ("Decision: migrate the API to FastAPI.", "migrate the API to FastAPI", "", "engineering"),
        (
            "Let's go with Vercel for hosting, since it is cheaper.",
            "go with Vercel for hosting",
            "it is cheaper",
            "infra",
        ),
        (
            "We chose Stripe over Adyen. The reason is their docs are better.",
            "Stripe over Adyen",
            "their docs are better",
            "finance",
        ),
        ("I've decided to move to Berlin next spring.", "move to Berlin next spring", "", "personal"),
        (
            "We will use Kafka for the event bus so that services stay decoupled.",
            "use Kafka for the event bus",
            "services stay decoupled",
            "engineering",
        ),
        (
            "Because Redis is already in the stack, we decided to use it for the queue.",
            "use it for the queue",
            "Redis is already in the stack",
            "engineering",
        ),
        (
            "Alice: We agreed to freeze hiring until Q3 due to the budget cut.",
            "freeze hiring until Q3",
            "the budget cut",
            "hiring",
        ),
        (
            "The team picked React as the frontend framework as it has the largest ecosystem.",
            "React as the frontend framework",
            "it has the largest ecosystem",
            "engineering",
        ),
        (
            "We're going with two contractors instead of a full-time hire.",
            "two contractors instead of a full-time hire",
            "",
            "hiring",
        ),
    ],
)
def test_offline_detector_reads_choice_reasoning_and_domain(
    text: str, choice: str, reasoning: str, domain: str
) -> None:
    draft = detect_decision(text)
    assert draft is not None
    assert (draft.choice, draft.reasoning, draft.domain) == (choice, reasoning, domain)


@pytest.mark.parametrize(
    "text",
    [
        "Should we decide to use MySQL?",
        "We haven't decided on the database yet.",
        "I picked up groceries.",
        "I agreed with Bob that the movie was great.",
        "If we decided to use Go, we would need to retrain.",
        "Maybe we chose the wrong venue.",
        "Alice likes PostgreSQL.",
    ],
)
def test_questions_open_points_and_plain_facts_are_not_decisions(text: str) -> None:
    assert detect_decision(text) is None


def test_the_decision_sentence_is_kept_without_a_speaker_prefix() -> None:
    draft = detect_decision("Bob: Budget is tight. We decided to cancel the offsite.")
    assert draft is not None and draft.text == "We decided to cancel the offsite"


@pytest.mark.parametrize(
    ("text", "domain"),
    [
        ("move the cluster to AWS", "infra"),
        ("hire a designer for the mobile app", "hiring"),
        ("switch to MySQL", "engineering"),
        ("take the kids on a trip", "personal"),
        ("paint it blue", "general"),
    ],
)
def test_domain_comes_from_keywords_and_known_products(text: str, domain: str) -> None:
    assert classify_domain(text) == domain


def facts(text: str) -> DecisionFacts:
    draft = detect_decision(text)
    assert draft is not None
    return decision_facts(draft.text, draft.choice)


@pytest.mark.parametrize(
    ("old", "new", "conflict", "reason"),
    [
        ("We decided to use PostgreSQL.", "We will use MySQL.", True, "different choice among alternatives"),
        ("We decided to use PostgreSQL.", "We decided to use React.", False, "unrelated"),
        (
            "Let's go with Vercel for hosting.",
            "We decided to host on AWS instead of Vercel.",
            True,
            "replaces vercel",
        ),
        ("We decided to hire two contractors.", "We decided not to hire contractors.", True, "reversed"),
        (
            "We decided to freeze hiring until Q3.",
            "We decided to resume hiring for the backend team.",
            True,
            "reversed",
        ),
        (
            "We decided to launch the beta in March.",
            "We decided to launch the beta in May.",
            True,
            "details changed",
        ),
        (
            "We decided to use PostgreSQL for the main database.",
            "We decided to use PostgreSQL for analytics too.",
            False,
            "reaffirmed",
        ),
    ],
)
def test_reversal_needs_the_same_question_and_a_different_answer(
    old: str, new: str, conflict: bool, reason: str
) -> None:
    verdict = reverses(facts(old), facts(new), text_cosine=0.6, slot_cosine=0.5)
    assert (verdict.conflict, verdict.reason) == (conflict, reason)


def test_the_same_purpose_with_another_object_is_a_reversal() -> None:
    old = facts("We decided to use Slack for team chat.")
    assert reverses(old, facts("We decided to use Discord for team chat."), 0.7, 1.0).conflict
    assert not reverses(old, facts("We decided to use Notion for documentation."), 0.2, 0.3).conflict


def test_llm_detection_is_one_call_per_batch_and_falls_back_per_text() -> None:
    llm = ScriptedLLM(
        {
            "decisions": [
                {
                    "texts": [
                        {
                            "index": 0,
                            "is_decision": True,
                            "decision": {
                                "text": "We'll run on Fly.io",
                                "choice": "run on Fly.io",
                                "reasoning": "latency",
                                "domain": "infra",
                            },
                        },
                        {"index": 1, "is_decision": False},
                    ]
                }
            ]
        }
    )
    drafts, usage = DecisionDetector(llm).detect_batch(
        [
            "Fly it is, we picked it for latency.",
            "We decided to use Kafka.",
            "We decided to adopt Rust for the CLI.",
        ]
    )
    assert usage.calls == 1 and len(llm.calls) == 1
    assert drafts[0] is not None and (drafts[0].choice, drafts[0].domain) == ("run on Fly.io", "infra")
    assert drafts[1] is None  # the model's "no" wins over the offline pattern
    assert drafts[2] is not None and drafts[2].choice == "adopt Rust for the CLI"  # left out: offline


def test_llm_failure_or_no_model_uses_the_offline_detector() -> None:
    failing = ScriptedLLM({"decisions": [LLMError("timeout")]})
    drafts, usage = DecisionDetector(failing).detect_batch(["We decided to use Kafka."])
    assert drafts[0] is not None and drafts[0].choice == "use Kafka" and usage.calls == 1
    drafts, usage = DecisionDetector(NoLLM()).detect_batch(["We decided to use Kafka.", "hello"])
    assert usage.calls == 0 and drafts[1] is None


def test_texts_without_a_decision_cue_cost_no_call() -> None:
    llm = ScriptedLLM({})  # any call would fail
    drafts, usage = DecisionDetector(llm).detect_batch(["Quinn collects typewriters.", "The sky was grey."])
    assert drafts == [None, None] and usage.calls == 0 and llm.calls == []
