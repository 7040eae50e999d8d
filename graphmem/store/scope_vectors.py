"""Reads behind recall's in-process vector cache: a scope subtree's embeddings, texts and
revisions, what changed in a scope since a revision, and a cached recall's two round trips (the
revisions with the fulltext candidates; the cached hits checked against the graph with the
neighbourhood of the candidates recall chose).

Every write that creates, re-embeds, moves or deletes a memory raises its scope's revision
(``ScopeLock.revision``) in the same transaction and stamps the memory with it; a process's cache
compares the revisions it knows with the graph's in the recall's first round trip, so a write
through any process is seen by the next recall of every other one.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from graphmem.store.executor import Row, Transaction
from graphmem.store.fulltext import keyword_params
from graphmem.store.pool_rows import DetailRows, detail_facts, ranking_facts
from graphmem.store.search import (
    Candidate,
    Expansion,
    Facts,
    Neighbour,
    Pool,
    SearchFilter,
    Surroundings,
    facts_of,
)


@dataclass(frozen=True)
class ScopeRows:
    """Memories of a scope subtree as the cache holds them: ids, exact scopes, float32 vectors, texts."""

    ids: list[str]
    scopes: list[str]
    vectors: np.ndarray  # (len(ids), dimension); a memory without embedding is a zero row
    texts: list[str]


@dataclass(frozen=True)
class ScopeChange:
    """What one scope holds now beyond a known revision: changed memories and its total count."""

    scope: str
    rows: ScopeRows
    total: int


@dataclass(frozen=True)
class Start:
    """A cached recall's first round trip: the graph's revisions of the scopes asked for, and the
    fulltext matches that pass the filters (rows with their ranking facts, named as
    :data:`CANDIDATE_COLUMNS`; without texts or cosines, which the cache holds)."""

    revisions: dict[str, int]
    fulltext: list[Row]


@dataclass(frozen=True)
class Checked:
    """A cached recall's second round trip: the cached hits that pass the filters (best first),
    what the expansion sent along with them read (None when none was sent, or the cache could
    not supply its texts and cosines), and the graph's revisions of the scopes asked for."""

    vector: list[Candidate]
    expanded: tuple[list[Neighbour], Pool] | None
    revisions: dict[str, int]


# The values of a candidate row of a cached recall (a fulltext match of search/cached_recall_start,
# a hit of search/cached_recall_expand), in order: the memory's id, the retriever's score and its
# ranking facts (the columns :func:`graphmem.store.search.facts_of` reads).
CANDIDATE_COLUMNS = (
    "id",
    "score",
    "importance",
    "strength",
    "layer",
    "categories",
    "occurred",
    "accessed",
    "spaced",
    "priority",
    "pinned",
    "fade",
    "faded_at",
    "status",
)


def _rows(
    ids: list[str],
    scopes: list[str],
    embeddings: list[list[float] | None],
    texts: list[str],
    dimension: int,
) -> ScopeRows:
    vectors = np.zeros((len(ids), dimension), dtype=np.float32)
    for i, e in enumerate(embeddings):
        if e is not None and len(e) == dimension:
            vectors[i] = e
    return ScopeRows(ids, scopes, vectors, texts)


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
        [str(r["text"]) for r in rows],
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
            [str(c["text"]) for c in changed],
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


def start(tx: Transaction, lucene: str | None, where: SearchFilter, *, text_k: int, text_limit: int) -> Start:
    """The graph's revisions of the scopes of ``where`` and the fulltext matches of ``lucene``
    that pass ``where`` (the best ``text_limit`` of the index's ``text_k``; none for None), in one
    round trip that needs no query vector."""
    rows = tx.run(
        "search/cached_recall_start",
        text_k=text_k,
        text_limit=text_limit,
        **keyword_params(lucene, where.paths()),
        **where.params(),
    )
    row = rows[0]
    fulltext = [dict(zip(CANDIDATE_COLUMNS, values, strict=True)) for values in row["fulltext"]]
    return Start({str(s): int(r) for s, r in row["revisions"]}, fulltext)


