"""Reading ahead on the write path: kept vectors and batched parses give what the one-by-one
calls give, and each recurring text reaches the model once."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import numpy as np

from graphmem.agenda.dates import _days, future_days_batch
from graphmem.beliefs.restore import parse_doc, parse_docs, tag_docs
from graphmem.beliefs.statements import read_statement
from graphmem.embedding.base import Vectors
from graphmem.embedding.kept import KeptVectors
from graphmem.entities.extract import extract_entities
from graphmem.language import load_english
from graphmem.write.ahead import judged_bodies


class CountingEmbedder:
    """A deterministic stand-in that records the texts it was asked to embed."""

    model_name = "counting"
    dimension = 4

    def __init__(self) -> None:
        self.asked: list[str] = []

    def embed(self, texts: Sequence[str]) -> Vectors:
        self.asked += list(texts)
        return np.asarray([[len(t), t.count("a"), 1.0, 0.0] for t in texts], dtype=np.float32)

    def embed_one(self, text: str) -> Vectors:
        vector: Vectors = self.embed([text])[0]
        return vector


def test_kept_vectors_embed_each_text_once_and_answer_what_the_model_says() -> None:
    embedder = CountingEmbedder()
    kept = KeptVectors(embedder, size=2)
    first = kept.vectors(["Ann", "Bob", "Ann"])
    again = kept.vectors(["Bob", "Ann"])
    assert embedder.asked == ["Ann", "Bob"]
    assert np.array_equal(first["Ann"], again["Ann"]) and np.array_equal(
        first["Ann"], embedder.embed(["Ann"])[0]
    )
    kept.vectors(["Cy"])  # over the size: the least recently used (Bob... then Ann) goes
    assert len(embedder.asked) == 4
    kept.vectors(["Ann"])
    assert embedder.asked[-1] == "Cy"  # Ann was used last before Cy came, so it stayed


def test_batched_parses_are_the_parses_one_call_each_gives() -> None:
    texts = [
        "Sanne cycles to work, said the note of 14 March.",
        "Joined Stripe in May, wrote the diary of 14 March.",
        "We moved the standup to 9am on Fridays, from 14 March.",
    ]
    parse_docs(texts)  # one batch through the pipe, kept where parse_doc looks
    one_each = load_english("the test")

    def reading(doc: Any) -> list[tuple[str, str, str, int, str]]:
        return [(t.text, t.tag_, t.dep_, t.head.i, t.lemma_) for t in doc]

    assert [reading(parse_doc(x)) for x in texts] == [reading(one_each(x)) for x in texts]


def test_parses_made_ahead_without_entities_give_what_a_full_parse_gives() -> None:
    """Texts read ahead are parsed without spaCy's entity recogniser, which runs when a reader
    first asks for entities: the belief check, entity extraction and the date pass then read what
    one full parse of each text gives."""
    texts = [
        "Hey Mel, the tagged-ahead test met Dr. Priya Patel at the Natural History Museum.",
        "Black mould in the tagged-ahead test's flat, said Sam Whitfield, the user's teammate.",
        "The tagged-ahead test passed B1 French on 14 March.",
    ]
    tag_docs(texts)
    one_each = load_english("the test")

    def reading(doc: Any) -> list[tuple[str, str, str, int, str, str, str]]:
        return [(t.text, t.tag_, t.dep_, t.head.i, t.lemma_, t.ent_iob_, t.ent_type_) for t in doc]

    names = [[(m.name, m.kind, m.introduced) for m in extract_entities(x)] for x in texts]
    assert names == [
        [("Mel", None, False), ("Dr. Priya Patel", "person", False), ("Natural History Museum", None, False)],
        [("Sam Whitfield", None, True)],  # "Black" opens the sentence; Sam is presented by a role
        [("French", None, False)],  # "B1" is a level (the recogniser's reading), not a name
    ]
    assert [reading(parse_doc(x)) for x in texts] == [reading(one_each(x)) for x in texts]


def test_only_pairs_the_judge_reads_are_parsed_ahead() -> None:
    ann = read_statement("Ann: I live in Porto.")
    bob = read_statement("Bob: I live in Lisbon.")
    ann_again = read_statement("Ann: I live in Braga now.")
    chatty = read_statement("Ann: " + "so " * 40 + "anyway.")
    assert judged_bodies([(ann, bob)]) == []  # two speakers: turned away before any parse
    assert judged_bodies([(ann, chatty)]) == []  # not an atomic statement
    assert judged_bodies([(ann, ann_again)]) == [ann.body, ann_again.body]


def test_the_date_pass_finds_the_days_a_full_reading_of_each_text_finds() -> None:
    """The future-day pass takes the belief check's parse of a text when there is one, and parses
    in full only texts with a date phrase that reads as a later day: the days are those a full
    parse of every text gives."""
    at = datetime(2026, 3, 4, 10, tzinfo=UTC)
    texts = [
        "Dentist appointment next Friday at 9, wrote the ahead test.",  # parsed by the belief check first
        "The ahead test's board meeting was on 2 March.",  # a bare day in a past clause
        "The ahead test went hiking last Friday and flies on 12.05.2026.",  # a past and a numeric date
        "The ahead test runs every Monday.",  # a day of every week
        "Call the ahead test's Bob tomorrow or in two weeks.",
    ]
    parse_docs(texts[:1])
    tag_docs(texts[4:])  # parsed ahead without entities: the date pass has the recogniser read it
    full = load_english("the test")
    found = future_days_batch([(t, at) for t in texts])
    assert found == [_days(full(t), at, True) for t in texts]
    assert [bool(days) for days in found] == [True, False, True, False, True]


def test_what_the_left_behind_test_parses_is_parsed_ahead_in_batches(monkeypatch: Any) -> None:
    """The belief judge's first test of a pair (does the new text leave the old one's value?) finds
    every parse it needs made ahead in batches: no text reaches spaCy one at a time, and the
    verdicts are those it gives without the head start."""
    from graphmem import language
    from graphmem.beliefs.left_behind import leaves_its_value, parse_left_behind_ahead

    pairs = [
        ("I live in the left-ahead test's Rotterdam.", "Left the left-ahead test's Rotterdam in May."),
        (
            "I work at the left-ahead test's Initech.",
            "Big news: we quit the left-ahead test's Initech last week. Starting somewhere new soon!",
        ),
        ("I drive a left-ahead test's Volvo.", "The left-ahead test's Volvo got a new coat of paint."),
    ]
    statements = [(read_statement(old), read_statement(new)) for old, new in pairs]
    parse_left_behind_ahead(statements)
    one_by_one: list[str] = []
    pipeline = language.english()

    class Spy:
        def __call__(self, text: str) -> Any:
            one_by_one.append(text)
            return pipeline(text)

        def __getattr__(self, name: str) -> Any:
            return getattr(pipeline, name)

    monkeypatch.setattr(language, "english", lambda: Spy())
    verdicts = [leaves_its_value(old, new) for old, new in statements]
    assert one_by_one == []
    assert verdicts == [True, True, False]
