"""Topic consolidation on threads written apart from the code (bench/eval/topics.json): does the
nightly job make one semantic memory per real topic, and nothing from noise?

Each half's episodes (and its noise memories) are written through REST in date order, as a
user's agent would, into one scope; then the nightly job runs twice. Reported per half:
- coverage: share of topics with a semantic memory whose sources are >= 90 % from that topic;
- purity: mean share of a semantic memory's sources that come from its largest topic (noise
  memories count as a topic of their own, so a noise-only cluster is impure);
- semantic_memories, noise_clustered (noise memories feeding a semantic memory);
- second_run_changes: what the second nightly run changed (it should change nothing);
- superseded_at_write: topic episodes (and noise memories) the write path's belief check marked
  superseded before any consolidation ran, by the SUPERSEDES edge's reason. Every episode of a
  thread tells something new, so each one counted is a false supersession;
- baseline: the former C1 rule (DBSCAN, cosine distance eps 0.35 over the exact 15 nearest) on the
  same episodes' vectors, and a plain cosine-threshold (0.5) connected-components clustering.
Prints JSON lines. ``--set`` names the threads: topics (default, bench/eval/topics.json) or topics2
(bench/eval/topics2.json: one memory a day, same-domain pairs, one person in two threads, sparse
threads) or topics3 (bench/eval/topics3.json: session 23's threads, more of the same hard kinds and a
word, 'deposit', in three threads) or topics4 (bench/eval/topics4.json: session 24's threads, written
before reading the clustering code; words in two threads: 'tank', 'bridge', 'court') or topics5
(bench/eval/topics5.json: written in session 28 by someone who had not read the clustering code; 30
threads of one user's six months, same-domain threads, one person in two threads, words in two
threads such as 'pitch', 'bank', 'scales'), each with its own split (``<set>_split.json``); several
sets run on one stack.

    python -m bench.topic_eval [--half dev|test|both] [--set topics|topics2|topics3|topics4|topics5 ...]
        [--clusters]

``--clusters`` prints each semantic memory's topics and text, then per half the topics missed
(where their episodes went) and the impure memories' topics.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import httpx
import igraph as ig
import neo4j
import numpy as np

from bench import stack
from graphmem.connect import Neo4jTarget
from graphmem.consolidate.clustering import density_clusters
from graphmem.consolidate.neighbourhood import exact_knn

EVAL = Path(__file__).parent / "eval"
SHARE = 0.9  # a semantic memory covers a topic when this share of its sources come from it


SETS = ("topics", "topics2", "topics3", "topics4", "topics5")


def load_half(half: str, name: str = "topics") -> list[dict[str, Any]]:
    """(text, occurred_at, topic or None) of one half's episodes and noise of the set ``name``,
    in date order."""
    data = json.loads((EVAL / f"{name}.json").read_text())
    split = json.loads((EVAL / f"{name}_split.json").read_text())
    topics = set(split[half])
    noise = set(split[f"noise_{half}"])
    rows = [
        {"text": e["text"], "occurred_at": e["occurred_at"], "topic": t["id"]}
        for t in data["topics"]
        if t["id"] in topics
        for e in t["episodes"]
    ]
    rows += [
        {"text": n["text"], "occurred_at": n["occurred_at"], "topic": None}
        for n in data["noise"]
        if n["id"] in noise
    ]
    return sorted(rows, key=lambda r: r["occurred_at"])


def score(clusters: Sequence[Sequence[str]], topic_of: Mapping[str, str | None]) -> dict[str, Any]:
    """Coverage, purity and counts of clusters (lists of memory ids) against the topics."""
    topics = {t for t in topic_of.values() if t is not None}
    covered: set[str] = set()
    purities: list[float] = []
    noise = 0
    for members in clusters:
        labels = Counter(topic_of.get(m) or f"noise:{m}" for m in members)
        top, n = labels.most_common(1)[0]
        purities.append(n / len(members))
        noise += sum(1 for m in members if topic_of.get(m) is None)
        if not top.startswith("noise:") and n / len(members) >= SHARE:
            covered.add(top)
    return {
        "coverage": round(len(covered) / max(1, len(topics)), 3),
        "purity": round(float(np.mean(purities)), 3) if purities else None,
        "semantic_memories": len(clusters),
        "topics_covered": len(covered),
        "topics": len(topics),
        "noise_clustered": noise,
    }


def misses(clusters: Sequence[Sequence[str]], topic_of: Mapping[str, str | None]) -> dict[str, Any]:
    """What ``score`` counts against: each topic no cluster covers (its episodes, and the topics
    of each cluster holding some of them: none, pieces in another topic's cluster, or one with
    strays), and each impure cluster's topics."""
    labelled = [Counter(topic_of.get(m) or "noise" for m in members) for members in clusters]
    covered = {
        top
        for labels in labelled
        for top, n in labels.most_common(1)
        if top != "noise" and n / sum(labels.values()) >= SHARE
    }
    sizes = Counter(t for t in topic_of.values() if t is not None)
    return {
        "missed": {
            topic: {"episodes": sizes[topic], "in": [dict(labels) for labels in labelled if topic in labels]}
            for topic in sorted(set(sizes) - covered)
        },
        "impure": [dict(labels) for labels in labelled if len(labels) > 1],
    }


def _cypher(target: Neo4jTarget, query: str, **params: Any) -> list[dict[str, Any]]:
    with neo4j.GraphDatabase.driver(target.uri, auth=(target.user, target.password)) as driver:
        records, _, _ = driver.execute_query(query, params)
        return [r.data() for r in records]


