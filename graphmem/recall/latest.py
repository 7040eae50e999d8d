"""Asked how things stand (now, or at an ``as_of`` date), the later of two statements of one person
on one thing comes first, even when the belief check did not see that it replaces the earlier one.

"Who is Sophie's biggest client at the moment?" matches "Sophie's biggest client is the wine shop
chain Cave Brun" word for word; "Cave Brun ended their contract; Sophie's main client is now the
Musée des Confluences", said months later, answers it. A later memory **follows** an earlier one
when it states the same thing of the same person: it matches at least ``min_share`` of the
earlier memory's telling words that are not names (weighed among the recall's candidates,
recall/keywords.py: "client" here). Names are left out because a later memory naming the same
place or employer mostly says more of it ("Siobhán lives in Galway", then "Siobhán works as a
teacher in Galway"). A later memory also follows an earlier one when both speak of the attribute
the question asks about (recall/attributes.py: "The family moved to a farm near San Isidro"
follows "Andrés lives in San José, in Escazú" for "Where does Andrés live now?"), before one that
only shares words.
A follower is not about someone else (recall/whose.py: "Sophie's sister's
client" does not follow "Sophie's client"), and a relative's statement is followed only by one
stated of that relative. Among the earlier memory's followers, the one matching most of its words
(then the latest) takes the earlier memory's score and a hair more; chains settle in turn. A
follower must be related to the question on its own (relevance above ``LOW_SIMILARITY``, the
cosine below which nothing is really related): "The tea house makes 60,000 lira a month" says
more of "Elif left Migros to run the kitchen at the tea house", and nothing of where Elif works.

Things change, and a later statement is the likelier to still hold: asked how things stand now,
the candidates related to the question lean toward the later ones, the latest gaining the most
(a bounded lean, ``RankWeights.later_lean``). "How does Siobhán get around these days?" is answered
by "Siobhán sold her Fiesta and cycles everywhere now", which the question's words and vector
barely reach, and not by a fact of hers from before it.

Whether a question asks how things stand is read from the words that place it at the time of
asking ("now", "currently", "these days", "at the moment"...): a plain question ("What is the
name of Amara's cat?") is not reordered, since a later memory on the same thing ("Amara's cat
Jollof had three kittens") is then no better an answer. A question with an ``as_of`` date asks
how things stood then (the memories after it are not candidates).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping

from graphmem.recall.attributes import PASTIME, attributes_said_of, owners_nouns, said_of_others
from graphmem.recall.keywords import TermStats, analyse
from graphmem.recall.whose import NO_NAMES, Whose, as_owners, other_subject, stated_of
from graphmem.stemming import stem

# The words that place a question at the time of asking (a fallback word list: spaCy's entity
# recogniser tags "these days" as a date but not "now" or "at the moment").
_NOW = re.compile(
    r"\b(?:now|nowadays|currently|these days|at the moment|at present|presently|right now|today|"
    r"any ?more|still)\b",
    re.IGNORECASE,
)
_WORD = re.compile(r"[\w'-]+")
# The tenses of a question's verb (a fallback word list: the auxiliaries and the present's
# contraction, "What's Hana's job?").
_PRESENT = re.compile(r"\b(?:does|do|is|are|has|have)\b|\w's\b", re.IGNORECASE)
_PAST = re.compile(r"\b(?:did|was|were|had|used to)\b", re.IGNORECASE)
_NOT_CHANGING = frozenset({"name", PASTIME})
# Words by which a later statement says that something it names was changed ("Kwame's doctor
# switched him from nifedipine to amlodipine"): it needs half the share of the earlier one's words
# to follow it, since it names the old value once among the new ones (a fallback word list).
_CHANGED = frozenset(
    stem(w) for w in ("switched", "replaced", "swapped", "traded", "changed", "sold", "quit")
)
# How much above the earlier memory's score a follower is put: enough to order them, too little
# to pass anything else.
_HAIR = 1e-4


def asks_how_things_stand(question: str, attributes: Collection[str] = frozenset()) -> bool:
    """Whether ``question`` asks how things stand at the time of asking: in words that say so, or
    in the present tense of an attribute that holds one value at a time (``attributes``: those
    it asks about, recall/attributes.py), as "Where does Kenji live?" and "Who is Ravi's manager?"
    ask where he lives and who it is now. A name (what someone or something is called) is not
    asked so: a later memory of Amara's cat does not rename it."""
    if _NOW.search(question) is not None:
        return True
    changing = set(attributes) - _NOT_CHANGING
    return bool(changing) and _PRESENT.search(question) is not None and _PAST.search(question) is None


def _common_words(text: str) -> str:
    """The words of ``text`` that are not names: what it says of someone, not who or where."""
    return " ".join(w for w in _WORD.findall(text) if not w[:1].isupper())


def _shares(
    words: str, later: list[str], terms: Mapping[str, frozenset[str]], stats: TermStats
) -> dict[str, float]:
    """For each later memory (``terms``: its analysed words), the share of the idf weight
    (``stats``: among the candidates) of ``words`` it has."""
    weights = {t: stats.idf(t) for t in set(analyse(words))}
    total = sum(weights.values())
    if total <= 0:
        return {}
    return {m: sum(w for t, w in weights.items() if t in terms[m]) / total for m in later}


def _of_one(earlier: Whose | None, later: Whose | None) -> bool:
    """Whether a later memory is said of the one ``earlier`` is, or of no one it names ("The family
    moved to Burnage"; a sentence opening with a capital word that is no name reads as one)."""
    return later is None or earlier is None or later.owner == earlier.owner or later.owner in NO_NAMES


def _relation(whose: Whose | None) -> str:
    return whose.relation if whose is not None else ""


