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

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from graphmem.beliefs.clauses import clauses_of
from graphmem.beliefs.initials import alike_names
from graphmem.beliefs.left_behind import leaves_its_value
from graphmem.beliefs.parse import (
    Clause,
    clause_texts,
    read_clause,
    sentence_count,
    sentence_texts,
    without_correction,
)
from graphmem.beliefs.reported import reported
from graphmem.beliefs.restore import diary_readings, parse_docs
from graphmem.beliefs.slots import new_level, same_slot
from graphmem.beliefs.statements import MULTI_VALUED, Statement, read_statement
from graphmem.beliefs.subjects_apart import different_subjects, of_someone, two_named, two_of_a_kind
from graphmem.beliefs.values import (
    NEGATION_COSINE,
    affirms_denied_act,
    changes_one_of_its_things,
    denied_values,
    denies,
    denies_another,
    done_before,
    ends_as_a_whole,
    points_back_vaguely,
    restates,
    says_again,
    two_named_of_a_kind,
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
    if says_again(whole_a, whole_b, cosine):
        return Verdict(False, "restates")  # whatever its clauses pair up as
    if ends_as_a_whole(whole_a, whole_b, cosine):
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


def _judge_clauses(old: Statement, new: Statement, a: Clause, b: Clause, cosine: float) -> Verdict:
    """The verdict for one clause of each statement ("Nate left, so Olivia is my manager now"
    conflicts with "Nate is my manager" through its second clause)."""
    if a.key and b.key:  # two "key: value" notes
        if a.key != b.key:
            return Verdict(False, "different keys")
        if restates(a, b, cosine) and restates(b, a, cosine):
            return Verdict(False, "restates")
        return Verdict(True, "new value for the same key")
    writer = (new.speaker or old.speaker or "user").lower()
    if different_subjects(a, b, writer):
        someone_of = of_someone(a) or of_someone(b) or two_named(a, b) or two_of_a_kind(a, b)
        return Verdict(False, DIFFERENT_SUBJECTS, other_subject=not someone_of)
    if points_back_vaguely(a) or points_back_vaguely(b):
        return Verdict(False, "about what the context named")
    if a.hedged or b.hedged:
        return Verdict(False, "a plan or a guess, not a change")
    if a.past_only or b.past_only:
        return Verdict(False, ABOUT_THE_PAST)
    if a.negated != b.negated and cosine >= NEGATION_COSINE and (denied_values(a, b) or denies(a, b)):
        return Verdict(True, "negation")  # "We don't use Kubernetes" / "We adopted Kubernetes"
    if a.negated != b.negated and affirms_denied_act(a, b):
        return Verdict(True, "negation of the same act")
    if not same_slot(old, new, a, b, cosine):
        return Verdict(False, DIFFERENT_SLOTS)
    if a.negated != b.negated and denies_another(a, b):
        return Verdict(False, DENIES_ANOTHER)  # "isn't learning Portuguese" / "is learning Quechua"
    same_object = a.values & b.values or a.predicate == b.predicate
    if a.negated != b.negated and (same_object or cosine >= NEGATION_COSINE):
        return Verdict(True, "negation")
    if b.additive and (not b.negated or a.negated):  # "I don't drink alcohol either" adds a denial
        return Verdict(False, "an addition")
    # what is done instead is not the same, nor is selling or leaving what the other one names
    if restates(a, b, cosine) and "instead" not in b.lemmas and not (b.replaces and a.values & b.values):
        return Verdict(False, RESTATES_OR_NARROWS)
    if done_before(a, b):
        return Verdict(False, PAST_ACT)
    if changes_one_of_its_things(a, b):
        return Verdict(False, CHANGES_ONE_THING)
    if b.change or a.change:
        return Verdict(True, "change announced")
    trades = b.replaces and bool(a.values & b.values)  # "traded in the Brompton for a Tern"
    if not (a.values - b.values) and not (a.numbers - b.numbers) and not trades:
        return Verdict(False, ADDS_DETAIL)
    if a.quantities and b.quantities and not a.numbers & b.numbers and (a.values == b.values or b.change):
        return Verdict(True, "a new number for the same quantity")
    if new_level(a, b):
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
    if two_named_of_a_kind(a, b) and not (a.change or b.change):
        return Verdict(False, "two of a kind")  # "For the Atlas project we chose ..." / "the Birch project"
    if {a.verb, b.verb} & MULTI_VALUED and not when_only:
        return Verdict(False, SEVERAL_VALUES)
    return Verdict(True, "different value")
