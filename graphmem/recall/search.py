"""Recall v1: vector and fulltext candidates fused by reciprocal rank, with a confidence."""

from __future__ import annotations

from graphmem.embedding.base import Embedder
from graphmem.models import Recalled, RecallQuery, RecallResult
from graphmem.recall.fusion import reciprocal_rank_fusion
from graphmem.recall.lucene import lucene_query
from graphmem.scopes import scope_filter
from graphmem.store.search import Candidates, SearchFilter, SearchStore

# Cosine similarity of MiniLM embeddings: below LOW nothing is really related, above HIGH it is.
LOW_SIMILARITY = 0.25
HIGH_SIMILARITY = 0.75


def similarity_confidence(best_cosine: float | None) -> float:
    """Map the best vector similarity to a 0..1 confidence that the answer is in the results."""
    if best_cosine is None:
        return 0.0
    scaled = (best_cosine - LOW_SIMILARITY) / (HIGH_SIMILARITY - LOW_SIMILARITY)
    return round(min(1.0, max(0.0, scaled)), 4)


def evidence_gaps(query: str, results: list[Recalled]) -> list[str]:
    """Query words that no returned memory mentions: what the caller may still need to find."""
    if not results:
        return [f"nothing remembered matches {query!r}"]
    terms = lucene_query(query)
    if terms is None:
        return []
    seen = " ".join(r.text.lower() for r in results)
    return [f"no memory mentions {t!r}" for t in terms.split(" OR ") if t not in seen]


class Recaller:
    """Answers recall queries from the graph."""

    def __init__(self, search: SearchStore, embedder: Embedder) -> None:
        self._search = search
        self._embedder = embedder

    def recall(self, query: RecallQuery) -> RecallResult:
        """The memories that best answer ``query``, fused from vector and fulltext search."""
        scope, prefix = scope_filter(query.scope)
        statuses = ["active", "superseded"] if query.include_superseded else ["active"]
        where = SearchFilter(scope=scope, scope_prefix=prefix, statuses=statuses, layers=query.layers)
        embedding = self._embedder.embed_one(query.query).tolist()
        pool = max(50, query.limit * 3)
        found = self._search.candidates(
            embedding,
            lucene_query(query.query),
            where,
            k=max(100, pool * 2),
            limit=pool,
            min_results=query.limit,
        )
        results = self._fuse(found, query.limit)
        best = max((c.score for c in found.vector), default=None)
        return RecallResult(
            results=results,
            confidence=similarity_confidence(best),
            evidence_gaps=evidence_gaps(query.query, results),
        )

    @staticmethod
    def _fuse(found: Candidates, limit: int) -> list[Recalled]:
        by_id = {c.memory.id: c.memory for c in found.fulltext}
        by_id.update({c.memory.id: c.memory for c in found.vector})
        cosine = {c.memory.id: c.score for c in found.vector}
        fused = reciprocal_rank_fusion(
            {
                "vector": [c.memory.id for c in found.vector],
                "fulltext": [c.memory.id for c in found.fulltext],
            }
        )
        results = []
        for memory_id, score, sources in fused[:limit]:
            reasons = [
                f"vector similarity {cosine[memory_id]:.2f}" if s == "vector" else "keyword match"
                for s in sources
            ]
            results.append(
                Recalled(**by_id[memory_id].model_dump(), score=round(score, 6), match_reasons=reasons)
            )
        return results
