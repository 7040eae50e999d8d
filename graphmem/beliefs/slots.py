"""Whether two clauses about one subject speak of the same slot (where someone lives, who manages
them, when the standup is): by the parse, by attribute families and by how alike they read."""

from __future__ import annotations

import re

from graphmem.beliefs.clauses import clauses_of
from graphmem.beliefs.keys import head_noun, head_nouns, one_thing
from graphmem.beliefs.parse import CHANGE_LEMMAS, Clause, named_words
from graphmem.beliefs.statements import SINGLE_VALUED, Statement
from graphmem.beliefs.subjects_apart import is_named, names_subject, one_name, one_subject
from graphmem.beliefs.values import held_values
from graphmem.stemming import stem

# Cosine similarity above which two statements about one subject speak of the same slot, when
# nothing in the parse says so (facts about one person are often this similar through the name
# alone: measured on the dev halves of bench/eval, beliefs and user memories together).
SAME_SLOT_COSINE = 0.75
CHANGED_SLOT_COSINE = 0.75
# Two statements that both announce a change are two steps of one thing that keeps changing.
BOTH_CHANGED_SLOT_COSINE = 0.65


# Words of a note's key that qualify it rather than name the slot ("final", "current").
KEY_FILLERS = frozenset(
    {"the", "a", "an", "my", "our", "your", "on", "of", "for", "in", "at", "to", "final", "current", "new"}
    | {"latest", "chosen"}
)


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


def same_slot(old: Statement, new: Statement, a: Clause, b: Clause, cosine: float) -> bool:
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
    if b.replaces and held_values(a) & (b.replaced or b.values):
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


def _things(a: Clause, b: Clause) -> bool:
    """Whether both clauses are about one thing, not a person: a common noun neither names."""
    return all(c.subject_nouns and not c.subject_nouns & c.names and c.subject != "user" for c in (a, b))


def _changes_the_subject_of(changed: Clause, other: Clause) -> bool:
    """Whether ``changed`` announces, with a verb of its own, a change done to what ``other`` is
    about ("Postponed the audit to May 9" changes what "The audit is on April 2" says of the audit)."""
    if not (changed.predicate in CHANGE_LEMMAS and other.subject) or other.subject == changed.subject:
        return False  # the verb itself is the change ("a new sofa" changes nothing of the cat's)
    if one_name(changed, other):
        return False  # one person read two ways ("Priya", "In Singapore Priya"): not done to them
    if is_named(changed) and not one_subject(changed, other):
        return False  # a named doer's change is theirs: "Marco moved and joined Giulia" changes no Giulia
    return names_subject(changed, other.subject)


# hours from one time of day to another: "7am-3pm", "9 to 5", "8:30-16:00"
_HOURS = re.compile(
    r"\b(\d{1,2}(?:[:.]\d\d)?\s*(?:am|pm)?)\s*(?:-|\u2013|to|till|until)\s*(\d{1,2}(?:[:.]\d\d)?\s*(?:am|pm)?)\b",
    re.IGNORECASE,
)


def _same_kind_renamed(a: Clause, b: Clause) -> bool:
    """Whether both clauses name a thing of one kind (one head noun), each told apart by its own
    words ("the Premium plan" / "the Basic plan", "the night desk" / "the sports desk")."""
    own_a = {head_noun(m): m for m in a.mentions if " " in m and m != a.subject}
    own_b = {head_noun(m): m for m in b.mentions if " " in m and m != b.subject}
    return any(own_a[h] != own_b[h] for h in own_a.keys() & own_b.keys())


def _object_is_subject(thing: Clause, told: Clause) -> bool:
    """Whether ``thing`` is about a thing that a subject-less ("we", a diary note) statement names
    as what it acts on: the same thing told from two sides ("The spare key is in a lockbox now" /
    "We keep the spare key under the mat")."""
    if not thing.thing or thing.subject is None or told.subject is not None or told.points_back:
        return False
    if stem(head_noun(thing.subject)) in told.values:
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


def new_level(a: Clause, b: Clause) -> bool:
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
    if new_level(a, b):
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
    heads = head_nouns(changed.mentions)  # "my inhaler" is "my asthma inhaler"
    return changed.replaces and any(head_noun(slot) in heads for slot in other.slot_nouns)


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


def _slot_is_value(named: Clause, other: Clause) -> bool:
    """Whether the slot ``named`` fills is only a value of ``other``."""
    if not named.slot_nouns or other.slot_nouns:
        return False
    return bool({stem(w) for noun in named.slot_nouns for w in noun.split()} & other.values)
