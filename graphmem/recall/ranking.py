"""How recall orders what it found: relevance first, everything else within a bounded margin.

A memory's **relevance** to the query is its cosine similarity plus weighted keyword evidence
(the share of the query's telling words it matches, weighed among the candidates:
recall/keywords.py). Everything else a memory carries moves its score by small, bounded amounts
that can only break near-ties: memory dynamics (strength, importance, recency, priority: at most
``dynamics_cap`` either way) and sharing a rare entity with a strong hit (at most
``entity_bonus``). Together they stay below ``CLEAR_MARGIN``, so a memory whose relevance is
higher by ``CLEAR_MARGIN`` (a clearly better match) is never outranked through them.

Episode context (the turns next to a hit, ``NEXT``) and belief chains (``SUPERSEDES``) add
evidence that retrieval missed: such a neighbour ranks at least ``context_share`` of its seed's
score, never above the seed; a neighbour already found keeps its own score when that is higher.
The caller's intent (R3) is an explicit request and may move scores further (``intent_scale``).
Pure functions: the weights were tuned on the dev halves of bench/eval and LoCoMo together.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple

# A relevance lead of this much (cosine units) is "clearly better": the bounded signals below
# cannot overturn it (dynamics both ways plus the entity bonus stay under it).
CLEAR_MARGIN = 0.1


@dataclass(frozen=True)
class RankWeights:
    """The ranking's knobs (see the module docstring)."""

    # Chosen on the dev halves together (bench.tune_recall, LoCoMo recall@10 / users' hit@1):
    # 0.3 -> 0.510 / 0.787, 1.0 -> 0.612 / 0.787, 1.5 -> 0.641 / 0.795, 2.5 -> 0.670 / 0.795,
    # 4.0 -> 0.662 / 0.780. Keyword shares are small (a memory matching every telling word of the
    # query once scores about 0.5), so a weight above 1 lets a literal match of the telling words
    # count about as much as the cosine, which for long chat histories is the stronger signal.
    # 2.5 is not taken: one shared word ("city" in "the city hospital") then outranks the belief
    # that answers "Which city is Teodora based in these days?" by a clear lead (the pinned test in
    # tests/integration/test_ranking_and_beliefs.py).
    keyword: float = 1.5
    context_share: float = 0.85
    entity_bonus: float = 0.03
    dynamics_cap: float = 0.03
    intent_scale: float = 0.25
    sub_query_share: float = 0.9
    replaced_share: float = 1.0  # how much of a replaced belief's score the belief replacing it takes
    # A telling word in a memory's episode neighbours (recall/episode_context.py) counts at this
    # share of one in the memory itself. Dev halves (simulated LoCoMo recall@10 with the context
    # vector): 0.3 -> 0.692, 0.5 -> 0.697, 0.7 -> 0.699; half is taken as the plain middle.
    context_words: float = 0.5
    # A memory stating the fact of someone else than the question asks about (a relative's for
    # the person's, the person's for a relative's: recall/whose.py) loses this much relevance.
    # Dev halves (bench.tune_recall: LoCoMo recall@10 / users hit@1 / users2 hit@1): 0.1 -> 0.691 /
    # 0.803 / 0.747, 0.2 -> 0.691 / 0.803 / 0.760, 0.3 -> 0.691 / 0.795 / 0.760; on the belief
    # code of a run before, 0 / 0.05 / 0.1 -> users2 0.713 / 0.727 / 0.733, the rest unchanged.
    # Keyword shares reach about 0.75 of relevance, so a tenth is too little.
    other_subject: float = 0.2
    # Asked how things stand now, a later memory holding this share of the idf weight of an
    # earlier one's words (names left out) states the same thing anew and ranks just above it
    # (recall/latest.py); 0 turns it off. Dev halves in process (users / users2 hit@1): 0 -> 0.827
    # / 0.760 (before 'a living' and the dated reading), then 0.1 / 0.15 / 0.2 / 0.25 -> 0.843 /
    # 0.850 / 0.850 / 0.843 and 0.760 / 0.800 / 0.800 / 0.800 (hit@3 0.945 at 0.25, else 0.953).
    follower_share: float = 0.2
    # A candidate's cosine moves by this much of how much more central among the candidates it is
    # than their mean (recall/hubs.py); 0 turns it off. Dev halves in process (users / users2 /
    # users3 hit@1, hit@3 over all three, LoCoMo recall@10 on every 2nd question): 0 -> 0.850 /
    # 0.787 / 0.772, 0.905, 0.6912; 0.5 -> 0.898 / 0.800 / 0.772, 0.905, 0.6927; 0.8 -> 0.913 /
    # 0.813 / 0.772, 0.902, 0.6886 (LoCoMo drops).
    hub: float = 0.5
    # Asked how things stand now, the related candidates (relevance above LOW_SIMILARITY) gain up to
    # this much by their place in time: the latest all of it, the earliest nothing
    # (recall/latest.py); 0 turns it off. Dev halves in process with someone else's words dropped
    # (users / users2 / users3 hit@1, hit@1 and hit@3 over all three): 0 -> 0.898 / 0.813 / 0.782,
    # 0.833 / 0.913; 0.06 -> 0.833 / 0.918; 0.1 -> 0.906 / 0.813 / 0.782, 0.836 / 0.918; 0.15 ->
    # 0.839 / 0.918; 0.2 -> 0.906 / 0.820 / 0.782, 0.839 / 0.923; 0.3 -> 0.841 / 0.921. Leaning
    # the same way at an ``as_of`` date costs (0.1: hit@1 0.836 -> 0.820). 0.1 is taken, not 0.2:
    # the lean stays the size of a clear lead (CLEAR_MARGIN), so it breaks near-ties in time's
    # favour and no more; at 0.2 "Rohan sold the Swift and cycles everywhere now" outranked the
    # job he took before it for "Where does Rohan work at the moment?" (the test in
    # tests/integration/test_ranking_how_things_stand.py).
    later_lean: float = 0.1
    # Keyword evidence counts in full for a memory whose semantic similarity to the query is at least
    # this (LOW_SIMILARITY in recall/search.py: below it nothing is really related), and in
    # proportion below: one shared word ("work" in "User prefers Amharic for family reminders and
    # English for work", cosine 0.10) is then a coincidence, not an answer to "Where does Samuel
    # work now?". 0 turns it off. Dev halves in process (users / users2 / users3 hit@1 / hit@3,
    # LoCoMo recall@10 on every 2nd question): 0 -> 0.906/0.945, 0.813/0.893, 0.782/0.921, 0.6919;
    # 0.15 -> the same; 0.25 and 0.35 -> users2 hit@3 0.900, the rest the same (LoCoMo 0.6919 at 0.25).
    words_from: float = 0.25
    # A memory related to the question (relevance above LOW_SIMILARITY) that speaks of the
    # single-valued attribute the question names (where someone lives, works, who manages them:
    # recall/attributes.py) gains this much; 0 turns it off. 0.1 is the clear margin, taken without
    # a sweep (session 33, one run): with it and the attribute followers (recall/latest.py), dev
    # halves through REST (users / users2 / users3 hit@1 / hit@3) 0.929/0.969, 0.880/0.947,
    # 0.851/0.990; the followers alone 0.898/0.945, 0.867/0.933, 0.851/0.980; main 0.906/0.945,
    # 0.847/0.920, 0.812/0.970 (bench/results/user-memory-dev-rank13-before-after.jsonl).
    attribute: float = 0.1

    def __post_init__(self) -> None:
        if 2 * self.dynamics_cap + self.entity_bonus >= CLEAR_MARGIN:
            raise ValueError("dynamics and entity signals must stay below the clear margin together")