def _follower(
    earlier: str,
    later: list[str],
    texts: Mapping[str, str],
    terms: Mapping[str, frozenset[str]],
    stated: Mapping[str, Whose | None],
    stats: TermStats,
    min_share: float,
    attributes: Mapping[str, frozenset[str]],
    nouns: frozenset[str] = frozenset(),
) -> str | None:
    """The later memory that states most of what ``earlier`` states (then the latest: ``later``
    comes oldest first), or None when none reaches ``min_share``. A later memory speaking of an
    attribute asked about that ``earlier`` speaks of too (``attributes``: those of each memory the
    question asks about) follows it whatever words they share, before any that does not.
    ``nouns`` are the words of the attributes asked about (see :func:`_as_owners`). ``terms`` and
    ``stated`` hold each memory's analysed words and whose fact it states, read once
    a recall."""
    shares = _shares(_common_words(texts[earlier]), later, terms, stats)
    best: tuple[bool, float, int] | None = None
    chosen = None
    earlier_whose = as_owners(stated[earlier], nouns)
    asked_of_earlier = attributes.get(earlier, frozenset())
    for rank, memory_id in enumerate(later):
        share = shares.get(memory_id, 0.0)
        whose = as_owners(stated[memory_id], nouns)
        same_attribute = bool(asked_of_earlier & attributes.get(memory_id, frozenset())) and _of_one(
            earlier_whose, whose
        )
        needed = min_share / 2 if terms[memory_id] & _CHANGED else min_share
        if (share < needed and not same_attribute) or other_subject(earlier_whose, whose):
            continue
        if _relation(earlier_whose) + _relation(whose) and whose != earlier_whose:
            continue  # a relative's statement follows, and is followed by, only one of theirs
        if best is None or (same_attribute, share, rank) > best:
            best, chosen = (same_attribute, share, rank), memory_id
    return chosen


def later_first(
    scores: Mapping[str, float],
    texts: Mapping[str, str],
    occurred: Mapping[str, float],
    asked: Whose | None,
    min_share: float,
    related: Collection[str],
    top: int = 10,
    asked_attributes: frozenset[str] = frozenset(),
    names: frozenset[str] = frozenset(),
    retired: Mapping[str, float] | None = None,
) -> tuple[dict[str, float], set[str]]:
    """Scores where each of the ``top`` memories' follower ranks just above it, and the ids that
    moved. Only ``related`` memories (related to the question on their own) follow, and none about
    someone else than ``asked`` (whose fact the question asks for), nor one said only of people the
    question does not name (``names``: recall/attributes.py ``said_of_others``). A later memory
    speaking of one of ``asked_attributes`` (the attributes the question names:
    recall/attributes.py) that the earlier one speaks of too follows it. ``retired`` holds the
    beliefs a newer one replaced, which recall leaves out, with their scores: one of them that
    speaks of an attribute asked about is followed by the latest memory on it ("Ji-hoon works as a
    loan officer at KB Kookmin Bank", replaced by "Ji-hoon quit the bank", is followed by "Ji-hoon
    opened his café" for "What does Ji-hoon do for a living now?"). Only memories with a text and a
    time take part."""
    adjusted = dict(scores)
    known = [m for m in scores if m in texts and m in occurred]
    gone = {m: v for m, v in (retired or {}).items() if m in texts and m in occurred and m not in scores}
    by_time = sorted(known, key=lambda m: (occurred[m], m))
    analysed = {m: analyse(texts[m]) for m in known}
    terms = {m: frozenset(words) for m, words in analysed.items()}
    stated = {m: stated_of(texts[m]) for m in [*known, *gone]}
    stats = TermStats.of(analysed.values())
    eligible = {
        m
        for m in known
        if m in related and not other_subject(asked, stated[m]) and not said_of_others(texts[m], asked, names)
    }
    nouns = owners_nouns(asked, asked_attributes)
    single = asked_attributes - {PASTIME}  # several pastimes hold at once: none follows another
    attributes = (
        {m: attributes_said_of(texts[m], asked, nouns, names) & single for m in [*known, *gone]}
        if single
        else {}
    )
    moved: set[str] = set()
    for _ in range(top):  # a chain of followers settles in at most one pass per link
        changed = False
        score = {**gone, **adjusted}
        leaders = sorted([*known, *gone], key=lambda m: (-score[m], m))[:top]
        for earlier in leaders:
            later = [m for m in by_time if occurred[m] > occurred[earlier] and m in eligible]
            if earlier in gone:  # a replaced belief leads only to the latest on the attribute asked
                later = [
                    m for m in later if attributes.get(earlier, frozenset()) & attributes.get(m, frozenset())
                ]
            follower = (
                _follower(earlier, later, texts, terms, stated, stats, min_share, attributes, nouns)
                if later
                else None
            )
            if follower is not None and adjusted[follower] <= score[earlier]:
                adjusted[follower] = score[earlier] + _HAIR
                moved.add(follower)
                changed = True
        if not changed:
            break
    return adjusted, moved


def leaning_later(
    scores: Mapping[str, float], occurred: Mapping[str, float], related: Collection[str], weight: float
) -> dict[str, float]:
    """Scores where each ``related`` memory with a time gains ``weight`` times its place among them
    in time (0 for the earliest, 1 for the latest; ties in time by id)."""
    adjusted = dict(scores)
    timed = sorted((m for m in scores if m in related and m in occurred), key=lambda m: (occurred[m], m))
    if weight <= 0 or len(timed) < 2:
        return adjusted
    for place, memory_id in enumerate(timed):
        adjusted[memory_id] += weight * place / (len(timed) - 1)
    return adjusted
