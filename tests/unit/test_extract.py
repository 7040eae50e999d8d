"""W2 extract: the facts a user would expect from turns, documents and tool output, offline and
with a (scripted) language model, including the fallback when the model fails."""

from __future__ import annotations

import json
import logging

import pytest

from graphmem.errors import InvalidInputError, LLMError, LLMUnavailableError, TextTooLongError
from graphmem.llm import NoLLM, ScriptedLLM, Usage
from graphmem.write.decompose import decompose, is_chit_chat, split_clauses, split_sentences
from graphmem.write.extract import (
    CHUNK_CHARS,
    ExtractedFact,
    Extraction,
    FactExtractor,
    check_extract_input,
    chunks,
)
from graphmem.write.first_person import resolve_first_person
from graphmem.write.verbs import third_person

# --- the offline reader: conversation turns ---------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "I moved to Berlin last month. My sister lives in Rome.",
            ["The user moved to Berlin last month.", "The user's sister lives in Rome."],
        ),
        (
            "I live in Oslo and I work at Equinor.",
            ["The user lives in Oslo.", "The user works at Equinor."],
        ),
        (
            "I live in Oslo and work at Equinor; my wife teaches at the university.",
            ["The user lives in Oslo and works at Equinor.", "The user's wife teaches at the university."],
        ),
        (
            "I work at Google, but my husband works at Meta.",
            ["The user works at Google.", "The user's husband works at Meta."],
        ),
        (
            "I usually go running every morning at 6am, and I don't drink coffee.",
            ["The user usually goes running every morning at 6am.", "The user doesn't drink coffee."],
        ),
        (
            "I'd rather have tea than coffee, but I've been drinking coffee lately.",
            ["The user would rather have tea than coffee.", "The user has been drinking coffee lately."],
        ),
        ("i'm a nurse and i work night shifts", ["The user is a nurse.", "The user works night shifts."]),
        ("Every Sunday I call my parents.", ["Every Sunday the user calls the user's parents."]),
        ("I no longer eat meat.", ["The user no longer eats meat."]),
        ("I have three kids: Max, Lea and Tom.", ["The user has three kids: Max, Lea and Tom."]),
    ],
)
def test_turns_become_atomic_third_person_facts(text: str, expected: list[str]) -> None:
    assert decompose(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # the second clause leans on the first ("there", "it", "she"): kept whole
        (
            "I moved to Berlin last month and I love it there.",
            ["The user moved to Berlin last month and the user loves it there."],
        ),
        (
            "btw my daughter's name is Lily and she just turned 5 \U0001f389",
            ["The user's daughter's name is Lily and she just turned 5."],
        ),
        # no subject after 'and', or no clause before it: not split
        ("I like salt and pepper.", ["The user likes salt and pepper."]),
        (
            "My brother and I went hiking in the Alps.",
            ["The user's brother and the user went hiking in the Alps."],
        ),
        ("Tom and I live in Berlin.", ["Tom and the user live in Berlin."]),
        ("I need to buy milk and call mom.", ["The user needs to buy milk and call mom."]),
        # a subordinate clause is never cut
        (
            "If it rains and I'm tired I stay home.",
            ["If it rains and the user is tired the user stays home."],
        ),
    ],
)
def test_splitting_is_conservative(text: str, expected: list[str]) -> None:
    assert decompose(text) == expected


def test_a_sentence_opening_with_a_pronoun_joins_the_fact_before_it() -> None:
    facts = decompose("I'm writing a thesis on graph databases. It's due in June.")
    assert facts == ["The user is writing a thesis on graph databases; it's due in June."]


def test_speaker_replaces_the_user() -> None:
    assert decompose("I moved to Berlin", speaker="Ann") == ["Ann moved to Berlin."]
    assert decompose("I'm vegan and my dog is called Rex.", speaker="Ann") == [
        "Ann is vegan.",
        "Ann's dog is called Rex.",
    ]


def test_chit_chat_questions_and_thanks_are_dropped_facts_kept() -> None:
    text = (
        "Hi! Thanks so much for the help yesterday lol. I'm allergic to peanuts, so please never "
        "suggest recipes with nuts. What should I cook tonight?"
    )
    assert decompose(text) == ["The user is allergic to peanuts, so never suggest recipes with nuts."]


