"""Whose fact a memory states, beside whose fact a question asks for.

"Where does Kwame's sister live?" asks about the sister; "Kwame lives in the Ahodwo area of
Kumasi" is about Kwame, and "Where does María José work?" is not answered by "María José's sister
Lucía ... works as a pharmacist". The sentence vectors of all three are close (the name and the
verb carry them), so the embedding alone ranks a relative's fact, or the person's own, above the
one asked for. A memory whose subject is someone else than the question's is moved down by the
ranking's ``other_subject`` weight (recall/ranking.py).

A subject is read from the words: a name followed by "'s" and a noun of a relative, a friend, a
colleague or a pet ("Kwame's sister Efua", "Priya's best friend Kavya") is that person; a name
alone is the named one. Questions and memories about no named person are left alone.

A question naming a group ("Omar's children", "Youssef's siblings", "Leila's parents") asks for
each of its members' facts ("Omar's son Khalid ..."), and the names of a partner (husband, wife,
boyfriend, fiancé...) are one relation: the same person is called each as time goes on. A
question asking *who* ("Who is Omar's manager?", "Who does Omar report to?", "Who is Lucía dating
now?") asks for a person, whose fact the answer may be, or the owner's: nothing is moved down.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from spacy.lang.en.stop_words import STOP_WORDS

from graphmem.beliefs.statements import RELATION_NOUNS

# The words that may stand between an owner and the relative it names ("best friend", "younger
# sister", "step-father"), or none
RELATIVE_ADJECTIVE = (
    r"(?:(?:best|older|younger|elder|eldest|little|big|late|new|ex|former|step|twin|other)[- ])?"
)
# "Kwame's sister", "Priya's best friend", "Elena's late husband", "Yu-ting's younger sister"
_POSSESSED = re.compile(
    r"\b([A-Z][\w\u00C0-\u024F-]*(?:\s[A-Z][\w\u00C0-\u024F-]*)?)(?:'s|\u2019s|s'|s\u2019)"
    rf"\s+{RELATIVE_ADJECTIVE}"
    r"([a-z\u00E0-\u00FF]+)(?![\w\u00C0-\u024F])"
)
# The same typed in lower case ("tell me about agnieszka's kids"): a question with no capital
# letter names its people in lower case too.
_POSSESSED_LOWER = re.compile(
    r"\b([a-z\u00DF-\u024F][\w\u00C0-\u024F-]*)(?:'s|\u2019s)(?=\s+"  # the noun may own the next
    rf"{RELATIVE_ADJECTIVE}"
    r"([a-z\u00E0-\u00FF]+)(?![\w\u00C0-\u024F]))"
)
# "Kenji's pastry assistant, Rina, lives in Osaka", "Aisha's lab mate Priscilla surfs": a noun no
# relative list names, followed by the name of the one it is, says that one is someone of theirs.
_NOT_A_NOUN = r"(?!(?:is|was|are|were|has|had|and|or|in|at|on|to|from|with|for|of|by)\b)"
_APPOSITIVE = re.compile(
    rf"([A-Z][\w\u00C0-\u024F-]*)(?:'s|\u2019s)\s+(?:{_NOT_A_NOUN}[a-z]+\s+)?{_NOT_A_NOUN}([a-z]+),?\s+"
    r"[A-Z][\w\u00C0-\u024F-]+"
)
_WHO = re.compile(r"^\s*(?:who|whom)\b", re.IGNORECASE)
# A question asking what someone is called ("What is Kenji's dog called?", "What is the name of
# Amara's cat?", "What is Diego's dog's name?") asks for a name, which the owner's statement gives
# as often as the one named ("Kenji has a shiba inu named Kuro").
_NAME_ASKED = re.compile(r"\b(?:called|named|name|names)\b", re.IGNORECASE)
_PARTNER = frozenset(
    {"partner", "husband", "wife", "spouse", "boyfriend", "girlfriend"}
    | {"fiance", "fiancé", "fiancee", "fiancée"}
)
# Nouns that name one relative as another noun does ("my dad Lars" is the father a question about
# "Marta's father" asks for), each read as the plainer one; spelling variants likewise.
_SAME_RELATIVE = {
    "dad": "father",
    "mom": "mother",
    "mum": "mother",
    "grandma": "grandmother",
    "grandmom": "grandmother",
    "nan": "grandmother",
    "nana": "grandmother",
    "nanna": "grandmother",
    "gran": "grandmother",
    "granny": "grandmother",
    "grandpa": "grandfather",
    "grandad": "grandfather",
    "granddad": "grandfather",
    "neighbor": "neighbour",
    "coworker": "colleague",
}
# A group noun of a question, and the relatives it takes in (singular forms: "kids" -> "kid").
_GROUPS = {
    "children": frozenset({"son", "daughter", "kid", "child"}),
    "kid": frozenset({"son", "daughter", "child"}),
    "sibling": frozenset({"brother", "sister"}),
    "parent": frozenset({"mother", "father", "mom", "dad", "mum"}),
    "grandchildren": frozenset({"grandson", "granddaughter", "grandchild"}),
    "grandparent": frozenset(
        {"grandma", "grandpa", "grandmother", "grandfather", "nan", "nana", "nanna", "gran", "granny"}
        | {"grandad", "granddad", "grandmom"}
    ),
}
# The belief check's relation nouns, and the kin it does not name: a group noun, the family beyond
# parents, children and siblings, and the familiar names of grandparents ("Aroha's nan lives in
# Rotorua" is the grandmother's fact, not Aroha's).
_RELATIVES = RELATION_NOUNS | {
    "sibling",
    "siblings",
    "grandparent",
    "grandparents",
    "niece",
    "nephew",
    "stepmother",
    "stepfather",
    "stepson",
    "stepdaughter",
    "nan",
    "nana",
    "nanna",
    "gran",
    "granny",
    "grandad",
    "granddad",
    "grandmom",
}
_NOTE = re.compile(r"^\s*(?:[A-Za-z]+\s*:\s*)?")
_NAME = re.compile(r"\b[A-Z][\w\u00C0-\u024F-]+")
_QUESTION_WORDS = frozenset(
    {
        "What",
        "Where",
        "Who",
        "Which",
        "When",
        "How",
        "Why",
        "Does",
        "Do",
        "Did",
        "Is",
        "Are",
        "Was",
        "Has",
        "Can",
        "Could",
        "Would",
        "Should",
        "Will",
        "Have",
        "Were",
        "Tell",
        "Please",
    }
)

_PRONOUNS = frozenset({"It", "That", "He", "She", "There", "Here", "Let", "This", "One", "Everyone"})

# Capital words that open a sentence without naming anyone ("The family moved...", "My sister...")
NO_NAMES = frozenset({"the", "our", "their", "his", "her", "its", "this", "that", "they", "we", "my"})
STATED_TEXTS = 20_000  # as recall/keywords.py keeps its analysed texts


@dataclass(frozen=True)
class Whose:
    """A person, and the one of theirs a sentence is about ("" when about the person)."""

    owner: str
    relation: str
    who: bool = False  # a question asking who someone is (the answer is a person)


def relative_of(owner: str, noun: str) -> Whose | None:
    """The relative of ``owner`` (a name) that ``noun`` names ("Kwame", "sister"), or None when
    ``noun`` names no relative; a familiar noun is read as the plain one ("dad" as "father")."""
    if noun not in _RELATIVES:
        return None
    relation = "partner" if noun in _PARTNER else noun if noun in _GROUPS else noun.rstrip("s")
    return Whose(owner.split()[0].lower(), _SAME_RELATIVE.get(relation, relation))


def _relative(match: re.Match[str] | None) -> Whose | None:
    """The relative a ``_POSSESSED`` match names ("Kwame's sister"), or None for another noun."""
    return None if match is None else relative_of(match.group(1), match.group(2))


def _possessed(question: str) -> Whose | None:
    """The first relative ``question`` names ("Kwame's sister"); in a question typed without
    capitals, a relative of a lower-case name that is no question word or pronoun ("what's"
    "it's" "how's")."""
    if any(c.isupper() for c in question):
        return _relative(_POSSESSED.search(question))
    for match in _POSSESSED_LOWER.finditer(question):
        whose = _relative(match)
        if whose is not None and whose.owner.capitalize() not in _QUESTION_WORDS | _PRONOUNS:
            return whose
    return None


def asked_about(question: str) -> Whose | None:
    """Whose fact ``question`` asks for: someone's relative's, or a named person's own."""
    who = _WHO.match(question) is not None or _NAME_ASKED.search(question) is not None
    possessed = _possessed(question)
    if possessed is not None:
        return Whose(possessed.owner, possessed.relation, who)
    names = [n for n in _NAME.findall(question) if n not in _QUESTION_WORDS]
    return Whose(names[0].lower(), "", who) if names else None


