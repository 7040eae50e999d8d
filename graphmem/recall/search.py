"""Recall: vector and fulltext candidates fused by reciprocal rank, then spread to the graph
neighbourhood of the best hits (episode neighbours, lineage), with a confidence and the gaps."""

from __future__ import annotations

from dataclasses import dataclass

from graphmem.embedding.base import Embedder
from graphmem.models import MemoryRecord, Recalled, RecallQuery, RecallResult
from graphmem.recall.fusion import reciprocal_rank_fusion
from graphmem.recall.lucene import lucene_query
from graphmem.scopes import scope_filter
from graphmem.store.executor import Transaction
from graphmem.store.search import Candidate, Neighbour, SearchFilter, SearchStore

# Cosine similarity of MiniLM embeddings: below LOW nothing is really related, above HIGH it is.
LOW_SIMILARITY = 0.25
HIGH_SIMILARITY = 0.75
_VIA = {"NEXT": "next to a match in its episode", "DERIVED_FROM": "lineage of a match"}


@dataclass(frozen=True)
class RecallSettings:
    """Fusion weights (tuned on LoCoMo with bench/locomo_recall.py)."""

    rrf_k: int = 10
    vector_weight: float = 1.0
    fulltext_weight: float = 1.5
    neighbour_weight: float = 0.5
    expand_top: int = 10
    pool: int = 50


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


@dataclass(frozen=True)
class _Found:
    vector: list[Candidate]
    ranked: list[tuple[str, float, list[str]]]
    memories: dict[str, MemoryRecord]


class Recaller:
    """Answers recall queries from the graph in one read transaction."""

    def __init__(
        self, search: SearchStore, embedder: Embedder, settings: RecallSettings | None = None
    ) -> None:
        self._search = search
        self._embedder = embedder
        self._settings = settings or RecallSettings()

    def recall(self, query: RecallQuery) -> RecallResult:
        """The memories that best answer ``query``."""
        scope, prefix = scope_filter(query.scope)
        statuses = ["active", "superseded"] if query.include_superseded else ["active"]
        where = SearchFilter(scope=scope, scope_prefix=prefix, statuses=statuses, layers=query.layers)
        embedding = self._embedder.embed_one(query.query).tolist()
        lucene = lucene_query(query.query)
        pool = max(self._settings.pool, query.limit * 3)
        s = self._settings

        def work(tx: Transaction) -> _Found:
            vector = self._search.vector(
                tx, embedding, where, k=max(100, pool * 2), limit=pool, min_results=query.limit
            )
            fulltext = self._search.fulltext(tx, lucene, where, k=pool * 2, limit=pool) if lucene else []
            fused = reciprocal_rank_fusion(
                {"vector": [c.id for c in vector], "fulltext": [c.id for c in fulltext]},
                k=s.rrf_k,
                weights={"vector": s.vector_weight, "fulltext": s.fulltext_weight},
            )
            seeds = [memory_id for memory_id, _, _ in fused[: s.expand_top]]
            neighbours = self._search.neighbourhood(tx, seeds, where)
            ranked = self._rank(vector, fused, neighbours, query.limit)
            return _Found(vector, ranked, self._search.fetch(tx, [m for m, _, _ in ranked]))

        found = self._search.read(work)
        results = [
            Recalled(**found.memories[m].model_dump(), score=round(score, 6), match_reasons=reasons)
            for m, score, reasons in found.ranked
            if m in found.memories
        ]
        best = max((c.score for c in found.vector), default=None)
        return RecallResult(
            results=results,
            confidence=similarity_confidence(best),
            evidence_gaps=evidence_gaps(query.query, results),
        )

    def _rank(
        self,
        vector: list[Candidate],
        fused: list[tuple[str, float, list[str]]],
        neighbours: list[Neighbour],
        limit: int,
    ) -> list[tuple[str, float, list[str]]]:
        """Fused scores spread to graph neighbours; the best ``limit`` as (id, score, reasons)."""
        cosine = {c.id: c.score for c in vector}
        scores = {memory_id: score for memory_id, score, _ in fused}
        reasons: dict[str, list[str]] = {
            memory_id: [
                f"vector similarity {cosine[memory_id]:.2f}" if s == "vector" else "keyword match"
                for s in sources
            ]
            for memory_id, _, sources in fused
        }
        base = dict(scores)
        for n in neighbours:
            seed_score, own = base[n.seed_id], scores.get(n.id, 0.0)
            if own < seed_score:  # context rises towards its seed, never above it
                scores[n.id] = min(own + self._settings.neighbour_weight * seed_score, seed_score * 0.999)
            reason = _VIA.get(n.via, n.via)
            if reason not in reasons.setdefault(n.id, []):
                reasons[n.id].append(reason)
        ranked = sorted(scores, key=lambda memory_id: -scores[memory_id])[:limit]
        return [(m, scores[m], reasons[m]) for m in ranked]
