"""Centring the candidates' cosines (recall/hubs.py) and the least telling weight of a query's
keywords (recall/keywords.py)."""

from __future__ import annotations

import pytest

from graphmem.recall.hubs import centred
from graphmem.recall.keywords import keyword_shares
from graphmem.recall.ranking import Evidence


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
