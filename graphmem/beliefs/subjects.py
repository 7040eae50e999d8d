"""Who or what a parsed statement is about: its subject as a key ("bob", "bob's sister", "mobile
team"), the slot of its owner a possessive subject names ("Bob's manager is Alice"), and the
phrases it mentions. Works on a spaCy parse (beliefs/parse.py parses); 'I' is the speaker.
"""

from __future__ import annotations

from typing import Any

from graphmem.beliefs.statements import RELATION_NOUNS, lexicon

FIRST_PERSON = lexicon("i me my mine myself")
PRONOUNS = lexicon("we us our they them their he him his she her it its you your this that there")
# Words that point back to what the context named: the sentence alone does not say who or what
# ("That's so inspiring!", "It's perfect for reflecting", "You'll find it").
POINTING_BACK = lexicon("it its this that these those they them their he him his she her you your")
# Adjectives that say which holder of a slot is meant now, not which slot: "my new dentist" fills
# the slot "my dentist" filled (the change itself is read from "new" as a change marker).
TIME_OF_HOLDING = lexicon("new current latest present")


def word_form(token: Any) -> str:
    """A word's dictionary form, lower case. A noun modifying another noun keeps its written form:
    English does not inflect it for number ("data engineer", "sales team"), and the tagger reads
    some of them as plurals in one sentence and not in another ("data" -> "datum"). A full stop the
    tokenizer left on the last word ("AoE.") is not part of it."""
    word = str(token.text if token.dep_ == "compound" and token.pos_ == "NOUN" else token.lemma_).lower()
    word = word.rstrip(".") if len(word) > 2 and word[-2:-1].isalpha() else word
    if token.ent_type_ == "DATE" or token.pos_ == "PROPN":  # "Sept" is September, "Thurs" Thursday
        return CALENDAR_ABBREVIATIONS.get(word, word)
    return word


