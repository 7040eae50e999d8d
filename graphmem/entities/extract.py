"""W6: finding the entities a text mentions, offline (capitalisation, spaCy's tagger and a small
lexicon) or with an LLM.

The offline extractor reads proper-noun spans: runs of capitalised words ("Melanie", "New York",
"Bank of America"), names written with inner capitals ("PostgreSQL", "iPhone"), known product
names in any case ("postgres", "mysql"), and the speaker of the text. It skips pronouns, days and
months, and words capitalised only because they open a sentence ("Yesterday", "We", "Let's"). Of
a sentence's first word, capitalisation says nothing: spaCy's small English tagger (the parse the
belief check makes of the same text, shared through its cache) tells a common word there
("Tiles finally arrived", "Black mould", "Bought tickets", "Transfers of the other two") from a
name ("Priya picked", "Luna keeps"). Only its positive evidence counts: a plural noun, an
adjective, a verb or an adverb, and no named entity there by spaCy's NER. A singular noun is
what the tagger also says of a name it has never seen ("Siobhán teaches": NN, as "Kitchen is
finished"), so a singular noun keeps its capital. A run of capitals that the NER reads as a number
or level beside a name ("B1 French") is the name alone, and a name the parse ties to a role
("User's nephew Sam") is marked ``introduced`` (see graphmem.entities.resolve). spaCy reads the
texts the belief check reads, statements of at most MAX_ATOMIC_WORDS words, whose parse the write
path has often made already (its read-ahead parses a batch's statements in one pipe); a longer
text (a conversation chunk, a document) is read by its capitals alone, as the parse of a
160-character text costs about 6-9 ms of CPU, more than the rest of its extraction a hundredfold.
"""

from __future__ import annotations

import contextlib
import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from pydantic import BaseModel, Field
from pydantic.json_schema import SkipJsonSchema

from graphmem.beliefs.restore import parse_docs, tag_docs
from graphmem.beliefs.statements import MAX_ATOMIC_WORDS
from graphmem.entities.lexicon import (
    COMMON_OPENERS,
    EVERYDAY_WORDS,
    GENERIC_ACRONYMS,
    KNOWN_PRODUCTS,
    NAME_CONNECTORS,
    PERSON_TITLES,
    PRODUCT_ALIASES,
    PRONOUNS,
    TIME_WORDS,
    TITLES,
)
from graphmem.entities.names import entity_key
from graphmem.errors import LLMError, RuntimeSetupError
from graphmem.language import named, tag_all
from graphmem.llm.base import LLM, Usage

log = logging.getLogger(__name__)

_SPEAKER_PREFIX = re.compile(r"^\s*([A-Z][\w.'-]{0,40}(?: [A-Z][\w.'-]{0,40})?)\s*:\s+")
# A word: letters of any alphabet and digits ("Amélie", "Tromsø", "Škoda"), joined by . & or -.
_TOKEN = re.compile(
    r"[^\W_]+(?:[.&-][^\W_]+)*(?:\+\+|#)?(?:['\u2019](?:s|m|re|ve|ll|d|t)\b|(?<=s)['\u2019](?!\w))?"
)
_POSSESSIVE = re.compile(r"(?:['\u2019]s|(?<=s)['\u2019])$")
_SENTENCE_BREAK = frozenset('.!?:;"(\u201c')
_VERB_LIKE_SUFFIXES = ("ly", "ing", "ed")  # without a parse: how a sentence's first word reads as a verb
# Penn tags of a word the tagger reads as common, whatever its capital: plural nouns, adjectives,
# verbs, adverbs (a singular noun is left out: it is the tagger's guess for an unseen name too)
_COMMON_TAGS = frozenset(
    {"NNS", "JJ", "JJR", "JJS", "VB", "VBD", "VBG", "VBN", "VBP", "VBZ", "RB", "RBR", "RBS"}
)
# spaCy's NER labels of what names nothing: numbers, amounts, dates
_NOT_NAMES = frozenset({"CARDINAL", "ORDINAL", "QUANTITY", "MONEY", "PERCENT", "DATE", "TIME"})
TECHNOLOGY = "technology"
PERSON = "person"


