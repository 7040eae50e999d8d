"""C1 episodic → semantic and C2 semantic → schema: cluster what changed, distil each cluster once.

A cluster whose members already feed a derived memory grows it (the new members join with
DERIVED_FROM and fade); a cluster of fresh members becomes a new derived memory. Members that
already feed one never feed a second, so a second run over the same graph changes nothing.
"""

from __future__ import annotations

import uuid
from collections import Counter
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from graphmem.consolidate.clustering import Cluster, centroid, density_clusters, fade_factor
from graphmem.consolidate.context import RunContext
from graphmem.consolidate.distil import Distillation, Distiller, Kind, Member
from graphmem.consolidate.neighbourhood import knn_graph, shared_knn
from graphmem.consolidate.settings import ConsolidationSettings
from graphmem.consolidate.topic_terms import ScopeWords
from graphmem.consolidate.topics import nearest, topic_clusters, topic_nodes
from graphmem.embedding.base import Embedder, blend
from graphmem.entities.names import entity_key
from graphmem.store.consolidation import ConsolidationStore, DerivedMemory, MemberRow, SourceLink

DETAIL_PAGE = 1000


@dataclass(frozen=True)
class Layering:
    """Which layer a pass reads, which it writes, and how."""

    step: str
    source_layer: str
    target_layer: str
    kind: Kind
    eps: float
    counter: str  # the run count a new derived memory adds to
    archived: bool = False  # C4 insights cluster archived memories
    topics: bool = False  # cluster on the graph of topic signals (vectors, entities, time, NEXT)


SEMANTIC = Layering("C1 episodic→semantic", "episodic", "semantic", "semantic", 0.35, "promoted", topics=True)
SCHEMA = Layering("C2 semantic→schema", "semantic", "schema", "schema", 0.45, "schemas")
INSIGHT = Layering("C4 insights", "episodic", "semantic", "insight", 0.35, "insights", archived=True)


def _majority(values: Iterable[str], share: float = 0.5) -> list[str]:
    counts = Counter(values)
    total = sum(counts.values())
    return sorted(v for v, n in counts.items() if total and n / total >= share)