CALENDAR_ABBREVIATIONS = {
    **{
        m[:3]: m
        for m in (
            "january",
            "february",
            "march",
            "april",
            "june",
            "july",
            "august",
            "september",
            "october",
            "november",
            "december",
        )
    },
    "sept": "september",
    **{d[:3]: d for d in ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")},
    "tues": "tuesday",
    "weds": "wednesday",
    "thur": "thursday",
    "thurs": "thursday",
}


def phrase_of(token: Any, speaker: str) -> str | None:
    """A subject or possessor as a key: the speaker for 'I', a name, or a noun with its compounds."""
    text = token.text.lower()
    if text in FIRST_PERSON:
        return speaker
    if text in PRONOUNS or token.pos_ == "PRON":
        return None
    # a date before a noun says when, not which thing: "the May 3 dinner" is the dinner on May 3
    words = [
        word_form(t)
        for t in token.subtree
        if (
            t.dep_ in {"compound", "amod", "nmod"} and t.head == token and t.ent_type_ not in {"DATE", "TIME"}
        )
        or t == token
    ]
    return " ".join(w for w in words if w not in FIRST_PERSON and w not in TIME_OF_HOLDING) or None


def main_subject(doc: Any, deps: frozenset[str] | set[str] = frozenset({"nsubj", "nsubjpass"})) -> Any:
    """The subject of the sentence's main verb; the first subject when the main verb has none.
    The small model sometimes reads a noun modifier as a subject of its own ("The team offsite is
    on May 20": "team" the subject of "offsite"), so the first subject is not always the clause's."""
    subjects = [t for t in doc if t.dep_ in deps]
    return next((t for t in subjects if t.head.dep_ == "ROOT"), subjects[0] if subjects else None)


def points_back(doc: Any) -> bool:
    """Whether the main subject, or its owner, is a word that points back to something the context
    named ("it", "that", "you", "their"): the statement alone does not say what it is about."""
    subject = main_subject(doc)
    if subject is None:
        return False
    owner = next((c for c in subject.children if c.dep_ == "poss"), None)
    return subject.lower_ in POINTING_BACK or (owner is not None and owner.lower_ in POINTING_BACK)


def subject_nouns(doc: Any) -> set[str]:
    """The nouns naming the grammatical subject itself, without its possessor or adjectives
    ("Ana's sertraline dose" -> sertraline, dose; "Mei's favourite food" -> food)."""
    subject = main_subject(doc)
    if subject is None:
        return set()
    return {
        word_form(t)
        for t in subject.subtree
        if t.pos_ in {"NOUN", "PROPN"} and (t == subject or (t.dep_ == "compound" and t.head == subject))
    }


def inverted_copula(doc: Any) -> tuple[Any, Any] | None:
    """(name, owned noun) of a copula that names who fills someone's slot ("Nate is my manager")."""
    subject = main_subject(doc, {"nsubj"})
    if subject is None or subject.pos_ != "PROPN" or subject.head.lemma_ != "be":
        return None
    attr = next((c for c in subject.head.children if c.dep_ == "attr"), None)
    if attr is None or not any(c.dep_ == "poss" for c in attr.children):
        return None
    return subject, attr


def subject_of(doc: Any, speaker: str) -> tuple[str | None, set[str]]:
    """(subject key, slot nouns) of the first clause's subject."""
    subject = main_subject(doc)
    root = next((t for t in doc if t.dep_ == "ROOT"), None)
    if subject is None and root is not None and root.pos_ in {"VERB", "AUX"}:
        # the small model sometimes misses a rare name as subject, or reads it as an adjective
        # ("Lucía lives in Seville")
        subject = next(
            (
                t
                for t in doc[: root.i]
                if t.head == root and (t.pos_ in {"PROPN", "NOUN"} or (t.is_title and t.pos_ in {"ADJ", "X"}))
            ),
            None,
        )
        owned = [t for t in doc[subject.i + 1 : root.i] if t.pos_ in {"NOUN", "PROPN"}] if subject else []
        if subject is not None and subject.dep_ == "poss" and owned:  # "Chloe's ex lives" misread
            owner = phrase_of(subject, speaker)
            return f"{owner}'s {' '.join(word_form(t) for t in owned)}", set()
    if subject is None:
        return None, set()
    inverted = inverted_copula(doc)
    if inverted is not None:
        # "Nate is my manager" says what "my manager is Nate" says: the slot is the owner's manager
        attr, owner_token = inverted[1], next(c for c in inverted[1].children if c.dep_ == "poss")
        return phrase_of(owner_token, speaker), {phrase_of(attr, speaker) or attr.lemma_.lower()}
    modifier, subject, head = _misread_modifier(subject)
    possessor = next(
        (c for t in (modifier, subject) if t is not None for c in t.children if c.dep_ == "poss"), None
    )
    noun = phrase_of(subject, speaker) or subject.lemma_.lower()
    if modifier is not None:
        noun = f"{phrase_of(modifier, speaker) or word_form(modifier)} {noun}"
    if possessor is None:
        return noun if modifier is not None else phrase_of(subject, speaker), set()
    owner = phrase_of(possessor, speaker)
    named_value = any(
        c.dep_ in {"attr", "acomp"} and (c.pos_ in {"PROPN", "NUM"} or c.ent_type_) for c in head.children
    )
    if noun in RELATION_NOUNS and not any(
        c.dep_ in {"attr", "acomp"} and c.pos_ == "PROPN" for c in head.children
    ):
        named_value = False  # "Felix's wife is 36" is about his wife (her age), not a slot of his
    if head.lemma_ == "be" and named_value:  # "Bob's manager is Alice": Bob's manager slot holds Alice
        return owner, {noun}
    return (f"{owner}'s {noun}" if owner else noun), set()  # "Bob's sister lives in Rome"


def appositive_name(subject: Any) -> Any:
    """The name set beside ``subject`` after a comma, saying who it is ("Rina" of "Kenji's pastry
    assistant, Rina, lives in Osaka"); None when there is none."""
    doc = subject.doc
    return next(
        (
            c
            for c in subject.children
            if c.dep_ == "appos" and c.pos_ == "PROPN" and c.i > 0 and doc[c.i - 1].text == ","
        ),
        None,
    )


def named_beside_owner(doc: Any) -> bool:
    """Whether the main subject is someone's (a possessor) and named beside it between commas
    ("Kenji's pastry assistant, Rina, ..."): a person of the owner's, whatever the noun says of them."""
    subject = main_subject(doc)
    if subject is None or not any(c.dep_ == "poss" for c in subject.children):
        return False
    return appositive_name(subject) is not None


def _misread_modifier(subject: Any) -> tuple[Any, Any, Any]:
    """(modifier, noun, the noun's head) of a subject whose first noun the model read as a subject
    of its own: "Our Q3 spend is ..." ("Q3" the subject of a verb "spend": a possessive only ever
    opens a noun phrase) or "Our travel spend is ..." ("travel" the subject of "spend"). The
    modifier is None when the parse has none of these."""
    head = subject.head
    if head.dep_ == "csubj" and head.i == subject.i + 1:
        return subject, head, head.head
    before = next((c for c in subject.children if c.dep_ == "nsubj" and c.i == subject.i - 1), None)
    return before, subject, head


def mentions(doc: Any, speaker: str) -> set[str]:
    """The phrases of every noun or pronoun the clause names (subjects, objects, possessors)."""
    found = set()
    for t in doc:
        if t.pos_ in {"NOUN", "PROPN", "PRON"} and t.dep_ not in {"compound", "amod"}:
            phrase = phrase_of(t, speaker)
            if phrase:
                found.add(phrase)
    return found