class Evidence(NamedTuple):
    """What retrieval knows of one memory before ranking (a named tuple: a recall makes a few
    hundred, and a frozen dataclass took about twice as long to make, ``replace`` four times)."""

    cosine: float
    keyword: float = 0.0  # share of the query's telling words it matches (recall/keywords.py, 0..1)
    sub_query: float = 0.0  # best cosine to a sub-query (R4), 0 when none was asked
    context: float = 0.0  # cosine of the memory read with its episode neighbours, 0 when it has none
    context_keyword: float = 0.0  # share of the query's telling words its episode neighbours match


def relevance(evidence: Evidence, weights: RankWeights) -> float:
    """The best of the memory's cosine, its context's cosine and a sub-query hit (at
    ``sub_query_share``), plus weighted keyword evidence of the memory and of its context, in full
    when that similarity shows the memory related to the query (:func:`related_share`)."""
    return _semantic(evidence, weights) + words_of(evidence, weights)


def _semantic(evidence: Evidence, weights: RankWeights) -> float:
    return max(evidence.cosine, evidence.context, weights.sub_query_share * evidence.sub_query)


def related_share(semantic: float, weights: RankWeights) -> float:
    """How much of its keyword evidence a memory this close to the query keeps: all of it from
    ``words_from`` up, in proportion below (none at a cosine of 0 or less)."""
    if weights.words_from <= 0:
        return 1.0
    return max(0.0, min(1.0, semantic / weights.words_from))