class EntityMention(BaseModel):
    """An entity a text mentions, as written there (or in its canonical spelling when known)."""

    name: str = Field(min_length=1, description="the entity's name as written, without possessive 's")
    kind: str | None = Field(
        default=None,
        description="person, organization, place, product, technology, project, event or other; "
        "null when unsure",
    )
    # Set by the offline extractor, never asked of a model (left out of the JSON schema).
    introduced: SkipJsonSchema[bool] = Field(
        default=False,
        exclude=True,
        description="the text presents the name by a role ('my nephew Sam', 'a tutor named Amélie', "
        "'Sam Whitfield, the user's teammate'): it resolves by its own name only, never as the short "
        "form of a longer known one",
    )


@dataclass(frozen=True)
class _Token:
    """One word of the text with what capitalisation says about it."""

    text: str
    bare: str
    start: int
    end: int
    sentence_start: bool

    @property
    def lower(self) -> str:
        return self.bare.lower()

    @property
    def capitalised(self) -> bool:
        return self.bare[:1].isupper()

    @property
    def inner_capitals(self) -> bool:
        """Shaped like a product name: 'PostgreSQL', 'iPhone', 'macOS' (not 'USA', not 'Alice')."""
        rest = self.bare[1:]
        return any(c.isupper() for c in rest) and any(c.islower() for c in self.bare)

    @property
    def possessive(self) -> bool:
        return self.bare != self.text


def _tokens(body: str) -> list[_Token]:
    found: list[_Token] = []
    for m in _TOKEN.finditer(body):
        before = body[: m.start()].rstrip()
        starts = not before or before[-1] in _SENTENCE_BREAK
        if starts and before.endswith(".") and found and found[-1].lower in TITLES:
            starts = False  # "Dr. Smith": the full stop belongs to the title
        text = m.group(0)
        bare = _POSSESSIVE.sub("", text)
        found.append(_Token(text, bare or text, m.start(), m.end(), starts))
    return found


def _known_product(token: _Token) -> str | None:
    canonical = PRODUCT_ALIASES.get(token.lower) or KNOWN_PRODUCTS.get(token.lower)
    if canonical is None or (token.lower in EVERYDAY_WORDS and not token.capitalised):
        return None
    return canonical


def _namey(token: _Token) -> bool:
    """Could this word be part of a name, judging by its shape alone?"""
    if token.lower in PRONOUNS or token.lower in TIME_WORDS or token.bare.isdigit():
        return False
    return token.capitalised or token.inner_capitals


def _joined(body: str, left: _Token, right: _Token) -> bool:
    """Whether two words are one name's parts: only spaces between them ('Dr.' may keep its stop)."""
    gap = body[left.end : right.start]
    if left.possessive:
        return False
    return gap == " " or (left.lower in TITLES and gap in (". ", "."))


def _spans(body: str, tokens: list[_Token]) -> list[list[_Token]]:
    """Runs of name-shaped words, allowing 'of', 'van'... between two of them."""
    spans: list[list[_Token]] = []
    current: list[_Token] = []
    i = 0
    while i < len(tokens):
        token = tokens[i]
        if _namey(token) and (not current or _joined(body, current[-1], token)):
            current.append(token)
        elif (
            current
            and token.lower in NAME_CONNECTORS
            and i + 1 < len(tokens)
            and _namey(tokens[i + 1])
            and _joined(body, current[-1], token)
            and _joined(body, token, tokens[i + 1])
        ):
            current += [token, tokens[i + 1]]
            i += 1
        else:
            if current:
                spans.append(current)
            current = [token] if _namey(token) else []
        i += 1
    if current:
        spans.append(current)
    return spans


