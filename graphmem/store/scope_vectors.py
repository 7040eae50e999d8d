"""Reads behind recall's in-process vector cache: a scope subtree's embeddings and revisions,
what changed in a scope since a revision, and recall candidates checked against the graph.

Every write that creates, re-embeds, moves or deletes a memory raises its scope's revision
(``ScopeLock.revision``) in the same transaction and stamps the memory with it; a process's cache
compares the revisions it knows with the graph's in the recall's first round trip, so a write
through any process is seen by the next recall of every other one.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from graphmem.store.executor import Row, Transaction
from graphmem.store.search import Candidate, SearchFilter, facts_of


@dataclass(frozen=True)
class ScopeRows:
    """Memories of a scope subtree as the cache holds them: ids, exact scopes, float32 vectors."""

    ids: list[str]
    scopes: list[str]
    vectors: np.ndarray  # (len(ids), dimension); a memory without embedding is a zero row


@dataclass(frozen=True)
class ScopeChange:
    """What one scope holds now beyond a known revision: changed memories and its total count."""

    scope: str
    rows: ScopeRows
    total: int


@dataclass(frozen=True)
class CheckedCandidates:
    """Vector candidates of a recall from cached hits: the graph's revisions of the scopes asked
    for and the hits that pass the filters (best first)."""

    revisions: dict[str, int]
    vector: list[Candidate]


def _rows(
    ids: list[str], scopes: list[str], embeddings: list[list[float] | None], dimension: int
) -> ScopeRows:
    vectors = np.zeros((len(ids), dimension), dtype=np.float32)
    for i, e in enumerate(embeddings):
        if e is not None and len(e) == dimension:
            vectors[i] = e
    return ScopeRows(ids, scopes, vectors)


def revisions(tx: Transaction, path: str, prefix: str) -> dict[str, int]:
    """The revision of every scope under ``path`` that has been written since revisions exist."""
    rows = tx.run("search/scope_revisions", scope=path, scope_prefix=prefix)
    return {str(r["scope"]): int(r["revision"]) for r in rows}


def subtree(tx: Transaction, path: str, prefix: str, dimension: int) -> ScopeRows:
    """Every memory under ``path`` with its embedding (read after :func:`revisions`)."""
    rows = tx.run("search/scope_vectors", scope=path, scope_prefix=prefix)
    return _rows(
        [str(r["id"]) for r in rows],
        [str(r["scope"]) for r in rows],
        [r["embedding"] for r in rows],
        dimension,
    )


def changes(tx: Transaction, known: dict[str, int], dimension: int) -> list[ScopeChange]:
    """For each scope of ``known`` (scope -> revision), the memories stamped with a later revision
    and how many memories the scope holds now."""
    stale = [{"scope": s, "known": k} for s, k in sorted(known.items())]
    out = []
    for r in tx.run("search/scope_changes", stale=stale):
        changed = r["changed"]
        scope = str(r["scope"])
        rows = _rows(
            [str(c["id"]) for c in changed],
            [scope] * len(changed),
            [c["embedding"] for c in changed],
            dimension,
        )
        out.append(ScopeChange(scope, rows, int(r["total"])))
    return out


def ids_in(tx: Transaction, scopes: list[str]) -> dict[str, set[str]]:
    """The ids of the memories in each of ``scopes`` (exact scopes, not subtrees)."""
    rows = tx.run("search/scope_ids", scopes=sorted(scopes))
    found: dict[str, set[str]] = {s: set() for s in scopes}
    for r in rows:
        found[str(r["scope"])] = {str(i) for i in r["ids"]}
    return found


def checked_candidates(
    tx: Transaction, hits: list[tuple[str, float]], where: SearchFilter, *, limit: int
) -> CheckedCandidates:
    """Vector hits (id, cosine; best first) kept where they pass ``where`` (the first ``limit``),
    and the graph's revisions of the scopes of ``where``, in one round trip."""
    rows = tx.run(
        "search/recall_candidates_cached",
        hits=[{"id": i, "cosine": c, "rank": n} for n, (i, c) in enumerate(hits)],
        limit=limit,
        **where.params(),
    )
    row = rows[0]
    vector = [
        Candidate(str(h["id"]), float(h["score"]), facts_of(h), float(h["score"]), str(h["text"]))
        for h in row["hits"]
    ]
    revisions = {str(s): int(r) for s, r in row["revisions"]}
    return CheckedCandidates(revisions, vector)


def fulltext_rows(
    tx: Transaction, lucene: str, where: SearchFilter, *, text_k: int, text_limit: int
) -> list[Row]:
    """The fulltext matches of ``lucene`` that pass ``where`` (the best ``text_limit`` of the
    index's ``text_k``), with their ranking facts; :func:`fulltext_candidates` adds their cosines."""
    return tx.run(
        "search/fulltext_candidates_cached",
        text=lucene,
        text_k=text_k,
        text_limit=text_limit,
        **where.params(),
    )


def fulltext_candidates(rows: list[Row], similarity: Callable[[str], float]) -> list[Candidate]:
    """Candidates of :func:`fulltext_rows`, each with its cosine to the query from ``similarity``."""
    return [
        Candidate(str(r["id"]), float(r["score"]), facts_of(r), similarity(str(r["id"])), str(r["text"]))
        for r in rows
    ]
