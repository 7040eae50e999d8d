"""W6: deciding which mentions name the same entity within one scope.

A mention resolves, in this order, to an entity of the scope (stored or met earlier in the batch)
with the same key (:func:`~graphmem.entities.names.entity_key`); one whose key is nearly the same
spelling (rapidfuzz ``token_sort_ratio`` >= 90: typos, reordered words); one it is a short form of
("Mel" for "Melanie", "Alice" for "Alice Smith"), only for people and unknown kinds and only when
exactly one entity fits; or one whose name embedding is close (cosine >= 0.9). Otherwise it is a
new entity. Longer names are resolved first so that they, not their short forms, become canonical.

A name the text presents by a role ("User's nephew Sam", "a tutor named Amélie": the mention's
``introduced``) is someone being introduced, so it is never taken for the short form of a longer
known name: "Sam Whitfield, the user's teammate" and "the user's nephew Sam" are two people, and
"Sam" written alone afterwards names whichever has that very name. Two people known by the same
bare first name stay one entity (no offline reading tells them apart in a text that says only
"Sam").
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray
from rapidfuzz import fuzz

from graphmem.entities.extract import PERSON, EntityMention
from graphmem.entities.names import entity_key

_ALIAS_KINDS = frozenset({None, PERSON})
MAX_ALIAS_TOKENS = 3


@dataclass(frozen=True)
class ResolveSettings:
    """Thresholds of entity resolution."""

    fuzzy_ratio: float = 90.0
    min_alias_chars: int = 3
    embedding_cosine: float = 0.9


@dataclass
class KnownEntity:
    """An entity mentions may resolve to: stored in the scope, or created earlier in the batch."""

    key: str
    name: str
    kind: str | None
    embedding: NDArray[np.float32] | None = None
    id: str | None = None
    adopt: bool = False
    """True for an entity graphiti made, which has no scope and key until graphmem links to it."""


@dataclass(frozen=True)
class Resolution:
    """The entity a mention names, and which signal said so (``exact``, ``fuzzy``, ``alias``,
    ``embedding``, or ``new``)."""

    mention: EntityMention
    key: str
    name: str
    kind: str | None
    reason: str
    entity: KnownEntity | None = None
    """The stored entity the mention resolved to (None for a new one or one new in this batch)."""

    @property
    def new(self) -> bool:
        """Whether the mention starts a new entity."""
        return self.reason == "new"


def _alias_of(short: str, long: str) -> bool:
    """'mel' is a short form of 'melanie'; 'alice' of 'alice smith'; 'new york' of 'new york city'."""
    short_tokens, long_tokens = short.split(), long.split()
    if len(long_tokens) > MAX_ALIAS_TOKENS or len(short_tokens) > len(long_tokens) or short == long:
        return False
    if len(short_tokens) == 1 and len(long_tokens) == 1:
        return long.startswith(short)
    return long_tokens[: len(short_tokens)] == short_tokens


_AMBIGUOUS = KnownEntity(key="", name="", kind=None)
"""Returned by a signal that fits several entities equally well: the mention gets an entity of its own."""


@dataclass
class _Pool:
    """The entities of one scope known so far, growing as the batch creates new ones."""

    settings: ResolveSettings
    entities: list[KnownEntity] = field(default_factory=list)
    _by_key: dict[str, KnownEntity] = field(default_factory=dict, init=False, repr=False)

    def __post_init__(self) -> None:
        for entity in self.entities:
            self._by_key.setdefault(entity.key, entity)

    def add(self, entity: KnownEntity) -> None:
        self.entities.append(entity)
        self._by_key.setdefault(entity.key, entity)

    def exact(self, key: str) -> KnownEntity | None:
        """The first entity with ``key`` (a look-up: a scan of every entity per mention cost ~5 %
        of a 500-item batch write)."""
        return self._by_key.get(key)

    def fuzzy(self, key: str) -> KnownEntity | None:
        scored = [(fuzz.token_sort_ratio(key, e.key), e) for e in self.entities]
        good = sorted((s for s in scored if s[0] >= self.settings.fuzzy_ratio), key=lambda s: -s[0])
        if len(good) > 1 and good[0][0] == good[1][0]:
            return _AMBIGUOUS
        return good[0][1] if good else None

    def alias(self, key: str, kind: str | None) -> KnownEntity | None:
        if kind not in _ALIAS_KINDS or len(key.replace(" ", "")) < self.settings.min_alias_chars:
            return None
        fits = [
            e
            for e in self.entities
            if e.kind in _ALIAS_KINDS and (_alias_of(key, e.key) or _alias_of(e.key, key))
        ]
        if len(fits) > 1:
            return _AMBIGUOUS
        return fits[0] if fits else None

    def embedding(self, vector: NDArray[np.float32] | None) -> KnownEntity | None:
        if vector is None:
            return None
        best: tuple[float, KnownEntity] | None = None
        for e in self.entities:
            if e.embedding is None or e.embedding.shape != vector.shape:
                continue
            cosine = float(e.embedding @ vector)
            if cosine >= self.settings.embedding_cosine and (best is None or cosine > best[0]):
                best = (cosine, e)
        return best[1] if best else None

    def match(
        self, mention: EntityMention, vector: NDArray[np.float32] | None
    ) -> tuple[str, KnownEntity | None]:
        """The first signal that finds an entity, and the entity (None when none does or it is ambiguous)."""
        key = entity_key(mention.name)
        signals: tuple[tuple[str, Callable[[], KnownEntity | None]], ...] = (
            ("exact", lambda: self.exact(key)),
            ("fuzzy", lambda: self.fuzzy(key)),
            ("alias", lambda: None if mention.introduced else self.alias(key, mention.kind)),
            ("embedding", lambda: self.embedding(vector)),
        )
        for reason, signal in signals:
            found = signal()
            if found is _AMBIGUOUS:
                return "new", None
            if found is not None:
                return reason, found
        return "new", None


def resolve_mentions(
    mentions: Sequence[EntityMention],
    embeddings: Sequence[NDArray[np.float32] | None],
    known: Sequence[KnownEntity],
    settings: ResolveSettings | None = None,
) -> list[Resolution]:
    """The entity each mention of one scope names, in input order.

    ``embeddings`` holds each mention's unit name vector (None skips the embedding signal);
    ``known`` are the scope's stored entities. Pure: nothing is read or written. Raises
    ValueError when ``embeddings`` does not match ``mentions``.
    """
    if len(embeddings) != len(mentions):
        raise ValueError("give one name embedding (or None) per mention")
    pool = _Pool(settings or ResolveSettings(), list(known))
    order = sorted(range(len(mentions)), key=lambda i: -len(entity_key(mentions[i].name)))
    resolved: dict[int, Resolution] = {}
    for i in order:
        mention, vector = mentions[i], embeddings[i]
        reason, found = pool.match(mention, vector)
        if found is None:
            key = entity_key(mention.name)
            pool.add(KnownEntity(key, mention.name, mention.kind, vector))
            resolved[i] = Resolution(mention, key, mention.name, mention.kind, "new")
            continue
        if found.kind is None and mention.kind is not None:
            found.kind = mention.kind
        stored = found if found.id is not None else None
        resolved[i] = Resolution(mention, found.key, found.name, found.kind, reason, stored)
    return [resolved[i] for i in range(len(mentions))]
