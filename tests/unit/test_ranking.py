"""Recall ranking: relevance decides, bounded signals only break near-ties (recall/ranking.py)."""

from __future__ import annotations

import itertools

import pytest

from graphmem.recall.ranking import (
    CLEAR_MARGIN,
    Evidence,
    Link,
    RankWeights,
    about_someone_else,
    dynamics_bonus,
    ordered,
    relevance,
    spread,
)

W = RankWeights()


def test_a_clearly_better_match_is_never_outranked_by_entity_spread_or_dynamics() -> None:
    # b is clearly less relevant than a; give b every bounded advantage and a every handicap.
    for a_rel, factor_a, factor_b in itertools.product([0.3, 0.55, 0.8], [0.0, 0.5, 1.0], [1.0, 1.5, 9.0]):
        b_rel = a_rel - CLEAR_MARGIN
        scores, _ = spread({"a": a_rel, "b": b_rel, "seed": 0.95}, [Link("seed", "b", "MENTIONS")], W)
        final_a = scores["a"] + dynamics_bonus(factor_a, W)
        final_b = scores["b"] + dynamics_bonus(factor_b, W)
        assert final_a > final_b


def test_weights_that_could_overturn_a_clear_lead_are_refused() -> None:
    with pytest.raises(ValueError, match="clear margin"):
        RankWeights(dynamics_cap=0.05, entity_bonus=0.01)


def test_entity_spread_lifts_by_a_bounded_amount_not_to_the_seed() -> None:
    scores, via = spread({"hit": 0.7, "other": 0.4}, [Link("hit", "other", "MENTIONS")], W)
    assert scores["other"] == pytest.approx(0.4 + W.entity_bonus)
    assert via == {"other": {"MENTIONS"}}


def test_episode_context_adds_missing_evidence_below_its_seed() -> None:
    scores, _ = spread({"hit": 0.7}, [Link("hit", "next", "NEXT")], W)
    assert scores["next"] == pytest.approx(0.7 * W.context_share)
    assert scores["next"] < scores["hit"]
    # a neighbour that was found with a higher score of its own keeps it
    scores, _ = spread({"hit": 0.7, "next": 0.69}, [Link("hit", "next", "NEXT")], W)
    assert scores["next"] == pytest.approx(0.69)


def test_keyword_evidence_ignores_words_every_candidate_shares() -> None:
    from graphmem.recall.keywords import keyword_shares

    texts = {
        "city": "Priya lives in Bengaluru.",
        "job": "Priya works as a product manager at Flipkart.",
        "pet": "Priya has a beagle named Mango.",
    }
    shares = keyword_shares("Where does Priya work now?", texts)
    assert max(shares, key=lambda m: shares[m]) == "job"
    assert shares["city"] < 0.1 and shares["pet"] < 0.1
    assert relevance(Evidence(cosine=0.5, keyword=1.0), W) == pytest.approx(0.5 + W.keyword)
    assert keyword_shares("the of and", texts) == {"city": 0.0, "job": 0.0, "pet": 0.0}


def test_order_is_by_score_then_id() -> None:
    assert ordered({"b": 0.5, "a": 0.5, "c": 0.9}) == ["c", "a", "b"]


def test_a_replaced_belief_ranks_below_the_one_that_replaced_it() -> None:
    from graphmem.recall.ranking import beliefs_in_order

    scores = beliefs_in_order(
        {"aws": 0.98, "azure": 0.84, "gcp": 0.9, "other": 0.95}, [("azure", "aws"), ("gcp", "azure")]
    )
    assert ordered(scores)[:1] == ["other"]
    assert scores["gcp"] > scores["azure"] > scores["aws"]


def test_an_entity_every_candidate_mentions_lifts_nothing() -> None:
    scores, via = spread({"hit": 0.7, "other": 0.4}, [Link("hit", "other", "MENTIONS", weight=0.0)], W)
    assert scores["other"] == pytest.approx(0.4)
    assert via == {}


def test_the_belief_that_replaced_a_match_takes_its_score() -> None:
    # "Where does Ingrid live?" matches the replaced "Ingrid lives in Bergen" best; the belief
    # that replaced it ("Ingrid moved to Tromsø") answers it now.
    base = {"bergen": 0.8, "tromso": 0.55, "nurse": 0.7}
    scores, via = spread(base, [Link("bergen", "tromso", "SUPERSEDES")], W, replaced=frozenset({"bergen"}))
    assert scores["tromso"] == pytest.approx(0.8)
    assert via["tromso"] == {"REPLACES"}
    # without the replacement, a belief-chain neighbour stays below its seed
    scores, _ = spread(base, [Link("bergen", "tromso", "SUPERSEDES")], W)
    assert scores["tromso"] < 0.8


def test_a_memory_about_someone_else_loses_the_words_it_matches_with_the_penalty() -> None:
    # "works" matched in "Rohan's brother Kabir works at a bank" is said of the brother
    brother = Evidence(cosine=0.7, keyword=0.4)
    kept = relevance(brother, W) - about_someone_else(brother, W)
    assert kept == pytest.approx(0.7 - W.other_subject)
    assert about_someone_else(Evidence(cosine=0.7), W) == W.other_subject  # no words: the penalty alone


def test_one_shared_word_does_not_make_an_unrelated_memory_an_answer() -> None:
    # "Where does Samuel work now?": the answer shares no word; an unrelated memory shares "work"
    answer = Evidence(cosine=0.6)
    unrelated = Evidence(cosine=0.1, keyword=0.4)
    related = Evidence(cosine=0.4, keyword=0.4)
    assert relevance(answer, W) > relevance(unrelated, W)
    assert relevance(related, W) == pytest.approx(0.4 + W.keyword * 0.4)  # related: every word counts
