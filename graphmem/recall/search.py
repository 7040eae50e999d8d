"""Recall: vector and fulltext candidates scored by relevance (cosine plus keyword evidence, each
candidate also read in its episode context: recall/ranking.py, recall/episode_context.py), spread
to the graph neighbourhood of the best hits, reweighted by memory dynamics and intent, then a
trust pass.

Round trips to Neo4j, each an auto-commit read: candidates (vector, ANN or an exact scan of a
small scope; and fulltext), then the neighbourhood of the best with the records, lineage and
conflicts of the whole pool (and a vector query per sub-query when the best match is weak).

A scoped recall that the in-process vector cache answers (recall/vector_cache.py) takes two round
trips. The first reads the fulltext candidates and the scopes' revisions while the query is
embedded in another thread. Then the cache ranks, and recall chooses what to expand from the
cached hits and texts as if they had all passed the filters; the second round trip checks the hits
in the graph and reads that expansion with them. When the hits that passed lead to another choice
(a filter dropped one), the expansion is read again: never a different answer. The graph sends
no text the cache holds (hits, neighbours, records and episode context carry the cached texts
their cosines came from), and the scopes' revisions again: when one moved since the first round
trip (a write came in between), recall asks the graph instead of trusting the cache.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import timedelta

from graphmem.clock import Clock, SystemClock
from graphmem.embedding.base import Embedder
from graphmem.models import MemoryRecord, Recalled, RecallQuery, RecallResult
from graphmem.recall.attributes import attributes_asked, elsewhere, names_in, owners_nouns, speaking_of
from graphmem.recall.budget import tight_budget
from graphmem.recall.dated import without_dates
from graphmem.recall.evidence import Found, Hit, Plan, evidence_of, in_context
from graphmem.recall.first_person import read_as_said
from graphmem.recall.hubs import centred
from graphmem.recall.keywords import keyword_shares
from graphmem.recall.latest import asks_how_things_stand, later_first, leaning_later
from graphmem.recall.lineage import LINEAGE_POOL, evidence_first, vouched
from graphmem.recall.lucene import lucene_query
from graphmem.recall.query_vectors import QueryVectors
from graphmem.recall.ranking import (
    Evidence,
    Link,
    RankWeights,
    about_someone_else,
    beliefs_in_order,
    dynamics_bonus,
    intent_bonus,
    ordered,
    relevance,
    spread,
)
from graphmem.recall.scoring import Intent, ScoreWeights, composite_factor, intent_boost
from graphmem.recall.subqueries import sub_queries
from graphmem.recall.trust import in_conflict, trust_tags
from graphmem.recall.vector_cache import Opened, VectorCache
from graphmem.recall.whose import Whose, asked_about, other_subject, stated_of
from graphmem.scopes import scope_filter
from graphmem.store.executor import Transaction
from graphmem.store.search import (
    Candidate,
    Expansion,
    Facts,
    Neighbour,
    Pool,
    SearchFilter,
    SearchStore,
)

# Cosine similarity of MiniLM embeddings: below LOW nothing is really related, above HIGH it is.
LOW_SIMILARITY = 0.25
HIGH_SIMILARITY = 0.75
_VIA = {
    "NEXT": "next to a match in its episode",
    "SUPERSEDES": "belief chain of a match",
    "MENTIONS": "shares an entity with a match",
    "REPLACES": "replaced a belief that matches",
}


@dataclass(frozen=True)
class RecallSettings:
    """Ranking weights (see recall/ranking.py), search depths and the trust pass's horizon."""

    ranking: RankWeights = field(default_factory=RankWeights)
    max_entity_mentions: int = 25
    expand_top: int = 10
    pool: int = 50
    query_weight: float = 0.6
    stale_after_days: float = 180.0
    deep_below: float = 0.3
    sub_query_budget: int = 3
    weights: ScoreWeights = field(default_factory=ScoreWeights)
    # Scoped recall ranks by vector in process (recall/vector_cache.py): at most this many memories
    # are held (4 bytes x dimension each and the text: 384 floats and a chat turn make about 170 MB
    # per 100k); 0 turns the cache off.
    vector_cache_rows: int = 250_000


def entity_weight(neighbour: Neighbour, candidates: int) -> float:
    """How telling a shared entity is: an entity that most of the candidates mention (the user's
    own name in their memory) tells nothing of which one answers; 1.0 for other links."""
    if neighbour.via != "MENTIONS" or candidates <= 0:
        return 1.0
    return max(0.0, 1.0 - neighbour.mentioned_by / candidates)


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


