"""The similar-memory lookup of a write: for each new item, the active memories of its scope at or
above a similarity, most similar first.

A scope of at most ``EXACT_SCOPE_BELOW`` memories is read once per batch (ids and embeddings) and
ranked in process with one matrix product: an exact scan, like the Cypher one it replaces, which
computed one cosine per stored memory per item inside the query (a batch of 500 into a scope of
1,000 spent about as long there as on embedding). Larger scopes ask the vector index in Cypher
(``memories/find_similar``). Runs inside the write transaction, after the scope locks, so it sees
every memory committed before it.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Any

import numpy as np

from graphmem.store.executor import Transaction
from graphmem.store.write_vectors import UNKNOWN, ScopeVectors

EXACT_SCOPE_BELOW = 5000

Probe = tuple[str, list[float]]


def similar_rows(
    tx: Transaction,
    probes: Sequence[Probe],
    *,
    min_score: float | Sequence[float],
    k: int,
    lock: ScopeVectors | None = None,
) -> list[list[dict[str, Any]]]:
    """For each probe, up to ``k`` raw neighbour rows (``score`` as the vector index reports it,
    (1 + cos) / 2, at least ``min_score``: one for all probes or one each), best first. With
    ``lock`` (the write path's vector cache), the write lock of each probe's scope is taken first,
    in the same statement (``memories/lock_and_read_scopes``), which sends back only the vectors
    the cache lacks."""
    found: list[list[dict[str, Any]]] = [[] for _ in probes]
    if not probes:
        return found
    floors = [float(min_score)] * len(probes) if isinstance(min_score, int | float) else list(min_score)
    scopes = sorted({scope for scope, _ in probes})
    if lock is None:
        rows = tx.run("memories/scope_embeddings", scopes=scopes, exact_below=EXACT_SCOPE_BELOW)
        exact = {
            r["scope"]: (list(r["ids"]), np.asarray(r["embeddings"], dtype=np.float32))
            for r in rows
            if int(r["size"]) <= EXACT_SCOPE_BELOW
        }
    else:
        exact = _lock_and_read(tx, scopes, lock)
    chosen: dict[int, list[tuple[str, float, np.ndarray]]] = {}
    by_scope: dict[str, list[int]] = defaultdict(list)
    for i, (scope, _) in enumerate(probes):
        if scope in exact:
            by_scope[scope].append(i)
    for scope, positions in by_scope.items():
        ids, stored = exact[scope]
        if not ids:
            continue
        asked = np.asarray([probes[i][1] for i in positions], dtype=np.float32)
        scores = (1.0 + _cosines(asked, stored)) / 2.0
        best = np.argsort(-scores, axis=1, kind="stable")[:, :k]
        best_scores = np.take_along_axis(scores, best, axis=1)
        # each floor compared in the scores' own precision, as a scalar comparison would
        row_floors = np.asarray([floors[i] for i in positions], dtype=scores.dtype)
        kept = (best_scores >= row_floors[:, None]).tolist()
        for row, i in enumerate(positions):
            rows_of = zip(best[row].tolist(), best_scores[row].tolist(), kept[row], strict=True)
            chosen[i] = [(ids[j], score, stored[j]) for j, score, keep in rows_of if keep]
    wanted = sorted({memory_id for pairs in chosen.values() for memory_id, _, _ in pairs})
    details = {}
    if wanted:
        details = {r["node"]["id"]: r["node"] for r in tx.run("memories/neighbour_details", ids=wanted)}
    for i, pairs in chosen.items():
        found[i] = [{**details[m], "score": score, "embedding": v} for m, score, v in pairs if m in details]
    rest = [i for i, (scope, _) in enumerate(probes) if scope not in exact]
    if rest:
        lowest = min(floors[i] for i in rest)
        for i, neighbours in _indexed(tx, [probes[i] for i in rest], min_score=lowest, k=k):
            found[rest[i]] = [n for n in neighbours if float(n["score"]) >= floors[rest[i]]]
    return found


def _lock_and_read(
    tx: Transaction, scopes: list[str], cache: ScopeVectors
) -> dict[str, tuple[list[str], np.ndarray]]:
    """Lock ``scopes`` (sorted) and read the ids and vectors of those ranked in process, the vectors
    the cache holds taken from it; a scope the cache cannot complete is read again whole (its lock
    is held already: taking it again changes nothing)."""
    exact: dict[str, tuple[list[str], np.ndarray]] = {}
    asked = {scope: cache.known(scope) for scope in scopes}
    while asked:
        rows = tx.run(
            "memories/lock_and_read_scopes",
            scopes=[{"scope": scope, "known": known} for scope, known in asked.items()],
            exact_below=EXACT_SCOPE_BELOW,
        )
        again: dict[str, int] = {}
        for r in rows:
            if int(r["size"]) > EXACT_SCOPE_BELOW:
                continue
            scope, ids = r["scope"], list(r["ids"])
            known = asked[scope]
            vectors = cache.matrix(
                scope, int(r["revision"]), known, ids, r["changed_ids"], r["changed_embeddings"]
            )
            if vectors is not None:
                exact[scope] = (ids, vectors)
            elif known != UNKNOWN:  # read whole, every vector comes back: never None then
                again[scope] = UNKNOWN
        asked = again
    return exact


def _cosines(asked: np.ndarray, stored: np.ndarray) -> np.ndarray:
    """Cosine of every asked vector with every stored one (rows need not be unit length)."""
    a = asked / np.maximum(np.linalg.norm(asked, axis=1, keepdims=True), 1e-12)
    s = stored / np.maximum(np.linalg.norm(stored, axis=1, keepdims=True), 1e-12)
    result: np.ndarray = a @ s.T
    return result


def _indexed(
    tx: Transaction, probes: Sequence[Probe], *, min_score: float, k: int
) -> list[tuple[int, list[dict[str, Any]]]]:
    """The vector index's answer for probes into large scopes (``memories/find_similar``)."""
    rows = [{"index": i, "scope": scope, "embedding": vector} for i, (scope, vector) in enumerate(probes)]
    result = tx.run(
        "memories/find_similar",
        rows=rows,
        k=k,
        ann_k=max(100, k * 20),
        min_score=min_score,
    )
    return [(int(r["index"]), list(r["neighbours"])) for r in result]