@pytest.mark.parametrize(
    "text",
    [
        "ok sounds great",
        "Thanks! That's really helpful.",
        "haha yes",
        "lol",
        "Sounds like a plan!",
        "Good morning :)",
        "Where do you live?",
        "Do you know any good sushi places?",
        "Thank you so much, have a great weekend!",
        "Cool cool. See you later!",
        "",
        "   ",
    ],
)
def test_nothing_to_remember(text: str) -> None:
    assert decompose(text) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Where do you live? I live in Lisbon.", ["The user lives in Lisbon."]),
        ("Do you know any good sushi places? I love sushi, by the way.", ["The user loves sushi."]),
        ("I moved to Oslo last year, have you ever been?", ["The user moved to Oslo last year."]),
        ("Can you always answer in French from now on?", ["Always answer in French from now on."]),
        (
            "Could you remind me to call the dentist on Friday?",
            ["Remind the user to call the dentist on Friday."],
        ),
    ],
)
def test_questions_keep_what_they_state_or_ask_to_keep(text: str, expected: list[str]) -> None:
    assert decompose(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Don't use emojis in replies!", ["Don't use emojis in replies."]),
        ("Please always reply in German.", ["Always reply in German."]),
        ("Never schedule meetings before 10am.", ["Never schedule meetings before 10am."]),
        ("Call me Sam.", ["Call the user Sam."]),
        ("Remember that I'm lactose intolerant.", ["The user is lactose intolerant."]),
        ("No emojis.", ["No emojis."]),
    ],
)
def test_instructions_are_kept(text: str, expected: list[str]) -> None:
    assert decompose(text) == expected


def test_plans_and_routines_are_kept() -> None:
    text = "Next Friday I'm flying to Tokyo. I'll stay for two weeks! I go to yoga on Tuesdays."
    assert decompose(text) == [
        "Next Friday the user is flying to Tokyo.",
        "The user will stay for two weeks.",
        "The user goes to yoga on Tuesdays.",
    ]


def test_a_transcript_names_its_speakers_and_skips_the_assistant() -> None:
    text = (
        "Caroline: I went to a support group yesterday.\n"
        "Melanie: That's great! How did it go?\n"
        "Caroline: My mom is visiting next week.\n"
        "Assistant: I can help you plan the visit!"
    )
    assert decompose(text) == [
        "Caroline went to a support group yesterday.",
        "Caroline's mom is visiting next week.",
    ]


def test_user_labelled_turns_belong_to_the_user() -> None:
    text = (
        "User: hey! quick one, I switched teams last week, I'm on the data platform team now.\n"
        "Assistant: Congrats! Anything I should remember?\n"
        "User: yeah, I prefer short answers and I hate bullet points lol"
    )
    assert decompose(text) == [
        "The user switched teams last week.",
        "The user is on the data platform team now.",
        "The user prefers short answers.",
        "The user hates bullet points.",
    ]


# --- documents and tool output --------------------------------------------------------------


def test_a_document_paragraph_with_headings_and_bullets() -> None:
    text = """# Project Apollo

Project Apollo is the new billing platform. It replaces the legacy invoicing system
and is owned by the payments team. The launch is scheduled for March 15, 2025; the beta
starts in January.

## Decisions
- We chose Stripe as the payment provider.
- The API is written in Go.
"""
    assert decompose(text) == [
        "Project Apollo is the new billing platform; it replaces the legacy invoicing system and is "
        "owned by the payments team.",
        "The launch is scheduled for March 15, 2025.",
        "The beta starts in January.",
        "We chose Stripe as the payment provider.",
        "The API is written in Go.",
    ]


def test_abbreviations_do_not_end_sentences() -> None:
    text = "Dr. Smith said my blood pressure is fine. I take 5 mg of amlodipine daily, e.g. at 8 a.m. sharp."
    assert decompose(text) == [
        "Dr. Smith said the user's blood pressure is fine.",
        "The user takes 5 mg of amlodipine daily, e.g. at 8 a.m. sharp.",
    ]


def test_json_tool_output_becomes_one_fact_per_field() -> None:
    payload = {
        "name": "Acme Corp",
        "founded": 1999,
        "ceo": "Jane Doe",
        "address": {"city": "Berlin"},
        "tags": ["robots", "ai"],
        "website": None,
    }
    assert decompose(json.dumps(payload)) == [
        "Acme Corp founded: 1999.",
        "Acme Corp ceo: Jane Doe.",
        "Acme Corp address city: Berlin.",
        "Acme Corp tags: robots, ai.",
    ]


def test_json_lists_of_records_and_prose_values() -> None:
    tickets = [
        {"id": 17, "title": "Fix login bug", "status": "done", "assignee": "Ann"},
        {"id": 18, "title": "Add SSO", "status": "open"},
    ]
    assert decompose(json.dumps(tickets)) == [
        "Fix login bug id: 17.",
        "Fix login bug status: done.",
        "Fix login bug assignee: Ann.",
        "Add SSO id: 18.",
        "Add SSO status: open.",
    ]
    weather = {
        "city": "Paris",
        "conditions": "light rain",
        "summary": "Expect light rain in Paris through the evening. Skies clear overnight.",
    }
    assert decompose(json.dumps(weather)) == [
        "City: Paris.",
        "Conditions: light rain.",
        "Expect light rain in Paris through the evening.",
        "Skies clear overnight.",
    ]