def search_filter(query: RecallQuery) -> SearchFilter:
    """The Cypher-side filter a recall query asks for."""
    paths = [*([query.scope] if query.scope is not None else []), *(query.scopes or [])]
    pairs = [scope_filter(p) for p in paths]
    scopes = (
        None if not pairs or any(path is None for path, _ in pairs) else [(p, x) for p, x in pairs if p and x]
    )
    as_of = query.as_of
    statuses = ["active", "superseded"] if query.include_superseded or as_of is not None else ["active"]
    return SearchFilter(
        scopes=scopes, statuses=statuses, layers=query.layers, as_of=as_of, categories=query.categories
    )


@dataclass(frozen=True)
class _Ahead:
    """An expansion read with the cached hits, and the plan it was read for (from those hits as
    the cache held them, before the graph checked them)."""

    hits: list[tuple[str, float, str]]
    plan: Plan
    rows: tuple[list[Neighbour], Pool]

    def plan_for(self, vector: list[Candidate], deep: list[Candidate]) -> Plan | None:
        """The plan, when the checked candidates are the hits it was made from (none dropped, no
        text changed, no sub-query added): it is then the plan they lead to."""
        same = not deep and [(c.id, c.cosine, c.text) for c in vector] == self.hits
        return self.plan if same else None


@dataclass(frozen=True)
class _Found:
    vector: list[Candidate]
    ranked: list[tuple[str, float, list[str]]]
    memories: dict[str, MemoryRecord]
    contradictions: list[tuple[str, str]]


