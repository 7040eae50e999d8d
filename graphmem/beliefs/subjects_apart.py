"""Whether two clauses are about different people or things: someone else's relative, friend,
colleague or pet, two things of one kind, a change someone makes of their own or does to another."""

from __future__ import annotations

from graphmem.beliefs.keys import head_noun, head_nouns, one_thing, owner_and_noun
from graphmem.beliefs.parse import CHANGE_LEMMAS, Clause
from graphmem.beliefs.statements import RELATION_NOUNS
from graphmem.beliefs.values import ends_its_value


def of_someone(clause: Clause) -> bool:
    """Whether the clause is said of someone's relative, friend, colleague or pet ("Bob's sister",
    "my manager", "my sister's husband"), or has no subject the judge could read."""
    if clause.subject is None:
        return True
    possessed = owner_and_noun(clause.subject)
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
    owned = owner_and_noun(subject)
    keys = [subject] if owned is None else [owned[1], owned[0]]
    return [(key.split()[-1], frozenset(key.split()[:-1])) for key in keys if len(key.split()) > 1]


def _marked_apart(a: Clause, b: Clause) -> bool:
    """Whether the clauses are said of one kind of thing, each told apart by names of its own in
    a phrase that hangs from it ("A ticket to the Uffizi" / "A ticket to the Accademia", "the
    meeting with Ana" / "the meeting with Bob")."""
    same_kind = a.subject is not None and a.subject == b.subject
    return same_kind and bool(a.subject_marks and b.subject_marks) and not a.subject_marks & b.subject_marks


def two_of_a_kind(a: Clause, b: Clause) -> bool:
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


def two_named(a: Clause, b: Clause) -> bool:
    """Whether both clauses are said of someone they name ("Marco moved to Lyon; he drives for a
    courier firm now" and "Giulia is a pharmacist"): two people, neither acting on the other's fact."""
    return a.subject in a.names and b.subject in b.names


def different_subjects(a: Clause, b: Clause, writer: str = "user") -> bool:
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
    if a.subject == b.subject or one_name(a, b):
        return False
    pa, pb = owner_and_noun(a.subject), owner_and_noun(b.subject)
    if _named_in_apposition(a, pa, b) or _named_in_apposition(b, pb, a):
        return False  # "Ahmet's wife Elif works at Migros" / "Elif left Migros": Elif both times
    if pa and pa[0] == b.subject:
        return not (_speaks_of(a, pa, b) or ends_its_value(b, a) or _changes_its_owner(a, b))
    if pb and pb[0] == a.subject:
        return not (_speaks_of(b, pb, a) or ends_its_value(a, b) or _changes_its_owner(b, a))
    if (pa and pa[1] == b.subject and b.thing) or (pb and pb[1] == a.subject and a.thing):
        return False  # "my running club" and "the running club": the one the memory knows
    if one_thing(a.subject, b.subject):
        return False
    return not (_done_to(a, b) or _done_to(b, a))


def one_name(a: Clause, b: Clause) -> bool:
    """Whether both subjects end in the same name ("Yu-ting's younger sister Yu-han" and
    "Yu-ting's sister Yu-han"; "Ayesha's brother Faisal" and "Faisal"): one person."""
    last_a, last_b = (a.subject or "").split()[-1:], (b.subject or "").split()[-1:]
    return bool(last_a) and last_a == last_b and last_a[0] in a.names and last_a[0] in b.names


def _speaks_of(owned: Clause, possessed: tuple[str, str], owner: Clause) -> bool:
    """Whether the clause about the ``owner`` speaks of the thing ``owned`` is said of ("Ana's
    sertraline dose" / "Ana is down to 50 mg of sertraline"); not where that is someone of theirs,
    whom the owner may speak of without speaking for them ("Elena's daughter Maria works as a
    dentist" / "Elena moved to Sofia to live with her daughter Maria's family")."""
    if of_someone(owned):
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
    return clause.subject_nouns or frozenset({head_noun(owned)})


def _done_to(other: Clause, changed: Clause) -> bool:
    """Whether ``changed`` says, with a change verb, that something was done to ``other``'s
    subject ("My doctor switched me to losartan"); a "new" in it names whose thing is new. A change
    someone named makes of their own is theirs ("Jonas moved and joined Hannah in Copenhagen",
    "Ayesha's brother Faisal joined Google")."""
    if _named_doer(changed, other):
        return False
    return changed.change and changed.predicate in CHANGE_LEMMAS and names_subject(changed, other.subject)


# pronouns that say whom a change was done to ("switched me", "moved him")
_ACTED_ON = frozenset({"i", "me", "he", "him", "she", "her", "they", "them", "us", "we"})


def _named_doer(changed: Clause, other: Clause) -> bool:
    """Whether ``changed`` is said of someone it names (by a name of one word or more: "Jonas",
    "Ji-hoon", "Ayesha's brother Faisal") other than the one ``other`` names as its subject, and
    names no one it is done to: what such a change does, it does to its doer ("Jonas moved to
    Copenhagen and joined Hannah" changes no home of Hannah's; "Dr. Lindqvist switched me to
    losartan" changes mine)."""
    if not (is_named(changed) and is_named(other)) or one_subject(changed, other):
        return False  # "Bean There raised the latte to $3.50" changes the latte
    return not changed.lemmas & _ACTED_ON


def one_subject(a: Clause, b: Clause) -> bool:
    """Whether the two clauses are said of one subject, by its key or by its name."""
    return one_thing(a.subject or "", b.subject or "") or one_name(a, b)


def is_named(clause: Clause) -> bool:
    """Whether ``clause`` is said of someone or something it names ("Ji-hoon", "Ayesha's brother
    Faisal"; not "Yu-ting's sister"): the first or the last word of its subject is a name, of what
    is owned when the subject is someone's."""
    possessed = owner_and_noun(clause.subject or "")
    if possessed is not None:
        return possessed[1].split()[-1] in clause.names
    words = (clause.subject or "").split()
    return bool(words) and (words[0] in clause.names or words[-1] in clause.names)


def names_subject(clause: Clause, subject: str | None) -> bool:
    """Whether ``clause`` names ``subject``: as a whole, or as its owner and its noun ("I changed
    my forum username" names "Ana's username" when Ana speaks)."""
    if subject is None:
        return False
    if subject in clause.mentions:
        return True
    owned = owner_and_noun(subject)
    if owned is None and any(
        one_thing(subject, m) and head_noun(m) == head_noun(subject) for m in clause.mentions if m
    ):
        return True  # "Bumped the topic to 12 partitions" names "the Kafka topic"
    if owned is None or owned[0] not in clause.mentions:
        return False
    # "my inhaler" names "my asthma inhaler"
    return owned[1] in clause.mentions or head_noun(owned[1]) in head_nouns(clause.mentions)
