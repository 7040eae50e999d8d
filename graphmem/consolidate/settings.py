"""The knobs of consolidation, with the reference values of the design."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta

from graphmem.consolidate.topic_weights import TopicWeights

# D4: archive thresholds in days per category; a memory with several categories keeps the longest.
DEFAULT_TTL_DAYS: dict[str, float] = {
    "work": 90,
    "preference": 180,
    "health": 365,
    "hobby": 60,
    "relationship": 180,
}


@dataclass(frozen=True)
class ConsolidationSettings:
    """Clustering radii, merge threshold, TTLs and schedule."""

    semantic_eps: float = 0.35  # C4 insights: cosine distance between neighbours of a cluster
    topics: TopicWeights = field(default_factory=TopicWeights)  # C1: topics on the graph of signals
    topic_min_cosine: float = 0.0  # C1: nearest neighbours are read down to this cosine
    # C1: topics also hold episodes superseded by a later statement (a topic is a story; its opening
    # episode is often what a later one replaced), not those merged or refined as restatements
    topic_history: bool = True
    schema_eps: float = 0.45  # C2
    min_cluster: int = 3  # members a cluster needs (DBSCAN's min_samples, the point included)
    max_cluster: int = 50  # a larger (chained) cluster is split into its Leiden communities
    neighbours: int = 15  # k nearest per memory: the neighbourhood grows with N·k, never N²
    candidates: int = 60  # ANN candidates fetched per memory before the scope/layer filter
    exact_scope_max: int = 5000  # scopes up to this size get exact neighbourhoods (read whole)
    bulk_share: float = 0.05  # a larger scope this much changed is read whole into an HNSW index here
    merge_cosine: float = 0.85  # C3
    ttl_days: dict[str, float] = field(default_factory=lambda: dict(DEFAULT_TTL_DAYS))
    default_ttl_days: float = 90.0  # C4: memories with no category in ttl_days
    # C4: past its TTL, a memory still this strong (D1) stays: only one used again and again is; an
    # unused one (strength 1 at its last use) is down to 0.14 at the shortest TTL, 60 days.
    archive_keep_strength: float = 0.2
    cold_after_days: float = 180.0  # C4: archived and unused this long -> cold
    drift_after_days: float = 30.0  # C6: compare with the snapshot this old
    page: int = 2000  # ids read per page
    # memories per read where each row is small (the ids changed since the last run, C1's topic
    # signals, D1's strengths read and written): 25 reads of 2,000 ids took 3-4 s of a first
    # nightly at 50k, mostly round trips
    small_page: int = 10_000
    batch: int = 500  # memories per kNN query
    # C1's consensus runs Leiden on a large graph in this many worker processes (0: one per core,
    # 1: in the job's own process); the topics are the same either way
    processes: int = 0
    lock_lease: timedelta = timedelta(minutes=10)  # renewed by a heartbeat while a job runs
    watermark_slack: timedelta = timedelta(minutes=15)  # re-read writes that committed late
    intervals: dict[str, timedelta] = field(
        default_factory=lambda: {
            "nightly": timedelta(days=1),
            "weekly": timedelta(days=7),
            "monthly": timedelta(days=30),
        }
    )

    def ttl_for(self, categories: list[str] | None) -> float:
        """D4: the archive threshold in days of a memory with these categories (the longest applies)."""
        known = [self.ttl_days[c] for c in categories or [] if c in self.ttl_days]
        return max(known) if known else self.default_ttl_days

    @property
    def shortest_ttl_days(self) -> float:
        """The smallest threshold any memory can have."""
        return min([self.default_ttl_days, *self.ttl_days.values()])