def _candidate_facts(values: list[Any]) -> Facts:
    """The ranking facts of a candidate row given as a list in :data:`CANDIDATE_COLUMNS` order
    (after its id and score, the facts' own order)."""
    return ranking_facts(*values[2:])


def checked(
    tx: Transaction,
    hits: list[tuple[str, float, str]],
    where: SearchFilter,
    *,
    limit: int,
    expansion: Expansion | None,
    neighbours_where: SearchFilter,
    context: Callable[[dict[str, list[str]]], dict[str, Surroundings] | None],
    held: Callable[[list[str]], dict[str, tuple[float, str]] | None],
    texts_of: Callable[[list[str]], dict[str, str] | None],
    centrality: Callable[[list[str]], dict[str, float] | None],
) -> Checked:
    """Vector hits (id, cosine, text as the cache holds them; best first) kept where they pass
    ``where`` (the first ``limit``), in one round trip with the neighbourhood of ``expansion``
    (filtered by ``neighbours_where``) when one is given. The graph sends no text or embedding
    the cache holds: a hit keeps the cached text its cosine came from; ``held`` gives each
    neighbour's cosine to the query and text (None when the cache lacks one), and the episode
    context of each memory comes as the ids of its neighbours (memory -> ids), which ``context``
    turns into :class:`Surroundings` (None when it cannot), and the records of the pool come
    without texts, which ``texts_of`` gives (None when the cache lacks one), and ``centrality``
    gives how central each of the expansion's ``context_of`` is among them (None when it cannot).
    Without any of them, the expansion is not kept (recall reads it from the graph). The caller
    compares the revisions read with the ones its cache is current with: all of this holds only
    when they are the same."""
    expand = expansion or Expansion((), (), (), 0)
    texts = {i: t for i, _, t in hits}
    rows = tx.run(
        "search/cached_recall_expand",
        hits=[{"id": i, "cosine": c, "rank": n} for n, (i, c, _) in enumerate(hits)],
        limit=limit,
        neighbour_statuses=neighbours_where.statuses,
        **expand.params(),
        **where.params(),
    )
    row = rows[0]
    revisions = {str(s): int(r) for s, r in row["revisions"]}
    # a hit is a list as CANDIDATE_COLUMNS; one of the pool is its id and cosine alone (its facts
    # come with its detail row)
    values = {str(d[0]): d for d in row["details"]}
    vector = [
        Candidate(
            str(h[0]),
            float(h[1]),
            _candidate_facts(h) if len(h) > 2 else detail_facts(values[h[0]]),
            float(h[1]),
            texts[str(h[0])],
        )
        for h in row["hits"]
    ]
    if expansion is None:
        return Checked(vector, None, revisions)
    around = context({str(r["id"]): [str(n) for n in r["near"]] for r in row["around"]})
    known = held([str(r["id"]) for r in row["neighbours"]]) if around is not None else None
    texts_in_pool = texts_of(list(values)) if known is not None else None
    central = centrality(list(expand.context_of)) if texts_in_pool is not None else None
    if around is None or known is None or texts_in_pool is None or central is None:
        return Checked(vector, None, revisions)
    details = DetailRows(values, texts_in_pool)
    neighbours = [
        Neighbour(
            str(r["seed"]),
            str(r["via"]),
            str(r["id"]),
            details.facts(str(r["id"])),
            *known[str(r["id"])],
            int(r["mentioned_by"] or 0),
        )
        for r in row["neighbours"]
    ]
    return Checked(vector, (neighbours, Pool(details, around, central)), revisions)


def fulltext_candidates(rows: list[Row], held: Callable[[str], tuple[float, str]]) -> list[Candidate]:
    """Fulltext candidates of :func:`start`, each with its cosine to the query and its text from
    ``held`` (the cache's)."""
    return [Candidate(str(r["id"]), float(r["score"]), facts_of(r), *held(str(r["id"]))) for r in rows]
