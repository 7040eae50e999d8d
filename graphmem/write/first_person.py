"""Rewriting first person into third so a fact still says who it is about when read alone.

"I moved to Berlin and my sister lives in Rome" said by Ann becomes "Ann moved to Berlin and Ann's
sister lives in Rome"; without a speaker the subject is "the user". Verbs agree with the new
subject ("I live" -> "the user lives"), including a second verb joined by "and" ("I live in Oslo and
work at Equinor"). Plural "we"/"our" is left alone: it names a group, not the speaker.
"""

from __future__ import annotations

import re
from itertools import pairwise

from graphmem.write.verbs import BASE_VERBS, is_verb, lexicon, third_person

USER = "the user"
_TOKEN = re.compile(r"[A-Za-z][A-Za-z'\u2019]*|[^A-Za-z]+")
# Words that may stand between "I" and its verb ("I really like", "I no longer live").
_ADVERBS = lexicon(
    """
    also just still never always often now even already sometimes then too kinda sorta kind sort of
    course no longer really actually currently usually generally probably definitely mostly only
    rarely seldom normally typically
    """
)
_COORDINATORS = frozenset({"and", "or"})
# Words after which a later "and <verb>" no longer shares the speaker's verb.
_CLAUSE_BREAKS = frozenset(
    {"that", "who", "which", "because", "when", "if", "while", "where", "since", "although", "but", "so"}
)
_CONTRACTIONS = {"i'm": "is", "im": "is", "i've": "has", "i'll": "will"}
_HAD_AFTER_I_D = frozenset({"been", "had", "done", "gone", "seen", "never", "already", "just"})


def possessive(who: str) -> str:
    """``who``'s possessive form: 'the user's', 'Ann's', 'Chris's'."""
    return who + "'s"


def resolve_first_person(clause: str, speaker: str | None = None) -> str:
    """``clause`` with I / me / my / mine / myself rewritten to ``speaker`` (default 'the user')."""
    who = speaker.strip() if speaker and speaker.strip() else USER
    tokens = _TOKEN.findall(clause)
    words = [i for i, t in enumerate(tokens) if t[0].isalpha()]
    out = list(tokens)
    agreeing = False  # a present-tense verb was just made to agree: "and <verb>" follows suit
    for pos, index in enumerate(words):
        low = tokens[index].lower().replace("\u2019", "'")
        first = pos == 0
        if low == "i" and not _abbreviation(tokens, index):
            out[index] = _subject(who, first)
            coordinated = _coordinated_subject(tokens, words, pos)
            agreeing = not coordinated and _agree(tokens, out, words, pos)
        elif low in _CONTRACTIONS or (low == "i'd"):
            out[index] = f"{_subject(who, first)} {_contraction_verb(low, tokens, words, pos)}"
            agreeing = False
        elif low in {"me", "myself"}:
            out[index] = _subject(who, first)
        elif low in {"my", "mine"}:
            out[index] = possessive(_subject(who, first))
        elif low in _CLAUSE_BREAKS:
            agreeing = False
        elif agreeing and low in _COORDINATORS and pos + 1 < len(words):
            agreeing = _agree_coordinated(tokens, out, words, pos)
    return "".join(out)


def _coordinated_subject(tokens: list[str], words: list[int], pos: int) -> bool:
    """'Tom and I live...': 'I' shares a plural subject (no verb came before the 'and')."""
    if pos == 0 or tokens[words[pos - 1]].lower() not in _COORDINATORS:
        return False
    return not any(is_verb(tokens[i]) for i in words[: pos - 1])


def _abbreviation(tokens: list[str], index: int) -> bool:
    """The 'i' of 'i.e.' is not a pronoun."""
    return index + 2 < len(tokens) and tokens[index + 1] == "." and len(tokens[index + 2]) == 1


def _subject(who: str, first: bool) -> str:
    return who[0].upper() + who[1:] if first and who == USER else who


def _contraction_verb(low: str, tokens: list[str], words: list[int], pos: int) -> str:
    if low == "i'd":
        following = tokens[words[pos + 1]].lower() if pos + 1 < len(words) else ""
        return "had" if following in _HAD_AFTER_I_D else "would"
    return _CONTRACTIONS[low]


def _agree(tokens: list[str], out: list[str], words: list[int], pos: int) -> bool:
    """Make the verb after the "I" at ``pos`` agree; True when it was a present tense."""
    for later in words[pos + 1 : pos + 5]:
        word = tokens[later]
        if word.lower() in _ADVERBS or word.lower().endswith("ly"):
            continue
        agreed = third_person(word)
        out[later] = agreed
        return agreed != word
    return False


def _agree_coordinated(tokens: list[str], out: list[str], words: list[int], pos: int) -> bool:
    """'I live in Oslo and work...': make 'work' agree unless it joins two infinitives."""
    before = tokens[words[pos - 1]].lower()
    verb_index = words[pos + 1]
    verb = tokens[verb_index]
    if verb.lower() not in BASE_VERBS or before in BASE_VERBS or _infinitive_between(tokens, words, pos):
        return False
    out[verb_index] = third_person(verb)
    return True


def _infinitive_between(tokens: list[str], words: list[int], pos: int) -> bool:
    """Whether 'to <verb>' occurs earlier in the clause ('I need to buy milk and call mom')."""
    lows = [tokens[i].lower() for i in words[:pos]]
    return any(a == "to" and b in BASE_VERBS for a, b in pairwise(lows))
