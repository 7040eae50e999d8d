"""R5 trust pass: tag what the caller should not take at face value, conflicts surfaced best first."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta

from graphmem.beliefs.judge import judge
from graphmem.beliefs.statements import read_statement, speaker_in
from graphmem.models import Recalled

UNCERTAIN_BELOW = 0.3


def conflicting_pairs(results: list[Recalled], edges: Iterable[tuple[str, str]]) -> set[frozenset[str]]:
    """Pairs of results that cannot both be true: a CONTRADICTS edge, or the offline judge says so."""
    pairs = {frozenset(edge) for edge in edges}
    statements = [read_statement(r.text, speaker_in(r.metadata)) for r in results]
    for i, a in enumerate(results):
        for j in range(i + 1, len(results)):
            b = results[j]
            if a.scope == b.scope and judge(statements[i], statements[j], 1.0).conflict:
                pairs.add(frozenset((a.id, b.id)))
    return pairs


def trust_pass(
    results: list[Recalled], edges: Iterable[tuple[str, str]], now: datetime, stale_after: timedelta
) -> list[Recalled]:
    """Tag results ``uncertain`` (confidence < 0.3), ``stale`` (unconfirmed for ``stale_after``) and
    ``conflict`` (disagreeing with another result); in a conflict the more confident (then newer)
    memory moves ahead of the other."""
    conflicts = conflicting_pairs(results, edges)
    in_conflict = {memory_id for pair in conflicts for memory_id in pair}
    tagged = []
    for r in results:
        tags = list(r.tags)
        if r.confidence < UNCERTAIN_BELOW:
            tags.append("uncertain")
        confirmed = max(r.occurred_at, r.last_accessed_at or r.occurred_at)
        if now - confirmed > stale_after:
            tags.append("stale")
        if r.id in in_conflict:
            tags.append("conflict")
        tagged.append(r.model_copy(update={"tags": list(dict.fromkeys(tags))}))
    position = {r.id: i for i, r in enumerate(tagged)}
    for pair in conflicts:
        a, b = sorted(pair, key=lambda i: position[i])
        first, second = tagged[position[a]], tagged[position[b]]
        if (second.confidence, second.occurred_at) > (first.confidence, first.occurred_at):
            tagged[position[a]], tagged[position[b]] = second, first
            position[a], position[b] = position[b], position[a]
    return tagged