def lineage(target: Neo4jTarget, scope: str) -> dict[str, list[str]]:
    """Active semantic memory id -> its source ids (a source merged away counts through its winner)."""
    rows = _cypher(
        target,
        "MATCH (s:Memory {scope: $scope, layer: 'semantic', status: 'active'})-[:DERIVED_FROM]->(e:Memory) "
        "OPTIONAL MATCH (e)-[:SUPERSEDES {reason: 'merged'}]->(l:Memory) "
        "RETURN s.id AS s, s.text AS text, collect(DISTINCT e.id) + collect(DISTINCT l.id) AS sources",
        scope=scope,
    )
    return {r["s"]: sorted(set(r["sources"])) for r in rows}


def superseded_at_write(
    target: Neo4jTarget, scope: str, topic_of: Mapping[str, str | None]
) -> dict[str, Any]:
    """Memories of ``scope`` a later statement superseded (run before consolidation merges any):
    how many topic episodes and noise memories, and the reasons the belief check gave."""
    rows = _cypher(
        target,
        "MATCH (w:Memory)-[r:SUPERSEDES]->(m:Memory {scope: $scope}) "
        "RETURN m.id AS id, coalesce(r.reason, 'none') AS reason",
        scope=scope,
    )
    episodes = {r["id"] for r in rows if topic_of.get(r["id"]) is not None}
    noise = {r["id"] for r in rows if r["id"] in topic_of and topic_of[r["id"]] is None}
    return {
        "topic_episodes": len(episodes),
        "noise_memories": len(noise),
        "reasons": dict(Counter(r["reason"] for r in rows)),
    }


def baselines(target: Neo4jTarget, scope: str, topic_of: Mapping[str, str | None]) -> dict[str, Any]:
    """The former embedding-only C1 rule and a plain cosine threshold, on the episodes' vectors."""
    rows = _cypher(
        target,
        "MATCH (m:Memory {scope: $scope, layer: 'episodic'}) WHERE m.id IN $ids "
        "RETURN m.id AS id, m.embedding AS embedding ORDER BY m.id",
        scope=scope,
        ids=list(topic_of),
    )
    ids = [r["id"] for r in rows]
    vectors = np.asarray([r["embedding"] for r in rows], dtype=np.float32)
    near = exact_knn(ids, vectors, 15, 0.65, range(len(ids)))
    dbscan = [c.members for c in density_clusters(near, 0.35, 3, 50)]
    sims = vectors @ vectors.T
    edges = [(i, j) for i in range(len(ids)) for j in range(i + 1, len(ids)) if sims[i, j] >= 0.5]
    components = ig.Graph(n=len(ids), edges=edges).connected_components()
    threshold = [[ids[v] for v in c] for c in components if len(c) >= 3]
    return {
        "dbscan_eps_0.35": score(dbscan, topic_of),
        "cosine_0.5_components": score(threshold, topic_of),
    }


def run_half(client: httpx.Client, target: Neo4jTarget, half: str, show: bool, name: str = "topics") -> None:
    """Write one half of the set ``name``, consolidate twice, print its scores."""
    scope = f"/eval/{name}/{half}"
    topic_of: dict[str, str | None] = {}
    for row in load_half(half, name):
        body = {"text": row["text"], "scope": scope, "occurred_at": row["occurred_at"]}
        response = client.post("/v1/memories", json=body)
        response.raise_for_status()
        topic_of[response.json()["memory"]["id"]] = row["topic"]
    superseded = superseded_at_write(target, scope, topic_of)
    first = client.post("/v1/consolidate", params={"wait": "true"}, json={"jobs": ["nightly"]})
    first.raise_for_status()
    found = lineage(target, scope)
    second = client.post("/v1/consolidate", params={"wait": "true"}, json={"jobs": ["nightly"]})
    second.raise_for_status()
    counts = second.json()["runs"][0]["counts"]
    changes = {k: v for k, v in counts.items() if v and not k.startswith("seen_")}
    unchanged = lineage(target, scope) == found and not changes
    result = score(list(found.values()), topic_of)
    print(
        json.dumps(
            {
                "set": name,
                "half": half,
                "episodes": sum(1 for t in topic_of.values() if t is not None),
                "noise_memories": sum(1 for t in topic_of.values() if t is None),
                **result,
                "nightly_ms": first.json()["runs"][0]["duration_ms"],
                "second_run_changes": changes,
                "second_run_unchanged": unchanged,
                "superseded_at_write": superseded,
                "baseline": baselines(target, scope, topic_of),
            }
        ),
        flush=True,
    )
    if show:
        texts = {
            r["s"]: r["text"]
            for r in _cypher(
                target,
                "MATCH (s:Memory {scope: $scope, layer: 'semantic'}) RETURN s.id AS s, s.text AS text",
                scope=scope,
            )
        }
        for semantic, sources in found.items():
            labels = Counter(topic_of.get(m) or "noise" for m in sources)
            print(
                json.dumps({"set": name, "half": half, "cluster": dict(labels), "text": texts.get(semantic)}),
                flush=True,
            )
        print(json.dumps({"set": name, "half": half, **misses(list(found.values()), topic_of)}), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--half", choices=["dev", "test", "both"], default="both")
    parser.add_argument("--set", choices=SETS, nargs="+", default=["topics"], dest="sets")
    parser.add_argument("--clusters", action="store_true", help="print each semantic memory's topics")
    args = parser.parse_args()
    halves = ["dev", "test"] if args.half == "both" else [args.half]
    with (
        stack.neo4j() as target,
        stack.api_server(target, {"GRAPHMEM_LLM": "none"}) as url,
        httpx.Client(base_url=url, timeout=600) as client,
    ):
        for name in args.sets:
            for half in halves:
                run_half(client, target, half, args.clusters, name)


if __name__ == "__main__":
    main()
