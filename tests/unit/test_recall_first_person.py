"""First-person memories read as said by the person a question names (recall/first_person.py)."""

from __future__ import annotations

import pytest

from graphmem.recall.first_person import as_said_by, in_first_person, read_as_said, speaker, subjectless
from graphmem.recall.ranking import Evidence
from graphmem.recall.whose import asked_about, other_subject, stated_of

MARTA = {
    "a": "Hi, I'm Marta. I work as a UX designer at Spotify in Stockholm.",
    "b": "My brother Johan is a firefighter in Gothenburg.",
    "c": "Elin and I adopted a greyhound called Pixel.",
    "d": "Johan quit firefighting and became a paramedic.",
}
HANA = {
    "a": "I live in Mapo-gu with my cat Dubu.",
    "b": "My older sister Jiwoo is a dentist in Incheon.",
    "c": "Hana plays the cello in a community orchestra on Thursdays.",
    "d": "My colleague Soyeon just moved to Busan.",
}


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("I moved back to Busan.", "Hana moved back to Busan."),
        ("I'm vegan, have been for six years.", "Hana is vegan, have been for six years."),
        ("My older sister Jiwoo is a dentist.", "Hana's older sister Jiwoo is a dentist."),
        (
            "We moved to Ilsan to be closer to Minjun's parents.",
            "Hana moved to Ilsan to be closer to Minjun's parents.",
        ),
        ("Hi, I'm Hana.", "Hana is Hana."),
        ("Started a new job today: sous-chef at Nori.", "Hana started a new job today: sous-chef at Nori."),
        ("Just adopted a beagle called Toast.", "Hana just adopted a beagle called Toast."),
        ("Runs a small bakery in Daegu.", "Hana runs a small bakery in Daegu."),
        ("Since I work from home I sold my car.", "Since Hana work from home they sold their car."),
    ],
)
def test_a_first_person_memory_is_rewritten_with_the_name(text: str, said: str) -> None:
    assert as_said_by(text, "Hana") == said


def test_a_quoted_speaker_or_a_third_person_memory_is_not_in_the_first_person() -> None:
    assert in_first_person("I bike to work every day.")
    assert not in_first_person("Caroline: I went to a support group yesterday.")
    assert not in_first_person("Hana plays the cello in an orchestra.")
    assert not in_first_person("Daniel passed the exam in the US.")


@pytest.mark.parametrize(
    "text",
    [
        "Started a new job today: sous-chef at Nori.",
        "Got promoted to head nurse last week.",
        "Moved to Lisbon in March.",
        "Drives a taxi in Kumasi on weekends.",
    ],
)
def test_a_note_without_a_subject_is_in_the_speakers_voice(text: str) -> None:
    assert in_first_person(text)
    assert subjectless(text)


@pytest.mark.parametrize(
    "text",
    [
        "Keep your answers short and skip the emojis.",  # an instruction
        "Tomás drives a taxi in Kumasi.",  # a subject
        "Back in Lisbon after two years.",  # no verb to read a speaker's act from
        "Caroline: started a new job today.",  # a quoted speaker
    ],
)
def test_an_instruction_or_a_sentence_with_a_subject_is_not_subjectless(text: str) -> None:
    assert not subjectless(text)


@pytest.mark.parametrize(
    ("question", "texts", "name"),
    [
        ("Where does Marta live?", MARTA, "Marta"),  # introduced as the speaker
        ("What does Marta's brother do?", MARTA, "Marta"),
        ("Where does Hana live now?", HANA, "Hana"),  # named, never someone else's
        ("What does Jiwoo do?", HANA, None),  # "my older sister Jiwoo"
        ("What does Elin do?", MARTA, None),  # "Elin and I"
        ("What does Soyeon do?", HANA, None),
        ("Where is Busan?", HANA, None),  # a place: "moved to Busan"
        ("What does Yuna do?", HANA, None),  # no memory names her
        ("What is my sister's job?", HANA, None),  # no one named
        (
            "How long did the Vasaloppet take Marta?",
            {**MARTA, "e": "I finished Vasaloppet in 7 hours."},
            None,
        ),
    ],
)
def test_the_speaker_is_the_person_asked_about_unless_the_memories_say_otherwise(
    question: str, texts: dict[str, str], name: str | None
) -> None:
    assert speaker(asked_about(question), texts) == name


def test_a_relative_of_the_speaker_is_read_as_someone_else_than_the_speaker() -> None:
    said = read_as_said(
        "Where does Hana live?", asked_about("Where does Hana live?"), {}, HANA, [1.0], lambda texts: []
    )
    assert other_subject(asked_about("Where does Hana live?"), stated_of(said.texts["d"]))
    assert not other_subject(asked_about("Where does Hana live?"), stated_of(said.texts["a"]))
    assert not other_subject(asked_about("What does Hana's sister do?"), stated_of(said.texts["b"]))


def test_the_rewritten_memory_keeps_the_better_cosine() -> None:
    evidence = {"a": Evidence(cosine=0.3), "c": Evidence(cosine=0.7), "b": Evidence(cosine=0.6)}
    vectors = {
        "Hana live in Mapo-gu with their cat Dubu.": [0.8],
        "Hana's older sister Jiwoo is a dentist in Incheon.": [0.5],
    }
    said = read_as_said(
        "Where does Hana live?",
        asked_about("Where does Hana live?"),
        evidence,
        HANA,
        [1.0],
        lambda t: [vectors[x] for x in t],
    )
    assert said.name == "Hana"
    assert said.evidence["a"].cosine == pytest.approx(0.8)
    assert said.evidence["b"].cosine == pytest.approx(0.6)  # its own cosine was the better
    assert said.evidence["c"].cosine == pytest.approx(0.7)  # not in the first person
    assert said.raised == frozenset({"a"})
