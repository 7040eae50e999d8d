"""Subject keys as the belief judge reads them ("bob", "bob's sister", "mobile team"): whose
thing a key names, its head noun, and whether two keys name one thing."""

from __future__ import annotations

from graphmem.stemming import stem


def owner_and_noun(subject: str) -> tuple[str, str] | None:
    owner, sep, noun = subject.partition("'s ")
    return (owner, noun) if sep else None


def head_noun(phrase: str) -> str:
    """The last word of a noun phrase: its head noun ("inhaler" of "asthma inhaler")."""
    return phrase.split()[-1]


def head_nouns(phrases: frozenset[str]) -> set[str]:
    return {head_noun(p) for p in phrases if p}


def one_thing(a: str, b: str) -> bool:
    """Whether two subject keys name one thing: the same, or one's words within the other's
    ("team standup", "standup"), neither owned by someone."""
    if a == b:
        return True
    if owner_and_noun(a) or owner_and_noun(b):
        return False
    words_a, words_b = {stem(w) for w in a.split()}, {stem(w) for w in b.split()}
    return words_a <= words_b or words_b <= words_a