def test_line_oriented_tool_output_keeps_each_field_line() -> None:
    text = "Status: shipped\nOrder id: 123\nDelivery: Friday, March 3\n{\n}"
    assert decompose(text) == ["Status: shipped.", "Order id: 123.", "Delivery: Friday, March 3."]
    logs = "2024-05-01 10:02:11 ERROR payment-service timeout after 30s\n2024-05-01 10:02:12 INFO retry ok"
    assert decompose(logs) == [
        "2024-05-01 10:02:11 ERROR payment-service timeout after 30s.",
        "2024-05-01 10:02:12 INFO retry ok.",
    ]


def test_invalid_json_is_read_as_text() -> None:
    assert decompose('{"city": "Berlin", oops') == ['{"city": "Berlin", oops.']


def test_duplicates_are_dropped() -> None:
    assert decompose("I live in Rome. I live in Rome!") == ["The user lives in Rome."]


def test_long_documents_are_read_paragraph_by_paragraph() -> None:
    paragraph = "The {n}th service runs on Kubernetes and the {n}th team owns it."
    text = "\n\n".join(paragraph.format(n=n) for n in range(300))
    facts = decompose(text)
    assert len(facts) == 300
    assert facts[42] == "The 42th service runs on Kubernetes and the 42th team owns it."


# --- the pieces ---------------------------------------------------------------------------------


def test_sentence_and_clause_splitters() -> None:
    assert split_sentences("Mr. Li met Dr. Ho. They talked! Why? Fine.") == [
        "Mr. Li met Dr. Ho.",
        "They talked!",
        "Why?",
        "Fine.",
    ]
    assert split_clauses("I live in Rome; the office is in Milan") == [
        "I live in Rome",
        "the office is in Milan",
    ]
    assert split_clauses("Tom teaches maths and Ann studies law") == ["Tom teaches maths", "Ann studies law"]
    assert split_clauses("I visited the museum and the gardens") == ["I visited the museum and the gardens"]


@pytest.mark.parametrize(
    ("verb", "agreed"),
    [("live", "lives"), ("go", "goes"), ("watch", "watches"), ("try", "tries"), ("play", "plays"),
     ("am", "is"), ("have", "has"), ("don't", "doesn't"), ("moved", "moved"), ("went", "went"),
     ("can", "can"), ("need", "needs"), ("used", "used")],
)  # fmt: skip
def test_third_person(verb: str, agreed: str) -> None:
    assert third_person(verb) == agreed


def test_first_person_resolution() -> None:
    assert resolve_first_person("I think I'll take it", "Bo") == "Bo thinks Bo will take it"
    assert (
        resolve_first_person("Mine is the blue one, i.e. the big one")
        == "The user's is the blue one, i.e. the big one"
    )
    assert (
        resolve_first_person("I'd been there and I'd go again")
        == "The user had been there and the user would go again"
    )


def test_chit_chat_detector() -> None:
    assert is_chit_chat("Thanks for the tips!")
    assert is_chit_chat("that sounds really great")
    assert not is_chit_chat("I love sushi")


# --- FactExtractor: model path and fallback --------------------------------------------------


def test_without_a_model_the_offline_reader_answers_for_free() -> None:
    facts, usage = FactExtractor(NoLLM()).extract("I live in Rome and I work at FAO.")
    assert [f.text for f in facts] == ["The user lives in Rome.", "The user works at FAO."]
    assert all(f.categories == [] and f.importance is None for f in facts)
    assert usage == Usage()


def test_the_model_answers_in_one_call_and_its_facts_are_tidied() -> None:
    reply = Extraction(
        facts=[
            ExtractedFact(
                text="  Ann moved to   Berlin. ", categories=["Fact", "fact", " event "], importance=0.6
            ),
            ExtractedFact(text="Ann's sister lives in Rome.", categories=["relationship"]),
            ExtractedFact(text="ann moved to berlin.", categories=[]),
            ExtractedFact(text="   ", categories=[]),
        ]
    )
    llm = ScriptedLLM({"extract": [reply]}, usage_per_call=Usage(calls=1, input_tokens=300))
    facts, usage = FactExtractor(llm).extract("I moved to Berlin! My sister lives in Rome.", speaker="Ann")
    assert facts == [
        ExtractedFact(text="Ann moved to Berlin.", categories=["fact", "event"], importance=0.6),
        ExtractedFact(text="Ann's sister lives in Rome.", categories=["relationship"]),
    ]
    assert usage == Usage(calls=1, input_tokens=300)
    (call,) = llm.calls
    assert call.task == "extract" and call.output is Extraction
    assert "Speaker (write for I/me/my): Ann" in call.prompt and "My sister lives in Rome." in call.prompt
    assert "self-contained" in call.system


