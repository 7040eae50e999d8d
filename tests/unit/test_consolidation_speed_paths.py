"""The faster paths of a large nightly give what the plain ones give: C1's Leiden runs in worker
processes, and C3's exact neighbourhoods ranked a block of rows at once."""

from __future__ import annotations

import igraph as ig
import numpy as np

from graphmem.consolidate.consensus import votes
from graphmem.consolidate.leiden_runs import PARALLEL_MIN_EDGES, consensus_runs, partitions
from graphmem.consolidate.neighbourhood import exact_knn


def _graph(n: int, m: int, seed: int) -> ig.Graph:
    rng = np.random.default_rng(seed)
    pairs = np.unique(np.sort(rng.integers(0, n, size=(m, 2)), axis=1), axis=0)
    pairs = pairs[pairs[:, 0] != pairs[:, 1]]
    return ig.Graph(n=n, edges=pairs.tolist(), edge_attrs={"weight": rng.random(len(pairs)).tolist()})


def test_leiden_runs_in_worker_processes_give_the_partitions_of_this_process() -> None:
    graphs = [_graph(20_000, PARALLEL_MIN_EDGES // 2 + 5_000, seed) for seed in (1, 2)]
    runs = consensus_runs(len(graphs), [0.14, 0.16], 2)
    here = partitions(graphs, runs, 2, processes=1)
    forked = partitions(graphs, runs, 2, processes=2)
    assert len(here) == len(runs) == 8
    assert all(np.array_equal(a, b) for a, b in zip(here, forked, strict=True))
    assert len({tuple(p[:200]) for p in here}) > 1  # the seeds and resolutions differ


def test_votes_are_the_same_on_one_core_and_on_several() -> None:
    graph = _graph(20_000, PARALLEL_MIN_EDGES + 10_000, 3)
    pairs = np.asarray(graph.get_edgelist(), dtype=np.int64)
    one = votes(pairs, [graph], [0.1, 0.2], 2, 2, processes=1)
    several = votes(pairs, [graph], [0.1, 0.2], 2, 2, processes=2)
    assert np.array_equal(one, several)


def _nearest_by_sorting(ids: list[str], vectors: np.ndarray, k: int, min_cosine: float) -> dict[str, list]:
    sims = vectors @ vectors.T
    out = {}
    for r in range(len(ids)):
        ranked = sorted(
            ((float(sims[r, j]), ids[j]) for j in range(len(ids)) if j != r and sims[r, j] >= min_cosine),
            reverse=True,
        )[:k]
        out[ids[r]] = [(i, c) for c, i in ranked]
    return out


def test_exact_neighbours_are_the_k_most_similar_larger_id_first_on_ties() -> None:
    rng = np.random.default_rng(4)
    vectors = rng.standard_normal((300, 16)).astype(np.float32)
    vectors[150:] = vectors[:150]  # every vector twice: equal cosines everywhere
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    ids = [f"m{i:04d}" for i in rng.permutation(300)]
    for k, floor in ((5, 0.0), (15, 0.3), (1, -1.0)):
        assert exact_knn(ids, vectors, k, floor, range(300)) == _nearest_by_sorting(ids, vectors, k, floor)
    few = exact_knn(ids[:4], vectors[:4], 15, -1.0, range(4))
    assert [len(found) for found in few.values()] == [3, 3, 3, 3]


def test_an_operator_can_keep_the_leiden_runs_in_the_jobs_process() -> None:
    from graphmem.config import Settings
    from graphmem.connect import consolidation_settings

    assert consolidation_settings(Settings(llm="none", consolidation_processes=1)).processes == 1
    assert consolidation_settings(Settings(llm="none")).processes == 0  # one per core
