"""What two clauses of one slot say of its value: a denial, a restatement, an ending, an act told
in the past, a number for each, a change of one of the things a clause holds."""

from __future__ import annotations

from graphmem.beliefs.left_behind import names_the_doer
from graphmem.beliefs.parse import ENDING_LEMMAS, LIGHT_VERBS, Clause
from graphmem.stemming import stem

# Above this, two statements whose numbers agree say the same thing in other words.
RESTATE_COSINE = 0.75
# A statement and its negation about one subject and one value: similar as a whole, if not worded alike.
NEGATION_COSINE = 0.6


_JOINERS = frozenset({"and", "or", "but", "also"})


def ends_its_value(owner: Clause, owned: Clause) -> bool:
    """Whether the owner's statement ends what its thing's statement names ("Ifeoma cancelled the
    Accra trip" ends "Ifeoma's flight to Accra is on the 8th"): what the ending verb takes as its
    object, where it takes one ("finished her master's and joined the Toronto Star" ends no move
    to Toronto)."""
    return owner.predicate in ENDING_LEMMAS and bool((owner.replaced or owner.values) & held_values(owned))


def denied_values(a: Clause, b: Clause) -> frozenset[str]:
    """The values of the affirmed clause that the negated one denies: those it names, or where it
    ends or leaves something by a verb with an object, that object ("Ayesha finished her master's
    and joined the Toronto Star" denies no "moved to Toronto")."""
    negated, other = (a, b) if a.negated else (b, a)
    return held_values(other) & (negated.replaced or negated.values)


def held_values(clause: Clause) -> frozenset[str]:
    """The values ``clause`` holds: of a slot it fills with a name, the name ("Zoe's best friend is
    Maria Koutsou from her water polo team" holds Maria Koutsou, not water polo); else all of them."""
    subject = set((clause.subject or "").replace("'s", " ").split())
    named = {stem(name) for name in clause.names - subject}
    return frozenset(named) if clause.slot_nouns and named else clause.values


def done_before(act: Clause, changed: Clause) -> bool:
    """Whether ``act`` tells of something done, no number reached, that the later ``changed``
    does not undo: "Agnieszka studied pharmacy" / "Agnieszka became the manager of the pharmacy"
    (what was done stays done), not "bought a Tesla" / "sold the Tesla" (what it replaces, it names)
    nor "The latte went up to $3.50" / "The latte is $4.25 now" (a level, not an act)."""
    if not (act.event and changed.change) or act.change or act.to_level or act.quantities:
        return False
    return not (changed.replaces and act.values & (changed.replaced or changed.values))


def points_back_vaguely(clause: Clause) -> bool:
    """Whether ``clause`` is about something only its context names ("That's so inspiring!",
    "It's perfect for reflecting") and gives it no value of its own to tell which: no name, no
    number. "It's Kestrel now" names its value, and a note after the one naming the project can
    mean nothing else."""
    return clause.points_back and not (clause.numbers or clause.names & clause.values)


def restates(a: Clause, b: Clause, cosine: float) -> bool:
    """Nothing new in ``b``: no value ``a`` lacks, or the same numbers said in other words."""
    if not (b.values - a.values):
        return not (b.numbers - a.numbers)
    return cosine >= RESTATE_COSINE and bool(b.numbers) and b.numbers <= a.numbers


def denies(a: Clause, b: Clause) -> bool:
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


def denies_another(a: Clause, b: Clause) -> bool:
    """Whether the negated clause denies, with the other's own verb, only things the other does not
    name: "Tupac isn't learning Portuguese anymore" denies nothing of "Tupac is learning Quechua",
    "I don't eat meat" nothing of "I eat fish"; "I don't drink anymore" names nothing, so it denies
    "I drink wine most evenings"."""
    negated, other = (a, b) if a.negated else (b, a)
    if negated.predicate is None or negated.predicate != other.predicate:
        return False
    return bool(negated.values and other.values) and not (negated.values & other.values)


def two_named_of_a_kind(a: Clause, b: Clause) -> bool:
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


def affirms_denied_act(a: Clause, b: Clause) -> bool:
    """Whether one clause denies what the other, about the same named subject, affirms: the same
    verb with the same object ("The board won't renew the lease" / "The board voted and will renew
    the lease"), however differently the rest is worded."""
    negated, other = (a, b) if a.negated else (b, a)
    if a.subject is None or a.subject != b.subject or negated.predicate is None:
        return False
    return negated.predicate in other.lemmas and bool(a.values & b.values)


def ends_as_a_whole(a: Clause, b: Clause, cosine: float) -> bool:
    """Whether ``b``'s subject ends, with an ending verb of its own, what ``a`` says of the same
    subject: the value ``a`` gives is named anywhere in ``b`` ("stepped down" in one clause,
    "treasurer" in the next)."""
    same = a.subject is not None and a.subject == b.subject
    return same and not a.negated and cosine >= NEGATION_COSINE and ends_its_value(b, a)


def says_again(a: Clause, b: Clause, cosine: float) -> bool:
    """Whether ``b`` as a whole says nothing ``a`` does not, worded alike: no value, name or number
    of its own, no change, no denial ("Bee stings: I'm allergic, always have my EpiPen on me")."""
    if cosine < RESTATE_COSINE or a.negated or b.negated or b.change or b.replaces:
        return False
    return bool(b.values) and b.values <= a.values and b.numbers <= a.numbers and b.names <= a.names


def changes_one_of_its_things(a: Clause, b: Clause) -> bool:
    """Whether ``b`` replaces a value that ``a`` holds beside a state of its own, which it leaves
    as it was: "Callum has Crohn's disease and takes azathioprine" / "Callum's gastroenterologist
    switched him from azathioprine to infliximab" ends the drug, not the illness. Only for a clause
    that has something ('have') and does something else, and a change that names what it replaces
    ("from azathioprine"); "I work at Google and lead the search team" is left to the other rules."""
    if "have" not in a.lemmas or len(a.verbs) < 2 or not b.replaced & a.values:
        return False
    held = {w for w in a.lemmas - b.lemmas if w.isalpha() and w not in _JOINERS | LIGHT_VERBS}
    return bool(held - a.subject_nouns)  # what it has, which the change leaves as it was
