"""Consolidation benchmark: planted topics found again (ARI), idempotence, and nightly time at 10k vs 50k.

    python -m bench.consolidation                  # planted topics + scale 10k and 50k
    python -m bench.consolidation --sizes 2000     # a quick scale check

Offline (no LLM): C1 distils extractively. Every number is printed as a JSON line.
- planted: 50 topics x 20 paraphrased episodes + 40 noise episodes written through the full write
  path; one nightly run; the adjusted Rand index of the clusters found against the planted topics
  (noise and unclustered episodes count as singletons; an episode merged into another (C3) takes
  the cluster of the one it merged into); how many semantic memories draw from one topic only; and
  what a second nightly run changes (it should change nothing).
- scale: N episodic memories (generated, real MiniLM vectors) loaded straight into a fresh Neo4j,
  then one nightly run (merge + clustering + distillation) timed.
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import os
import random
import tempfile
import time
import uuid
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import neo4j
import numpy as np

from bench import stack
from bench.planted_corpus import TEMPLATES, TOPICS, adjusted_rand_index, planted_corpus
from graphmem.clock import SystemClock
from graphmem.config import Settings
from graphmem.connect import Neo4jTarget, open_memory
from graphmem.consolidate.settings import ConsolidationSettings
from graphmem.consolidate.topic_weights import TopicWeights
from graphmem.embedding.base import Embedder
from graphmem.embedding.factory import create_embedder
from graphmem.memory import Memory
from graphmem.models import MemoryInput
from graphmem.store.memories import NewMemory

NAMES = (
    "Ann",
    "Ben",
    "Cleo",
    "Dev",
    "Eli",
    "Fay",
    "Gus",
    "Hana",
    "Ivo",
    "Jade",
    "Kai",
    "Lea",
    "Max",
    "Nia",
    "Oli",
    "Pia",
    "Quin",
    "Rae",
    "Sol",
    "Tess",
    "Uma",
    "Vic",
    "Wes",
    "Xia",
    "Yan",
    "Zoe",
)


def emit(**fields: Any) -> None:
    """Print one JSON line."""
    print(json.dumps(fields, default=str), flush=True)


def _cypher(target: Neo4jTarget, query: str) -> list[dict[str, Any]]:
    with neo4j.GraphDatabase.driver(target.uri, auth=(target.user, target.password)) as driver:
        records, _, _ = driver.execute_query(query)
        return [r.data() for r in records]


def cpu_seconds(pid: int | None) -> dict[str, float]:
    """CPU seconds (user + system) so far of this process (with its ended children, as a process
    pool's workers) and of the Neo4j JVM ``pid`` (from /proc)."""
    own = os.times()
    out = {"client": own.user + own.system + own.children_user + own.children_system}
    if pid is not None:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        out["neo4j"] = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return out


def spent(before: dict[str, float], after: dict[str, float]) -> dict[str, float]:
    """CPU seconds between two :func:`cpu_seconds` readings."""
    return {k: round(after[k] - before[k], 1) for k in after}


def outcome_digest(target: Neo4jTarget) -> dict[str, Any]:
    """What a nightly run decided, by the memories' texts (the ids are random): a digest of each
    semantic memory's set of sources and of each merge (winner, loser), to tell two runs apart."""
    lineage = _cypher(
        target,
        "MATCH (s:SemanticMemory {status: 'active'})-[:DERIVED_FROM]->(e:EpisodicMemory) "
        "RETURN s.id AS s, e.text AS e",
    )
    merged = _cypher(
        target,
        "MATCH (w:Memory)-[:SUPERSEDES {reason: 'merged'}]->(l:Memory) RETURN w.text AS w, l.text AS l",
    )
    groups: dict[str, list[str]] = {}
    for row in lineage:
        groups.setdefault(row["s"], []).append(row["e"])
    topics = sorted("\x1f".join(sorted(g)) for g in groups.values())
    merges = sorted(f"{r['w']}\x1f{r['l']}" for r in merged)
    return {
        "topics": len(topics),
        "sources": len(lineage),
        "merges": len(merges),
        "topics_sha": hashlib.sha256("\x1e".join(topics).encode()).hexdigest()[:16],
        "merges_sha": hashlib.sha256("\x1e".join(merges).encode()).hexdigest()[:16],
    }


def planted(embedder: Embedder) -> None:
    """C1 on planted topics: ARI, purity, and a second run that changes nothing."""
    corpus = planted_corpus()
    with stack.neo4j() as target, open_memory(Settings(llm="none"), target, embedder=embedder) as memory:
        memory.prepare()
        results = []
        for begin in range(0, len(corpus), 500):
            chunk = corpus[begin : begin + 500]
            results += memory.remember_batch(
                [MemoryInput(text=e.text, scope="/bench/planted") for e in chunk]
            )
        topic = {r.memory.id: e.topic for r, e in zip(results, corpus, strict=True)}
        started = time.perf_counter()
        first = memory.consolidate(["nightly"]).runs[0]
        seconds = time.perf_counter() - started
        lineage = _cypher(
            target,
            "MATCH (s:SemanticMemory {status: 'active'})-[:DERIVED_FROM]->(e:EpisodicMemory) "
            "RETURN s.id AS s, e.id AS e",
        )
        merged = _cypher(
            target,
            "MATCH (w:Memory)-[:SUPERSEDES {reason: 'merged'}]->(l:Memory) RETURN w.id AS w, l.id AS l",
        )
        cluster_of = {row["e"]: row["s"] for row in lineage}
        for row in merged:
            if row["w"] in cluster_of:
                cluster_of[row["l"]] = cluster_of[row["w"]]
        labels = {s: i for i, s in enumerate(sorted(set(cluster_of.values())))}
        ids = list(topic)
        truth = [topic[i] for i in ids]
        found = [labels[cluster_of[i]] if i in cluster_of else -1 for i in ids]
        by_semantic: dict[str, set[int]] = {}
        for e, s in cluster_of.items():
            by_semantic.setdefault(s, set()).add(topic[e])
        pure = sum(1 for topics in by_semantic.values() if len(topics) == 1 and -1 not in topics)
        emit(
            metric="planted_topics",
            episodes=len(corpus),
            topics=len({t for t in truth if t >= 0}),
            semantic_memories=len(by_semantic),
            single_topic_semantic_memories=pure,
            clustered_episodes=len(cluster_of),
            adjusted_rand_index=round(adjusted_rand_index(truth, found), 4),
            merged=first.counts.get("merged", 0),
            nightly_seconds=round(seconds, 2),
        )
        second = memory.consolidate(["nightly"]).runs[0]
        changes = {k: v for k, v in second.counts.items() if v and not k.startswith("seen_")}
        emit(metric="second_nightly_run", changes=changes, seconds=round(second.duration_ms / 1000, 2))


def scale_texts(n: int, seed: int = 5) -> list[str]:
    """``n`` distinct generated episodes: a person, a planted topic, a template and a detail."""
    rng = random.Random(seed)
    seen: set[str] = set()
    out: list[str] = []
    while len(out) < n:
        wordings, details = rng.choice(TOPICS)
        about = rng.choice(wordings)
        text = f"{rng.choice(NAMES)}: " + rng.choice(TEMPLATES).format(
            a=about, A=about[0].upper() + about[1:], d=rng.choice(details)
        )
        if text not in seen:
            seen.add(text)
            out.append(text)
    return out


def load(
    memory_executor: Any,
    texts: list[str],
    vectors: Any,
    scopes: int,
    start: datetime | None = None,
    *,
    scope_prefix: str = "/bench/user",
    categories: tuple[str, ...] = ("hobby",),
    page: int = 1000,
) -> None:
    """Write episodic memories straight through the create query (no write-path checks), one a
    minute from ``start``, the i-th in scope ``<scope_prefix><i % scopes>``, ``page`` per call."""
    start = start or datetime(2026, 1, 1, tzinfo=UTC)
    for begin in range(0, len(texts), page):
        rows = []
        for i in range(begin, min(begin + page, len(texts))):
            at = start + timedelta(minutes=i)
            memory = NewMemory(
                id=str(uuid.uuid4()),
                text=texts[i],
                scope=f"{scope_prefix}{i % scopes}",
                categories=list(categories),
                importance=0.5,
                confidence=0.8,
                strength=1.0,
                created_at=at,
                occurred_at=at,
                source="bench",
                metadata={},
                embedding=[float(x) for x in vectors[i]],
            )
            rows.append(memory.row(i))
        memory_executor.write("memories/create_memories", rows=rows)


# C1's topic weights before the shared-word signal and the nearest-neighbour bonus (issue 13), with
# one Leiden run (no consensus), as C1 was then.
FORMER_TOPICS = TopicWeights(
    near=0.0,
    words=0.0,
    floor=0.18,
    time=0.5,
    resolution=0.16,
    floor_spread=0.0,
    resolution_spread=0.0,
    ensemble_seeds=1,
    core=1,
    leiden_iterations=-1,
    shared_resolution=0.0,
    shared_peel=0.0,
    specific=False,
)


def scale(
    embedder: Embedder, sizes: list[int], per_scope: int, variants: dict[str, ConsolidationSettings | None]
) -> None:
    """Nightly time at each size, each in a fresh Neo4j, ``per_scope`` memories a scope (0: one scope),
    once per settings variant (one after the other at each size, so they share the machine's load)."""
    texts = scale_texts(max(sizes) + max(sizes) // 100)  # 1 % more for the incremental run
    cache = (
        Path(tempfile.gettempdir())
        / f"graphmem-bench-scale-{max(sizes)}-{embedder.model_name.replace('/', '_')}.npy"
    )
    if cache.exists():
        vectors = np.load(cache)
    else:
        started = time.perf_counter()
        vectors = embedder.embed(texts[: max(sizes)])
        emit(metric="scale_embedding", texts=max(sizes), seconds=round(time.perf_counter() - started, 1))
        np.save(cache, vectors)
    timings: dict[int, float] = {}
    for n, (variant, settings) in itertools.product(sizes, variants.items()):
        with (
            stack.neo4j_server() as (target, jvm),
            open_memory(Settings(llm="none"), target, embedder=embedder) as conn,
        ):
            conn.prepare()
            memory = (
                conn
                if settings is None
                else Memory(conn._executor, embedder, SystemClock(), consolidation=settings)
            )
            scopes = max(1, n // per_scope) if per_scope else 1
            load(memory._executor, texts[:n], vectors[:n], scopes)
            cpu = cpu_seconds(jvm)
            started = time.perf_counter()
            run = memory.consolidate(["nightly"]).runs[0]
            timings[n] = time.perf_counter() - started
            first_cpu = spent(cpu, cpu_seconds(jvm))
            emit(
                metric="nightly_scale",
                variant=variant,
                episodic_memories=n,
                scopes=scopes,
                seconds=round(timings[n], 1),
                status=run.status,
                step_seconds={k: round(v / 1000, 1) for k, v in run.step_ms.items()},
                counts={k: v for k, v in run.counts.items() if v},
                cpu_seconds=first_cpu,
                load=[round(x, 1) for x in os.getloadavg()],
                outcome=outcome_digest(target),
            )
            # The nightly case: 1 % new memories since the last run (Neo4j's vector index per memory).
            extra = texts[n : n + n // 100]
            load(memory._executor, extra, embedder.embed(extra), scopes, datetime.now(UTC))
            cpu = cpu_seconds(jvm)
            started = time.perf_counter()
            again = memory.consolidate(["nightly"]).runs[0]
            next_cpu = spent(cpu, cpu_seconds(jvm))
            emit(
                metric="nightly_incremental",
                variant=variant,
                episodic_memories=n,
                new_memories=len(extra),
                seconds=round(time.perf_counter() - started, 1),
                step_seconds={k: round(v / 1000, 1) for k, v in again.step_ms.items()},
                counts={k: v for k, v in again.counts.items() if v},
                cpu_seconds=next_cpu,
                load=[round(x, 1) for x in os.getloadavg()],
                outcome=outcome_digest(target),
            )
    if len(timings) > 1:
        small, large = min(timings), max(timings)
        emit(
            metric="nightly_scaling",
            sizes=[small, large],
            ratio=round(timings[large] / timings[small], 2),
            size_ratio=large / small,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", default="10000,50000", help="comma-separated; empty to skip")
    parser.add_argument(
        "--per-scope",
        type=int,
        default=1000,
        help="memories per user scope (1000: 10 scopes at 10k, 50 at 50k); 0 puts everything in one scope",
    )
    parser.add_argument("--skip-planted", action="store_true")
    parser.add_argument(
        "--before-after",
        action="store_true",
        help="time the nightly run with C1's former topic weights too, beside the current ones",
    )
    parser.add_argument(
        "--history-before-after",
        action="store_true",
        help="time the nightly run with C1 reading active episodes only too (topic_history off)",
    )
    parser.add_argument(
        "--time-before-after",
        action="store_true",
        help="time the nightly run with C1's time scale in days (45) too, beside the one in memories",
    )
    parser.add_argument(
        "--shared-before-after",
        action="store_true",
        help="time the nightly run with C1's first view only too (no shared-ties view), beside both views",
    )
    parser.add_argument(
        "--split-before-after",
        action="store_true",
        help="time the nightly run without C1's split of groups the runs kept apart and its rule of a "
        "key mostly the group's own too",
    )
    parser.add_argument(
        "--stray-before-after",
        action="store_true",
        help="time the nightly run without C1's stray rule too (TopicWeights.stray 0), beside it",
    )
    parser.add_argument(
        "--leftover-before-after",
        action="store_true",
        help="time the nightly run without C1's second pass over the memories no topic took too "
        "(TopicWeights.leftover_agreement 0), beside it",
    )
    parser.add_argument(
        "--referents-before-after",
        action="store_true",
        help="time the nightly run without C1's reading of whom 'he' and 'she' mean too "
        "(TopicWeights.referents 0), beside it",
    )
    parser.add_argument(
        "--phrases-before-after",
        action="store_true",
        help="time the nightly run without C1's shared phrases too (TopicWeights.phrases 0), beside them",
    )
    args = parser.parse_args()
    embedder = create_embedder("onnx")
    if not args.skip_planted:
        planted(embedder)
    sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    if sizes:
        variants: dict[str, ConsolidationSettings | None] = {"current": None}
        if args.before_after:
            variants = {"former_topics": ConsolidationSettings(topics=FORMER_TOPICS), **variants}
        if args.history_before_after:
            variants = {"no_topic_history": ConsolidationSettings(topic_history=False), **variants}
        if args.time_before_after:
            days = ConsolidationSettings(topics=replace(TopicWeights(), time_memories=0.0))
            variants = {"time_in_days": days, **variants}
        if args.shared_before_after:  # as in session 19: no shared-ties view, peel or shared-tie rule
            one = ConsolidationSettings(
                topics=replace(TopicWeights(), shared_resolution=0.0, shared_peel=0.0, specific=False)
            )
            variants = {"one_view": one, **variants}
        if args.split_before_after:  # as in session 21: no split, any shared key makes a story
            unsplit = replace(TopicWeights(), split_modularity=0.0, specific_share=0.0)
            variants = {"no_split": ConsolidationSettings(topics=unsplit), **variants}
        if args.stray_before_after:  # as before session 24: a topic's weakest member always stays
            kept = ConsolidationSettings(topics=replace(TopicWeights(), stray=0.0))
            variants = {"no_stray_rule": kept, **variants}
        if args.leftover_before_after:  # as before session 26: one pass
            one_pass = ConsolidationSettings(topics=replace(TopicWeights(), leftover_agreement=0.0))
            variants = {"no_leftover_pass": one_pass, **variants}
        if args.referents_before_after:  # as before session 33: pronouns tie nothing
            unread = ConsolidationSettings(topics=replace(TopicWeights(), referents=0))
            variants = {"no_referents": unread, **variants}
        if args.phrases_before_after:  # as before session 34: two words side by side tie as two words
            apart = ConsolidationSettings(topics=replace(TopicWeights(), phrases=0.0))
            variants = {"no_phrases": apart, **variants}
        scale(embedder, sizes, args.per_scope, variants)


if __name__ == "__main__":
    main()