def test_a_dict_reply_is_validated_like_the_real_provider() -> None:
    llm = ScriptedLLM({"extract": [{"facts": [{"text": "The user is vegan.", "importance": 0.7}]}]})
    facts, _ = FactExtractor(llm).extract("I'm vegan")
    assert facts == [ExtractedFact(text="The user is vegan.", importance=0.7)]


def test_a_failing_model_falls_back_to_the_offline_reader(caplog: pytest.LogCaptureFixture) -> None:
    llm = ScriptedLLM({"extract": [LLMError("timeout after 3 retries")]})
    with caplog.at_level(logging.WARNING):
        facts, usage = FactExtractor(llm).extract("I live in Rome. Thanks!")
    assert [f.text for f in facts] == ["The user lives in Rome."]
    assert usage.calls == 1
    assert "timeout after 3 retries" in caplog.text


def test_a_reply_that_does_not_fit_falls_back() -> None:
    llm = ScriptedLLM({"extract": [{"facts": [{"text": "x", "importance": 7}]}]})
    facts, _ = FactExtractor(llm).extract("My cat is called Miso.")
    assert [f.text for f in facts] == ["The user's cat is called Miso."]


def test_an_unavailable_model_costs_nothing() -> None:
    llm = ScriptedLLM({"extract": [LLMUnavailableError("no key")]})
    facts, usage = FactExtractor(llm).extract("I live in Rome.")
    assert [f.text for f in facts] == ["The user lives in Rome."] and usage == Usage()


def test_long_text_goes_to_the_model_in_chunks_between_paragraphs() -> None:
    paragraph = "The service number {n} runs on Kubernetes in the Frankfurt region. " * 40
    text = "\n\n".join(paragraph.format(n=n) for n in range(6))
    replies = [Extraction(facts=[ExtractedFact(text=f"fact {i}")]) for i in range(10)]
    llm = ScriptedLLM({"extract": replies})
    facts, usage = FactExtractor(llm).extract(text)
    assert usage.calls == len(llm.calls) == len(chunks(text, CHUNK_CHARS)) > 1
    assert all(len(call.prompt) < CHUNK_CHARS + 200 for call in llm.calls)
    paragraphs = set(text.split("\n\n"))
    for call in llm.calls:
        body = call.prompt.split("<<<\n", 1)[1].rsplit("\n>>>", 1)[0]
        assert set(body.split("\n\n")) <= paragraphs  # whole paragraphs only
    assert [f.text for f in facts] == [f"fact {i}" for i in range(usage.calls)]


def test_one_failed_chunk_falls_back_alone() -> None:
    first = "I live in Rome. " * 300
    second = "My brother lives in Oslo. " * 300
    llm = ScriptedLLM(
        {"extract": [Extraction(facts=[ExtractedFact(text="The user lives in Rome.")]), LLMError("boom")]}
    )
    facts, usage = FactExtractor(llm).extract(first + "\n\n" + second)
    assert [f.text for f in facts] == ["The user lives in Rome.", "The user's brother lives in Oslo."]
    assert usage.calls == 2


def test_blank_text_has_no_facts_and_costs_nothing() -> None:
    llm = ScriptedLLM({})
    assert FactExtractor(llm).extract("  \n ") == ([], Usage())
    assert llm.calls == []


def test_chunks_respect_the_size_and_keep_every_word() -> None:
    text = "\n\n".join(("word " * 300).strip() for _ in range(20))
    pieces = chunks(text, 1000)
    assert all(len(p) <= 1000 for p in pieces)
    assert " ".join(" ".join(pieces).split()) == " ".join(text.split())
    assert chunks("x" * 2500, 1000) == ["x" * 1000, "x" * 1000, "x" * 500]


def test_extract_input_checks() -> None:
    assert check_extract_input("hi", "user/ann/", 100) == "/user/ann"
    assert check_extract_input("hi", None, 100) is None
    with pytest.raises(InvalidInputError):
        check_extract_input("  ", None, 100)
    with pytest.raises(TextTooLongError, match="over the limit of 10"):
        check_extract_input("x" * 11, None, 10)
    with pytest.raises(InvalidInputError):
        check_extract_input("hi", "/bad scope!", 100)
