"""Centring the candidates' cosines (recall/hubs.py) and the least telling weight of a query's
keywords (recall/keywords.py)."""

from __future__ import annotations

import numpy as np
import pytest

from graphmem.recall.hubs import centred
from graphmem.recall.keywords import keyword_shares
from graphmem.recall.ranking import Evidence
from graphmem.store.search import centrality_from_sums, centrality_of


def test_a_memory_near_all_the_others_loses_what_it_shares_with_them() -> None:
    evidence = {
        "hub": Evidence(cosine=0.70),
        "answer": Evidence(cosine=0.66, context=0.68),
        "other": Evidence(cosine=0.50),
    }
    centrality = {"hub": 0.60, "answer": 0.40, "other": 0.35}
    out = centred(evidence, centrality, 0.5)
    assert out["answer"].cosine > out["hub"].cosine
    assert out["hub"].cosine == pytest.approx(0.70 - 0.5 * (0.60 - 0.45))
    assert out["answer"].context == pytest.approx(0.68 + 0.5 * (0.45 - 0.40))
    # the candidates' mean stays where it was: the other signals keep their scale
    assert sum(e.cosine for e in out.values()) == pytest.approx(sum(e.cosine for e in evidence.values()))


def test_centring_leaves_alone_what_it_cannot_measure() -> None:
    evidence = {"a": Evidence(cosine=0.7), "b": Evidence(cosine=0.6), "neighbour": Evidence(cosine=0.5)}
    assert centred(evidence, {"a": 0.6, "b": 0.3}, 0.5)["neighbour"] == evidence["neighbour"]
    assert centred(evidence, {"a": 0.6}, 0.5) == evidence  # one candidate has no centre
    assert centred(evidence, {"a": 0.6, "b": 0.3}, 0.0) == evidence


def test_a_query_whose_only_word_every_memory_shares_matches_none_of_them_much() -> None:
    texts = {str(i): f"Ahmet {verb}." for i, verb in enumerate(["swims", "cooks", "sings", "drives"])}
    texts["x"] = "The tea house opened in Moda."
    shares = keyword_shares("What does Ahmet do for a living now?", texts)
    assert max(shares.values()) < 0.5  # the name alone tells little of which memory answers
    telling = keyword_shares("Where does Ahmet swim?", texts)  # a telling word still counts
    assert telling["0"] > 2 * max(shares.values())


def test_centrality_from_what_the_graph_sums_is_the_mean_cosine_to_the_others() -> None:
    rng = np.random.default_rng(5)
    vectors = rng.normal(size=(6, 16))
    vectors[:4] /= np.linalg.norm(vectors[:4], axis=1, keepdims=True)  # unit, and two that are not
    vectors[5] = 0.0  # a memory stored without a real embedding
    ids = [f"m{i}" for i in range(6)]
    total = vectors.sum(axis=0)
    norms = np.linalg.norm(vectors, axis=1)
    # what Neo4j's vector.similarity.cosine / .euclidean give: (1 + cos) / 2 (None for a zero
    # vector), 1 / (1 + d^2)
    to_total = [
        None if n == 0 else float((1 + v @ total / (n * np.linalg.norm(total))) / 2)
        for v, n in zip(vectors, norms, strict=True)
    ]
    from_origin = [float(1 / (1 + n * n)) for n in norms]
    got = centrality_from_sums(ids, to_total, from_origin, float(1 / (1 + total @ total)))
    expected = centrality_of(ids, vectors)
    assert got == pytest.approx(expected, abs=1e-12)
    assert got["m5"] == 0.0
    assert centrality_from_sums(ids[:1], to_total[:1], from_origin[:1], from_origin[0]) == {}
    assert centrality_from_sums([], [], [], None) == {}
