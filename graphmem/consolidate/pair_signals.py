"""The candidate pairs of C1's similarity graph and what ties each (cosine, nearness by rank, shared
rare entities, words and phrases, NEXT, time), as docs/topics.md sets out:

    similarity = (cosine + near · nearness + entity · Σ rarity(shared entity)
                  + words · Σ rarity(shared word) + phrases · Σ rarity(shared phrase) + next · NEXT)
                 · (1 + time · exp(-|Δt| · rate / time_memories))
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np
from numpy.typing import NDArray

from graphmem.consolidate.closeness import DAY, daily_rate, pair_cosines
from graphmem.consolidate.priced import both_priced
from graphmem.consolidate.shared_keys import content_words, function_words_of, phrases_of, shared_pairs
from graphmem.consolidate.topic_weights import TopicWeights
from graphmem.store.consolidation import Neighbours, TopicSignals


@dataclass(frozen=True)
class PairSignals:
    """The candidate pairs (node indices, ``i < j``) and what ties each: a pair's similarity is
    ``(content + near · nearest) · boost`` (content: cosine, entities, words, NEXT; boost: time)."""

    pairs: NDArray[np.int64]  # shape (m, 2)
    content: NDArray[np.float64]
    nearest: NDArray[np.float64]  # how near by rank: 1 - rank / k on each side (nearest: 1), halved
    boost: NDArray[np.float64]
    # each shared key's holders: how many memories of its scope hold it, and which nodes here (a
    # NEXT pair counts as a key its two memories alone hold)
    holders: tuple[tuple[int, frozenset[int]], ...] = ()

    @cached_property
    def keys_of(self) -> dict[int, list[int]]:
        """Node -> the keys (positions in ``holders``) it holds."""
        out: dict[int, list[int]] = defaultdict(list)
        for key, (_, nodes) in enumerate(self.holders):
            for node in nodes:
                out[node].append(key)
        return out

    def keyed(self, members: Sequence[int]) -> list[int]:
        """``members`` that share a key (a rare entity or word, or NEXT) with another of them."""
        inside = Counter(key for node in members for key in self.keys_of.get(node, ()))
        return [v for v in members if any(inside[key] >= 2 for key in self.keys_of.get(v, ()))]

    def story(self, members: Sequence[int], share: float) -> bool:
        """Whether ``members`` share a key (a rare entity or word, or NEXT) mostly their own: held
        by two of them at least, and by them for at least ``share`` of its holders."""
        inside = Counter(key for node in members for key in self.keys_of.get(node, ()))
        return any(n >= max(2.0, share * self.holders[key][0]) for key, n in inside.items())

    def similarity(self, near: float) -> NDArray[np.float64]:
        """Each pair's similarity with a nearest-neighbour bonus of ``near``."""
        out: NDArray[np.float64] = (self.content + near * self.nearest) * self.boost
        return out