def words_of(evidence: Evidence, weights: RankWeights) -> float:
    """The weighted keyword evidence that :func:`relevance` counts for ``evidence`` (as much of it
    as its semantic similarity keeps: :func:`related_share`)."""
    words = weights.keyword * (evidence.keyword + weights.context_words * evidence.context_keyword)
    return words * related_share(_semantic(evidence, weights), weights)


def about_someone_else(evidence: Evidence, weights: RankWeights) -> float:
    """How much relevance a memory stating the fact of someone else than asked loses:
    ``other_subject``, and every word it matches, since they are said of someone else ("Where does
    María José work?" matches "works" in "María José's sister Lucía ... works as a pharmacist", and
    not in "María José took a job at the veterinary hospital"). Dev halves in process (users2 hit@1
    / hit@3, the other sets unchanged): words kept 0.807 / 0.880, half kept or none 0.813 / 0.887."""
    return weights.other_subject + words_of(evidence, weights)


def dynamics_bonus(factor: float, weights: RankWeights) -> float:
    """The composite factor of memory dynamics (around 1.0, R2) as a bounded additive nudge."""
    return max(-weights.dynamics_cap, min(weights.dynamics_cap, (factor - 1.0) * weights.dynamics_cap * 2))


def intent_bonus(boost: float, weights: RankWeights) -> float:
    """An intent profile's boost (1.0 = none) as an additive amount."""
    return (boost - 1.0) * weights.intent_scale


@dataclass(frozen=True)
class Link:
    """A graph neighbour of a seed: ``via`` is NEXT, SUPERSEDES or MENTIONS."""

    seed: str
    neighbour: str
    via: str
    weight: float = 1.0  # for MENTIONS: how telling the shared entity is among the candidates (0..1)


def spread(
    base: Mapping[str, float],
    links: Sequence[Link],
    weights: RankWeights,
    replaced: frozenset[str] = frozenset(),
) -> tuple[dict[str, float], dict[str, set[str]]]:
    """Scores after graph expansion, and which edges lifted each memory.

    A NEXT or SUPERSEDES neighbour rises to ``context_share`` of its seed's score when its own is
    lower (never above the seed); a memory sharing a rare entity with a seed gains
    ``entity_bonus`` times the link's weight (never above the seed). A seed
    in ``replaced`` is a belief that no longer holds: the belief that replaced it (its SUPERSEDES
    neighbour) answers now what it answered, so it takes ``replaced_share`` of the seed's score
    (via REPLACES).
    """
    scores = dict(base)
    via: dict[str, set[str]] = {}
    for link in links:
        seed = base.get(link.seed)
        if seed is None or link.neighbour == link.seed:
            continue
        own = base.get(link.neighbour, 0.0)
        edge = link.via
        if edge == "MENTIONS" and link.weight <= 0:
            continue  # an entity every candidate shares says nothing
        if edge == "MENTIONS":
            lifted = own + weights.entity_bonus * link.weight if own < seed else own
            lifted = min(lifted, max(own, seed))
        elif edge == "SUPERSEDES" and link.seed in replaced and link.neighbour not in replaced:
            lifted, edge = max(own, seed * weights.replaced_share), "REPLACES"
        else:
            lifted = max(own, min(seed * weights.context_share, seed))
        if lifted > scores.get(link.neighbour, own):
            scores[link.neighbour] = lifted
        via.setdefault(link.neighbour, set()).add(edge)
    return scores, via


def ordered(scores: Mapping[str, float]) -> list[str]:
    """Ids best first; ties by id so the order is stable across runs."""
    return sorted(scores, key=lambda m: (-scores[m], m))


def beliefs_in_order(scores: Mapping[str, float], replaced: Sequence[tuple[str, str]]) -> dict[str, float]:
    """A belief never ranks above the one that replaced it: for each (newer, older) pair of a
    CONTRADICTS edge, the older one's score is capped just below the newer one's."""
    adjusted = dict(scores)
    for _ in range(len(replaced)):  # chains settle in at most one pass per edge
        changed = False
        for newer, older in replaced:
            if newer in adjusted and older in adjusted and adjusted[older] >= adjusted[newer]:
                adjusted[older] = adjusted[newer] - 1e-6
                changed = True
        if not changed:
            break
    return adjusted