class _Parse:
    """What spaCy read in a text: each word's Penn tag (by character offset), the proper nouns the
    text presents by a role, and, asked for only when needed (spaCy's entity recogniser, half a
    parse's cost, runs then), each word's NER tag (IOB and label)."""

    def __init__(self, doc: Any, *, ahead: bool = False) -> None:
        self._doc = doc
        self._ahead = ahead  # reading ahead: the first ask for entities raises _NamesWanted
        self._tags = {t.idx: t.tag_ for t in doc}
        self._entities: dict[int, tuple[str, str]] | None = None
        self.introduced = frozenset(t.idx for t in doc if t.pos_ == "PROPN" and _presented_by_a_role(t))

    @property
    def entities(self) -> dict[int, tuple[str, str]]:
        """Each word's NER tag (IOB and label), by character offset."""
        if self._entities is None:
            if self._ahead:
                raise _NamesWanted
            self._entities = {t.idx: (t.ent_iob_, t.ent_type_) for t in named(self._doc)}
        return self._entities

    def common(self, offset: int) -> bool:
        """Whether the word at ``offset`` is one the tagger reads as common and the NER names nothing."""
        return self._tags.get(offset) in _COMMON_TAGS and not self.entities[offset][1]


class _NamesWanted(Exception):
    """Reading ahead: the extraction of a text asked for its NER tags."""


def _parse(body: str, ahead: bool = False) -> _Parse | None:
    """spaCy's reading of ``body`` (see the module's doc); None when spaCy cannot be loaded."""
    try:
        doc = tag_all([body])[0]
    except RuntimeSetupError as e:
        log.warning("entity extraction reads capitals without spaCy: %s", e)
        return None
    return _Parse(doc, ahead=ahead)


def _presented_by_a_role(token: Any) -> bool:
    """Whether spaCy's parse ties a proper noun to a common noun that says who it is: in apposition
    ('the teacher, Marguerite'; 'Sam Whitfield, the user's teammate'), as a compound ('nephew Sam')
    or named by it ('a tutor named Amélie')."""
    head = token.head
    if token.dep_ == "appos" and head.pos_ == "NOUN":
        return True
    if any(c.dep_ in ("compound", "appos") and c.pos_ == "NOUN" for c in token.children):
        return True
    return token.dep_ == "oprd" and head.lemma_ in ("name", "call") and head.head.pos_ == "NOUN"


def _split_at_entities(span: list[_Token], parse: _Parse | None) -> list[list[_Token]]:
    """A run of capitalised words that spaCy's NER reads, word for word, as entities one after
    another of which one is a number, an amount or a date, is its other pieces ('B1 French': a
    level, then a language). Other runs stay whole: NER's cuts between two names are often wrong
    ('British English' as two nationalities), and 'Mr Patel' (NER leaves out the title),
    'Natural History Museum' or 'DELF B1' are one entity each."""
    if parse is None or len(span) < 2:
        return [span]
    tags = [parse.entities.get(t.start, ("O", "")) for t in span]
    if any(iob not in ("B", "I") for iob, _ in tags) or sum(iob == "B" for iob, _ in tags) < 2:
        return [span]
    pieces: list[tuple[list[_Token], str]] = []
    for token, (iob, label) in zip(span, tags, strict=True):
        if iob == "B" or not pieces:
            pieces.append(([], label))
        pieces[-1][0].append(token)
    if all(label not in _NOT_NAMES for _, label in pieces):
        return [span]
    return [piece for piece, label in pieces if label not in _NOT_NAMES]


def _trim_opener(
    span: list[_Token],
    capitalised_elsewhere: set[str],
    lower_elsewhere: set[str],
    parse: _Parse | None,
) -> list[_Token]:
    """Drop a first word that is capitalised only because it opens the sentence (``parse``: whether
    the tagger reads it as common; None: judge by the word's ending)."""
    first = span[0]
    if not first.sentence_start or _known_product(first) or first.inner_capitals:
        return span
    if first.lower in COMMON_OPENERS or first.lower in lower_elsewhere:
        return span[1:]
    if first.lower in capitalised_elsewhere:
        return span
    if parse is not None:
        return span[1:] if parse.common(first.start) else span
    verb_like = first.lower.endswith(_VERB_LIKE_SUFFIXES)
    return [] if len(span) == 1 and verb_like else span


