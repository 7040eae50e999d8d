"""C4 with D4: unused memories archive after their category's TTL; archived clusters become insights;
archived memories unused for six months go cold. Archived and cold memories are kept, not deleted:
recall skips them, ``get`` and the graph still show them.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

from graphmem.consolidate.context import RunContext
from graphmem.consolidate.distil import Distiller
from graphmem.consolidate.promote import INSIGHT, Promotion
from graphmem.consolidate.settings import ConsolidationSettings
from graphmem.dynamics.decay import decayed_strength
from graphmem.embedding.base import Embedder
from graphmem.store.consolidation import ConsolidationStore

STEP = "C4 archive"
WRITE_BATCH = 500


class Archiving:
    """Archive by TTL, then summarise the archived clusters into insights."""

    def __init__(
        self,
        store: ConsolidationStore,
        embedder: Embedder,
        distiller: Distiller,
        settings: ConsolidationSettings,
    ) -> None:
        self._store = store
        self._settings = settings
        self._insights = {
            layer: Promotion(
                store,
                embedder,
                distiller,
                settings,
                replace(INSIGHT, source_layer=layer, eps=settings.semantic_eps),
            )
            for layer in ("episodic", "semantic")
        }

    def archive(self, ctx: RunContext) -> None:
        """Archive every active memory unused for longer than its TTL (pinned ones never) whose D1
        strength has fallen below ``archive_keep_strength``: a memory used often, at spaced
        intervals, fades slower and outlives its category's TTL until it too has faded."""
        s = self._settings
        candidates = self._store.archive_candidates(ctx.now - timedelta(days=s.shortest_ttl_days))
        due = []
        for c in candidates:
            cutoff = ctx.now - timedelta(days=s.ttl_for(c["categories"]))
            if c["last_used"] >= cutoff:
                continue
            strength = decayed_strength(
                c["strength"], c["last_used"], ctx.now, c["spaced"], fade=c["fade"], faded_at=c["faded_at"]
            )
            if strength < s.archive_keep_strength:
                due.append({"id": c["id"], "cutoff": cutoff})
            else:
                ctx.counts["seen_kept_strong"] += 1
        for start in range(0, len(due), WRITE_BATCH):
            archived = self._store.archive(due[start : start + WRITE_BATCH], ctx.now, ctx.run_id)
            ctx.counts["archived"] += len(archived)
            ctx.heartbeat()
            ctx.progress(STEP, min(start + WRITE_BATCH, len(due)), len(due))

    def summarise(self, ctx: RunContext) -> None:
        """One insight per cluster of archived memories that no insight covers yet."""
        for layer, promotion in self._insights.items():
            promotion.run(ctx, self._store.archived_ids(layer, self._settings.page))

    def cold(self, ctx: RunContext) -> None:
        """Archived memories unused for ``cold_after_days`` move to cold storage."""
        cutoff = ctx.now - timedelta(days=self._settings.cold_after_days)
        ctx.counts["cold"] += self._store.mark_cold(cutoff, ctx.now)
