"""A small English verb lexicon for the offline extractor: is a word a verb, and its third person.

No tagger and no model: the lists below are the deterministic fallback's knowledge, wide enough
for the statements people make about themselves (live, work, like, plan, move...).
"""

from __future__ import annotations

import re


def lexicon(text: str) -> frozenset[str]:
    """The whitespace-separated words of ``text``, for writing word lists compactly."""
    return frozenset(text.split())


BASE_VERBS = lexicon(
    """
    be have do go get make take live work like love hate prefer enjoy want need use play speak know
    read write run drive own eat drink cook bake study teach learn plan visit walk swim hike move
    start stop finish begin leave join quit buy sell pay rent call meet see watch listen travel fly
    stay sleep wake wear keep help think feel believe remember forget try miss lose win build fix open
    close bring send receive give come become tell say find put set cut catch fall hold hear stand
    understand spend save earn grow raise adopt marry date cycle ride climb dance sing paint draw
    practice practise train exercise commute manage lead own prepare host attend celebrate graduate
    teach code design test deploy ship release support avoid skip allow mind care worry hope expect
    intend decide choose agree prefer switch change update replace rewrite migrate book order pick
    check email text visit volunteer collect follow struggle suffer take wish say mean seem look
    sound smell taste shop clean wash feed walk shower meditate pray vote smoke vape
    """
)
AUXILIARIES = lexicon(
    """
    is are was were am be been has have had do does did will would can could should shall may might
    must isn't aren't wasn't weren't hasn't haven't hadn't doesn't don't didn't won't wouldn't can't
    couldn't shouldn't mustn't cannot 's 're 'm 've 'll 'd gets got
    """
)
IRREGULAR_PAST = lexicon(
    """
    went gone was were been had did done made took taken got gotten saw seen ate eaten drank drunk
    drove driven ran wrote written read spoke spoken knew known bought sold paid met left began begun
    quit flew flown slept woke woken wore worn kept thought felt lost won built brought sent gave given
    came become became told said found put set cut taught caught fell fallen held heard stood
    understood spent grew grown rode ridden sang sung drew drawn chose chosen swam swum hid broke
    broken forgot forgotten meant lit sat
    """
)
MODALS = lexicon(
    """
    can could will would should shall may might must can't couldn't won't wouldn't shouldn't mustn't
    cannot used ought
    """
)
_IRREGULAR_PRESENT = {
    "am": "is",
    "'m": "is",
    "have": "has",
    "do": "does",
    "don't": "doesn't",
    "dont": "doesn't",
    "haven't": "hasn't",
    "havent": "hasn't",
    "were": "was",
    "weren't": "wasn't",
    "go": "goes",
}


def _forms(base: str) -> set[str]:
    """The base, its third person and its regular past."""
    if base.endswith("e"):
        past = base + "d"
    elif re.search(r"[^aeiou]y$", base):
        past = base[:-1] + "ied"
    else:
        past = base + "ed"
    return {base, third_person(base), past}


def third_person(verb: str) -> str:
    """The third-person singular present of ``verb`` ('live' -> 'lives', 'am' -> 'is').

    Past tenses, modals and words that are not verbs come back unchanged; the case of the first
    letter is kept.
    """
    low = verb.lower().replace("\u2019", "'")
    if low in _IRREGULAR_PRESENT:
        return _same_case(verb, _IRREGULAR_PRESENT[low])
    if not low.isalpha() or low in MODALS or low in IRREGULAR_PAST or low in AUXILIARIES:
        return verb
    if low not in BASE_VERBS and low.endswith("ed"):
        return verb
    if re.search(r"(?:s|sh|ch|x|z|o)$", low):
        return verb + "es"
    if re.search(r"[^aeiou]y$", low):
        return verb[:-1] + "ies"
    return verb + "s"


def _same_case(original: str, replacement: str) -> str:
    return replacement.capitalize() if original[:1].isupper() else replacement


VERB_FORMS = frozenset(
    {form for base in BASE_VERBS for form in _forms(base)} | AUXILIARIES | IRREGULAR_PAST | MODALS
)


def is_verb(word: str) -> bool:
    """Whether ``word`` is a verb form the lexicon knows, or a regular past tense ('-ed')."""
    low = word.lower().strip(".,;:!?\"'()").replace("\u2019", "'")
    if low in VERB_FORMS:
        return True
    return len(low) > 4 and low.endswith("ed") and low.isalpha()
