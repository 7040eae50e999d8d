"""Turns of a conversation that react to what the other person said ("That's so inspiring!") are
not beliefs about a slot: two of them, however alike, never replace one another. A "never" inside
a clause of its own is not a denial of the statement; a denial of the statement itself still is."""

from __future__ import annotations

import pytest

from graphmem.beliefs.judge import judge
from graphmem.beliefs.statements import read_statement


def conflict(old: str, new: str, cosine: float = 0.8) -> bool:
    return judge(read_statement(old), read_statement(new), cosine).conflict


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Mira: That's such a lovely idea!", "Mira: Wow Tom, that's really thoughtful!"),
        ("Mira: It's great for clearing my head after work.", "Mira: It made the whole week feel calmer."),
        ("Mira: Your garden looks amazing!", "Mira: Your photos are always so bright and cheerful."),
        ("Mira: They make every morning a bit brighter.", "Mira: They keep me company on long evenings."),
        ("Mira: You'll find the right flat soon.", "Mira: You'll find a great place for the kids, I'm sure."),
    ],
)
def test_reactions_to_the_other_speaker_do_not_replace_each_other(old: str, new: str) -> None:
    assert not conflict(old, new)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # a "never" inside a clause of its own denies that clause, not the statement
        ("Mira: The bracelet reminds me to slow down.", "Mira: The bracelet is a reminder to never give up."),
        ("Mira: I keep a diary to stay on track.", "Mira: I keep a diary so I never lose track of ideas."),
    ],
)
def test_a_denial_inside_an_embedded_clause_is_not_a_negation(old: str, new: str) -> None:
    assert not conflict(old, new)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Mira: I don't drink coffee.", "Mira: I drink coffee every morning now."),
        ("Mira: I have never been to Japan.", "Mira: I went to Japan in April."),
        ("Ana: I'm not vegetarian.", "Ana: I'm vegetarian now."),
        ("Ana: We have no dog.", "Ana: We got a dog, a beagle called Pip."),
    ],
)
def test_a_denial_of_the_statement_itself_still_counts(old: str, new: str) -> None:
    assert conflict(old, new, cosine=0.6)
