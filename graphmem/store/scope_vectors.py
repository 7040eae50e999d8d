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

from graphmem.store.executor import Transaction
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
    """Candidates of a recall from cached vector hits: the graph's revisions of the scopes asked
    for, the hits that pass the filters (best first) and the fulltext matches."""

    revisions: dict[str, int]
    vector: list[Candidate]
    fulltext: list[Candidate]


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
    tx: Transaction,
    hits: list[tuple[str, float]],
    lucene: str | None,
    where: SearchFilter,
    similarity: Callable[[str], float],
    *,
    limit: int,
    text_k: int,
    text_limit: int,
) -> CheckedCandidates:
    """Vector hits (id, cosine; best first) kept where they pass ``where`` (the first ``limit``),
    the fulltext candidates of ``lucene`` (their cosine from ``similarity``), and the graph's
    revisions of the scopes of ``where``, in one round trip."""
    rows = tx.run(
        "search/recall_candidates_cached",
        hits=[{"id": i, "cosine": c, "rank": n} for n, (i, c) in enumerate(hits)],
        text=lucene,
        limit=limit,
        text_k=text_k,
        text_limit=text_limit,
        **where.params(),
    )
    row = rows[0]
    vector: list[Candidate] = []
    fulltext: list[Candidate] = []
    for h in row["hits"]:
        memory_id = str(h["id"])
        if h["retriever"] == "vector":
            cosine = float(h["score"])
            vector.append(Candidate(memory_id, cosine, facts_of(h), cosine, str(h["text"])))
        else:
            fulltext.append(
                Candidate(memory_id, float(h["score"]), facts_of(h), similarity(memory_id), str(h["text"]))
            )
    revisions = {str(s): int(r) for s, r in row["revisions"]}
    return CheckedCandidates(revisions, vector, fulltext)
