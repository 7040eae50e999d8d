"""The CPM-Leiden runs of C1's consensus, on several cores when the graph is large.

A run seeds igraph's process-wide random generator (see ``clustering.seeded``), so two runs cannot
share one process on threads. On a large graph the runs go to forked worker processes, which
inherit the graphs (nothing is copied or pickled) and seed their own generator exactly as a run
here does: a run's partition depends only on its graph, resolution and seed, so every run gives
the partition it gives in this process, and the votes are the same whichever process made them.
A first nightly at 50k memories in user scopes of 1,000 runs 36 of them on a graph of the whole
run's memories (7-23 s of C1 on one core of a shared machine).
"""

from __future__ import annotations

import gc
import itertools
import multiprocessing
import os
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

import igraph as ig
import numpy as np
from numpy.typing import NDArray

from graphmem.consolidate.clustering import SPLIT_SEED, seeded

# Edges of the graphs of one consensus below which the runs stay in this process: a run on a
# small graph takes milliseconds, less than a worker's start.
PARALLEL_MIN_EDGES = 50_000

_held: Sequence[ig.Graph] = ()  # a worker's graphs, inherited from the process that forked it


@dataclass(frozen=True)
class LeidenRun:
    """One run of a consensus: which of its graphs, at which CPM resolution and Leiden seed."""

    graph: int
    resolution: float
    seed: int


def consensus_runs(graphs: int, resolutions: Sequence[float], seeds: int) -> list[LeidenRun]:
    """Every run of a consensus over ``graphs`` graphs: each graph, each resolution, each seed."""
    return [
        LeidenRun(g, resolution, seed)
        for g in range(graphs)
        for resolution in resolutions
        for seed in range(max(1, seeds))
    ]


def partition(graph: ig.Graph, resolution: float, seed: int, iterations: int) -> NDArray[np.int64]:
    """Each node's group in one seeded CPM-Leiden run on ``graph`` (edge attribute ``weight``)."""
    with seeded(SPLIT_SEED + seed):
        found = graph.community_leiden(
            objective_function="CPM", weights="weight", resolution=resolution, n_iterations=iterations
        )
    return np.asarray(found.membership, dtype=np.int64)


def processes_for(wanted: int) -> int:
    """The worker processes to use: ``wanted``, or one per core when 0."""
    return wanted if wanted > 0 else os.cpu_count() or 1


def partitions(
    graphs: Sequence[ig.Graph], runs: Sequence[LeidenRun], iterations: int, processes: int = 1
) -> list[NDArray[np.int64]]:
    """Each run's partition, in the order of ``runs``: in ``processes`` forked workers when the
    graphs are large (0: one per core), else here."""
    workers = min(processes_for(processes), len(runs))
    large = sum(g.ecount() for g in graphs) >= PARALLEL_MIN_EDGES
    if workers < 2 or not large or "fork" not in multiprocessing.get_all_start_methods():
        return [partition(graphs[r.graph], r.resolution, r.seed, iterations) for r in runs]
    with ProcessPoolExecutor(
        max_workers=workers,
        mp_context=multiprocessing.get_context("fork"),
        initializer=_hold,
        initargs=(graphs,),
    ) as pool:
        return list(pool.map(_held_run, runs, itertools.repeat(iterations)))


def _hold(graphs: Sequence[ig.Graph]) -> None:
    # a worker shares the job's memory until it writes to it: a garbage collection would walk (and
    # so copy) every object the job holds, and the runs make no cycles
    gc.disable()
    global _held
    _held = graphs


def _held_run(run: LeidenRun, iterations: int) -> NDArray[np.int64]:
    return partition(_held[run.graph], run.resolution, run.seed, iterations)
