"""What a cluster of memories is about, named in its offline summary: the entities and the content
words its members share, the words rare in their scope first.

An offline summary of a topic opened with the entities two of its members share, or with nothing:
on the dev halves of the topic sets 29 of 54 semantic memories began '3 memories:' or '5 memories:'
(a sourdough starter, a pension transfer, a pottery course), others with the owner ('Chloe, User')
or a name twice ('Sam Whitfield, Sam'). The words a topic keeps coming back to name it where no
entity does ('sourdough', 'starter'; 'SIPP'; 'mould', 'landlord'), as long as the word is rare in
the scope: 'first', 'week' and 'user' are shared by two members of most topics and say nothing.
Nor does a word of spaCy's English stop list ('during', 'within', 'since'), rare as it may be in a
scope of a hundred memories.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from spacy.lang.en.stop_words import STOP_WORDS

from graphmem.consolidate.shared_keys import rarity
from graphmem.recall.keywords import analyse
from graphmem.recall.lucene import query_words
from graphmem.stemming import stem

# a word in more of its scope's memories than this share names no topic (as C1's keys tie nothing)
MAX_SHARE = 0.2
PUNCTUATION = ".,;:!?()[]\"'"  # around a written word
STOP_STEMS = frozenset(stem(word) for word in STOP_WORDS)  # spaCy's English stop list, stemmed


@dataclass(frozen=True)
class ScopeWords:
    """How many memories of each scope hold each content word (stemmed), among the memories read;
    the owner's names (``owner``: 'user') are never a topic's word."""

    held: Mapping[tuple[str, str], int]  # (scope, stem) -> memories holding it
    size: Mapping[str, int]  # scope -> memories read
    owner: frozenset[str] = frozenset()

    @classmethod
    def of(cls, texts: Mapping[str, str], scopes: Mapping[str, str], owner: Iterable[str] = ()) -> ScopeWords:
        """The word counts of ``texts`` (id -> text), each in its scope (``scopes``: id -> scope)."""
        held: Counter[tuple[str, str]] = Counter()
        size: Counter[str] = Counter()
        for node, text in texts.items():
            scope = scopes.get(node, "")
            size[scope] += 1
            held.update((scope, word) for word in set(analyse(text)))
        return cls(held, size, frozenset(word for name in owner for word in analyse(name)))

    def rarity(self, scope: str, word: str) -> float:
        """How telling the stemmed ``word`` is in ``scope`` (0..1, 0 for the owner's names and for a
        word more than MAX_SHARE of the scope's memories hold)."""
        n = self.size.get(scope, 0)
        held = self.held.get((scope, word), 0)
        if word in self.owner or held > max(2.0, MAX_SHARE * n):
            return 0.0
        return rarity(held, n)


def topic_terms(
    texts: Sequence[str],
    entities: Sequence[Sequence[str]],
    limit: int,
    words: ScopeWords | None = None,
    scope: str = "",
) -> list[str]:
    """Up to ``limit`` names of what the memories (``texts`` and the names of the ``entities``
    each mentions) are about: the entities two or more of them mention, most shared first (a name
    whose words a longer one named already holds, 'Sam' after 'Sam Whitfield', left out), then,
    with ``words``, the content words two or more hold, by holders times rarity in ``scope``."""
    counts = Counter(name for names in entities for name in set(names))
    shared = [name for name, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0].lower())) if n >= 2]
    named = [name for name in shared if not any(o != name and _within(name, o) for o in shared)][:limit]
    if words is None or len(named) >= limit:
        return named
    holders: Counter[str] = Counter()
    for text in texts:
        holders.update(word for word in set(analyse(text)) if word not in STOP_STEMS and not word.isdigit())
    taken = {token for name in named for token in query_words(name)}
    scored = sorted(
        ((n * words.rarity(scope, key), key) for key, n in holders.items() if n >= 2),
        key=lambda sk: (-sk[0], sk[1]),
    )
    for score, key in scored:
        if score <= 0 or len(named) >= limit:
            break
        word = _spelled(key, texts)
        if word not in taken and key not in taken:
            named.append(_as_written(word, texts))
    return named


def _spelled(key: str, texts: Sequence[str]) -> str:
    """The word the texts write most often for the stem ``key`` (lower-cased)."""
    written = Counter(
        word for text in texts if key in analyse(text) for word in query_words(text) if stem(word) == key
    )
    return written.most_common(1)[0][0] if written else key


def _as_written(word: str, texts: Sequence[str]) -> str:
    """``word`` (lower-cased) as the texts write it: lower-case if they ever do ('Dashboard went
    live' and 'the sales dashboard'), else as written most often ('SIPP', 'Lyon')."""
    written = Counter(
        token
        for text in texts
        for token in (piece.strip(PUNCTUATION) for piece in text.split())
        if token.lower() == word
    )
    if not written or word in written:
        return word
    return written.most_common(1)[0][0]


def _within(name: str, other: str) -> bool:
    """Whether every word of ``name`` is a word of ``other`` ('Sam' of 'Sam Whitfield')."""
    inner = set(query_words(name))
    return bool(inner) and inner <= set(query_words(other))
