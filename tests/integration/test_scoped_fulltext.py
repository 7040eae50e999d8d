"""Keyword (BM25) candidates of a scoped recall come from the scope, not its share of the graph's best."""

from __future__ import annotations

import pytest

from graphmem.embedding.base import Embedder
from graphmem.memory import Memory
from graphmem.models import MemoryInput, RecallQuery
from graphmem.recall.search import search_filter
from graphmem.store import scope_vectors
from graphmem.store.executor import Transaction
from graphmem.store.fulltext import keyword_params
from graphmem.store.search import SearchStore

pytestmark = pytest.mark.integration

WORD = "quokkaberry"  # in no other test's memories


def crowd_and_mine(memory: Memory, scope: str) -> str:
    """150 short memories that match WORD better, each in its own scope, and 3 long ones in
    ``scope``/mine that match it worse; returns the scope of the 3."""
    crowd = [
        MemoryInput(text=f"{WORD.title()} {WORD} number {i}.", scope=f"{scope}/crowd{i}") for i in range(150)
    ]
    mine = f"{scope}/mine"
    own = [
        MemoryInput(text=f"{t} and, once, about a {WORD} pie.", scope=mine)
        for t in (
            "On a long walk by the lake we talked about gardens, trains, the weather, old friends",
            "Over dinner at the station cafe my sister complained about her new job in insurance",
            "The plumber fixed the leaking kitchen tap on Tuesday and chatted about football",
        )
    ]
    memory.remember_batch(crowd + own)
    return mine


def test_a_scope_gets_its_keyword_matches_below_other_scopes_best(
    memory: Memory, scope: str, embedder: Embedder
) -> None:
    mine = crowd_and_mine(memory, scope)
    where = search_filter(RecallQuery(query=WORD, scope=mine))
    store = SearchStore(memory._executor)

    def keyword_hits(tx: Transaction) -> tuple[int, list[str]]:
        started = scope_vectors.start(tx, WORD, where, text_k=100, text_limit=50)
        _, fulltext = store.candidates(
            tx,
            [float(x) for x in embedder.embed_one(WORD)],
            WORD,
            where,
            k=100,
            limit=50,
            min_results=10,
            text_k=100,
            text_limit=50,
        )
        return len(started.fulltext), [c.text for c in fulltext]

    cached_first, fulltext = memory._executor.read_statements(keyword_hits, "test")
    assert cached_first == 3
    assert len(fulltext) == 3 and all(WORD in t for t in fulltext)
    found = memory.recall(f"{WORD} pie", scope=mine)
    assert found.results and all("keyword match" in r.match_reasons for r in found.results)


def test_scores_in_the_scope_equal_the_whole_graph_index_scores(memory: Memory, scope: str) -> None:
    mine = crowd_and_mine(memory, scope)
    where = search_filter(RecallQuery(query=WORD, scope=mine))

    def hits(tx: Transaction, scoped: bool) -> dict[str, float]:
        text = keyword_params(WORD, [mine] if scoped else None)
        rows = tx.run("search/cached_recall_start", text_k=100_000, text_limit=50, **text, **where.params())
        found = [dict(zip(scope_vectors.CANDIDATE_COLUMNS, h, strict=True)) for h in rows[0]["fulltext"]]
        return {str(h["id"]): float(h["score"]) for h in found}

    scoped = memory._executor.read_statements(lambda tx: hits(tx, True), "test")
    whole = memory._executor.read_statements(lambda tx: hits(tx, False), "test")
    assert len(scoped) == 3
    assert scoped == whole
