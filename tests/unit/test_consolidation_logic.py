"""Pure parts of consolidation: density clusters, fading, merge choice, drift, TTLs, distillation."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

import numpy as np
import pytest

from bench.planted_corpus import adjusted_rand_index
from graphmem.consolidate.clustering import centroid, density_clusters, fade_factor
from graphmem.consolidate.distil import Distiller, Member, extractive, quoting, shared_entities
from graphmem.consolidate.drift import classify
from graphmem.consolidate.merge import choose
from graphmem.consolidate.settings import ConsolidationSettings
from graphmem.llm.none import NoLLM
from graphmem.llm.scripted import ScriptedLLM
from graphmem.store.consolidation import MemberRow, TopicSignals


def test_density_clusters_follow_dbscan_core_and_border_rules() -> None:
    near = 0.9
    neighbours = {
        "a": [("b", near), ("c", near)],
        "b": [("a", near), ("c", near)],
        "c": [("a", near), ("b", near), ("d", 0.7)],
        "d": [("c", 0.7)],  # border point: joins through its core neighbour c
        "x": [("y", near)],  # two points only: noise at min_samples 3
        "y": [("x", near)],
        "z": [("a", 0.5)],  # farther than eps 0.35 from everything
    }
    clusters = density_clusters(neighbours, eps=0.35, min_samples=3)
    assert [sorted(c.members) for c in clusters] == [["a", "b", "c", "d"]]


def test_density_clusters_are_deterministic() -> None:
    neighbours = {str(i): [(str((i + 1) % 6), 0.8), (str((i + 5) % 6), 0.8)] for i in range(6)}
    assert density_clusters(neighbours, 0.35, 3) == density_clusters(
        dict(reversed(neighbours.items())), 0.35, 3
    )


def test_a_faded_source_loses_nothing_when_distilled_and_fades_faster_from_then_on() -> None:
    from datetime import UTC, datetime, timedelta

    from graphmem.dynamics.decay import decayed_strength

    used = datetime(2026, 1, 1, tzinfo=UTC)
    distilled = used + timedelta(days=20)
    plain = decayed_strength(1.0, used, distilled, 0)
    assert decayed_strength(1.0, used, distilled, 0, fade=0.5, faded_at=distilled) == plain
    later = distilled + timedelta(days=10)
    faded = decayed_strength(1.0, used, later, 0, fade=0.5, faded_at=distilled)
    assert faded < decayed_strength(1.0, used, later, 0)
    assert abs(faded - 1.0 / (1.0 + 0.1 * (20 + 10 / 0.5))) < 1e-12


def test_fade_factor_fades_central_members_most() -> None:
    assert fade_factor(1.0) == 0.5
    assert abs(fade_factor(0.65) - 0.64) < 1e-9
    assert fade_factor(0.9) < fade_factor(0.7)


def test_centroid_is_unit_length() -> None:
    c = centroid(np.array([[1.0, 0.0], [0.0, 1.0]]))
    assert abs(float(np.linalg.norm(c)) - 1.0) < 1e-6


def _row(i: str, text: str, confidence: float = 0.8, pinned: bool = False) -> MemberRow:
    return MemberRow(
        i,
        "/",
        text,
        np.zeros(3, dtype=np.float32),
        "active",
        [],
        0.5,
        confidence,
        1.0,
        datetime(2026, 1, 1, tzinfo=UTC),
        pinned,
        None,
        (),
    )


def test_merge_keeps_the_more_informative_text_and_never_merges_conflicts() -> None:
    short = _row("a", "I love hiking.")
    long = _row("b", "I really love hiking in the mountains.")
    assert choose(short, long, 0.9) == (long, short)  # the short one adds nothing: the long one stays
    assert (
        choose(_row("d", "I love hiking in the Alps."), _row("e", "I love hiking with my dog Rex."), 0.9)
        is None
    )
    close = _row("c", "I really love hiking!")
    pick = choose(short, close, 0.9)
    assert pick is not None and pick[0].id == "c"
    assert choose(_row("p", "Alice lives in Paris."), _row("q", "Alice lives in Berlin."), 0.93) is None
    assert choose(_row("p", "The code is 4411."), _row("q", "The code is 4412."), 0.97) is None
    pinned = _row("z", "I love hiking!", pinned=True)
    assert choose(short, pinned, 0.96) == (pinned, short)


def test_drift_verdicts() -> None:
    assert classify(None, {"work": 1.0}).drift == "first_snapshot"
    assert classify({"work": 1.0, "hobby": 1.0}, {"work": 1.05, "hobby": 1.0}).drift == "stable"
    assert classify({"work": 1.0, "hobby": 1.0}, {"work": 3.0, "hobby": 1.0}).drift == "gradual_drift"
    assert classify({"work": 1.0}, {"hobby": 1.0}).drift == "deliberate_pivot"
    verdict = classify(
        {"work": 1.0, "decision": 0.5}, {"work": 1.0, "decision": 1.0}, frozenset({"decision"})
    )
    assert verdict.drift == "deliberate_pivot" and verdict.gained == "decision"


def test_ttl_is_the_longest_of_a_memorys_categories() -> None:
    settings = ConsolidationSettings()
    assert settings.ttl_for(["hobby"]) == 60
    assert settings.ttl_for(["hobby", "health"]) == 365
    assert settings.ttl_for([]) == 90 and settings.ttl_for(["fact"]) == 90
    assert settings.shortest_ttl_days == 60


def test_extractive_distillation_keeps_the_central_member_and_shared_entities() -> None:
    members = [
        Member("1", "Ann trains for the Berlin marathon.", 0.95, ("Ann", "Berlin", "Nike")),
        Member("2", "Long runs every Sunday.", 0.7, ("Nike",)),
        Member("3", "New shoes for the marathon.", 0.6, ("Nike", "Ann")),
    ]
    assert shared_entities(members) == ["Nike", "Ann"]
    summary = extractive("semantic", members)
    # what it is about, how much, and the two most central statements: not one copied episode
    assert summary == "Nike, Ann (3 memories): Ann trains for the Berlin marathon; Long runs every Sunday."
    assert extractive("schema", members).startswith("Recurring pattern across Nike, Ann (3 memories): ")
    assert extractive("insight", members).startswith("Kept from 3 archived memories about Nike, Ann: ")


def test_an_extractive_summary_quotes_three_statements_from_six_members_within_its_length() -> None:
    members = [Member(str(i), f"Statement {i} " + "word " * 20, 1.0 - i / 10, ("Max",)) for i in range(6)]
    summary = extractive("semantic", members)
    assert summary.startswith("Max (6 memories): Statement 0 ")
    assert "Statement 1 " in summary and "Statement 2 " in summary and "Statement 3" not in summary
    assert len(summary) <= 600


def test_an_offline_summary_names_the_statements_it_quotes_for_its_vector() -> None:
    members = [Member(str(i), f"Statement {i} " + "word " * 20, 1.0 - i / 10, ("Max",)) for i in range(6)]
    text, quoted = quoting("semantic", members)
    assert text == extractive("semantic", members)
    assert [m.id for m in quoted] == ["0", "1", "2"]  # the three most central, as quoted
    result = Distiller(NoLLM()).distil("semantic", members)
    assert result.extractive and result.quoted == ("0", "1", "2")
    model = ScriptedLLM({"consolidate_semantic": [{"text": "Max is a dog."}]})
    assert Distiller(model).distil("semantic", members).quoted == ()  # a model's statement is embedded


def test_a_summary_states_what_holds_now_before_what_a_later_statement_replaced() -> None:
    members = [
        Member("1", "The thesis defence is booked for 12 November.", 0.95, ("thesis",), replaced=True),
        Member("2", "The thesis defence moved to 3 December.", 0.8, ("thesis",)),
        Member("3", "Professor Ndlovu wants the statistics redone.", 0.7, ("thesis",)),
    ]
    summary = extractive("semantic", members)
    assert summary == (
        "thesis (3 memories): The thesis defence moved to 3 December; "
        "Professor Ndlovu wants the statistics redone."
    )
    model = ScriptedLLM({"consolidate_semantic": [{"text": "The defence is on 3 December."}]})
    assert Distiller(model).distil("semantic", members).text == "The defence is on 3 December."
    lines = model.calls[0].prompt.splitlines()
    assert lines[0] == "1. The thesis defence moved to 3 December."  # the current statement first
    assert lines[2] == (
        "3. (earlier, since replaced by a later statement) The thesis defence is booked for 12 November."
    )


def test_adjusted_rand_index() -> None:
    assert adjusted_rand_index([0, 0, 1, 1], [5, 5, 7, 7]) == 1.0
    assert adjusted_rand_index([0, 0, 1, 1], [0, 1, 0, 1]) < 0.0
    assert adjusted_rand_index([-1, -1, 0, 0], [-1, -1, 3, 3]) == 1.0


def test_a_derived_memory_gives_its_slot_to_its_own_sources() -> None:
    from graphmem.recall.lineage import evidence_first

    ordered = [
        ("summary", 0.9, []),
        ("src1", 0.8, []),
        ("other", 0.7, []),
        ("src2", 0.6, []),
        ("more", 0.5, []),
    ]
    lineage = {"summary": {"src1", "src2"}}
    picked = evidence_first(ordered, lineage, 3)
    assert [m for m, _, _ in picked] == ["src1", "other", "src2"]
    assert picked[0][2] == ["summarised as summary"]
    alone = evidence_first([("summary", 0.9, []), ("other", 0.7, [])], {"summary": {"src9"}}, 2)
    assert [m for m, _, _ in alone] == ["summary", "other"]  # no source returned: it stands in


def test_a_derived_memory_vouches_for_its_faded_sources() -> None:
    from graphmem.recall.lineage import evidence_first, vouched

    ordered = [("summary", 0.9, []), ("other", 0.8, []), ("faded", 0.5, []), ("more", 0.4, [])]
    lineage = {"summary": {"faded"}}
    picked = evidence_first(vouched(ordered, lineage), lineage, 2)
    assert [m for m, _, _ in picked] == ["faded", "other"]


def test_an_extractive_summary_steps_aside_for_a_source_among_the_candidates() -> None:
    from graphmem.recall.lineage import evidence_first, vouched

    ordered = [("copy", 0.9, []), ("other", 0.8, []), ("more", 0.7, []), ("source", 0.3, [])]
    lineage = {"copy": {"source"}}
    picked = evidence_first(vouched(ordered, lineage), lineage, 2, frozenset({"copy"}))
    assert [m for m, _, _ in picked] == ["source", "other"]
    assert picked[0][2] == ["summarised as copy"]
    distilled = evidence_first(vouched(ordered, lineage), lineage, 1)
    assert [m for m, _, _ in distilled] == ["copy"]  # a distilled summary stands in for its sources


def test_a_derived_memory_lifts_only_its_best_matching_source() -> None:
    from graphmem.recall.lineage import vouched

    ordered = [("summary", 0.9, []), ("other", 0.8, []), ("best", 0.5, []), ("second", 0.45, [])]
    lifted = vouched(ordered, {"summary": {"best", "second"}})
    assert [m for m, _, _ in lifted] == ["summary", "best", "other", "second"]


def test_episodes_on_different_days_never_merge() -> None:
    from dataclasses import replace
    from datetime import timedelta

    monday = _row("a", "I went running in the park.")
    friday = replace(
        _row("b", "I went running in the park!"), occurred_at=monday.occurred_at + timedelta(days=4)
    )
    assert choose(monday, friday, 0.99) is None
    assert choose(replace(monday, layer="semantic"), replace(friday, layer="semantic"), 0.99) is not None


def test_faded_sources_lose_strength_faster_from_then_on() -> None:
    from datetime import timedelta

    from graphmem.dynamics.decay import decayed_strength

    t0 = datetime(2026, 1, 1, tzinfo=UTC)
    later = t0 + timedelta(days=30)
    assert decayed_strength(1.0, t0, t0, 0, fade=0.5) == 1.0  # nothing changes at once
    assert decayed_strength(1.0, t0, later, 0, fade=0.5) < decayed_strength(1.0, t0, later, 0)
    assert decayed_strength(1.0, t0, later, 0, fade=0.5, pinned=True) == 1.0


def test_topics_come_from_rare_shared_entities_not_from_common_ones_or_from_time_alone() -> None:
    from graphmem.consolidate.topic_weights import TopicWeights
    from graphmem.consolidate.topics import topic_clusters
    from graphmem.store.consolidation import TopicSignals

    dog, boat, noise = ["d1", "d2", "d3", "d4"], ["b1", "b2", "b3", "b4"], ["n1", "n2"]
    everyone = dog + boat + noise
    # weak vector ties everywhere (what real episodes of one topic look like)
    neighbours = {a: [(b, 0.2) for b in everyone if b != a] for a in everyone}
    entities = {m: ("user",) for m in everyone}
    entities.update({m: ("user", "pepper") for m in dog})
    entities.update({m: ("user", "kittiwake") for m in boat})
    signals = TopicSignals(
        occurred={m: 0.0 for m in everyone},  # all at one moment: time alone must not tie them
        entities=entities,
        mentions={"user": len(everyone), "pepper": 4, "kittiwake": 4},
        follows=[],
    )
    # equal cosines rank the nearest arbitrarily: no nearest bonus here, entities weighed up
    weights = TopicWeights(neighbours=10, near=0.0, entity=1.0, entity_max_share=0.5)
    found = sorted(c.members for c in topic_clusters(neighbours, {}, signals, weights, 3))
    assert found == [tuple(boat), tuple(dog)]
    without_entities = TopicWeights(neighbours=10, near=0.0, entity=0.0, entity_max_share=0.5)
    assert topic_clusters(neighbours, {}, signals, without_entities, 3) == []


def test_topics_come_from_rare_shared_words_when_no_entity_was_extracted() -> None:
    from graphmem.consolidate.topic_weights import TopicWeights
    from graphmem.consolidate.topics import topic_clusters

    texts = {
        "k1": "User started a pottery course on Tuesday evenings.",
        "k2": "Centering the clay on the pottery wheel is the hardest part.",
        "k3": "Glazed two pottery bowls; the clay cracked in one.",
        "r1": "User's kitchen renovation begins in April.",
        "r2": "Builders found old pipes behind the kitchen wall.",
        "r3": "The kitchen tiles finally arrived.",
        "n1": "User prefers window seats on trains.",
        "n2": "User is allergic to latex.",
    }
    # no vector ties at all, nobody among anybody's nearest (k = 0): words alone, weighed up
    neighbours = {a: [(b, 0.2) for b in texts if b != a] for a in texts}
    signals = _text_signals(texts)
    weights = TopicWeights(neighbours=0, words=0.5, floor=0.1, entity_max_share=0.4)
    found = sorted(c.members for c in topic_clusters(neighbours, {}, signals, weights, 3))
    assert found == [("k1", "k2", "k3"), ("r1", "r2", "r3")]  # 'user' is in too many to tie anything
    without_words = TopicWeights(neighbours=0, words=0.0, floor=0.1, entity_max_share=0.4)
    assert topic_clusters(neighbours, {}, signals, without_words, 3) == []


def test_decay_pass_counts_from_the_last_use_and_is_the_same_all_day() -> None:
    from graphmem.consolidate.decay import day_start, strength_on
    from graphmem.store.decay import StrengthFacts

    now = datetime(2026, 6, 1, 17, 30, tzinfo=UTC)
    imported = StrengthFacts("a", 1.0, now - timedelta(hours=5), 0, False, 1.0, None, None)
    assert strength_on(imported, day_start(now)) == 1.0  # entered the graph today: not faded yet
    unused = replace(imported, used=now - timedelta(days=90))
    assert strength_on(unused, day_start(now)) == strength_on(unused, day_start(now + timedelta(hours=6)))
    assert 0.1 < strength_on(unused, day_start(now)) < 0.11  # 89.3 days to the start of the day
    assert strength_on(replace(unused, pinned=True), day_start(now)) == 1.0


def test_time_apart_counts_in_the_scope_s_memories_not_in_days() -> None:
    from graphmem.consolidate.pair_signals import topic_similarities
    from graphmem.consolidate.topic_weights import TopicWeights
    from graphmem.store.consolidation import TopicSignals

    def boost_of_first_and_last(days_between: float) -> float:
        ids = [f"m{i}" for i in range(14)]  # 14 memories, the first and the last 13 steps apart
        vectors = {m: np.eye(16, dtype=np.float32)[i] for i, m in enumerate(ids)}
        neighbours = {m: [(o, 0.0) for o in ids if o != m] for m in ids}
        signals = TopicSignals(
            {m: i * days_between * 86400.0 for i, m in enumerate(ids)}, {}, {}, [], {}, {m: "/u" for m in ids}
        )
        weights = TopicWeights(neighbours=13)
        nodes, pairs = topic_similarities(neighbours, vectors, signals, weights)
        ends = [nodes.index("m0"), nodes.index("m13")]
        row = next(k for k, p in enumerate(pairs.pairs.tolist()) if p == ends)
        return float(pairs.boost[row])

    # a memory a day and a memory every four days: the ends are 13 memories apart either way
    assert boost_of_first_and_last(1.0) == pytest.approx(1.0 + 0.27 * np.exp(-1.0))
    assert boost_of_first_and_last(4.0) == pytest.approx(boost_of_first_and_last(1.0))


def test_a_topic_whose_members_share_their_ties_is_found_whole_and_strays_stay_out() -> None:
    from graphmem.consolidate.topic_weights import TopicWeights
    from graphmem.consolidate.topics import topic_clusters
    from graphmem.store.consolidation import TopicSignals

    # Six episodes of one topic: each of the first three is tied to each of the last three (the
    # walks and the vet share words, the walks do not with each other), nothing else. Two strays,
    # each tied to one member and to each other, bring none of the topic's other ties along.
    walks, vet, strays = ["w1", "w2", "w3"], ["v1", "v2", "v3"], ["s1", "s2"]
    everyone = walks + vet + strays
    tied = {frozenset((a, b)) for a in walks for b in vet}
    tied |= {frozenset(("w1", "s1")), frozenset(("v1", "s2")), frozenset(("s1", "s2"))}
    neighbours = {
        a: sorted(
            ((b, 0.5 if frozenset((a, b)) in tied else 0.05) for b in everyone if b != a), key=lambda p: -p[1]
        )
        for a in everyone
    }
    signals = TopicSignals(occurred={m: 0.0 for m in everyone}, entities={}, mentions={}, follows=[])
    # vectors only here (no text, no entity): the check for a tie beyond the vectors is off
    both_views = TopicWeights(neighbours=10, near=0.0, specific=False)
    one_view = replace(both_views, shared_resolution=0.0)
    alone = [set(c.members) for c in topic_clusters(neighbours, {}, signals, one_view, 3)]
    assert set(walks + vet) not in alone  # the whole topic is not dense enough for the first view
    found = [c.members for c in topic_clusters(neighbours, {}, signals, both_views, 3)]
    assert found == [tuple(sorted(walks + vet))]


def test_shared_ties_are_high_inside_a_group_and_low_across_a_lone_bridge() -> None:
    from graphmem.consolidate.consensus import shared_ties

    # two triangles (0, 1, 2) and (3, 4, 5) joined by the one tie 2-3
    pairs = np.asarray([[0, 1], [0, 2], [1, 2], [3, 4], [3, 5], [4, 5], [2, 3], [0, 5]], dtype=np.int64)
    sim = np.asarray([0.8, 0.8, 0.8, 0.8, 0.8, 0.8, 0.8, 0.1])
    overlap = shared_ties(6, pairs, sim, 0.5)
    # each memory counts among its own ties: 0 has {0, 1, 2}, 2 has {0, 1, 2, 3}, 3 has {2, 3, 4, 5}
    assert overlap[0] == 1.0  # 0 and 1 are tied to exactly the same
    assert overlap[1] == pytest.approx(3 / 4)  # 0 and 2: 2 has the bridge besides
    assert overlap[6] == pytest.approx(2 / 6)  # the bridge 2-3 brings none of the others along
    assert overlap[7] == 0.0  # 0 and 5, weakly tied, share no strong tie


def test_memories_phrased_alike_that_share_nothing_else_are_no_topic() -> None:
    from graphmem.consolidate.topic_weights import TopicWeights
    from graphmem.consolidate.topics import topic_clusters

    texts = {
        "p1": "User dislikes coriander.",
        "p2": "User is allergic to wasp stings.",
        "p3": "User is vegetarian on weekdays.",
        "k1": "User started a pottery course on Tuesday evenings.",
        "k2": "Centering the clay on the pottery wheel is the hardest part.",
        "k3": "Glazed two bowls; the clay cracked in one.",
    }
    # the same close vectors within each trio: only the pottery trio shares words ('pottery', 'clay')
    neighbours = {
        a: sorted(((b, 0.75 if a[0] == b[0] else 0.05) for b in texts if b != a), key=lambda p: -p[1])
        for a in texts
    }
    signals = _text_signals(texts)
    found = [c.members for c in topic_clusters(neighbours, {}, signals, TopicWeights(), 3)]
    assert found == [("k1", "k2", "k3")]
    by_vectors = TopicWeights(specific=False)
    assert ("p1", "p2", "p3") in [c.members for c in topic_clusters(neighbours, {}, signals, by_vectors, 3)]


def test_two_threads_one_friend_joins_split_where_the_runs_kept_them_apart() -> None:
    import igraph as ig

    from graphmem.consolidate.consensus import SplitRule, separated

    # the running club (0-3) and the reading circle (4-7), each tied within; Tom, in both, ties
    # 0-4 and 1-5; 8 is tied to the club alone. Every pair is a candidate with its share of runs.
    club, circle = [0, 1, 2, 3], [4, 5, 6, 7]
    within = [(a, b) for g in (club, circle) for i, a in enumerate(g) for b in g[i + 1 :]]
    across = [(0, 4), (1, 5)]
    edges = within + across + [(8, 0), (8, 1)]
    graph = ig.Graph(n=9, edges=edges, edge_attrs={"weight": [0.5] * len(edges)})
    pairs = [(a, b) for a in range(9) for b in range(a + 1, 9)]

    first = {*club, 8}

    def runs(across_vote: float) -> ig.Graph:
        vote = [1.0 if (a in first) == (b in first) else across_vote for a, b in pairs]
        return ig.Graph(n=9, edges=pairs, edge_attrs={"vote": vote})

    everyone = list(range(9))

    def rule(modularity: float = 0.15, min_size: int = 3, cosine_across: float = 0.1) -> SplitRule:
        return SplitRule(modularity, min_size, 0.5, 0.3, lambda parts: cosine_across)

    assert separated(graph, runs(0.2), everyone, rule()) == [[0, 1, 2, 3, 8], [4, 5, 6, 7]]
    assert separated(graph, runs(0.8), everyone, rule()) == [everyone]  # the runs agreed: one topic
    assert separated(graph, runs(0.2), everyone, rule(min_size=5)) == [everyone]  # parts too small
    # the parts are about one thing by their vectors (a topic told in paraphrases)
    assert separated(graph, runs(0.2), everyone, rule(cosine_across=0.45)) == [everyone]
    assert separated(graph, runs(0.2), everyone, rule(modularity=0.0)) == [everyone]  # off


def test_two_episodes_of_another_thread_are_split_off_a_topic_and_left_out() -> None:
    import igraph as ig

    from graphmem.consolidate.consensus import SplitRule, separated

    # a car thread (0-3), each tied within; two episodes of a dog thread (4, 5) tied to each other
    # and, by one pair, to the car ('insured'). Every pair is a candidate with its share of runs.
    car, dog = [0, 1, 2, 3], [4, 5]
    within = [(a, b) for i, a in enumerate(car) for b in car[i + 1 :]] + [(4, 5)]
    edges = [*within, (3, 4)]
    graph = ig.Graph(n=6, edges=edges, edge_attrs={"weight": [0.5] * len(within) + [0.3]})
    pairs = [(a, b) for a in range(6) for b in range(a + 1, 6)]

    def runs(across_vote: float) -> ig.Graph:
        vote = [1.0 if (a in car) == (b in car) else across_vote for a, b in pairs]
        return ig.Graph(n=6, edges=pairs, edge_attrs={"vote": vote})

    everyone = list(range(6))

    def rule(least_part: int, cosine_across: float = 0.1) -> SplitRule:
        return SplitRule(0.1, 3, 0.5, 0.3, lambda parts: cosine_across, least_part)

    # the pair comes apart from the topic, for the caller to leave out (below min_size)
    assert separated(graph, runs(0.2), everyone, rule(2)) == [car, dog]
    assert separated(graph, runs(0.2), everyone, rule(0)) == [everyone]  # parts of min_size only
    assert separated(graph, runs(0.8), everyone, rule(2)) == [everyone]  # the runs held them together
    assert separated(graph, runs(0.2), everyone, rule(2, cosine_across=0.45)) == [everyone]  # one thing


def test_a_key_many_memories_share_does_not_make_profile_facts_a_topic() -> None:
    from graphmem.consolidate.topic_weights import TopicWeights
    from graphmem.consolidate.topics import topic_clusters
    from graphmem.store.consolidation import TopicSignals

    # 40 memories; 'user' is in 7 (under the share that would make it tie nothing): three profile
    # facts close by vector, four others. The pottery trio shares a key only it holds.
    facts, pottery = ["p1", "p2", "p3"], ["k1", "k2", "k3"]
    others = [f"x{i:02d}" for i in range(34)]
    everyone = facts + pottery + others
    close = {frozenset((a, b)) for g in (facts, pottery) for a in g for b in g if a != b}
    neighbours = {
        a: sorted(
            ((b, 0.75 if frozenset((a, b)) in close else 0.05) for b in everyone if b != a),
            key=lambda p: -p[1],
        )
        for a in everyone
    }
    entities = {m: ("user",) for m in facts + others[:4]}
    entities.update({m: ("pottery",) for m in pottery})
    signals = TopicSignals(
        occurred={m: 0.0 for m in everyone},
        entities=entities,
        mentions={"user": 7, "pottery": 3},
        follows=[],
    )
    found = [c.members for c in topic_clusters(neighbours, {}, signals, TopicWeights(), 3)]
    assert found == [tuple(pottery)]
    any_key = TopicWeights(specific_share=0.0)
    assert tuple(facts) in [c.members for c in topic_clusters(neighbours, {}, signals, any_key, 3)]


def test_times_read_as_epoch_numbers_are_the_instants_the_driver_gives() -> None:
    from graphmem.store.records import epoch_seconds, utc_instant

    for at in (
        datetime(2026, 1, 1, tzinfo=UTC),
        datetime(2026, 3, 29, 1, 59, 59, 999_999, tzinfo=UTC),
        datetime(1969, 12, 31, 23, 59, 59, 1, tzinfo=UTC),
        datetime(2031, 7, 4, 12, 0, 0, 123_456, tzinfo=UTC),
    ):
        # Cypher's epochSeconds (floored, as Java's Instant)
        seconds = int((at - datetime(1970, 1, 1, tzinfo=UTC)) // timedelta(seconds=1))
        assert epoch_seconds(seconds, at.microsecond) == at.timestamp()
        assert utc_instant(seconds, at.microsecond) == at
    assert epoch_seconds(None, None) is None and utc_instant(None, None) is None


def test_a_word_of_no_topic_ties_nothing_where_function_words_are_left_out() -> None:
    from graphmem.consolidate.shared_keys import topic_words
    from graphmem.consolidate.topic_weights import TopicWeights
    from graphmem.consolidate.topics import topic_clusters

    texts = {
        "k1": "User started a pottery course on Tuesday evenings.",
        "k2": "Centering the clay on the pottery wheel is the hardest part.",
        "k3": "Glazed two pottery bowls; the clay cracked in one.",
        "t1": "Writing three pages every morning before checking my phone.",
        "t2": "The physio gave me three sets of band exercises.",
        "t3": "Bought a three-pack of mesh nodes for the landing.",
        "n1": "User prefers window seats on trains.",
        "n2": "User is allergic to latex.",
    }
    assert "three" not in topic_words(texts["t1"]) and "page" in topic_words(texts["t1"])
    neighbours = {a: [(b, 0.2) for b in texts if b != a] for a in texts}
    signals = _text_signals(texts)
    weights = TopicWeights(
        neighbours=0,
        words=0.5,
        floor=0.1,
        entity_max_share=0.4,
        leftover_agreement=0.0,
        function_word_weight=1.0,
    )
    with_them = sorted(c.members for c in topic_clusters(neighbours, {}, signals, weights, 3))
    assert ("t1", "t2", "t3") in with_them  # 'three' is as rare here as 'pottery'
    without = replace(weights, function_words=False)
    assert sorted(c.members for c in topic_clusters(neighbours, {}, signals, without, 3)) == [
        ("k1", "k2", "k3")
    ]


def test_a_word_of_the_stop_list_ties_a_pair_at_a_share_of_a_content_words_weight() -> None:
    from graphmem.consolidate.pair_signals import topic_similarities
    from graphmem.consolidate.topic_weights import TopicWeights

    texts = {
        "k1": "User started a pottery course on Tuesday evenings.",
        "k2": "Glazed two pottery bowls; they cracked in the kiln.",
        "t1": "Writing three pages every morning before checking my phone.",
        "t2": "The physio gave me three sets of band exercises.",
        **{f"n{i}": f"Filler memory number {i} about nothing in particular." for i in range(6)},
    }
    signals = _text_signals(texts)
    neighbours = {a: [(b, 0.2) for b in texts if b != a] for a in texts}

    def word_ties(share: float) -> dict[frozenset[str], float]:
        w = TopicWeights(neighbours=0, words=0.5, time=0.0, function_word_weight=share)
        nodes, pairs = topic_similarities(neighbours, {}, signals, w)
        return {
            frozenset((nodes[a], nodes[b])): float(c)
            for (a, b), c in zip(pairs.pairs.tolist(), pairs.content, strict=True)
        }

    full, half = word_ties(1.0), word_ties(0.5)
    pottery, three = frozenset(("k1", "k2")), frozenset(("t1", "t2"))
    assert full[three] == full[pottery] > 0  # 'three' and 'pottery' are equally rare here
    assert half[pottery] == full[pottery]
    assert half[three] == 0.5 * full[three]


def test_a_memorys_words_split_into_content_words_and_stop_list_words() -> None:
    from graphmem.consolidate.shared_keys import content_words, function_words_of
    from graphmem.store.consolidation import TopicSignals

    texts = {"a": "User wrote three pages before her first lesson.", "b": "Her pages were about the lesson."}
    signals = TopicSignals(
        occurred={}, entities={}, mentions={}, follows=[], texts=texts, scopes={"a": "/u", "b": "/u"}
    )
    every = content_words(signals, list(texts), ("User",))
    plain = content_words(signals, list(texts), ("User",), function_words=False)
    function = function_words_of(signals, list(texts), ("User",))
    for node in texts:
        assert set(plain[node]) | set(function[node]) == set(every[node])
        assert not set(plain[node]) & set(function[node])
    words = {key.split("\x1f")[1] for key in function["a"]}
    assert {"three", "her", "first"} <= words and "page" not in words and "user" not in words


def _text_signals(texts: dict[str, str]) -> TopicSignals:
    """Signals of memories known by their texts alone: one moment, one scope, no entity."""
    return TopicSignals(
        occurred={m: 0.0 for m in texts},
        entities={},
        mentions={},
        follows=[],
        texts=texts,
        scopes={m: "/user/a" for m in texts},
    )