def _mention(span: list[_Token], body: str, parse: _Parse | None = None) -> EntityMention | None:
    while span and span[-1].lower in NAME_CONNECTORS:
        span = span[:-1]
    if not span:
        return None
    if len(span) == 1:
        token = span[0]
        product = _known_product(token)
        if product is not None:
            return EntityMention(name=product, kind=TECHNOLOGY)
        if token.lower in GENERIC_ACRONYMS or len(token.bare) < 2:
            return None
        return EntityMention(
            name=token.bare,
            kind=TECHNOLOGY if token.inner_capitals else None,
            introduced=_introduced(span, parse),
        )
    name = body[span[0].start : span[-1].start] + span[-1].bare
    kind = PERSON if span[0].lower in PERSON_TITLES else None
    return EntityMention(name=" ".join(name.split()), kind=kind, introduced=_introduced(span, parse))


def _introduced(span: list[_Token], parse: _Parse | None) -> bool:
    return parse is not None and any(t.start in parse.introduced for t in span)


def speaker_prefix(text: str) -> tuple[str | None, str]:
    """The 'Name:' a transcript line opens with (None when there is none), and the rest of the line."""
    match = _SPEAKER_PREFIX.match(text)
    if match is None:
        return None, text
    return match.group(1), text[match.end() :]


def extract_entities(text: str, speaker: str | None = None) -> list[EntityMention]:
    """The entities ``text`` mentions, speaker first, each once (by :func:`entity_key`). Raises nothing."""
    return _extract(text, speaker)


def _extract(text: str, speaker: str | None = None, ahead: bool = False) -> list[EntityMention]:
    """:func:`extract_entities`; ``ahead``: raise _NamesWanted where the NER tags are first read."""
    prefixed, body = speaker_prefix(text)
    found = [EntityMention(name=s.strip(), kind=PERSON) for s in (speaker, prefixed) if s]
    tokens = _tokens(body)
    capitalised_elsewhere = {t.lower for t in tokens if t.capitalised and not t.sentence_start}
    lower_elsewhere = {t.lower for t in tokens if not t.capitalised and not t.inner_capitals}
    spans = _spans(body, tokens)
    parse = _parse(body, ahead) if spans and len(tokens) <= MAX_ATOMIC_WORDS else None
    for piece in (p for span in spans for p in _split_at_entities(span, parse)):
        trimmed = _trim_opener(piece, capitalised_elsewhere, lower_elsewhere, parse)
        mention = _mention(trimmed, body, parse) if trimmed else None
        if mention is not None:
            found.append(mention)
    for token in tokens:
        product = _known_product(token)
        if product is not None and not _namey(token):
            found.append(EntityMention(name=product, kind=TECHNOLOGY))
    return unique_mentions(found)


def unique_mentions(mentions: Sequence[EntityMention]) -> list[EntityMention]:
    """``mentions`` without repeats of a key (the first spelling wins; a known kind fills a missing
    one, and a name the text presents by a role once is presented)."""
    by_key: dict[str, EntityMention] = {}
    for mention in mentions:
        key = entity_key(mention.name)
        if not key:
            continue
        kept = by_key.get(key)
        if kept is None:
            by_key[key] = mention
        elif (kept.kind is None and mention.kind is not None) or mention.introduced > kept.introduced:
            by_key[key] = EntityMention(
                name=kept.name,
                kind=kept.kind or mention.kind,
                introduced=kept.introduced or mention.introduced,
            )
    return list(by_key.values())


def parse_ahead(texts: Sequence[str]) -> None:
    """Parse the texts' bodies in one batch (a text costs half what it does alone), into the
    cache :func:`extract_entities` reads (and the belief check: see graphmem.language): spaCy's
    entity recogniser reads only those whose extraction asks for NER tags."""
    short = [(t, body) for t in texts if len(_tokens(body := speaker_prefix(t)[1])) <= MAX_ATOMIC_WORDS]
    with contextlib.suppress(RuntimeSetupError):  # extract_entities says so, and judges without it
        tag_docs(body for _, body in short)
        # The NER tags of the texts whose extraction reads them (about a third), in one batch.
        parse_docs(body for text, body in short if _wants_names(text))


