"""The offline belief check: can two statements not both be true now?

They conflict when they are about the same subject and the same slot (where someone lives, who
manages them, when the standup is) and give it different values, or when one negates the other.
They do not conflict when one is about someone else ("Bob's sister"), hedges ("might move"),
only looks back ("used to live in Paris"), adds ("also speaks Spanish"), fills a slot that holds
several values at once (languages, hobbies), or restates the other. Statements are read with a
dependency parser (beliefs/parse.py); the slot is matched by the parse, by attribute families
and by how similar the two statements are.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import datetime
from functools import lru_cache

from graphmem.beliefs.initials import alike_names
from graphmem.beliefs.left_behind import leaves_its_value, names_the_doer
from graphmem.beliefs.parse import (
    CHANGE_LEMMAS,
    ENDING_LEMMAS,
    LIGHT_VERBS,
    Clause,
    clause_texts,
    named_words,
    read_clause,
    sentence_count,
    sentence_texts,
    without_correction,
)
from graphmem.beliefs.reported import reported
from graphmem.beliefs.restore import diary_readings, parse_docs
from graphmem.beliefs.statements import MULTI_VALUED, RELATION_NOUNS, SINGLE_VALUED, Statement, read_statement
from graphmem.stemming import stem

# Cosine similarity above which two statements about one subject speak of the same slot, when
# nothing in the parse says so (facts about one person are often this similar through the name
# alone: measured on the dev halves of bench/eval, beliefs and user memories together).
SAME_SLOT_COSINE = 0.75
CHANGED_SLOT_COSINE = 0.75
# Two statements that both announce a change are two steps of one thing that keeps changing.
BOTH_CHANGED_SLOT_COSINE = 0.65
# Above this, two statements whose numbers agree say the same thing in other words.
RESTATE_COSINE = 0.75
# A statement and its negation about one subject and one value: similar as a whole, if not worded alike.
NEGATION_COSINE = 0.6


# Words of a note's key that qualify it rather than name the slot ("final", "current").
KEY_FILLERS = frozenset(
    {"the", "a", "an", "my", "our", "your", "on", "of", "for", "in", "at", "to", "final", "current", "new"}
    | {"latest", "chosen"}
)


@dataclass(frozen=True)
class Verdict:
    """Whether the statements conflict, and why (for match reasons and logs)."""

    conflict: bool
    reason: str
    # kept for want of a reading in every clause pair (see UNREAD_KEEPS): the pair model may read it
    unread: bool = False
    # kept because the subjects read as different, neither of them someone of the other's (a
    # relative, a friend, a colleague, a pet: RELATION_NOUNS), every other clause pair unread: "My
    # supervisor extended my thesis deadline", "Haruto's dermatologist took him off the cream". The
    # pair model may read it, held to a higher bar (BeliefSettings.pair_model_other_subject_min);
    # "Bob's sister moved to Oslo" is about someone else, whatever the model reads
    other_subject: bool = False
    # ``unread`` and ``other_subject`` with a clause about the past counted as unread too: what the
    # checker reads when it has both learned readers (beliefs/pair_reader.py)
    unread_or_past: bool = False
    other_subject_or_past: bool = False
    # kept as a later message of several sentences, each of which the judge kept for want of a
    # reading or as said of another subject (with the past read too): the two learned readers may
    # read it, at a bar of their own (BeliefSettings.pair_model_message_min)
    unread_message: bool = False


# The reasons for keeping both that rest on nothing the statements say, only on what the judge
# could not read in them: no slot in common, no value left behind, a past act or a slot of several
# values it could not tell apart. Where the judge keeps both for one of these, the pair model may
# still read a replacement (beliefs/pair_head.py); every other reason to keep (another subject, a
# plan, the past, an addition, a restatement) stands. So does "not an atomic statement": the model
# learnt from single statements, and on chat turns of several sentences it reads a replacement in
# almost any two of one conversation (298 of 3,058 LoCoMo dev turns retired, against 2 without).
# A statement of several clauses is unread only when every pair of clauses is: "Marco moved to
# Lyon and joined Giulia there; he drives for a courier firm now" has a clause about what the
# context named, and Giulia's choir stays whatever the model reads.
NOT_ATOMIC = "not an atomic statement"
DIFFERENT_SLOTS = "different slots"
ADDS_DETAIL = "adds detail"
PAST_ACT = "an act told in the past"
CHANGES_ONE_THING = "changes one of the things it says"
_JOINERS = frozenset({"and", "or", "but", "also"})
SEVERAL_VALUES = "a slot with several values"
UNREAD_KEEPS = frozenset({DIFFERENT_SLOTS, ADDS_DETAIL, PAST_ACT, SEVERAL_VALUES})
# A clause about the past ("Santiago's last day at Mercado Libre was Friday; he starts at Globant on
# Monday") keeps both for the judge, which cannot tell the past that is over from the past that
# ends something. Two readers together may read it (Verdict.unread_or_past): the pair head alone
# read too many past remarks as news (session 28: dev 0.947 -> 0.898 on beliefs).
ABOUT_THE_PAST = "about the past"
UNREAD_OR_PAST = UNREAD_KEEPS | {ABOUT_THE_PAST}
DIFFERENT_SUBJECTS = "different subjects"
# What one sentence of a statement of several says that keeps both, whatever the rest says
# The later statement says the earlier one's value again or a part of it: with both learned readers,
# the checker may still read a change there (BeliefSettings.pair_model_restates_min)
RESTATES_OR_NARROWS = "restates or narrows"
# a denial, with the same verb, of things the other statement does not name
DENIES_ANOTHER = "denies another value"
SENTENCE_KEEPS = frozenset({"restates", RESTATES_OR_NARROWS, "an addition", "two of a kind"})

# a clause about "it" ("..., it's 18 November now"), after a joining word or none
_IT = re.compile(r"^\W*(?:(?:so|and|but|now)\s+)?it(?:'s|\s)", re.IGNORECASE)


def _named(subject: str, clause: Clause) -> str | None:
    """Whom ``he`` or ``she`` after ``clause`` (about ``subject``) means: the person it names
    ("Ikechukwu Eze works as a project manager now; he ..."), or the named owner of the thing it is
    about ("Adwoa's Civic was written off, and she takes the bus now"); None when it names nobody."""
    words = subject.split()
    if not clause.thing and set(words) <= clause.names:
        return subject
    if not clause.thing and len(words) > 1 and words[-1] in clause.names and "'s" not in subject:
        return subject  # a name read with the words that place it ("In Singapore Priya takes the MRT")
    owned = _possessed(subject)
    if owned is not None and set(owned[0].split()) <= clause.names:
        return owned[0]
    return None


def _points_back_to(text: str, clause: Clause, before: Clause) -> str | None:
    """Whom or what ``clause`` (its text ``text``) is about when its subject points back to the
    clause ``before`` it: "it" after a thing, "he" or "she" after someone named; else None."""
    if before.subject is None:
        return None
    if clause.he_or_she:
        return _named(before.subject, before)
    return before.subject if _IT.match(text) is not None and before.thing else None


@lru_cache(maxsize=8192)  # read for every pair a statement is judged in, and by the slot test
def clauses_of(statement: Statement) -> list[Clause]:
    """The clauses of ``statement``; a later one whose subject points back ("Conference moved
    again, it's 18 November now") is about the subject of the one before it."""
    body, corrected = without_correction(statement.body)  # the clauses lose the opener's punctuation
    texts = clause_texts(body)
    clauses = [read_clause(text, statement.speaker) for text in texts]
    if corrected:  # "Actually, correction: it's 340; the 400 figure was wrong": what follows corrects
        clauses = [replace(clause, change=True) for clause in clauses]
    for i in range(1, len(clauses)):
        before, clause = clauses[i - 1], clauses[i]
        subject = None if clause.subject is not None else _points_back_to(texts[i], clause, before)
        if subject is not None:
            same = subject == before.subject
            clauses[i] = replace(
                clause,
                subject=subject,
                subject_nouns=before.subject_nouns if same else frozenset(),
                thing=before.thing and same,
                mentions=clause.mentions | {subject},
                # "he" names whom the clause before named
                names=clause.names | (set(subject.split()) & before.names),
                points_back=False,
            )
    return clauses


def _possessed(subject: str) -> tuple[str, str] | None:
    owner, sep, noun = subject.partition("'s ")
    return (owner, noun) if sep else None


def _of_someone(clause: Clause) -> bool:
    """Whether the clause is said of someone's relative, friend, colleague or pet ("Bob's sister",
    "my manager", "my sister's husband"), or has no subject the judge could read."""
    if clause.subject is None:
        return True
    possessed = _possessed(clause.subject)
    words = possessed[1].split() if possessed else []
    if clause.named_beside:  # "Kenji's pastry assistant, Rina, ...": a person of Kenji's
        return True
    if words and words[-1] in clause.names:  # "Yu-ting's younger sister Yu-han": named after the noun
        return any(w in RELATION_NOUNS for w in words)
    if len(words) > 1 and words[-2] in RELATION_NOUNS:
        return True  # "Kwame's eldest son Kofi", the name the parse did not read as one
    return bool(words) and words[-1] in RELATION_NOUNS


def _kind_and_marks(subject: str) -> list[tuple[str, frozenset[str]]]:
    """A subject of two words or more as its head noun and the words that tell it apart ("review",
    {"design"} of "design review"), and so its owner's ("berlin team's sprint planning")."""
    owned = _possessed(subject)
    keys = [subject] if owned is None else [owned[1], owned[0]]
    return [(key.split()[-1], frozenset(key.split()[:-1])) for key in keys if len(key.split()) > 1]


def _marked_apart(a: Clause, b: Clause) -> bool:
    """Whether the clauses are said of one kind of thing, each told apart by names of its own in
    a phrase that hangs from it ("A ticket to the Uffizi" / "A ticket to the Accademia", "the
    meeting with Ana" / "the meeting with Bob")."""
    same_kind = a.subject is not None and a.subject == b.subject
    return same_kind and bool(a.subject_marks and b.subject_marks) and not a.subject_marks & b.subject_marks


def _two_of_a_kind(a: Clause, b: Clause) -> bool:
    """Whether the subjects (or their owners) are two things of one kind, each told apart by words
    the other lacks ("the design review" / "the security review", "the Berlin team's sprint planning"
    / "the Lisbon team"): two things, whatever a learned reader reads ("the team standup" and "the
    mobile team standup" are one)."""
    if _marked_apart(a, b):
        return True
    for head_a, marks_a in _kind_and_marks(a.subject or ""):
        for head_b, marks_b in _kind_and_marks(b.subject or ""):
            if head_a == head_b and not (marks_a <= marks_b or marks_b <= marks_a):
                return True
    return False


def _two_named(a: Clause, b: Clause) -> bool:
    """Whether both clauses are said of someone they name ("Marco moved to Lyon; he drives for a
    courier firm now" and "Giulia is a pharmacist"): two people, neither acting on the other's fact."""
    return a.subject in a.names and b.subject in b.names


def _different_subjects(a: Clause, b: Clause, writer: str = "user") -> bool:
    """Whether the two clauses are about different people or things.

    "Ana's sertraline dose" and "Ana" are one subject when the statement about Ana speaks of that
    dose; "Chloe's ex" and "Chloe" are two. Names that share a word ("Bob Ferreira", "Bob"; "the
    team standup", "the standup") are one; a change said of someone else's doing ("My doctor
    switched me to...") is about whoever it names.
    """
    if a.subject is None or b.subject is None:
        return _ours_and_a_relatives(a, b, writer) or _ours_and_a_relatives(b, a, writer)
    if _marked_apart(a, b):
        return True  # "A ticket to the Uffizi" / "A ticket to the Accademia"
    if a.subject == b.subject or _one_name(a, b):
        return False
    pa, pb = _possessed(a.subject), _possessed(b.subject)
    if _named_in_apposition(a, pa, b) or _named_in_apposition(b, pb, a):
        return False  # "Ahmet's wife Elif works at Migros" / "Elif left Migros": Elif both times
    if pa and pa[0] == b.subject:
        return not (_speaks_of(a, pa, b) or _ends_its_value(b, a) or _changes_its_owner(a, b))
    if pb and pb[0] == a.subject:
        return not (_speaks_of(b, pb, a) or _ends_its_value(a, b) or _changes_its_owner(b, a))
    if (pa and pa[1] == b.subject and b.thing) or (pb and pb[1] == a.subject and a.thing):
        return False  # "my running club" and "the running club": the one the memory knows
    if one_thing(a.subject, b.subject):
        return False
    return not (_done_to(a, b) or _done_to(b, a))


def _one_name(a: Clause, b: Clause) -> bool:
    """Whether both subjects end in the same name ("Yu-ting's younger sister Yu-han" and
    "Yu-ting's sister Yu-han"; "Ayesha's brother Faisal" and "Faisal"): one person."""
    last_a, last_b = (a.subject or "").split()[-1:], (b.subject or "").split()[-1:]
    return bool(last_a) and last_a == last_b and last_a[0] in a.names and last_a[0] in b.names


def _speaks_of(owned: Clause, possessed: tuple[str, str], owner: Clause) -> bool:
    """Whether the clause about the ``owner`` speaks of the thing ``owned`` is said of ("Ana's
    sertraline dose" / "Ana is down to 50 mg of sertraline"); not where that is someone of theirs,
    whom the owner may speak of without speaking for them ("Elena's daughter Maria works as a
    dentist" / "Elena moved to Sofia to live with her daughter Maria's family")."""
    if _of_someone(owned):
        return False
    return bool(_owned_nouns(owned, possessed[1]) & owner.lemmas)


def _named_in_apposition(owned: Clause, possessed: tuple[str, str] | None, named: Clause) -> bool:
    """Whether ``owned`` is said of someone's relative whom it also names ("Ahmet's wife Elif",
    "Kwame's wife Abena"), and ``named`` is said of that name."""
    if possessed is None or named.subject is None or named.subject == possessed[0]:
        return False
    name = named.subject
    return name in named.names and (name in owned.names or name in (owned.subject or "").split())


WE = frozenset({"we", "our", "us"})


def _ours_and_a_relatives(ours: Clause, other: Clause, writer: str) -> bool:
    """Whether ``ours`` is said of "we" or "our" (no subject) and ``other`` of someone of the
    writer's ("my brother's rent", "my parents' anniversary") or of someone's named beside them
    ("Kenji's pastry assistant, Rina, lives in Osaka"): a relative or a colleague is not the "we"
    who writes, unless the change is done to them."""
    return (
        ours.subject is None
        and bool(ours.lemmas & WE)
        and other.subject is not None
        and other.subject != writer
        and (writer in other.mentions or other.named_beside)
        and not _done_to(ours, other)
        and not _done_to(other, ours)
    )


# "him", "her", "them" as spaCy lemmatises them
_THIRD_PERSON = frozenset({"he", "she", "they", "him", "her", "them"})


def _changes_its_owner(owned: Clause, owner: Clause) -> bool:
    """Whether a clause said of someone's doctor, boss, landlord... changes that someone with a
    change verb, away from what the owner's clause names ("Kwame's doctor switched him from
    nifedipine to amlodipine" is about Kwame's "takes nifedipine")."""
    names_its_value = owned.values & owner.values
    return owned.predicate in CHANGE_LEMMAS and bool(owned.lemmas & _THIRD_PERSON and names_its_value)


def _owned_nouns(clause: Clause, owned: str) -> frozenset[str]:
    """The nouns of a possessed subject ("flat" of "Yusuf's flat"), from the parse or its key."""
    return clause.subject_nouns or frozenset({_head(owned)})


def _ends_its_value(owner: Clause, owned: Clause) -> bool:
    """Whether the owner's statement ends what its thing's statement names ("Ifeoma cancelled the
    Accra trip" ends "Ifeoma's flight to Accra is on the 8th"): what the ending verb takes as its
    object, where it takes one ("finished her master's and joined the Toronto Star" ends no move
    to Toronto)."""
    return owner.predicate in ENDING_LEMMAS and bool((owner.replaced or owner.values) & _held(owned))


def _done_to(other: Clause, changed: Clause) -> bool:
    """Whether ``changed`` says, with a change verb, that something was done to ``other``'s
    subject ("My doctor switched me to losartan"); a "new" in it names whose thing is new. A change
    someone named makes of their own is theirs ("Jonas moved and joined Hannah in Copenhagen",
    "Ayesha's brother Faisal joined Google")."""
    if _named_doer(changed, other):
        return False
    return changed.change and changed.predicate in CHANGE_LEMMAS and _names(changed, other.subject)


# pronouns that say whom a change was done to ("switched me", "moved him")
_ACTED_ON = frozenset({"i", "me", "he", "him", "she", "her", "they", "them", "us", "we"})


def _named_doer(changed: Clause, other: Clause) -> bool:
    """Whether ``changed`` is said of someone it names (by a name of one word or more: "Jonas",
    "Ji-hoon", "Ayesha's brother Faisal") other than the one ``other`` names as its subject, and
    names no one it is done to: what such a change does, it does to its doer ("Jonas moved to
    Copenhagen and joined Hannah" changes no home of Hannah's; "Dr. Lindqvist switched me to
    losartan" changes mine)."""
    if not (_is_named(changed) and _is_named(other)) or _one_subject(changed, other):
        return False  # "Bean There raised the latte to $3.50" changes the latte
    return not changed.lemmas & _ACTED_ON


def _one_subject(a: Clause, b: Clause) -> bool:
    """Whether the two clauses are said of one subject, by its key or by its name."""
    return one_thing(a.subject or "", b.subject or "") or _one_name(a, b)


def _is_named(clause: Clause) -> bool:
    """Whether ``clause`` is said of someone or something it names ("Ji-hoon", "Ayesha's brother
    Faisal"; not "Yu-ting's sister"): the first or the last word of its subject is a name, of what
    is owned when the subject is someone's."""
    possessed = _possessed(clause.subject or "")
    if possessed is not None:
        return possessed[1].split()[-1] in clause.names
    words = (clause.subject or "").split()
    return bool(words) and (words[0] in clause.names or words[-1] in clause.names)


def _names(clause: Clause, subject: str | None) -> bool:
    """Whether ``clause`` names ``subject``: as a whole, or as its owner and its noun ("I changed
    my forum username" names "Ana's username" when Ana speaks)."""
    if subject is None:
        return False
    if subject in clause.mentions:
        return True
    owned = _possessed(subject)
    if owned is None and any(
        one_thing(subject, m) and _head(m) == _head(subject) for m in clause.mentions if m
    ):
        return True  # "Bumped the topic to 12 partitions" names "the Kafka topic"
    if owned is None or owned[0] not in clause.mentions:
        return False
    # "my inhaler" names "my asthma inhaler"
    return owned[1] in clause.mentions or _head(owned[1]) in _heads(clause.mentions)


def _head(phrase: str) -> str:
    """The last word of a noun phrase: its head noun ("inhaler" of "asthma inhaler")."""
    return phrase.split()[-1]


def _heads(phrases: frozenset[str]) -> set[str]:
    return {_head(p) for p in phrases if p}


def _keyed(note: Clause, other: Clause) -> bool:
    """Whether a "key: value" note's key is the slot, or the thing, the other statement speaks of
    ("Favourite band: Blur" / "My favourite band is Wet Leg")."""
    if not note.key or other.key:
        return False
    if note.key in other.slot_nouns or note.key == other.subject:
        return True
    # "Final decision on hosting: Fly.io" / "We switched the hosting decision to Render"
    asked = {stem(w) for w in note.key.split() if w not in KEY_FILLERS}
    named = {stem(w) for w in named_words(other)}
    return len(asked) > 1 and asked <= named


def _same_slot(old: Statement, new: Statement, a: Clause, b: Clause, cosine: float) -> bool:
    if _keyed(a, b) or _keyed(b, a):
        return True
    if b.change and not b.slot_nouns and a.slot_nouns & b.mentions and a.subject == b.subject:
        return True  # "My GP is Dr. Haddad" / "I've registered with a new GP, Dr. Lindgren"
    if "instead" in b.lemmas and a.values & b.values and a.subject == b.subject:
        return True  # "I'm training for a half marathon" / "signed up for the full marathon instead"
    if a.slot_nouns and b.slot_nouns:
        return bool(a.slot_nouns & b.slot_nouns)  # "partner" and "tennis partner" are two slots
    if _changes_the_slot_of(a, b) or _changes_the_slot_of(b, a):
        return True
    if _slot_is_value(a, b) or _slot_is_value(b, a):
        return False  # "Priya's manager is Rohan" and "Priya is a product manager": a slot, a title
    if a.predicate and a.predicate == b.predicate and a.predicate not in CHANGE_LEMMAS:
        return True
    if (a.change or b.change) and a.dates and b.dates and not a.dates & b.dates and _things(a, b):
        return True  # "The running club meets on Tuesdays" / "switched to Wednesday evenings": when
    if a.predicate and b.predicate and not (a.change or b.change):
        return False  # "works as a hydrologist" and "cycles to work": two things the subject does
    if _same_measure(a, b):
        return True  # "I run 20 km a week" / "I'm up to 35 km a week": one measure, a new number
    if (a.change or b.change) and _one_act(a, b) and _new_hours(old.body, new.body):
        return True  # "My shift is 7am-3pm" / "I'm on nights now, 11pm-7am": new hours
    if _changes_the_subject_of(a, b) or _changes_the_subject_of(b, a):
        return True
    if b.change and b.subject in (None, a.subject) and _same_kind_renamed(a, b):
        return True  # "Noel is on the night desk" / "Noel moved to the sports desk"
    if (a.change or b.change) and (_object_is_subject(a, b) or _object_is_subject(b, a)):
        return True  # "We store backups on tape" / "Backups go to Backblaze B2 now"
    if _changes_itself(a, b) or _changes_itself(b, a):
        return True
    if (a.predicate and stem(a.predicate) in b.acts) or (b.predicate and stem(b.predicate) in a.acts):
        return True  # "I quit smoking in March" ends what "I smoke about ten a day" says I do
    if (a.change or b.change) and (_names_the_act(a, b) or _names_the_act(b, a)):
        return True
    if _redoes(a, b) or _redoes(b, a):
        return True
    if a.decided and b.decided and a.subject and a.subject == b.subject and a.names & b.names:
        return True  # two decisions of one subject about one named thing: the later one stands
    if _decided_again(a, b) or _decided_again(b, a):
        return True
    if b.replaces and _held(a) & (b.replaced or b.values):
        return True  # "Bob left Google and joined Stripe" names the value it replaces (not "sold
        # 40 bags of cocoa" the "cocoa farm": what a replacing verb replaces is its object)
    families_a, families_b = _families(old, a), _families(new, b)
    if families_a & families_b:
        return True
    if families_a and families_b:
        return False  # "lives in Lagos" and "now works as an accountant": two known attributes
    if a.change and b.change:
        return cosine >= BOTH_CHANGED_SLOT_COSINE  # two steps of one thing that keeps changing
    return cosine >= (CHANGED_SLOT_COSINE if a.change or b.change else SAME_SLOT_COSINE)


_FAMILY_STEMS = {name: frozenset(stem(w) for w in vocab) for name, vocab in SINGLE_VALUED.items()}


def _families(statement: Statement, clause: Clause) -> frozenset[str]:
    """The single-valued attribute families (statements.SINGLE_VALUED) a clause of ``statement``
    speaks of: the statement's when it is one clause, else the clause's own words' ("Jonas moved
    to Copenhagen; he works for the ambulance service now": the second clause is about work, not
    where anyone lives); neither the words that name no attribute of the subject there
    (Clause.off_attribute: "moved to the day shift", "takes the MRT to work")."""
    off = clause.off_attribute
    if len(clauses_of(statement)) < 2:
        if not off & statement.words:
            return statement.families
        words = statement.words - off  # "Yuki moved to the intensive care unit": no new home
        return frozenset(name for name, vocab in SINGLE_VALUED.items() if words & vocab)
    stems = {stem(lemma) for lemma in clause.lemmas - off}
    return frozenset(name for name, vocab in _FAMILY_STEMS.items() if vocab & stems)


def attribute_families(statement: Statement) -> frozenset[str]:
    """The single-valued attribute families ``statement`` speaks of, leaving out the words that
    name no attribute of its subject there (Clause.off_attribute: "Lucía's manager is Astrid, based
    in Stockholm" says where Astrid is based, not Lucía)."""
    off = frozenset().union(*(clause.off_attribute for clause in clauses_of(statement)))
    if not off & statement.words:
        return statement.families
    words = statement.words - off
    return frozenset(name for name, vocab in SINGLE_VALUED.items() if words & vocab)


def one_thing(a: str, b: str) -> bool:
    """Whether two subject keys name one thing: the same, or one's words within the other's
    ("team standup", "standup"), neither owned by someone."""
    if a == b:
        return True
    if _possessed(a) or _possessed(b):
        return False
    words_a, words_b = {stem(w) for w in a.split()}, {stem(w) for w in b.split()}
    return words_a <= words_b or words_b <= words_a


def _things(a: Clause, b: Clause) -> bool:
    """Whether both clauses are about one thing, not a person: a common noun neither names."""
    return all(c.subject_nouns and not c.subject_nouns & c.names and c.subject != "user" for c in (a, b))


def _changes_the_subject_of(changed: Clause, other: Clause) -> bool:
    """Whether ``changed`` announces, with a verb of its own, a change done to what ``other`` is
    about ("Postponed the audit to May 9" changes what "The audit is on April 2" says of the audit)."""
    if not (changed.predicate in CHANGE_LEMMAS and other.subject) or other.subject == changed.subject:
        return False  # the verb itself is the change ("a new sofa" changes nothing of the cat's)
    if _one_name(changed, other):
        return False  # one person read two ways ("Priya", "In Singapore Priya"): not done to them
    if _is_named(changed) and not _one_subject(changed, other):
        return False  # a named doer's change is theirs: "Marco moved and joined Giulia" changes no Giulia
    return _names(changed, other.subject)


# hours from one time of day to another: "7am-3pm", "9 to 5", "8:30-16:00"
_HOURS = re.compile(
    r"\b(\d{1,2}(?:[:.]\d\d)?\s*(?:am|pm)?)\s*(?:-|\u2013|to|till|until)\s*(\d{1,2}(?:[:.]\d\d)?\s*(?:am|pm)?)\b",
    re.IGNORECASE,
)


def _same_kind_renamed(a: Clause, b: Clause) -> bool:
    """Whether both clauses name a thing of one kind (one head noun), each told apart by its own
    words ("the Premium plan" / "the Basic plan", "the night desk" / "the sports desk")."""
    own_a = {_head(m): m for m in a.mentions if " " in m and m != a.subject}
    own_b = {_head(m): m for m in b.mentions if " " in m and m != b.subject}
    return any(own_a[h] != own_b[h] for h in own_a.keys() & own_b.keys())


def _object_is_subject(thing: Clause, told: Clause) -> bool:
    """Whether ``thing`` is about a thing that a subject-less ("we", a diary note) statement names
    as what it acts on: the same thing told from two sides ("The spare key is in a lockbox now" /
    "We keep the spare key under the mat")."""
    if not thing.thing or thing.subject is None or told.subject is not None or told.points_back:
        return False
    if stem(_head(thing.subject)) in told.values:
        return True
    # named by its first words: "the invoice export" is "the invoice export job"
    return any(thing.subject.startswith(f"{m} ") for m in told.mentions if " " in m)


def _one_act(a: Clause, b: Clause) -> bool:
    """Whether the clauses do not say two different things the subject does ("works", "volunteers")."""
    return not (a.predicate and b.predicate and a.predicate != b.predicate)


def _hours(text: str) -> set[tuple[str, str]]:
    """The hours ``text`` gives, as (from, to) with spaces dropped and in lower case."""
    return {(x.replace(" ", "").lower(), y.replace(" ", "").lower()) for x, y in _HOURS.findall(text)}


def _new_hours(old: str, new: str) -> bool:
    """Whether both statements give hours, and not the same ones."""
    hours_old, hours_new = _hours(old), _hours(new)
    return bool(hours_old and hours_new) and not hours_old & hours_new


def _worded(clause: Clause) -> frozenset[str]:
    """The values of ``clause`` written in words, without its numbers ("train" of "the 8:10 train")."""
    return frozenset(v for v in clause.values if not any(ch.isdigit() for ch in v))


def _new_level(a: Clause, b: Clause) -> bool:
    """Whether ``b`` says the measure ``a`` gives went to a new number ("down to 4 days")."""
    return b.to_level and bool(a.numbers and b.numbers) and not a.numbers & b.numbers and _one_measure(a, b)


def _one_measure(a: Clause, b: Clause) -> bool:
    """Whether two clauses count the same thing ("4 hours", "1 hour") or measure what the first one
    is about ("My resting heart rate is 72" / "Resting heart rate's down to 61"), and do not say so
    of two different acts ("run 5 km" / "swim 2 km")."""
    acts = a.predicate and b.predicate and a.predicate != b.predicate
    if acts and not (a.predicate in CHANGE_LEMMAS or b.predicate in CHANGE_LEMMAS):
        return False
    if a.counted and b.counted and not a.counted & b.counted:
        return False  # "three children" / "20 acres": two things counted
    named = a.subject_nouns & a.names  # "Kwame has ..." / "Kwame bought ...": one person, not one measure
    return bool(a.counted & b.counted) or bool(a.subject_nouns and not named and a.subject_nouns <= b.lemmas)


def _same_measure(a: Clause, b: Clause) -> bool:
    """Whether the two clauses give different numbers in the same words and units ("20 km a week",
    "35 km a week"), one of them with no verb of its own to say it measures something else, or a
    change verb to say the number changed."""
    if a.numbers & b.numbers:
        return False
    if _new_level(a, b):
        return True  # "I have 10 days of leave left" / "I'm down to 4 days of leave"
    if (a.change or b.change) and a.numbers and b.numbers and _worded(a) and _worded(a) == _worded(b):
        return True  # "I take the 7:40 train" / "I've been getting the 8:10 train since ...": a new time
    if not (a.quantities and b.quantities and a.values and a.values == b.values):
        return False
    if a.predicate in CHANGE_LEMMAS or b.predicate in CHANGE_LEMMAS:
        return True  # "The server was upgraded to Ubuntu 24.04" / "The server runs Ubuntu 20.04"
    return not (a.predicate and b.predicate and a.predicate != b.predicate)


def _changes_itself(changed: Clause, named: Clause) -> bool:
    """Whether ``changed`` gives a new value, with a change verb of its own, to the thing ``named``
    says is a named value ("The office wifi password changed to redfox77" / "The office wifi
    password is bluebird42"). Only a thing, not a person: "Maya is a nurse" names no value of Maya."""
    if not (changed.predicate in CHANGE_LEMMAS and changed.subject and named.subject):
        return False
    if not one_thing(changed.subject, named.subject):
        return False
    if named.verb != "be" or named.predicate is not None or named.slot_nouns:
        return False  # "Chiamaka's favourite dish is jollof" fills a slot of Chiamaka's, not a thing
    if not (named.thing and changed.thing):
        return False
    return bool(
        named.names - named.subject_nouns
        or named.numbers
        or any(any(c.isdigit() for c in v) for v in named.values)
    )


def _changes_the_slot_of(changed: Clause, other: Clause) -> bool:
    """Whether ``changed`` announces, with a verb of its own, a change done to the slot ``other``
    fills ("Migrated the main database to MySQL" / "Our main database is Postgres")."""
    if changed.predicate not in CHANGE_LEMMAS:
        return False
    # a number in a mention is the new value the slot is given: "the 3pm-11pm shift" is the shift
    named = {" ".join(w for w in m.split() if not any(c.isdigit() for c in w)) for m in changed.mentions}
    if other.slot_nouns & (changed.mentions | named):
        return True
    heads = _heads(changed.mentions)  # "my inhaler" is "my asthma inhaler"
    return changed.replaces and any(_head(slot) in heads for slot in other.slot_nouns)


def _names_the_act(noun: Clause, verb: Clause) -> bool:
    """Whether ``noun`` is about the act ``verb`` does, named as a noun ("Deployment is handled by
    Ansible now" / "We deploy with Capistrano")."""
    if not (noun.subject and verb.predicate):
        return False
    return stem(noun.subject.split()[-1]) == stem(verb.predicate)


def _decided_again(decision: Clause, changed: Clause) -> bool:
    """Whether ``changed`` announces a new value for what ``decision`` decided ("We decided to use
    Postgres for the events store" / "Scratch that, the events store will be ClickHouse";
    "Decision: launch in Germany first" / "Change of plan: we're launching in France first"): it
    names the thing decided on, not by a name, and a name the decision did not give."""
    if not (changed.change and (decision.decided or (decision.key or "").endswith(("decision", "plan")))):
        return False
    if not changed.names - decision.names:
        return False
    things = {m for m in decision.mentions if not set(m.split()) & decision.names}
    worded = {stem(lemma) for lemma in changed.lemmas}
    return bool(things & changed.mentions) or bool((decision.values - _name_stems(decision)) & worded)


def _name_stems(clause: Clause) -> frozenset[str]:
    return frozenset(stem(name) for name in clause.names)


def _redoes(again: Clause, other: Clause) -> bool:
    """Whether ``again`` does anew what ``other`` says was done: its verb is the other's with the
    prefix "re-" ("was rewritten in Go" / "is written in Python", "rebuilt" / "built")."""
    return any(v.startswith("re") and len(v) > 4 and v[2:] in other.verbs for v in again.verbs)


def _denied_values(a: Clause, b: Clause) -> frozenset[str]:
    """The values of the affirmed clause that the negated one denies: those it names, or where it
    ends or leaves something by a verb with an object, that object ("Ayesha finished her master's
    and joined the Toronto Star" denies no "moved to Toronto")."""
    negated, other = (a, b) if a.negated else (b, a)
    return _held(other) & (negated.replaced or negated.values)


def _held(clause: Clause) -> frozenset[str]:
    """The values ``clause`` holds: of a slot it fills with a name, the name ("Zoe's best friend is
    Maria Koutsou from her water polo team" holds Maria Koutsou, not water polo); else all of them."""
    subject = set((clause.subject or "").replace("'s", " ").split())
    named = {stem(name) for name in clause.names - subject}
    return frozenset(named) if clause.slot_nouns and named else clause.values


def _done_before(act: Clause, changed: Clause) -> bool:
    """Whether ``act`` tells of something done, no number reached, that the later ``changed``
    does not undo: "Agnieszka studied pharmacy" / "Agnieszka became the manager of the pharmacy"
    (what was done stays done), not "bought a Tesla" / "sold the Tesla" (what it replaces, it names)
    nor "The latte went up to $3.50" / "The latte is $4.25 now" (a level, not an act)."""
    if not (act.event and changed.change) or act.change or act.to_level or act.quantities:
        return False
    return not (changed.replaces and act.values & (changed.replaced or changed.values))


def _slot_is_value(named: Clause, other: Clause) -> bool:
    """Whether the slot ``named`` fills is only a value of ``other``."""
    if not named.slot_nouns or other.slot_nouns:
        return False
    return bool({stem(w) for noun in named.slot_nouns for w in noun.split()} & other.values)


def _points_back_vaguely(clause: Clause) -> bool:
    """Whether ``clause`` is about something only its context names ("That's so inspiring!",
    "It's perfect for reflecting") and gives it no value of its own to tell which: no name, no
    number. "It's Kestrel now" names its value, and a note after the one naming the project can
    mean nothing else."""
    return clause.points_back and not (clause.numbers or clause.names & clause.values)


def _restates(a: Clause, b: Clause, cosine: float) -> bool:
    """Nothing new in ``b``: no value ``a`` lacks, or the same numbers said in other words."""
    if not (b.values - a.values):
        return not (b.numbers - a.numbers)
    return cosine >= RESTATE_COSINE and bool(b.numbers) and b.numbers <= a.numbers


def _denies(a: Clause, b: Clause) -> bool:
    """Whether the negated clause names everything the other one affirms, wherever it names it:
    "The June 3 party is off" names the date that "The party is on June 3" gives as its value."""
    negated, other = (a, b) if a.negated else (b, a)
    if negated.existential and other.thing and other.subject_nouns and other.subject_nouns <= negated.lemmas:
        return True  # "There won't be an office party this year" denies "The office party is on ..."
    if not (other.values or other.numbers):
        return False
    if names_the_doer(negated.predicate, other.values):
        return True  # "I'm not freelancing anymore" denies "I'm a full-time freelancer"
    named = {stem(lemma) for lemma in negated.lemmas}
    return other.values <= named and other.numbers <= negated.numbers


def _denies_another(a: Clause, b: Clause) -> bool:
    """Whether the negated clause denies, with the other's own verb, only things the other does not
    name: "Tupac isn't learning Portuguese anymore" denies nothing of "Tupac is learning Quechua",
    "I don't eat meat" nothing of "I eat fish"; "I don't drink anymore" names nothing, so it denies
    "I drink wine most evenings"."""
    negated, other = (a, b) if a.negated else (b, a)
    if negated.predicate is None or negated.predicate != other.predicate:
        return False
    return bool(negated.values and other.values) and not (negated.values & other.values)


def _two_named_of_a_kind(a: Clause, b: Clause) -> bool:
    """Whether the clauses name two things of one kind, each by a name of its own on the same common
    noun ("the Atlas project" / "the Birch project"): what each says is of its own thing."""
    for mention_a in a.mentions:
        for mention_b in b.mentions:
            words_a, words_b = mention_a.split(), mention_b.split()
            if len(words_a) < 2 or len(words_b) < 2 or words_a[-1] != words_b[-1] or words_a[-1] in a.names:
                continue
            names_a, names_b = set(words_a[:-1]), set(words_b[:-1])
            if names_a <= a.names and names_b <= b.names and not names_a & names_b:
                return True
    return False


def _affirms_denied_act(a: Clause, b: Clause) -> bool:
    """Whether one clause denies what the other, about the same named subject, affirms: the same
    verb with the same object ("The board won't renew the lease" / "The board voted and will renew
    the lease"), however differently the rest is worded."""
    negated, other = (a, b) if a.negated else (b, a)
    if a.subject is None or a.subject != b.subject or negated.predicate is None:
        return False
    return negated.predicate in other.lemmas and bool(a.values & b.values)


def _ends_as_a_whole(a: Clause, b: Clause, cosine: float) -> bool:
    """Whether ``b``'s subject ends, with an ending verb of its own, what ``a`` says of the same
    subject: the value ``a`` gives is named anywhere in ``b`` ("stepped down" in one clause,
    "treasurer" in the next)."""
    same = a.subject is not None and a.subject == b.subject
    return same and not a.negated and cosine >= NEGATION_COSINE and _ends_its_value(b, a)


def _says_again(a: Clause, b: Clause, cosine: float) -> bool:
    """Whether ``b`` as a whole says nothing ``a`` does not, worded alike: no value, name or number
    of its own, no change, no denial ("Bee stings: I'm allergic, always have my EpiPen on me")."""
    if cosine < RESTATE_COSINE or a.negated or b.negated or b.change or b.replaces:
        return False
    return bool(b.values) and b.values <= a.values and b.numbers <= a.numbers and b.names <= a.names


def judge(old: Statement, new: Statement, cosine: float, by_sentence: bool = True) -> Verdict:
    """Decide whether ``old`` and ``new`` cannot both hold (order-independent but for the
    announcements of ``new``: a change it announces, an addition it makes). ``by_sentence``: a
    later statement of several sentences is read sentence by sentence against one of a single
    sentence (else it is not an atomic statement)."""
    old, new = alike_names(reported(old), reported(new))
    if not (old.speaker and new.speaker and old.speaker != new.speaker) and leaves_its_value(old, new):
        return Verdict(True, "leaves the value the other names")  # however long ``new`` runs
    if not (old.atomic and new.atomic):
        return Verdict(False, NOT_ATOMIC)
    if old.ordered_pair and new.ordered_pair:
        if old.ordered_pair == tuple(reversed(new.ordered_pair)):
            return Verdict(True, "preference reversed")
        return Verdict(False, "same preference")
    if old.speaker and new.speaker and old.speaker != new.speaker:
        return Verdict(False, "different speakers")
    if sentence_count(old.body) > 1:  # conversation: a later remark is no news of it
        return Verdict(False, NOT_ATOMIC)
    if sentence_count(new.body) > 1:
        return _judge_sentences(old, new, cosine) if by_sentence else Verdict(False, NOT_ATOMIC)
    return _judge_sentence(old, new, cosine)


def _of_anyone(statement: Statement) -> bool:
    """Whether a clause of ``statement`` says something of someone or something ("Big day!",
    "Thanks Nate!", "Lovely weather today." do not)."""
    return any(clause.subject is not None for clause in clauses_of(statement))


def _judge_sentences(old: Statement, new: Statement, cosine: float) -> Verdict:
    """The verdict for a statement of one sentence and a later one of several, read sentence by
    sentence: a sentence in conflict with ``old`` is a conflict ("Got promoted!! I'm a full
    accountant now, no more 'junior' in my title" against "I'm a junior accountant"); one that
    restates or adds to it keeps both, whatever the rest says. A sentence about the past, a plan
    or someone else says nothing of the whole, nor does one that says nothing of anyone ("Big
    news!", "Thanks Nate! See you later!"). Where each sentence read is kept for want of a
    reading, the two learned readers may read the whole (Verdict.unread_message); the pair head
    alone read "Still in Leeds. The rent went up again though." as replacing "I live in Leeds"
    (p 0.93), which its first sentence restating the fact rules out."""
    if not _of_anyone(old):
        return Verdict(False, NOT_ATOMIC)
    sentences = _sentences(new)
    verdicts = []
    for sentence in sentences:
        if sentence_count(sentence.body) == 1 and _of_anyone(sentence):  # read alone, it may split
            verdicts.append(_judge_sentence(old, sentence, cosine))
    conflict = next((v for v in verdicts if v.conflict), None)
    if conflict is not None:
        return conflict
    kept = next((v for v in verdicts if v.reason in SENTENCE_KEEPS), None)
    if kept is not None:
        return kept
    # every sentence read was kept for want of a reading, or as said of a subject the learned
    # readers may read ("Graduation photos are up! Officially a registered nurse" against "I'm
    # studying nursing at AUT"), and no sentence of no one names again what the fact names
    # ("Still in Leeds." restates "I live in Leeds", whatever the rest says)
    unread = bool(verdicts) and all(v.unread_or_past or v.other_subject_or_past for v in verdicts)
    return Verdict(False, NOT_ATOMIC, unread_message=unread and not _names_again(old, sentences))


def _names_again(old: Statement, sentences: list[Statement]) -> bool:
    """Whether one of ``sentences`` (of a later message) said of no one names a value of ``old``
    ("Still in Leeds.")."""
    values = {v for clause in clauses_of(old) for v in clause.values}
    return any(
        values & read_clause(sentence.body, sentence.speaker).values
        for sentence in sentences
        if not _of_anyone(sentence)
    )


def _sentences(statement: Statement) -> list[Statement]:
    """The sentences of ``statement``, each read as a statement of its own."""
    return [read_statement(text, statement.speaker) for text in sentence_texts(statement.body)]


def parse_sentences_ahead(pairs: Iterable[tuple[Statement, Statement]]) -> None:
    """Parse in a few batches what :func:`judge` parses when it reads a later statement of several
    sentences sentence by sentence, for these pairs (either may be the later): the sentences, their
    clauses and a diary note's readings with its "I" put back. One by one, under the scope locks,
    these parses cost about as much as the rest of the belief check of a batch of chat; batched,
    each costs about half. Decides nothing: the parses are cached, the same as one by one."""
    later: list[Statement] = []
    for first, second in pairs:
        for old, new in ((first, second), (second, first)):
            old, new = alike_names(reported(old), reported(new))
            if not (old.atomic and new.atomic) or (old.ordered_pair and new.ordered_pair):
                continue
            if old.speaker and new.speaker and old.speaker != new.speaker:
                continue
            if sentence_count(old.body) == 1 and sentence_count(new.body) > 1 and _of_anyone(old):
                later.append(new)  # what _judge_sentences reads sentence by sentence
    sentences = [s for new in dict.fromkeys(later) for s in _sentences(new)]
    parse_docs(s.body for s in sentences)
    clauses = [
        text
        for s in sentences
        if sentence_count(s.body) == 1
        for text in clause_texts(without_correction(s.body)[0])
    ]
    parse_docs(clauses)
    parse_docs(reading for text in clauses for reading in diary_readings(text))


def _judge_sentence(old: Statement, new: Statement, cosine: float) -> Verdict:
    """:func:`judge` for two statements of one sentence each."""
    whole_a, whole_b = read_clause(old.body, old.speaker), read_clause(new.body, new.speaker)
    if not (whole_a.statement and whole_b.statement):
        return Verdict(False, "a request, a wish or thanks: no belief")
    if whole_a.hedged or whole_b.hedged:
        return Verdict(False, "a plan or a guess, not a change")
    if whole_a.past_only or whole_b.past_only:
        return Verdict(False, ABOUT_THE_PAST)
    if _says_again(whole_a, whole_b, cosine):
        return Verdict(False, "restates")  # whatever its clauses pair up as
    if _ends_as_a_whole(whole_a, whole_b, cosine):
        return Verdict(True, "ended")  # "Hiroshi stepped down and Anneke was elected treasurer"
    verdicts = [_judge_clauses(old, new, a, b, cosine) for a in clauses_of(old) for b in clauses_of(new)]
    conflict = next((v for v in verdicts if v.conflict), None)
    if conflict is not None:
        return conflict
    unread, other_subject = _left_to_readers(verdicts, UNREAD_KEEPS)
    with_past, other_with_past = _left_to_readers(verdicts, UNREAD_OR_PAST)
    return Verdict(
        False,
        verdicts[0].reason,
        unread=unread,
        other_subject=other_subject,
        unread_or_past=with_past,
        other_subject_or_past=other_with_past,
    )


def _left_to_readers(verdicts: list[Verdict], unread_reasons: frozenset[str]) -> tuple[bool, bool]:
    """Whether every clause pair was kept for one of ``unread_reasons`` (unread), and else whether
    every one was kept for one of them or as said of another subject (Verdict.other_subject)."""
    unread = all(v.reason in unread_reasons for v in verdicts)
    other_subject = not unread and all(v.reason in unread_reasons or v.other_subject for v in verdicts)
    return unread, other_subject


def judge_in_time(
    first: Statement,
    first_at: datetime,
    second: Statement,
    second_at: datetime,
    cosine: float,
    by_sentence: bool = True,
) -> Verdict:
    """:func:`judge` with the statement that happened later as the new one, whatever the order
    they arrived in: what a statement announces ("now", "also") it announces of its own time."""
    if second_at < first_at:
        return judge(second, first, cosine, by_sentence)
    return judge(first, second, cosine, by_sentence)


def _changes_one_of_its_things(a: Clause, b: Clause) -> bool:
    """Whether ``b`` replaces a value that ``a`` holds beside a state of its own, which it leaves
    as it was: "Callum has Crohn's disease and takes azathioprine" / "Callum's gastroenterologist
    switched him from azathioprine to infliximab" ends the drug, not the illness. Only for a clause
    that has something ('have') and does something else, and a change that names what it replaces
    ("from azathioprine"); "I work at Google and lead the search team" is left to the other rules."""
    if "have" not in a.lemmas or len(a.verbs) < 2 or not b.replaced & a.values:
        return False
    held = {w for w in a.lemmas - b.lemmas if w.isalpha() and w not in _JOINERS | LIGHT_VERBS}
    return bool(held - a.subject_nouns)  # what it has, which the change leaves as it was


def _judge_clauses(old: Statement, new: Statement, a: Clause, b: Clause, cosine: float) -> Verdict:
    """The verdict for one clause of each statement ("Nate left, so Olivia is my manager now"
    conflicts with "Nate is my manager" through its second clause)."""
    if a.key and b.key:  # two "key: value" notes
        if a.key != b.key:
            return Verdict(False, "different keys")
        if _restates(a, b, cosine) and _restates(b, a, cosine):
            return Verdict(False, "restates")
        return Verdict(True, "new value for the same key")
    writer = (new.speaker or old.speaker or "user").lower()
    if _different_subjects(a, b, writer):
        someone_of = _of_someone(a) or _of_someone(b) or _two_named(a, b) or _two_of_a_kind(a, b)
        return Verdict(False, DIFFERENT_SUBJECTS, other_subject=not someone_of)
    if _points_back_vaguely(a) or _points_back_vaguely(b):
        return Verdict(False, "about what the context named")
    if a.hedged or b.hedged:
        return Verdict(False, "a plan or a guess, not a change")
    if a.past_only or b.past_only:
        return Verdict(False, ABOUT_THE_PAST)
    if a.negated != b.negated and cosine >= NEGATION_COSINE and (_denied_values(a, b) or _denies(a, b)):
        return Verdict(True, "negation")  # "We don't use Kubernetes" / "We adopted Kubernetes"
    if a.negated != b.negated and _affirms_denied_act(a, b):
        return Verdict(True, "negation of the same act")
    if not _same_slot(old, new, a, b, cosine):
        return Verdict(False, DIFFERENT_SLOTS)
    if a.negated != b.negated and _denies_another(a, b):
        return Verdict(False, DENIES_ANOTHER)  # "isn't learning Portuguese" / "is learning Quechua"
    same_object = a.values & b.values or a.predicate == b.predicate
    if a.negated != b.negated and (same_object or cosine >= NEGATION_COSINE):
        return Verdict(True, "negation")
    if b.additive and (not b.negated or a.negated):  # "I don't drink alcohol either" adds a denial
        return Verdict(False, "an addition")
    # what is done instead is not the same, nor is selling or leaving what the other one names
    if _restates(a, b, cosine) and "instead" not in b.lemmas and not (b.replaces and a.values & b.values):
        return Verdict(False, RESTATES_OR_NARROWS)
    if _done_before(a, b):
        return Verdict(False, PAST_ACT)
    if _changes_one_of_its_things(a, b):
        return Verdict(False, CHANGES_ONE_THING)
    if b.change or a.change:
        return Verdict(True, "change announced")
    trades = b.replaces and bool(a.values & b.values)  # "traded in the Brompton for a Tern"
    if not (a.values - b.values) and not (a.numbers - b.numbers) and not trades:
        return Verdict(False, ADDS_DETAIL)
    if a.quantities and b.quantities and not a.numbers & b.numbers and (a.values == b.values or b.change):
        return Verdict(True, "a new number for the same quantity")
    if _new_level(a, b):
        return Verdict(True, "a new number for the same quantity")
    # values that differ only in a date say when, not what: a verb that takes several objects
    # ("goes to Rome", "goes to Porto") holds one day ("goes out on Fridays"), but several things
    # ("quarterly reviews") each have a date of their own
    differing = a.values ^ b.values
    when_only = bool(differing) and differing <= a.dates | b.dates
    if when_only and a.plural and b.plural:
        return Verdict(False, "several things, each on its own date")
    if (a.event or b.event) and a.verb == b.verb and not (a.change or b.change or a.decided or b.decided):
        # "took the kids to the museum" / "to the beach"; "ran a marathon in May" / "runs 5k every day"
        return Verdict(False, PAST_ACT)
    if a.kinds & b.kinds and not (a.change or b.change):
        return Verdict(False, "two of a kind")  # "open an office in Austin" / "an office in Dublin"
    if a.quantities and b.quantities and a.per and b.per and not a.per & b.per and not (a.change or b.change):
        return Verdict(False, "a number for each")  # "$25 for adults" / "$10 for children"
    if _two_named_of_a_kind(a, b) and not (a.change or b.change):
        return Verdict(False, "two of a kind")  # "For the Atlas project we chose ..." / "the Birch project"
    if {a.verb, b.verb} & MULTI_VALUED and not when_only:
        return Verdict(False, SEVERAL_VALUES)
    return Verdict(True, "different value")