def topic_similarities(
    neighbours: Neighbours,
    vectors: Mapping[str, NDArray[np.float32]],
    signals: TopicSignals,
    w: TopicWeights,
) -> tuple[list[str], PairSignals]:
    """Node ids in a stable order (occurrence, text, id), and the signals of each candidate pair.

    The order is the memories' own, not their random ids', so Leiden (whose result depends on the
    order it visits nodes in) gives the same topics for the same memories in every graph.
    """
    ids = set(neighbours) | {b for found in neighbours.values() for b, _ in found}
    nodes = sorted(ids, key=lambda m: (signals.occurred.get(m, 0.0), signals.texts.get(m, ""), m))
    index = {m: i for i, m in enumerate(nodes)}
    n = len(nodes)
    near_codes, near_cosine, near_closeness = [], [], []  # by rank, not by cosine
    for a, found in neighbours.items():
        nearest = [(b, c) for b, c in found if b != a][: w.neighbours]
        for rank, (b, near) in enumerate(nearest):
            near_codes.append(_code(index[a], index[b], n))
            near_cosine.append(near)
            near_closeness.append((1.0 - rank / len(nearest)) / 2.0)
    shared, entity_holders = shared_pairs(
        signals.entities, signals.mentions, signals.scopes, nodes, w.entity_max_share, w.entity_max_mentions
    )
    worded, word_holders = _shared_words(signals, nodes, w)
    follows = {(a, b) if a < b else (b, a) for a, b in signals.follows if a in index and b in index}
    # each pair as one integer (low · n + high): sorted codes are the pairs in (low, high) order
    nearby = np.asarray(near_codes, dtype=np.int64)
    tied, tie = _coded(shared, index, n)
    worded_codes, word_tie = _coded(worded, index, n)
    next_codes = np.asarray(sorted(_code(index[a], index[b], n) for a, b in follows), dtype=np.int64)
    codes = np.unique(np.concatenate([nearby, tied, worded_codes, next_codes]))
    m = len(codes)
    low, high = codes // max(n, 1), codes % max(n, 1)
    cos = np.full(m, -np.inf)
    np.maximum.at(cos, np.searchsorted(codes, nearby), np.asarray(near_cosine, dtype=np.float64))
    missing = np.isneginf(cos)
    cos[missing] = pair_cosines(nodes, vectors, low[missing], high[missing])
    if w.priced:  # a shared price pattern is no topic (graphmem.consolidate.priced)
        cos -= w.priced * both_priced(signals.texts, nodes, low, high)
    closeness = np.zeros(m)
    np.add.at(closeness, np.searchsorted(codes, nearby), np.asarray(near_closeness, dtype=np.float64))
    content = cos + w.entity * _spread(codes, tied, tie)
    content += w.words * _spread(codes, worded_codes, word_tie)
    content += w.next * np.isin(codes, next_codes).astype(np.float64)
    occurred = np.asarray([signals.occurred.get(node, 0.0) for node in nodes], dtype=np.float64)
    apart = np.abs(occurred[low] - occurred[high]) / DAY
    if w.time_memories:
        # the scope rate of the pair's memory with the smaller id (two scopes may share an entity)
        by_id = np.empty(n, dtype=np.int64)
        by_id[np.asarray(sorted(range(n), key=nodes.__getitem__), dtype=np.int64)] = np.arange(n)
        first = np.where(by_id[low] < by_id[high], low, high)
        apart = apart * daily_rate(nodes, occurred, signals.scopes)[first]
        boost = 1.0 + w.time * np.exp(-apart / w.time_memories)
    else:
        boost = 1.0 + w.time * np.exp(-apart / w.time_days)  # time sharpens a tie, never makes one
    return nodes, PairSignals(
        np.stack([low, high], axis=1).reshape(-1, 2),
        content,
        closeness,
        boost,
        tuple(
            (held, frozenset(index[m] for m in members))
            for _, (held, members) in sorted({**entity_holders, **word_holders}.items())
        )
        + tuple((2, frozenset((index[a], index[b]))) for a, b in sorted(follows)),
    )


def _shared_words(
    signals: TopicSignals, nodes: Sequence[str], w: TopicWeights
) -> tuple[dict[tuple[str, str], float], dict[str, tuple[int, list[str]]]]:
    """Σ rarity of the content words each pair shares (a word of the stop list at
    ``w.function_word_weight`` of its rarity, where ``w.function_words`` counts them at all; a
    shared phrase at ``w.phrases / w.words`` of its rarity, so that it adds ``w.phrases`` once
    weighed by ``w.words``), and each word's and phrase's holders (see ``shared_pairs``)."""
    if not w.words:
        return {}, {}
    plain = content_words(signals, nodes, w.owner, function_words=False)
    worded, holders = shared_pairs(plain, {}, signals.scopes, nodes, w.entity_max_share, w.words_max_mentions)
    out = defaultdict(float, worded)
    if w.phrases:
        paired = phrases_of(signals, nodes, w.owner)
        tied, phrase_holders = shared_pairs(
            paired, {}, signals.scopes, nodes, w.entity_max_share, w.words_max_mentions
        )
        for pair, weight in tied.items():
            out[pair] += w.phrases / w.words * weight
        holders = {**holders, **phrase_holders}
    if not w.function_words or not w.function_word_weight:
        return dict(out), holders
    function = function_words_of(signals, nodes, w.owner)
    tied, function_holders = shared_pairs(
        function, {}, signals.scopes, nodes, w.entity_max_share, w.words_max_mentions
    )
    for pair, weight in tied.items():
        out[pair] += w.function_word_weight * weight
    return dict(out), {**holders, **function_holders}


def _code(i: int, j: int, n: int) -> int:
    """The pair of node indices ``i``, ``j`` as one integer, ordered."""
    return min(i, j) * n + max(i, j)


def _coded(
    weights: Mapping[tuple[str, str], float], index: Mapping[str, int], n: int
) -> tuple[NDArray[np.int64], NDArray[np.float64]]:
    """Pairs of node ids with a weight as sorted pair codes and their weights."""
    codes = np.fromiter((_code(index[a], index[b], n) for a, b in weights), np.int64, len(weights))
    values = np.fromiter(weights.values(), np.float64, len(weights))
    order = np.argsort(codes)
    return codes[order], values[order]


def _spread(
    codes: NDArray[np.int64], some: NDArray[np.int64], values: NDArray[np.float64]
) -> NDArray[np.float64]:
    """``values`` (of the sorted codes ``some``, a subset of ``codes``) at their places in ``codes``,
    else 0."""
    out = np.zeros(len(codes))
    out[np.searchsorted(codes, some)] = values
    return out