@lru_cache(maxsize=STATED_TEXTS)
def stated_of(memory: str) -> Whose | None:
    """Whose fact ``memory`` states, when its subject opens it: "Kwame's sister Efua is a nurse"
    is the sister's, "Kwame lives in Kumasi" Kwame's; else None.
    Kept per text: a recall reads it of every candidate, and a scope's texts recur."""
    body = _NOTE.sub("", memory, count=1)
    relative = _relative(_POSSESSED.match(body))
    if relative is not None:
        return relative
    someone = _APPOSITIVE.match(body)
    if someone is not None:
        return Whose(someone.group(1).lower(), someone.group(2))
    first = _NAME.match(body)
    if first is None or body[first.end() :].startswith(("'s", "\u2019s")):
        return None
    opening = first.group(0).lower()
    if opening in STOP_WORDS and opening not in NO_NAMES:
        return None  # "Since Max quit football, Tom referees...", "Now that...": no subject read
    return Whose(opening, "")


def other_subject(question: Whose | None, memory: Whose | None) -> bool:
    """Whether a memory states the fact of someone else than the one the question asks about:
    the same person's relative for the person, the person for a relative, another relative (not
    one of a group asked about); never for a question asking who."""
    if question is None or memory is None or question.who or question.owner != memory.owner:
        return False
    if memory.relation in _GROUPS.get(question.relation, frozenset()):
        return False
    return question.relation != memory.relation


def as_owners(whose: Whose | None, attribute_nouns: frozenset[str]) -> Whose | None:
    """``whose``, read as the owner's own fact when the relative's noun names an attribute asked
    about (``attribute_nouns``): "Omar's manager is Eng. Hamad Al-Busaidi" states who Omar's
    manager is, as "Omar now reports to Eng. Rashid Al-Hinai" does."""
    if whose is not None and whose.relation and whose.relation in attribute_nouns:
        return Whose(whose.owner, "", whose.who)
    return whose
