"""C1 reads two content words written side by side as a phrase: two memories sharing 'food bank'
share more than two memories that each say 'food' or 'bank' apart."""

from __future__ import annotations

from graphmem.consolidate.pair_signals import topic_similarities
from graphmem.consolidate.shared_keys import phrases, phrases_of
from graphmem.consolidate.topic_weights import TopicWeights
from graphmem.store.consolidation import TopicSignals


def test_a_phrase_is_two_content_words_side_by_side_stemmed() -> None:
    found = phrases("Signed up to volunteer at the Trussell food bank on Saturday mornings.")
    assert ("food", "bank") in found
    assert ("saturday", "morn") in found  # stemmed as the fulltext analyser stems
    # a stop word between two words breaks the phrase
    assert ("volunt", "trussel") not in phrases("I volunteer at the Trussell food bank.")


def test_the_owners_name_is_in_no_phrase_and_phrases_are_keyed_by_scope() -> None:
    texts = {"a": "User prefers green tea.", "b": "Green tea again at work."}
    signals = TopicSignals(
        occurred={}, entities={}, mentions={}, follows=[], texts=texts, scopes={"a": "/u/1", "b": "/u/2"}
    )
    found = phrases_of(signals, list(texts), ("User",))
    assert set(found["a"]) == {"/u/1\x1fprefer green", "/u/1\x1fgreen tea"}  # not 'user prefer'
    assert "/u/2\x1fgreen tea" in found["b"]


def _content_of_pairs(texts: dict[str, str], weights: TopicWeights) -> dict[frozenset[str], float]:
    signals = TopicSignals(
        occurred=dict.fromkeys(texts, 0.0),
        entities={},
        mentions={},
        follows=[],
        texts=texts,
        scopes=dict.fromkeys(texts, "/u"),
    )
    neighbours = {a: [(b, 0.2) for b in texts if b != a] for a in texts}
    nodes, pairs = topic_similarities(neighbours, {}, signals, weights)
    return {
        frozenset((nodes[a], nodes[b])): float(c)
        for (a, b), c in zip(pairs.pairs.tolist(), pairs.content, strict=True)
    }


def test_a_shared_phrase_ties_a_pair_more_than_its_words_apart() -> None:
    texts = {
        "p1": "Signed up at the food bank for Saturdays.",
        "p2": "Record week at the food bank: 212 parcels.",
        "w1": "Bought food for the party.",
        "w2": "The bank closed my old account.",
        **{f"n{i}": f"Filler memory number {i} about nothing in particular." for i in range(16)},
    }
    weights = TopicWeights(neighbours=0, words=0.1, time=0.0, function_words=False)
    without = _content_of_pairs(
        texts, TopicWeights(neighbours=0, words=0.1, time=0.0, function_words=False, phrases=0.0)
    )
    with_phrases = _content_of_pairs(texts, weights)
    phrase_pair = frozenset(("p1", "p2"))
    assert with_phrases[phrase_pair] > without[phrase_pair] > 0
    # a memory sharing one of the words only gains nothing from the phrase
    assert with_phrases[frozenset(("p1", "w1"))] == without[frozenset(("p1", "w1"))]
