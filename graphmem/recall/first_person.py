"""A user's memories in the first person, read as said of the person a question names.

A user tells an assistant about themselves in the first person ("I moved back to Busan", "My
older sister Jiwoo is a dentist", "I'm vegan, have been for six years") and about the people
around them by name; a question names the person ("Where does Hana live now?", "Would Lucía eat
a cheeseburger?"). The sentence vectors of such a question are carried by the name, which the
first-person memory does not have: "Where does Marta live?" and "I live in Södermalm" have a
MiniLM cosine of 0.34, and "Marta live in Södermalm" 0.80. Whose-fact readings
(recall/whose.py) see no one in "I ..." and no relative in "My colleague Soyeon ...".

When a question asks about a person (their own fact or a relative's) whom the memories do not
call someone else's ("my sister Jiwoo", "her roommate Camila", "Yui and I"), that person is read
as the speaker of the first-person memories: each is rewritten with the name in place of the
pronouns ("Hana moved back to Busan", "Hana's colleague Soyeon just moved to Busan"), and a
note that leaves its subject out ("Started a new job today: design lead at Klarna", "Runs a
bakery in Lyon") with the name before it, since the one who leaves the subject out is the one
speaking (:func:`subjectless`, read from spaCy's parse). Recall reads whose fact it states from the
rewritten text, and its cosine to the question is the better
of the original's and the rewritten one's. A memory quoting a speaker ("Caroline: I went to a
support group") says who speaks and is left as it is.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from graphmem.language import tag_all
from graphmem.recall.attributes import names_in
from graphmem.recall.keywords import keyword_shares
from graphmem.recall.ranking import Evidence
from graphmem.recall.relatives import as_relatives, introduced
from graphmem.recall.whose import Whose

# The pronouns of the speaker, and what each becomes with a name in its place (case-insensitive
# but for "I", which is a pronoun only as a capital).
_PRONOUN = re.compile(
    r"\b(?:I'm|I am|I've|I'd|I'll|I|[Mm]y|[Mm]ine|[Mm]yself|[Mm]e|[Ww]e're|[Ww]e've|[Ww]e'll|[Ww]e"
    r"|[Oo]ur|[Uu]s)\b"
)
_AS = {"i'm": "{} is", "i am": "{} is", "i've": "{} has", "i'd": "{} would", "i'll": "{} will"}
_AS |= {"we're": "{} is", "we've": "{} has", "we'll": "{} will"}
_AS |= {"my": "{}'s", "mine": "{}'s", "our": "{}'s", "myself": "{}", "me": "{}", "us": "{}", "we": "{}"}
# After the name, the speaker is "they": the name said once, as a third-person memory says it
# ("Since I work from home now I don't commute" -> "Since Lucía works from home now they don't
# commute"); the name said again in every clause made a memory closer to any question naming them.
_THEN = {"i'm": "they're", "i am": "they are", "i've": "they've", "i'd": "they'd", "i'll": "they'll"}
_THEN |= {"we're": "they're", "we've": "they've", "we'll": "they'll", "we": "they", "i": "they"}
_THEN |= {"my": "their", "mine": "theirs", "our": "their", "myself": "themselves", "me": "them", "us": "them"}
_GREETING = re.compile(r"^\s*(?:hi|hello|hey)\b[\s,!.]*", re.IGNORECASE)
# "Caroline: ...", "User: ...", "Dr. Mensah: ...": a speaker is named in a word or three, not in
# a clause ("Started a new job today: design lead at Klarna")
_QUOTED = re.compile(r"^\s*[\w.'-]{1,20}(?:\s[\w.'-]{1,20}){0,2}:\s")


def _phrases(name: str) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """How memories introduce ``name`` as the speaker, and as someone else of someone's."""
    n = re.escape(name)
    introduced = re.compile(rf"\b(?:I'm|I am|my name is|call me|this is)\s+{n}\b", re.IGNORECASE)
    someone_elses = re.compile(
        rf"(?:\b(?:my|our|his|her|their)|'s)\s+(?:[\w-]+\s+){{1,2}}?{n}\b"  # "my older sister Jiwoo"
        rf"|\b{n}\s+and\s+(?:I|me)\b|\b(?:I|me)\s+and\s+{n}\b|\bwith\s+{n}\b"  # "Yui and I"
        rf"|\b(?:in|to|from|near|around|outside)\s+{n}\b",  # a place: "moved to Paris"
        re.IGNORECASE,
    )
    return introduced, someone_elses


