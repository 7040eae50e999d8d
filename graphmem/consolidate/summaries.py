"""C5: every (scope, category) gets a summary rebuilt from scratch from its active memories.

The summary is extractive (the strongest memories of the category, within 600 characters) and
points with DERIVED_FROM at the memories it quotes; a category with no active memory loses its
summary. Rebuilding an unchanged category changes nothing.
"""

from __future__ import annotations

import uuid

from graphmem.consolidate.context import RunContext
from graphmem.consolidate.distil import category_summary
from graphmem.store.consolidation import ConsolidationStore

STEP = "C5 category summaries"
PER_CATEGORY = 5


class CategorySummaries:
    """C5 over the whole graph (cheap: one aggregate read, one write per category)."""

    def __init__(self, store: ConsolidationStore) -> None:
        self._store = store

    def run(self, ctx: RunContext) -> None:
        """Rebuild every category summary; drop the ones whose category emptied."""
        rows = self._store.category_members(PER_CATEGORY)
        keep: list[list[str]] = []
        for done, row in enumerate(rows, start=1):
            top = row["top"]
            text = category_summary(row["category"], int(row["items"]), [m["text"] for m in top])
            changed = self._store.upsert_summary(
                row["scope"],
                row["category"],
                str(uuid.uuid4()),
                text,
                int(row["items"]),
                [m["id"] for m in top],
                ctx.now,
            )
            ctx.counts["summaries"] += int(changed)
            keep.append([row["scope"], row["category"]])
            ctx.progress(STEP, done, len(rows))
        ctx.counts["summaries_removed"] += self._store.drop_summaries_except(keep)