class Promotion:
    """One layering pass over what changed since the last run."""

    def __init__(
        self,
        store: ConsolidationStore,
        embedder: Embedder,
        distiller: Distiller,
        settings: ConsolidationSettings,
        layering: Layering,
    ) -> None:
        self._store = store
        self._embedder = embedder
        self._distiller = distiller
        self._settings = settings
        self._layering = layering

    def run(self, ctx: RunContext, seeds: Iterable[list[tuple[str, str]]] | None = None) -> None:
        """Cluster the changed memories (or ``seeds``) and write each cluster's derived memory."""
        lay = self._layering
        s = self._settings
        if seeds is None:
            seeds = self._store.changed_ids(lay.source_layer, ctx.since, s.small_page)
        if lay.archived:
            near = knn_graph(
                self._store,
                seeds,
                ctx,
                lay.step,
                layer=lay.source_layer,
                k=s.neighbours,
                candidates=s.candidates,
                min_cosine=1.0 - lay.eps,
                batch=s.batch,
                exact_max=s.exact_scope_max,
                bulk_share=s.bulk_share,
                archived=True,
            )
        elif lay.topics:
            near = shared_knn(
                self._store,
                ctx,
                lay.step,
                seeds,
                layer=lay.source_layer,
                k=max(s.topics.neighbours, s.neighbours),  # C1's second pass ranks among the rest
                min_cosine=s.topic_min_cosine,
                read_k=s.neighbours,
                read_min_cosine=s.topic_min_cosine,
                candidates=s.candidates,
                batch=s.batch,
                exact_max=s.exact_scope_max,
                bulk_share=s.bulk_share,
                history=s.topic_history,
            )
        else:
            near = shared_knn(
                self._store,
                ctx,
                lay.step,
                seeds,
                layer=lay.source_layer,
                k=s.neighbours,
                min_cosine=1.0 - lay.eps,
                read_k=s.neighbours,
                read_min_cosine=1.0 - lay.eps,
                candidates=s.candidates,
                batch=s.batch,
                exact_max=s.exact_scope_max,
                bulk_share=s.bulk_share,
            )
        if lay.topics:
            ids = topic_nodes(nearest(near.graph, s.topics))
            signals = self._store.topic_signals(
                ids,
                "active",
                s.small_page,
                history=s.topic_history,
                owner_keys=[entity_key(name) for name in s.topics.owner],
                derived_layer=lay.target_layer,
                derived_kind="cluster",
            )
            details = signals.details
            # the words a topic's summary names are rare in its scope (graphmem.consolidate.topic_terms)
            words: ScopeWords | None = ScopeWords.of(signals.texts, signals.scopes, s.topics.owner)
            clusters = topic_clusters(
                near.graph,
                near.vectors,
                signals,
                s.topics,
                s.min_cluster,
                s.max_cluster,
                processes=s.processes,
            )
        else:
            clusters = density_clusters(near.graph, lay.eps, s.min_cluster, s.max_cluster)
            details = {}
            words = None
        ctx.counts[f"seen_{lay.counter}_clusters"] += len(clusters)
        pages = [
            clusters[start : start + DETAIL_PAGE // 4] for start in range(0, len(clusters), DETAIL_PAGE // 4)
        ]

        def read(page: list[Cluster]) -> dict[str, MemberRow]:
            ids = [m for c in page for m in c.members]
            return self._store.members(
                ids, lay.target_layer, "insight" if lay.archived else "cluster", near.vectors, details
            )

        # the next page's members are read while this page is distilled and written: the pages'
        # clusters share no member, so a write changes nothing the next read returns. C1 read its
        # members' fields with the topic signals (``details``): a first nightly at 50k read 48,000
        # members a second time (8 s), and reads here only the vectors not at hand
        with ThreadPoolExecutor(max_workers=1) as pool:
            ahead = [pool.submit(read, page) for page in pages[:1]]
            for i, page in enumerate(pages):
                rows = ahead.pop().result()
                ahead += [pool.submit(read, nxt) for nxt in pages[i + 1 : i + 2]]
                self._write(ctx, page, rows, words)
                ctx.heartbeat()
                ctx.progress(lay.step, min(sum(map(len, pages[: i + 1])), len(clusters)), len(clusters))

    def _write(
        self,
        ctx: RunContext,
        clusters: Sequence[Cluster],
        rows: dict[str, MemberRow],
        words: ScopeWords | None = None,
    ) -> None:
        lay = self._layering
        owner = {entity_key(name) for name in self._settings.topics.owner} if lay.topics else set()
        fresh: list[tuple[list[MemberRow], list[SourceLink]]] = []
        attachments: list[tuple[str, list[SourceLink]]] = []
        centers: list[np.ndarray] = []
        for cluster in clusters:
            members = [rows[i] for i in cluster.members if i in rows]
            if len(members) < self._settings.min_cluster:
                continue
            center = centroid(np.stack([m.embedding for m in members]))
            new = [m for m in members if m.derived_by is None]
            if not new:
                continue
            links = [self._link(m, center) for m in new]
            owners = Counter(m.derived_by for m in members if m.derived_by is not None)
            if owners:  # the cluster already has a derived memory: the newcomers join it
                target, _ = max(owners.items(), key=lambda kv: (kv[1], kv[0]))
                attachments.append((target, links))
            elif len(new) >= self._settings.min_cluster:
                fresh.append((new, links))
                centers.append(center)
        statuses = self._source_statuses()
        ctx.counts["extended"] += self._store.attach(attachments, ctx.now, ctx.run_id, statuses)
        if not fresh:
            return
        distilled = []
        for (members, _), center in zip(fresh, centers, strict=True):
            view = [
                Member(
                    m.id,
                    m.text,
                    float(m.embedding @ center),
                    tuple(e for e in m.entities if entity_key(e) not in owner),  # 'User' names no topic
                    m.status != "active",
                    m.occurred_at,
                    m.scope,
                )
                for m in members
            ]
            result = self._distiller.distil(lay.kind, view, words)
            ctx.llm_calls += result.usage.calls
            ctx.cost_usd += result.usage.cost_usd
            distilled.append(result)
        vectors = self._vectors([members for members, _ in fresh], distilled)
        batch = []
        for (members, links), result, vector in zip(fresh, distilled, vectors, strict=True):
            memory = DerivedMemory(
                id=str(uuid.uuid4()),
                text=result.text,
                layer=lay.target_layer,
                kind="insight" if lay.archived else "cluster",
                scope=members[0].scope,
                categories=_majority(c for m in members for c in m.categories),
                importance=max(m.importance for m in members),
                confidence=float(np.mean([m.confidence for m in members])),
                occurred_at=max(m.occurred_at for m in members),
                metadata={"sources": len(members), "extractive": result.extractive, "job_run_id": ctx.run_id},
                embedding=[float(x) for x in vector],
            )
            batch.append((memory, links))
        made = self._store.create_derived(
            batch,
            min_sources=self._settings.min_cluster,
            source_statuses=statuses,
            now=ctx.now,
            run_id=ctx.run_id,
        )
        ctx.counts[lay.counter] += len(made)
        ctx.counts[f"{lay.counter}_sources"] += sum(made.values())

    def _vectors(
        self, clusters: Sequence[Sequence[MemberRow]], distilled: Sequence[Distillation]
    ) -> NDArray[np.float32]:
        """Each derived memory's vector: for an extractive summary, the mean direction of the
        statements it quotes (their vectors are at hand); a model's statement is embedded.

        An extractive summary is its cluster's shared entities and two or three of its members'
        statements: embedding it again made most of C1's time on a first run (3,462 summaries of
        ~260 characters at 50k memories: 99 of C1's 158 s at load 10), and the statements' own
        vectors say what it says (cosine 0.90 on average to the summary's embedding, over 600
        clusters of topic-thread episodes and LoCoMo turns).
        """
        out = np.zeros((len(distilled), self._embedder.dimension), dtype=np.float32)
        to_embed: list[int] = []
        for i, (members, result) in enumerate(zip(clusters, distilled, strict=True)):
            by_id = {m.id: m.embedding for m in members}
            quoted = [by_id[q] for q in result.quoted if q in by_id]
            if result.extractive and quoted:
                out[i] = blend(np.stack(quoted))
            else:
                to_embed.append(i)
        if to_embed:
            out[to_embed] = self._embedder.embed([distilled[i].text for i in to_embed])
        return out

    def _source_statuses(self) -> list[str]:
        """The statuses a source may have when its derived memory is written."""
        if self._layering.archived:
            return ["archived"]
        if self._layering.topics and self._settings.topic_history:
            return ["active", "superseded"]  # the clustering read only superseded episodes kept as history
        return ["active"]

    def _link(self, member: MemberRow, center: np.ndarray) -> SourceLink:
        similarity = float(member.embedding @ center)
        gamma = 1.0 if self._layering.archived else fade_factor(similarity)
        return SourceLink(member.id, round(similarity, 6), gamma)