@lru_cache(maxsize=4096)  # asked again of a batch's texts on the write path, after its read-ahead
def _wants_names(text: str) -> bool:
    """Whether extracting the entities of ``text`` reads its NER tags."""
    try:
        _extract(text, ahead=True)
    except _NamesWanted:
        return True
    return False


class _TextEntities(BaseModel):
    """The entities of one numbered text."""

    index: int = Field(description="the number of the text, as given")
    entities: list[EntityMention] = Field(default_factory=list)


class ExtractedEntities(BaseModel):
    """The named entities (people, organisations, places, products, projects, events) of each text."""

    texts: list[_TextEntities] = Field(default_factory=list)


SYSTEM = (
    "You find the named entities each text mentions: people, organisations, places, products, "
    "technologies, projects and events, by their proper names. Leave out pronouns, dates, days, "
    "months, and common nouns ('the team', 'my sister'). Write each name once per text, as written "
    "but without a possessive 's. When a text has a speaker, the speaker is an entity too."
)
DEFAULT_TEXTS_PER_CALL = 25


def _prompt(texts: Sequence[str], speakers: Sequence[str | None], offset: int) -> str:
    lines = []
    for i, (text, speaker) in enumerate(zip(texts, speakers, strict=True)):
        who = f" (speaker: {speaker})" if speaker else ""
        lines.append(f"[{offset + i}]{who} {text}")
    return "Texts:\n" + "\n".join(lines)


def _clean(mentions: Sequence[EntityMention], speaker: str | None) -> list[EntityMention]:
    kept = [EntityMention(name=speaker.strip(), kind=PERSON)] if speaker else []
    for m in mentions:
        name = " ".join(m.name.split())
        if name and name.lower() not in PRONOUNS and name.lower() not in TIME_WORDS:
            kept.append(EntityMention(name=name, kind=(m.kind or None) and m.kind.lower()))
    return unique_mentions(kept)


class EntityExtractor:
    """Finds the entities of a batch of texts: one LLM call per ``texts_per_call`` texts, offline otherwise.

    Without a model, or when a call fails (LLMError), the offline extractor answers for the texts
    that call covered; a text the model's answer leaves out gets the offline answer too.
    """

    def __init__(self, llm: LLM, *, texts_per_call: int = DEFAULT_TEXTS_PER_CALL) -> None:
        self._llm = llm
        self._texts_per_call = max(1, texts_per_call)

    def extract_batch(
        self, texts: Sequence[str], speakers: Sequence[str | None] | None = None
    ) -> tuple[list[list[EntityMention]], Usage]:
        """The entities of each text, in input order, and what the model calls cost. Raises nothing."""
        who: list[str | None] = list(speakers) if speakers is not None else [None] * len(texts)
        if len(who) != len(texts):
            raise ValueError("give one speaker (or None) per text")
        if not self._llm.available:
            parse_ahead(texts)
            return [extract_entities(t, s) for t, s in zip(texts, who, strict=True)], Usage()
        results: list[list[EntityMention]] = []
        usage = Usage()
        for start in range(0, len(texts), self._texts_per_call):
            chunk = list(texts[start : start + self._texts_per_call])
            chunk_who = who[start : start + self._texts_per_call]
            found, spent = self._ask(chunk, chunk_who, start)
            results += found
            usage += spent
        return results, usage

    def _ask(
        self, texts: list[str], speakers: list[str | None], offset: int
    ) -> tuple[list[list[EntityMention]], Usage]:
        parse_ahead(texts)
        offline = [extract_entities(t, s) for t, s in zip(texts, speakers, strict=True)]
        try:
            reply = self._llm.structured(
                task="entities",
                system=SYSTEM,
                prompt=_prompt(texts, speakers, offset),
                output=ExtractedEntities,
                max_tokens=2048,
            )
        except LLMError as e:
            log.warning("entity extraction falls back to the offline extractor: %s", e)
            return offline, Usage(calls=1)
        answered = {item.index - offset: item.entities for item in reply.value.texts}
        found = [_clean(answered[i], speakers[i]) if i in answered else offline[i] for i in range(len(texts))]
        return found, reply.usage
