"""C1's weights: how much each signal of a pair counts, and the density a topic needs.

Each default is set where the dev halves of the topic sets put it; why, and what nearby values gave,
is told beside it and in docs/topics.md.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class TopicWeights:
    """How much each signal counts, and the density a topic needs."""

    neighbours: int = 5  # nearest by vector per memory that become candidate pairs
    floor: float = 0.4  # similarity a pair needs to be an edge at all
    near: float = 0.45  # bonus of two memories each other's nearest by vector (less by rank)
    entity: float = 0.2  # weight of a shared entity of full rarity
    words: float = 0.1  # weight of a shared content word (stemmed) of full rarity
    # weight of a shared phrase (two content words side by side: 'book club', 'food bank') of full
    # rarity, on top of its two words' own: a word alone may be another thread's ('Booked the
    # function room' beside a book club's 'book'), a phrase seldom is (graphmem.consolidate.shared_keys
    # .phrases; 0: none). Session 34, offline (bench.topic_variants): the five dev halves 56 of 68 both,
    # mean purity 0.963 -> 0.966 (topics 0.967 -> 0.982: the book club without the birthday's room);
    # mixed 12-thread dev scopes, seeds 7-11, coverage 0.694 / 0.683 / 0.695 / 0.714 / 0.708 -> 0.694 /
    # 0.686 / 0.708 / 0.717 / 0.708, purity 0.899 / 0.896 / 0.904 / 0.908 / 0.904 -> 0.900 / 0.897 /
    # 0.903 / 0.910 / 0.907; 0.4 covers more on seed 7 and less on seed 11, 0.1 / 0.2 less on seed 7.
    # Planted ARI 0.9512 -> 0.979 (single-topic memories 59 of 60 -> 52 of 54)
    phrases: float = 0.3
    words_max_mentions: int = 20  # a word in more memories than this ties nothing (pairs: its square)
    function_words: bool = True  # the first pass's words include spaCy's English stop list's
    # ... each at this share of a content word's weight: 'her', 'want', 'say', 'week' in a scope of a
    # hundred memories are as rare as a thread's own words, and tied a stray to two of another
    # thread ('She burst into tears when her school friend...' to a learner driver's 'her mirror').
    # Offline dev halves of the five sets (session 29): 54 of 68 topics both, purity 0.943 -> 0.950;
    # mixed 12-thread dev scopes (seeds 7 / 8) coverage 0.679 / 0.669 -> 0.673 / 0.662 alone, but
    # with pair joins (below) 0.687 / 0.694 -> 0.683 / 0.687 at purity 0.893 / 0.886 -> 0.892 / 0.886
    # and the dev halves' purity 0.935 -> 0.952 (a trio of things bought in three shops, topics4).
    # 0.4 and 0.6 give the same dev halves and mixed coverage within 0.002
    function_word_weight: float = 0.5
    entity_max_share: float = 0.2  # an entity mentioned by more of the graph than this ties nothing
    entity_max_mentions: int = 200  # nor one mentioned this often (pairs grow with its square)
    time: float = 0.27  # weight of two memories that happened at the same time
    time_days: float = 45.0  # ... decaying with this many days apart
    time_memories: float = 13.0  # ... or with this many of the scope's memories apart (0: by days)
    next: float = 0.1  # weight of two memories one after the other in an episode
    resolution: float = 0.16  # CPM: the mean edge weight a topic must hold inside
    near_spread: float = 0.0  # the consensus also runs at near ± this ...
    floor_spread: float = 0.05  # ... at floor ± this ...
    resolution_spread: float = 0.02  # ... and at resolution ± this ...
    ensemble_seeds: int = 2  # ... with this many Leiden seeds each
    agreement: float = 0.5  # share of the runs that must put two memories together
    core: int = 2  # a member is tied by agreement to at least this many others (the k-core)
    leiden_iterations: int = 2  # per run (igraph's default; -1: until stable, slow on a large graph)
    peel: float = 0.35  # a member tied to its topic by less than this share of the median goes
    # The second view: two memories tied to the same others. Its graph links pairs by the Jaccard
    # overlap of their strong ties (similarity above floor + ``shared_ties``, each memory counted
    # among its own); a pair either view agrees on is together (``shared_resolution`` 0: one view).
    shared_ties: float = 0.1
    shared_floor: float = 0.3  # overlap a pair needs to be an edge of the second view
    shared_resolution: float = 0.15  # CPM density a topic must hold in the second view
    shared_peel: float = 0.35  # ... and a member whose overlap inside is below this share of the median
    # a topic's members share something besides their vectors: at least one pair a rare entity or
    # word or NEXT ties (memories phrased alike, 'User dislikes coriander' and 'User is allergic to
    # wasp stings', are close by vector and share their neighbours, but are no topic)
    specific: bool = True
    # ... through a key mostly its own: at least this share of the key's holders are its members
    # (0: any shared key). 'User', in 10 of 77 memories, ties three profile facts but is not theirs.
    specific_share: float = 0.5
    # a topic splits into its Leiden-modularity parts when two of them hold min_size members, the
    # split's modularity reaches this (0: never) and the runs mostly kept the parts apart
    split_modularity: float = 0.1
    split_cosine: float = 0.3  # ... and the parts' mean cosine across is below this
    # ... or one part holds min_size and another this many (a pair of another thread, which the
    # split leaves out; 0: min_size), in the first pass only. Session 30: of the topics found on
    # mixed 12-thread dev scopes (seeds 7 / 8), 36 of 955 were a thread's three to five with
    # another's two. With modularity 0.1 (0.15 before; 0.1 alone moved nothing) the five dev halves
    # keep their 54 of 68 topics and their purity; mixed 12-thread dev scopes (bench.topic_mixed,
    # seeds 7-11) coverage 0.673 / 0.662 / 0.665 / 0.710 / 0.677 -> 0.675 / 0.669 / 0.669 / 0.713 /
    # 0.687, purity 0.895 / 0.889 / 0.892 / 0.902 / 0.895 -> 0.895 / 0.890 / 0.894 / 0.903 / 0.899,
    # never lower; modularity 0.15 with it: 0.673 / 0.665 (seeds 7 / 8)
    split_least_part: int = 2
    # the names an agent calls the memories' owner by: as an entity or a word the owner ties no
    # topic ('User's favourite band is Elbow', 'User doesn't drink alcohol' and 'User's middle name
    # is Rose' share only their owner; where the agent writes 'I' in the threads, 'User' was rare
    # and mostly theirs, and made five profile facts a topic)
    owner: tuple[str, ...] = ("user",)
    # a topic's weakest member goes while its mean tie to the others is below this share of the
    # median of theirs and min_size remain (0: never; graphmem.consolidate.strays). Dev halves of
    # the four sets: 45 -> 46 of 53 topics, random 8-topic subsets 0.828 -> 0.870; 0.6 the same
    # topics but drops more of their own episodes (184 -> 179 kept). Session 29 (five dev halves, with
    # pair joins and function words at half weight): 0.6 took mixed 12-thread dev scopes (seeds 7 / 8)
    # from 0.681 / 0.690 to 0.700 / 0.696, but planted ARI 0.922 and a thread's own episodes dropped
    # were joined with another thread's by the leftover pass (tests/consolidation/test_topic_leftovers)
    stray: float = 0.5
    # ... each member's mean tie leaving out its strongest this many ties: two strays tied to each
    # other (a scuba theory exam and the citizenship test both 'passed') are each weak then. Dev
    # halves 46 -> 47 of 53; mixed 12-thread dev scopes (bench.topic_mixed) 0.760 / 0.733 -> 0.762 /
    # 0.746; planted ARI (offline) 0.962 -> 0.957 (graphmem.consolidate.strays)
    stray_leave_out: int = 1
    # The memories no topic took are clustered again among themselves, their nearest by vector
    # ranked among those left (a sparse thread's nearest were other threads' episodes, so it got
    # no nearness bonus), with this share of the runs agreeing (0: no second pass) and only the
    # members that share a key (a rare entity or word, or NEXT) with another member kept.
    # Mixed 12-thread dev scopes (bench.topic_mixed, seeds 7 / 8): coverage 0.762 / 0.746 ->
    # 0.790 / 0.767, purity 0.938 / 0.932 -> 0.930 / 0.924; dev halves unchanged (47 of 53)
    leftover_agreement: float = 0.9
    # ... where the words of spaCy's English stop list tie nothing (shared_keys.topic_words): what
    # holds a leftover group together is its keys, and half of the groups this pass made had a
    # member of another thread tied by 'first', 'three', 'about', 'one' or 'next' (mixed 12-thread
    # dev scopes, seeds 7 / 8: 32 of 59 groups impure -> 24 of 51, every pure group kept; coverage
    # 0.790 / 0.767 -> 0.788 / 0.769, purity 0.930 / 0.924 -> 0.932 / 0.926; dev halves unchanged).
    # In the first pass they tie threads' own episodes too ('first loaf', 'first lesson'): without
    # them there, mixed coverage 0.790 / 0.767 -> 0.748 / 0.742 and topics3 dev 12 -> 11 of 12
    leftover_function_words: bool = False
    # Two agreed pairs that no topic took are joined when the four memories weigh, over their six
    # pairs, this share of the resolution on average and two pairs across are edges (0: never;
    # graphmem.consolidate.pair_joins). Offline dev halves of the five sets, with function words at
    # half weight: 54 -> 56 of 68 topics, purity 0.950 -> 0.952; mixed 12-thread dev scopes (seeds 7 /
    # 8 / 9 / 10 / 11) coverage 0.679 / 0.669 / 0.673 / 0.715 / 0.675 -> 0.683 / 0.687 / 0.683 / 0.725 /
    # 0.698, purity 0.896 / 0.889 / 0.893 / 0.900 / 0.894 -> 0.892 / 0.886 / 0.885 / 0.899 / 0.895 (the
    # two changes together against neither). 0.75: the same dev halves, mixed 0.685 / 0.690; 1.25:
    # 55 of 68, mixed 0.683 / 0.681. Planted ARI 0.9512 both (986 episodes clustered). Off by
    # default: on the held-out test halves (run once each way, session 29) it covered one more
    # topic of topics5 (8 -> 9 of 15) but made three memories of two threads' episodes: purity
    # 0.887 -> 0.875 (topics) and 0.858 -> 0.808 (topics5); a memory mixing two topics misleads
    # more than a missing one. 1.0 turns it on
    pair_join: float = 0.0
    # taken off the cosine of two memories that both state an amount of money ('...a piano for
    # £350', '...a hybrid bike for £680'), which a shared price pattern inflates under MiniLM
    # (graphmem.consolidate.priced; 0: never). Session 32, offline (bench.topic_variants): the five
    # dev halves 54 -> 55 of 68 topics, mean purity 0.950 -> 0.962 (topics5 7 -> 8 of 15, purity
    # 0.877 -> 0.939: four threads of things bought in pounds were one topic; REST 6 -> 8 of 15,
    # purity 0.861 -> 0.939); mixed 12-thread dev scopes, seeds 7-11, purity higher on every seed.
    # 0.15 / 0.25 / 0.3: 54 / 55 / 54 of 68, purity 0.961 / 0.958 / 0.965, mixed purity higher on
    # every seed at each. The memories' nearest ranked by the corrected cosine as well: 53 of 68
    # (topics 16 -> 15)
    priced: float = 0.2
    # A memory that names no entity and says 'he' or 'she' ties as if it named whom the memory
    # most like it names beside the same pronoun, among this many memories of the scope either side
    # in time (0: never; graphmem.consolidate.referents). Session 33: REST dev halves topics5 0.533 /
    # 0.939 -> 0.600 / 0.944, the other four unchanged; mixed 12-thread dev scopes, seeds 7-11,
    # coverage and purity higher on every seed (+0.010 and +0.002 on average); 40: +0.002-0.004
    # mixed coverage; 80 / 100: a thread took a noise memory (topics5 dev purity 0.918) ...
    referents: int = 60
    referent_cosine: float = 0.2  # ... at this cosine at least ...
    referent_mentions: int = 2  # ... counting only entities that many memories of the scope name