# A clause's subjects in spaCy's dependency labels, and the tenses of a verb that states something
# done or doing ("Started", "Runs", "Moving"); the base form opens an instruction ("Keep your
# answers short"), which is no one's fact.
_SUBJECTS = frozenset({"nsubj", "nsubjpass", "csubj", "csubjpass", "expl"})
_STATING = frozenset({"VBD", "VBN", "VBG", "VBZ"})
# What may come before such a verb: "Just adopted a cat", "Got promoted", "Finally moved"
_BEFORE_VERB = frozenset({"advmod", "aux", "auxpass", "neg", "punct"})


def in_first_person(text: str) -> bool:
    """Whether ``text`` speaks in the first person without saying who speaks: in the speaker's
    pronouns, or leaving its subject out (:func:`subjectless`)."""
    if _QUOTED.match(text) is not None:
        return False
    return _PRONOUN.search(text) is not None or subjectless(text)


def subjectless(text: str) -> bool:
    """Whether ``text`` (after a greeting) opens with a clause that has no subject and whose verb
    states what was done or is ("Started a new job today: ...", "Got promoted last week", "Runs a
    bakery in Lyon"): a note in the speaker's voice. Read from spaCy's parse (cached per text); an
    instruction ("Keep your answers short") or a clause with a subject is not."""
    body = _GREETING.sub("", text, count=1)
    if not body[:1].isupper() or _QUOTED.match(body) is not None:
        return False
    sentence = next(iter(tag_all([body])[0].sents), None)
    if sentence is None:
        return False
    root = sentence.root
    if root.tag_ not in _STATING or any(child.dep_ in _SUBJECTS for child in root.children):
        return False
    return all(token.dep_ in _BEFORE_VERB for token in sentence if token.i < root.i)


def speaker(asked: Whose | None, texts: Mapping[str, str]) -> str | None:
    """The person a question asks about (``asked``, whose fact it asks for), when the first-person
    memories among ``texts`` may be theirs: some are, none names them, and no memory calls that
    person someone else's or names them beside the speaker, unless one introduces them ("Hi, I'm
    Marta"), and some memory names them. Returns the name as the memories spell it."""
    if asked is None or not asked.owner:
        return None
    voiced = [t for t in texts.values() if in_first_person(t)]
    spelled = _spelling(asked.owner, texts.values())
    if not voiced or spelled is None:
        return None
    introduced, someone_elses = _phrases(spelled)
    if any(introduced.search(t) for t in voiced):
        return spelled
    named = re.compile(rf"\b{re.escape(spelled)}\b")
    if any(named.search(t) for t in voiced) or any(someone_elses.search(t) for t in texts.values()):
        return None  # the speaker does not name themselves: "I finished Vasaloppet in 7 hours"
    return spelled


def _spelling(owner: str, texts: Iterable[str]) -> str | None:
    """``owner`` (lower-cased) as the texts write it with a capital, or None when none names it."""
    pattern = re.compile(rf"\b{re.escape(owner)}\b", re.IGNORECASE)
    for text in texts:
        found = pattern.search(text)
        if found is not None and found.group(0)[:1].isupper():
            return found.group(0)
    return None