class Recaller:
    """Answers recall queries from the graph in one read transaction."""

    def __init__(
        self,
        search: SearchStore,
        embedder: Embedder,
        settings: RecallSettings | None = None,
        clock: Clock | None = None,
    ) -> None:
        self._search = search
        self._settings = settings or RecallSettings()
        self._clock = clock or SystemClock()
        self._vectors = QueryVectors(embedder, self._settings.query_weight)
        rows = self._settings.vector_cache_rows
        self._cache = VectorCache(embedder.dimension, rows) if rows > 0 else None

    @staticmethod
    def _texts(query: RecallQuery) -> tuple[str, ...]:
        return (query.query, *(query.recent_context or []))

    @staticmethod
    def _asked(query: RecallQuery) -> RecallQuery:
        """The query as recall reads it: asked as of a date, without the words naming the date
        (recall/dated.py; the ``as_of`` filter says when)."""
        if query.as_of is None:
            return query
        return query.model_copy(update={"query": without_dates(query.query)})

    def prefetch(self, query: RecallQuery) -> None:
        """Start computing the query vector of ``query`` in another thread, for the recall of it
        that follows (the REST route calls this as the request arrives)."""
        self._vectors.ahead(self._texts(self._asked(query)))

    def _query_vector(self, query: RecallQuery, *, ahead: bool) -> Callable[[], list[float]]:
        """The query's vector, as a call that returns it. With ``ahead``, a vector not cached is
        computed in another thread while the caller sends what does not need it (the fulltext
        candidates); one already under way (:meth:`prefetch`) is waited for."""
        texts = self._texts(query)
        if ahead or self._vectors.under_way(texts):
            return self._vectors.ahead(texts)
        vector = self._vectors.get(texts)
        return lambda: vector

    def recall(self, query: RecallQuery) -> RecallResult:
        """The memories that best answer ``query``.

        For the current truth (no ``as_of``, superseded memories not asked for), retrieval also
        looks at replaced beliefs: one that matches the query hands its score to the belief that
        replaced it ("Where does Ingrid live?" matches "Ingrid lives in Bergen", and "Ingrid moved
        to Tromsø" answers it now), and is itself left out of the results."""
        query = self._asked(query)
        where = search_filter(query)
        current_only = where.statuses == ["active"]
        seek = replace(where, statuses=["active", "superseded"]) if current_only else where
        # The vector cache reads the fulltext candidates while the query vector is computed.
        query_vector = self._query_vector(query, ahead=self._cache is not None and self._cache.answers(seek))
        lucene = lucene_query(query.query)
        # X6: under a tight token budget the deeper search is skipped (see recall/budget.py).
        deeper = (
            []
            if tight_budget(query.max_tokens, query.limit)
            else sub_queries(query.query, self._settings.sub_query_budget)
        )
        pool = max(self._settings.pool, query.limit * 3)
        s = self._settings

        def work(tx: Transaction) -> _Found:
            opened = (
                self._cache.open(tx, lucene, seek, text_k=pool * 2, text_limit=pool)
                if self._cache is not None
                else None
            )
            embedding = query_vector()
            cached = (
                self._from_cache(tx, opened, query.query, embedding, seek, where, pool, bool(deeper))
                if opened is not None
                else None
            )
            if cached is not None:
                vector, fulltext, ahead = cached
            else:
                ahead = None
                vector, fulltext = self._search.candidates(
                    tx,
                    embedding,
                    lucene,
                    seek,
                    k=max(100, pool * 2),
                    limit=pool,
                    min_results=query.limit,
                    text_k=pool * 2,
                    text_limit=pool,
                )
            best = max((c.score for c in vector), default=None)
            deep: list[Candidate] = []
            if similarity_confidence(best) < s.deep_below:  # R4: search deeper, within the budget
                for text in deeper:
                    vec = self._vectors.get((text,))
                    deep += self._nearest(tx, opened, vec, seek, pool * 2)
            plan = (ahead and ahead.plan_for(vector, deep)) or self._plan(query.query, vector, fulltext, deep)
            evidence, reasons, pool_texts = plan.evidence, plan.reasons, plan.texts
            neighbours, pool_rows = (
                ahead.rows
                if ahead is not None and ahead.plan.expansion == plan.expansion
                else self._search.neighbourhood(tx, plan.expansion, embedding, where)
            )
            # Each candidate read in its episode context (it came in the same round trip, so it
            # weighs in after the seeds are chosen: on dev LoCoMo 0.6966 vs 0.6972 before them).
            evidence = in_context(query.query, evidence, pool_texts, pool_rows.surroundings)
            # ... and measured from the candidates' centre, so a hub near all of them says less.
            evidence = centred(evidence, pool_rows.centrality, s.ranking.hub)
            # First-person memories read as said by the person asked about (recall/first_person.py).
            asked, names = asked_about(query.query), names_in(query.query)
            said = read_as_said(
                query.query, asked, evidence, pool_texts, embedding, self._vectors.each, names
            )
            evidence, pool_texts, voice = said.evidence, said.texts, said.name
            read_as = f"read as said by {voice}" if voice else "read as whose it is"
            for m in said.raised:
                reasons.setdefault(m, []).append(read_as)
            base = {m: relevance(e, s.ranking) for m, e in evidence.items()}
            for m, e in evidence.items():
                if e.context > e.cosine:
                    reasons.setdefault(m, []).append(f"episode context similarity {e.context:.2f}")
            fresh = {n.id: n.text for n in neighbours if n.id not in base}
            shares = keyword_shares(query.query, fresh, pool_texts) if fresh else {}
            for n in neighbours:  # keyword evidence of a neighbour, weighed among the candidates
                if n.id in fresh:
                    base[n.id] = relevance(Evidence(cosine=n.cosine, keyword=shares[n.id]), s.ranking)
            fresh = said.rewrite(fresh)
            others: set[str] = set()
            if asked is not None and s.ranking.other_subject:
                for m, text in [*pool_texts.items(), *fresh.items()]:
                    if m in base and other_subject(asked, stated_of(text)):
                        e = evidence.get(m) or Evidence(cosine=0.0, keyword=shares.get(m, 0.0))
                        base[m] -= about_someone_else(e, s.ranking)
                        others.add(m)
                        reasons.setdefault(m, []).append("about someone else than asked")
            # A memory speaking of the attribute asked about (where someone lives, works...).
            attributes = attributes_asked(query.query)
            texts = {**pool_texts, **fresh}
            off_topic: frozenset[str] = frozenset()
            if s.ranking.attribute:
                related = {m for m, r in base.items() if r >= LOW_SIMILARITY and m not in others}
                nouns = owners_nouns(asked, attributes)
                speaking = speaking_of(attributes, texts, related, asked, nouns, names)
                for m in speaking:
                    base[m] += s.ranking.attribute
                    reasons.setdefault(m, []).append("speaks of what is asked about")
                # lowered after the graph spread: which memories are related stays as it was
                off_topic = frozenset(elsewhere(attributes, texts, related - speaking.keys()))
                for m in off_topic:
                    reasons.setdefault(m, []).append("speaks of something else than asked")
            # Asked how things stand now, the later of two statements on one thing first.
            stands = asks_how_things_stand(query.query, attributes)
            now = current_only and s.ranking.follower_share > 0 and stands
            latest = (texts, asked, attributes, names) if now else None
            ranked = self._rank(
                vector,
                fulltext,
                deep,
                base,
                reasons,
                neighbours,
                query.intent,
                current_only,
                frozenset(others),
                latest,
                off_topic,
            )
            # Records, lineage and conflicts of the pool came with the neighbourhood, before choosing.
            details = pool_rows.details([m for m, _, _ in ranked[: query.limit * LINEAGE_POOL]])
            chosen = evidence_first(
                vouched(ranked, details.lineage), details.lineage, query.limit, details.copies
            )
            ids = {m for m, _, _ in chosen}
            records = {m: details.records[m] for m in ids if m in details.records}
            missing = [m for m in ids if m not in records]
            if missing:  # deleted since the candidates were read, or beyond them: read it again
                records.update(self._search.details(tx, missing).records)
            conflicts = [(a, b) for a, b in details.contradictions if a in ids and b in ids]
            return _Found(vector, chosen, records, conflicts)

        found = self._search.read(work)
        results = self._results(found)
        best = max((c.score for c in found.vector), default=None)
        return RecallResult(
            results=results,
            confidence=similarity_confidence(best),
            evidence_gaps=evidence_gaps(query.query, results),
        )

    def _results(self, found: _Found) -> list[Recalled]:
        """The chosen memories as results, best first, each with its score, reasons and trust tags
        (R5). Built once from records the graph's rows were validated into, so not validated again."""
        scores = beliefs_in_order({m: score for m, score, _ in found.ranked}, found.contradictions)
        in_order = sorted(found.ranked, key=lambda e: -scores[e[0]])
        chosen = [(m, reasons) for m, _, reasons in in_order if m in found.memories]
        conflicted = in_conflict({m for m, _ in chosen}, found.contradictions)
        now, stale_after = self._clock.now(), timedelta(days=self._settings.stale_after_days)
        return [
            Recalled.model_construct(
                **vars(found.memories[m]),
                score=round(scores[m], 6),
                tags=trust_tags(found.memories[m], m in conflicted, now, stale_after),
                match_reasons=reasons,
            )
            for m, reasons in chosen
        ]

    def _plan(
        self, query: str, vector: Sequence[Found], fulltext: Sequence[Found], deep: Sequence[Found]
    ) -> Plan:
        """The evidence of every candidate, and the expansion it leads to: the best ``expand_top``
        by relevance as seeds, every candidate's records, and the context of those with a cosine."""
        s = self._settings
        evidence, reasons, texts = evidence_of(query, vector, fulltext, deep)
        base = {m: relevance(e, s.ranking) for m, e in evidence.items()}
        expansion = Expansion(
            seeds=tuple(ordered(base)[: s.expand_top]),
            pool=tuple(sorted({c.id for c in [*vector, *fulltext, *deep]})),
            context_of=tuple(sorted(m for m, e in evidence.items() if e.cosine)),
            max_entity_mentions=s.max_entity_mentions,
        )
        return Plan(evidence, reasons, texts, expansion)

    def _from_cache(
        self,
        tx: Transaction,
        opened: Opened,
        query: str,
        embedding: list[float],
        seek: SearchFilter,
        where: SearchFilter,
        pool: int,
        deeper: bool,
    ) -> tuple[list[Candidate], list[Candidate], _Ahead | None] | None:
        """Vector and fulltext candidates from the vector cache, and the expansion read with them
        (chosen from the cached hits, as if every one passed the filters; none when the best
        match is weak and the query has sub-queries (``deeper``): they will add candidates). None
        when the cache cannot tell the exact top ``pool`` (the filters dropped too many hits) or
        does not hold a fulltext match (written since the revisions were read)."""
        assert self._cache is not None
        nearest = self._cache.nearest(opened, embedding, pool)
        fulltext = self._cache.fulltext(opened, nearest)
        if fulltext is None:
            return None
        hits = [Hit(m, cosine, cosine, text) for m, cosine, text in nearest.hits[:pool]]
        best = max((h.score for h in hits), default=None)
        weak = similarity_confidence(best) < self._settings.deep_below
        plan = None if weak and deeper else self._plan(query, hits, fulltext, [])
        expansion = None if plan is None else plan.expansion
        checked = self._cache.check(tx, opened, nearest, seek, pool, expansion, where)
        if checked is None:
            return None
        ahead = (
            None
            if plan is None or checked.expanded is None
            else _Ahead(nearest.hits[:pool], plan, checked.expanded)
        )
        return checked.vector, fulltext, ahead

    def _nearest(
        self, tx: Transaction, opened: Opened | None, embedding: list[float], where: SearchFilter, limit: int
    ) -> list[Candidate]:
        """The ``limit`` nearest memories by vector alone (a sub-query): from the vector cache when
        it answers this recall, else from the graph's index (an exact scan when scopes are narrow)."""
        if opened is not None and self._cache is not None:
            checked = self._cache.check(
                tx,
                opened,
                self._cache.nearest(opened, embedding, limit),
                where,
                limit,
                None,
                where,
            )
            if checked is not None:
                return checked.vector
        return self._search.vector(tx, embedding, where, k=limit * 2, limit=limit, min_results=1)

    def _rank(
        self,
        vector: list[Candidate],
        fulltext: list[Candidate],
        deep: list[Candidate],
        base: dict[str, float],
        reasons: dict[str, list[str]],
        neighbours: list[Neighbour],
        intent: Intent | None,
        current_only: bool,
        others: frozenset[str] = frozenset(),
        latest: tuple[dict[str, str], Whose | None, frozenset[str], frozenset[str]] | None = None,
        off_topic: frozenset[str] = frozenset(),
    ) -> list[tuple[str, float, list[str]]]:
        """Relevance spread to graph neighbours, then nudged by dynamics and intent; best first.
        A memory about someone else than asked (``others``, whose ``base`` is already lowered)
        lifted by a neighbour loses ``other_subject`` of the lift too, and all of it when the lift
        is a replaced belief's (that belief was of the one asked about). With
        ``latest`` (the texts, whose fact is asked for and the attributes it names), the later of
        two statements on one thing ranks first (recall/latest.py). A memory in ``off_topic``
        (speaking only of another attribute than asked) loses ``RankWeights.attribute`` after the
        spread, its relevance (``base``) left as it is."""
        s = self._settings
        facts: dict[str, Facts] = {c.id: c.facts for c in [*deep, *fulltext, *vector]}
        for n in neighbours:
            facts.setdefault(n.id, n.facts)
        links = [Link(n.seed_id, n.id, n.via, entity_weight(n, len(base))) for n in neighbours]
        replaced = frozenset(m for m in base if current_only and facts[m].status == "superseded")
        scores, lifted_by = spread(base, links, s.ranking, replaced)
        retired = {m: scores[m] for m in replaced if m in scores}
        for memory_id in replaced:
            scores.pop(memory_id, None)
        for memory_id in off_topic & scores.keys():  # speaks only of another attribute than asked
            scores[memory_id] -= s.ranking.attribute
        for memory_id in others & scores.keys():
            if "REPLACES" in lifted_by.get(memory_id, ()):
                # A belief of the one asked about, replaced by a statement of someone else's: the
                # two are not one belief, whatever the write path linked.
                scores[memory_id] = base[memory_id]
            elif scores[memory_id] > base[memory_id]:
                scores[memory_id] = max(base[memory_id], scores[memory_id] - s.ranking.other_subject)
        for memory_id, edges in lifted_by.items():
            for edge in sorted(edges):
                reason = _VIA.get(edge, edge)
                if reason not in reasons.setdefault(memory_id, []):
                    reasons[memory_id].append(reason)
        now = self._clock.now()
        for memory_id in scores:
            f = facts[memory_id]
            scores[memory_id] += dynamics_bonus(composite_factor(f, now, s.weights), s.ranking)
            boost = intent_boost(intent, f.categories, f.layer)
            if boost != 1.0:
                scores[memory_id] += intent_bonus(boost, s.ranking)
                if boost > 1.0:
                    reasons.setdefault(memory_id, []).append(f"fits intent {intent}")
        if latest is not None:
            texts, asked, attributes, names = latest
            occurred = {m: facts[m].occurred for m in [*scores, *retired]}
            related = {m for m, r in base.items() if r >= LOW_SIMILARITY}
            scores, moved = later_first(
                scores,
                texts,
                occurred,
                asked,
                s.ranking.follower_share,
                related,
                asked_attributes=attributes,
                names=names,
                retired=retired,
            )
            scores = leaning_later(scores, occurred, related, s.ranking.later_lean)
            for memory_id in sorted(moved):
                reasons.setdefault(memory_id, []).append("said later of the same as a match")
        return [(m, scores[m], reasons.get(m, [])) for m in ordered(scores)]
