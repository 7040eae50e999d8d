"""Whose fact a question asks for and whose a memory states (recall/whose.py)."""

from __future__ import annotations

import pytest

from graphmem.recall.whose import Whose, asked_about, other_subject, stated_of


@pytest.mark.parametrize(
    ("question", "memory", "other"),
    [
        ("Where does Kwame's sister live?", "Kwame lives in the Ahodwo area of Kumasi.", True),
        ("Where does Kwame's sister live?", "Kwame's sister Efua is a nurse in London.", False),
        ("Where does María José work at the moment?", "María José's sister Lucía is a pharmacist.", True),
        ("Where does María José work at the moment?", "María José took a job at the vet hospital.", False),
        ("What does Elena's son do?", "Elena's daughter Maria works as a dentist.", True),
        ("Where does Priya's friend Kavya work?", "Priya's best friend Kavya works at Microsoft.", False),
        ("Where does Ana live?", "Bob's sister lives in Oslo.", False),  # someone else altogether
        ("Where does Ana live?", "The office moved to Leeds.", False),  # no named subject
        ("What is the deadline?", "Ana's sister lives in Oslo.", False),  # no one asked about
        ("Where was Yu-ting living?", "User: Yu-ting's younger sister Yu-han is in Tainan.", True),
        # a group asked about takes in its members; a partner is one relation under any name
        ("What do Omar's children do?", "Omar's son Khalid studies medicine in Dublin.", False),
        ("What do Youssef's siblings do?", "Youssef's sister Yasmin is an Egyptologist.", False),
        ("Where do Leila's parents live?", "Leila's mother lives in Shiraz.", False),
        ("What do Omar's children do?", "Omar lives in Muscat.", True),
        ("What does Mei Lin's fiancé do?", "Mei Lin's boyfriend Wei is a photographer.", False),
        # kin the belief check does not name: a grandmother by her familiar name, a niece
        ("Where does Tane live now?", "Tane's nan lives in Gisborne.", True),
        ("Where do Tane's grandparents live?", "Tane's nan lives in Gisborne.", False),
        ("What does Irena do?", "Irena's niece Zofia studies law.", True),
        # asked who someone is, the owner's fact may be the answer, and a relative's
        ("Who is Omar's manager at the moment?", "Omar now reports to Eng. Rashid Al-Hinai.", False),
        ("Who does Omar report to?", "Omar's manager is Eng. Hamad Al-Busaidi.", False),
        # asked what someone of theirs is called, the owner's statement gives the name
        ("What is Yuki's dog called?", "Yuki has a shiba inu named Kinako.", False),
        ("What is the name of Amara's cat?", "Amara has a tabby cat called Jollof.", False),
        ("What is Diego's dog's name?", "Diego has a French bulldog named Chile.", False),
        ("Where does Yuki's dog sleep?", "Yuki has a shiba inu named Kinako.", True),
    ],
)
def test_a_memory_about_someone_else_than_asked(question: str, memory: str, other: bool) -> None:
    assert other_subject(asked_about(question), stated_of(memory)) is other


def test_a_name_owned_by_someone_is_not_read_as_the_subject() -> None:
    assert stated_of("Ana's rent is 900 a month.") is None  # her rent is hers: no relative in it


def test_a_question_typed_in_lower_case_names_its_people_in_lower_case() -> None:
    assert asked_about("tell me about agnieszka's kids") == asked_about("Tell me about Agnieszka's kids")
    assert asked_about("what's agnieszka's husband's job") == asked_about("What's Agnieszka's husband's job")
    assert asked_about("what's the weather like") is None


def test_an_opening_word_that_is_no_name_is_no_subject() -> None:
    assert stated_of("Since Max quit football, Tom referees youth matches.") is None
    assert stated_of("Now that Marta is in Nacka she takes the train.") is None


def test_a_noun_followed_by_a_name_says_that_one_is_someone_of_theirs() -> None:
    assert stated_of("Kenji's pastry assistant, Rina, lives in Osaka.") == Whose("kenji", "assistant")
    assert stated_of("Aisha's lab mate Priscilla surfs every morning.") == Whose("aisha", "mate")
    assert stated_of("Elena's cardiologist is Dr. Stoyanova.") is None  # a verb, not a noun, before the name


def test_a_question_opening_with_a_modal_verb_names_the_person_after_it() -> None:
    assert asked_about("Would Lucía eat a cheeseburger?") == Whose("lucía", "")
    assert asked_about("Should I order Daniel a steak?") == Whose("daniel", "")


def test_a_familiar_kin_noun_names_the_same_relative_as_the_plain_one() -> None:
    asked = asked_about("What does Bram's father do at weekends?")
    assert not other_subject(asked, stated_of("Bram's dad Joost restores old barges."))
    assert other_subject(asked, stated_of("Bram's mum Els restores old barges."))
