"""The topic bench's miss table: which topics no memory covers, where their episodes went, and
which memories mix topics (bench.topic_eval.misses, what ``--clusters`` prints per half)."""

from __future__ import annotations

from bench.topic_eval import misses, score

TOPIC_OF: dict[str, str | None] = {
    "d1": "dog",
    "d2": "dog",
    "d3": "dog",
    "c1": "car",
    "c2": "car",
    "c3": "car",
    "p1": "piano",
    "p2": "piano",
    "p3": "piano",
    "n1": None,
}


def test_a_topic_split_among_others_memories_is_missed_with_where_it_went() -> None:
    clusters = [["d1", "d2", "d3"], ["c1", "c2", "p1"], ["n1", "p2", "p3"]]
    found = misses(clusters, TOPIC_OF)
    assert sorted(found["missed"]) == ["car", "piano"]
    assert found["missed"]["car"] == {"episodes": 3, "in": [{"car": 2, "piano": 1}]}
    assert found["missed"]["piano"]["in"] == [{"car": 2, "piano": 1}, {"noise": 1, "piano": 2}]
    assert found["impure"] == [{"car": 2, "piano": 1}, {"noise": 1, "piano": 2}]
    # the table counts against what score counts: one topic of three covered
    assert score(clusters, TOPIC_OF)["topics_covered"] == 1


def test_a_topic_in_no_memory_is_missed_with_nowhere() -> None:
    found = misses([["d1", "d2", "d3"], ["c1", "c2", "c3"]], TOPIC_OF)
    assert found == {"missed": {"piano": {"episodes": 3, "in": []}}, "impure": []}
