"""W9: user corrections become lessons, offline and through the model path."""

from __future__ import annotations

import pytest

from graphmem.conversations.lessons import LessonDetector, detect_offline
from graphmem.errors import LLMError
from graphmem.llm.none import NoLLM
from graphmem.llm.scripted import ScriptedLLM


@pytest.mark.parametrize(
    ("said", "lesson"),
    [
        ("Don't start replies with 'Got it'.", "Don't start replies with 'Got it'."),
        ("I hate when you start every reply with 'Got it'", "Don't start every reply with 'Got it'."),
        ("Please stop using emojis in your answers!", "Stop using emojis in your answers."),
        (
            "No, I meant Lisbon, not Porto.",
            "Alice corrected a misunderstanding: they meant Lisbon, not Porto.",
        ),
        ("No. I meant the other Sarah.", "Alice corrected a misunderstanding: they meant the other Sarah."),
        ("I prefer tea over coffee.", "Alice prefers tea over coffee."),
        ("I'd rather fly than take the train", "Alice would rather fly than take the train."),
        ("Please always answer in French.", "Always answer in French."),
        ("Never call me Bob again.", "Never call me Bob again."),
        ("That's wrong, the meeting is on Tuesday.", "Correction from Alice: The meeting is on Tuesday."),
        ("That's wrong. The meeting is on Tuesday.", "Correction from Alice: The meeting is on Tuesday."),
        ("OK, and please don't use bullet points", "Don't use bullet points."),
        ("From now on answer briefly.", "Answer briefly."),
    ],
)
def test_a_correction_becomes_one_lesson(said: str, lesson: str) -> None:
    found = detect_offline([said], "Alice")
    assert [f.text for f in found] == [lesson]


@pytest.mark.parametrize(
    "said",
    [
        "Don't worry about it.",
        "I always take the bus to work.",
        "Never mind, it's fine.",
        "My wife's birthday is March 15th.",
        "Can you book a table for two?",
        "Don't you think that's odd?",
        "In the future I want to live in Spain.",
        "I meant to call you yesterday.",
        "That's wrong.",
    ],
)
def test_ordinary_talk_teaches_nothing(said: str) -> None:
    assert detect_offline([said], "Alice") == []


def test_lessons_keep_the_turn_they_came_from() -> None:
    found = detect_offline(["Hi there.", "Book the 6am flight. Don't add travel insurance."])
    assert [(f.turn_index, f.text) for f in found] == [(1, "Don't add travel insurance.")]


def test_without_a_model_the_offline_patterns_answer() -> None:
    lessons, usage = LessonDetector(NoLLM()).detect(["Stop apologising so much."], subject="Bo")
    assert [lesson.text for lesson in lessons] == ["Stop apologising so much."]
    assert usage.calls == 0


def test_the_model_sees_only_turns_with_cue_words_and_its_lessons_are_kept() -> None:
    llm = ScriptedLLM({"lessons": [{"lessons": [{"turn": 1, "text": "Keep answers under 100 words"}]}]})
    texts = ["What's the weather in Oslo?", "Too long. Please keep it short next time!"]
    lessons, usage = LessonDetector(llm).detect(texts, subject="Bo")
    assert [(lesson.turn_index, lesson.text) for lesson in lessons] == [(1, "Keep answers under 100 words.")]
    assert usage.calls == 1
    (call,) = llm.calls
    assert "Oslo" not in call.prompt and "[1] Too long." in call.prompt


def test_a_lesson_for_a_turn_the_model_was_not_shown_is_dropped() -> None:
    llm = ScriptedLLM({"lessons": [{"lessons": [{"turn": 7, "text": "Invented."}]}]})
    lessons, _ = LessonDetector(llm).detect(["Please never book red-eye flights."])
    assert lessons == []


def test_no_model_call_when_no_turn_holds_a_cue() -> None:
    llm = ScriptedLLM({})
    lessons, usage = LessonDetector(llm).detect(["My sister lives in Toronto."])
    assert lessons == [] and usage.calls == 0 and llm.calls == []


def test_a_failing_model_falls_back_to_the_offline_patterns() -> None:
    llm = ScriptedLLM({"lessons": [LLMError("timeout")]})
    lessons, usage = LessonDetector(llm).detect(["Please never book red-eye flights."])
    assert [lesson.text for lesson in lessons] == ["Never book red-eye flights."]
    assert usage.calls == 1