def as_said_by(text: str, name: str) -> str:
    """``text`` with ``name`` in place of the speaker's first pronoun, and "they" for the rest:
    "My sister Jiwoo is a dentist" -> "Hana's sister Jiwoo is a dentist", "I'm vegan" -> "Lucía is
    vegan", "I moved in with my aunt" -> "Hana moved in with their aunt"; and before a note without
    a subject: "Started a new job today" -> "Hana started a new job today"."""

    body = _GREETING.sub("", text, count=1)
    if subjectless(body):
        body = f"{name} {body[:1].lower()}{body[1:]}"
    said = [False]

    def named(match: re.Match[str]) -> str:
        word = match.group(0).lower()
        if said[0]:
            return _THEN.get(word, "they")
        said[0] = True
        return _AS.get(word, "{}").format(name)

    return _PRONOUN.sub(named, body)


def voiced_by(name: str, texts: Mapping[str, str]) -> dict[str, str]:
    """The first-person memories of ``texts``, rewritten as said by ``name``."""
    return {m: as_said_by(t, name) for m, t in texts.items() if in_first_person(t)}


@dataclass(frozen=True)
class Voiced:
    """Recall's evidence and texts with the first-person memories read as said by ``name`` (None
    when no one is read as their speaker) and the memories naming someone's relative alone read
    as that relative's (recall/relatives.py), the memories whose cosine rose by it, and how to
    read more texts so (:meth:`rewrite`)."""

    evidence: dict[str, Evidence]
    texts: dict[str, str]
    name: str | None = None
    raised: frozenset[str] = frozenset()
    names_asked: frozenset[str] = frozenset()
    known: Mapping[str, tuple[Whose, str]] = field(default_factory=dict)

    def rewrite(self, texts: Mapping[str, str]) -> dict[str, str]:
        """``texts`` read as the candidates were: in the speaker's name, relatives said whose."""
        voiced = {**texts, **(voiced_by(self.name, texts) if self.name else {})}
        return {**voiced, **as_relatives(voiced, self.names_asked, self.known)}


def read_as_said(
    question: str,
    asked: Whose | None,
    evidence: Mapping[str, Evidence],
    texts: Mapping[str, str],
    query_vector: Sequence[float],
    vectors: Callable[[list[str]], list[list[float]]],
    names_asked: frozenset[str] | None = None,
) -> Voiced:
    """``evidence`` and ``texts`` with the first-person memories read as said by the person the
    ``question`` asks about (``asked``: :func:`speaker`, :func:`as_said_by`) and the memories naming
    a relative alone as that relative's (recall/relatives.py). A first-person memory's cosine to
    ``query_vector`` is the better of its own and the rewritten text's (``vectors`` embeds texts,
    one vector each), and so is a relative's when the question asks about a relative. The keyword
    shares are weighed again among the rewritten texts: the name no longer tells the one memory
    that introduces the speaker ("Hi, I'm Marta") from the rest. ``names_asked``: the question's
    names (:func:`names_in`) where the caller has them."""
    name = speaker(asked, texts)
    voiced = voiced_by(name, texts) if name is not None else {}
    names_asked = names_in(question) if names_asked is None else names_asked
    known = introduced([*texts.values(), *voiced.values()])
    named = as_relatives({**texts, **voiced}, names_asked, known)
    if not voiced and not named:
        return Voiced(dict(evidence), dict(texts))
    rewritten = {**texts, **voiced, **named}
    shares = keyword_shares(question, rewritten)
    out = {m: e._replace(keyword=shares.get(m, e.keyword)) for m, e in evidence.items()}
    closer = [*voiced, *(named if asked is not None and asked.relation else [])]
    ids = [m for m in dict.fromkeys(closer) if m in evidence]
    query = np.asarray(query_vector, dtype=np.float64)
    raised = set()
    for memory_id, row in zip(ids, vectors([rewritten[m] for m in ids]), strict=True):
        cosine = float(np.dot(query, np.asarray(row, dtype=np.float64)))
        if cosine > out[memory_id].cosine:
            out[memory_id] = out[memory_id]._replace(cosine=cosine)
            raised.add(memory_id)
    return Voiced(out, rewritten, name, frozenset(raised), names_asked, known)
