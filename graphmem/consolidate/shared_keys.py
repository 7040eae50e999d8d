"""The keys (entities, content words) memories share, weighed by rarity in their scope (used by C1).

A key ties two memories by its inverse document frequency in their scope: the rarer, the more.
A key too many memories hold (the user's own name; 'user') ties nothing.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import lru_cache

from spacy.lang.en.stop_words import STOP_WORDS

from graphmem.recall.keywords import ANALYSED_TEXTS, analyse
from graphmem.recall.lucene import query_words, tokens, word_of
from graphmem.stemming import stem
from graphmem.store.consolidation import TopicSignals


def rarity(mentions: int, n: int) -> float:
    """Inverse document frequency scaled to [0, 1]: 1 for an entity two memories share."""
    if n <= 2 or mentions < 2:
        return 1.0
    return max(0.0, math.log(n / mentions) / math.log(n))


def shared_pairs(
    keys_of: Mapping[str, Iterable[str]],
    counts: Mapping[str, int],
    scope_of: Mapping[str, str],
    nodes: Sequence[str],
    max_share: float,
    max_mentions: int,
) -> tuple[dict[tuple[str, str], float], dict[str, tuple[int, list[str]]]]:
    """Σ rarity of the keys (entities, words) each pair of ``nodes`` shares, rare keys only, and
    each such key's holders: how many memories of its scope hold it, and which of ``nodes``.

    A key's rarity is measured in its memory's scope (``counts`` from the graph, else the share
    of the scope's nodes here that hold it); a key held by more than ``max_share`` of the scope
    or by more than ``max_mentions`` memories ties nothing (the user's own name; 'user').
    """
    by_key: dict[str, list[str]] = defaultdict(list)
    size: Counter[str] = Counter()
    for node in nodes:
        scope = scope_of.get(node, "")
        size[scope] += 1
        for key in set(keys_of.get(node, ())):
            by_key[key].append(node)
    out: dict[tuple[str, str], float] = defaultdict(float)
    kept: dict[str, tuple[int, list[str]]] = {}
    for key, members in sorted(by_key.items()):
        n = size[scope_of.get(members[0], "")]
        limit = min(max_mentions, max(2, int(max_share * n)))
        held = max(counts.get(key, len(members)), len(members))
        if len(members) < 2 or held > limit:
            continue
        weight = rarity(held, n)
        kept[key] = (held, members)
        for a, b in itertools.combinations(sorted(members), 2):
            out[(a, b)] += weight
    return out, kept


def content_words(
    signals: TopicSignals, nodes: Sequence[str], owner: Iterable[str] = (), function_words: bool = True
) -> dict[str, tuple[str, ...]]:
    """Each node's stemmed content words, keyed by scope (a word is rare within one scope), without
    the names of the memories' owner (``owner``, as written: 'user') and, unless
    ``function_words``, without the words of spaCy's English stop list (see ``topic_words``)."""
    words = analyse if function_words else topic_words
    return _scope_keyed(
        signals, nodes, owner, lambda text, left_out: [w for w in set(words(text)) if w not in left_out]
    )


def function_words_of(
    signals: TopicSignals, nodes: Sequence[str], owner: Iterable[str] = ()
) -> dict[str, tuple[str, ...]]:
    """Each node's stemmed words of spaCy's English stop list that none of its content words
    (``topic_words``) stems to, keyed by scope as ``content_words`` keys them, without the names of
    the memories' owner: with ``content_words(..., function_words=False)`` the words
    ``content_words(...)`` gives, split in two."""
    return _scope_keyed(
        signals,
        nodes,
        owner,
        lambda text, left_out: set(analyse(text)).difference(topic_words(text), left_out),
    )


@lru_cache(maxsize=ANALYSED_TEXTS)
def topic_words(text: str) -> tuple[str, ...]:
    """The stemmed words of ``text`` that can tie a topic: not those of spaCy's English stop list
    ('first', 'three', 'about', 'next', 'back', 'one'), which the search's short list keeps. In a
    scope of a hundred memories such a word is as rare as a topic's own ('three' in four of them),
    and tied a stray to a pair of another thread ('Started writing three pages every morning' to a
    physio's 'three sets twice a day')."""
    return tuple(stem(w) for w in query_words(text, unique=False) if w not in STOP_WORDS)


def phrases_of(
    signals: TopicSignals, nodes: Sequence[str], owner: Iterable[str] = ()
) -> dict[str, tuple[str, ...]]:
    """Each node's phrases: two content words written side by side ('food bank', 'incremental
    refresh', 'kitchen scales'), stemmed and keyed by scope as ``content_words`` keys words,
    without the names of the memories' owner. Two memories sharing a phrase share more than its
    two words do apart: a word on its own may be another thread's ('bank', 'refresh')."""
    return _scope_keyed(
        signals,
        nodes,
        owner,
        lambda text, left_out: [f"{a} {b}" for a, b in set(phrases(text)) if not {a, b} & left_out],
    )


def _scope_keyed(
    signals: TopicSignals,
    nodes: Sequence[str],
    owner: Iterable[str],
    keys_of: Callable[[str, frozenset[str]], Iterable[str]],
) -> dict[str, tuple[str, ...]]:
    """Each node with a text, and its keys (``keys_of(text, left_out)``, ``left_out`` being the
    analysed words of the owner's names) prefixed by its scope: a key is rare within one scope."""
    left_out = frozenset(word for name in owner for word in analyse(name))
    return {
        node: tuple(f"{signals.scopes.get(node, '')}\x1f{key}" for key in keys_of(text, left_out))
        for node in nodes
        if (text := signals.texts.get(node))
    }


@lru_cache(maxsize=ANALYSED_TEXTS)
def phrases(text: str) -> tuple[tuple[str, str], ...]:
    """The stemmed pairs of adjacent tokens of ``text`` that are both content words (neither in
    spaCy's English stop list nor the search's), in order."""
    stems = [_content_stem(t) for t in tokens(text)]
    return tuple((a, b) for a, b in itertools.pairwise(stems) if a and b)


def _content_stem(token: str) -> str | None:
    """The stem of a token that is a content word, else None."""
    word = word_of(token)
    return None if word is None or word in STOP_WORDS else stem(word)
