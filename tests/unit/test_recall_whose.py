"""Whose fact a question asks for and whose a memory states (recall/whose.py)."""

from __future__ import annotations

import pytest

from graphmem.recall.whose import asked_about, other_subject, stated_of


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
    ],
)
def test_a_memory_about_someone_else_than_asked(question: str, memory: str, other: bool) -> None:
    assert other_subject(asked_about(question), stated_of(memory)) is other


def test_a_name_owned_by_someone_is_not_read_as_the_subject() -> None:
    assert stated_of("Ana's rent is 900 a month.") is None  # her rent is hers: no relative in it
