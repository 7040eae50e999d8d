"""Lineage in recall: a derived memory (a semantic memory or schema consolidation distilled from
episodes, C1) and its sources among the results."""

from __future__ import annotations

LINEAGE_POOL = 6  # candidates per result slot checked for DERIVED_FROM lineage
# The best-matching sources a derived memory lifts to its own rank. On LoCoMo after consolidation
# (bench.locomo_recall --consolidate) one keeps evidence recall level with before; more, or
# spreading to every source through the graph, pushes other evidence out of the top 10.
VOUCHED_SOURCES = 1


def vouched(
    ordered: list[tuple[str, float, list[str]]], lineage: dict[str, set[str]]
) -> list[tuple[str, float, list[str]]]:
    """A derived memory's best-matching sources rise to just below it, then all are re-sorted.

    Consolidation fades the sources of a semantic memory (C1); when that memory answers the
    query, the episode it was distilled from that matches the query best is the evidence behind
    it and ranks with it (only ``VOUCHED_SOURCES``, so one cluster does not fill every slot).
    """
    score = {m: sc for m, sc, _ in ordered}
    lifted = dict(score)
    for derived, sources in lineage.items():
        if derived not in score:
            continue
        best = sorted((s for s in sources if s in score), key=lambda s: -score[s])[:VOUCHED_SOURCES]
        for source in best:
            lifted[source] = max(lifted[source], score[derived] * 0.999)
    out = [(m, lifted[m], reasons) for m, _, reasons in ordered]
    return sorted(out, key=lambda e: -e[1])


def evidence_first(
    ordered: list[tuple[str, float, list[str]]],
    lineage: dict[str, set[str]],
    limit: int,
    copies: frozenset[str] = frozenset(),
) -> list[tuple[str, float, list[str]]]:
    """The best ``limit``, where a derived memory gives its slot up to its own sources.

    A semantic memory or schema summarises its sources; when one of them is returned too, the
    summary adds a slot of repetition and takes one from other evidence. So a derived memory is
    returned only when none of its sources is (it then stands in for them), and its sources carry
    the reason ``summarised as <id>``. An extractive summary (``copies``: written offline, it
    repeats its central source) steps aside for any of its sources among the candidates, since
    the source it vouched for says the same with its own time and metadata.
    """
    chosen: list[tuple[str, float, list[str]]] = []
    dropped: set[str] = set()
    while True:
        chosen = []
        for entry in ordered:
            if len(chosen) == limit:
                break
            if entry[0] not in dropped:
                chosen.append(entry)
        ids = {m for m, _, _ in chosen}
        redundant = {d for d in ids if lineage.get(d, set()) & ids or (d in copies and d in lineage)}
        redundant -= dropped
        if not redundant:
            break
        dropped |= redundant
    summary_of = {s: d for d in dropped for s in lineage.get(d, set())}
    return [
        (m, score, [*reasons, f"summarised as {summary_of[m]}"] if m in summary_of else reasons)
        for m, score, reasons in chosen
    ]
