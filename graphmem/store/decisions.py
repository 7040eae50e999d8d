"""The decision aggregate: every read and write of ``Decision`` nodes goes through here.

A decision is linked to the memory it was stated in by ``(d:Decision)-[:RECORDED_IN]->(m:Memory)``
(and keeps that memory's id in ``memory_id``, which survives the memory's deletion). The edge is
not ``DERIVED_FROM``: that one means "distilled from" between memories, and recall follows it.
A reversal is ``(newer:Decision)-[:SUPERSEDES]->(older:Decision)``; the older one's ``status``
becomes ``superseded``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from graphmem.models import DecisionRecord
from graphmem.scopes import scope_filter
from graphmem.store.executor import QueryExecutor, Transaction
from graphmem.store.records import native

DEFAULT_ACTIVE_PER_DOMAIN = 200
_TERM = re.compile(r"[\w+#.-]+")
_CREATE_FIELDS = (
    "id",
    "memory_id",
    "scope",
    "text",
    "choice",
    "reasoning",
    "domain",
    "outcome",
    "decided_at",
    "status",
    "recorded_at",
)


@dataclass(frozen=True)
class ActiveDecision:
    """A stored decision still in force, as the reversal check needs it."""

    id: str
    scope: str
    domain: str
    text: str
    choice: str
    decided_at: datetime


def topic_terms(topic: str | None) -> list[str]:
    """The lower-cased words of a topic; every one must appear in a decision for it to match."""
    if topic is None:
        return []
    return [t.strip(".").lower() for t in _TERM.findall(topic) if t.strip(".")]


def _edge(winner_id: str, loser_id: str, reason: str, row: dict[str, Any]) -> dict[str, Any]:
    return {"winner_id": winner_id, "loser_id": loser_id, "reason": reason, "detected_at": row["detected_at"]}


class DecisionStore:
    """Reads and writes decision nodes through the catalog's ``decisions/`` queries."""

    def __init__(self, executor: QueryExecutor) -> None:
        self._executor = executor

    def active(
        self,
        keys: Sequence[tuple[str, str]],
        *,
        per_key: int = DEFAULT_ACTIVE_PER_DOMAIN,
        tx: Transaction | None = None,
    ) -> list[ActiveDecision]:
        """The active decisions of each (scope, domain), newest first (at most ``per_key`` each);
        read in ``tx`` when given (the write transaction), else in a read transaction of its own."""
        wanted = sorted(set(keys))
        if not wanted:
            return []
        params: dict[str, Any] = {
            "keys": [{"scope": scope, "domain": domain} for scope, domain in wanted],
            "limit": per_key,
        }
        if tx is not None:
            rows = tx.run("decisions/find_active", **params)
        else:
            rows = self._executor.read("decisions/find_active", **params)
        return [
            ActiveDecision(
                id=r["id"],
                scope=r["scope"],
                domain=r["domain"],
                text=r["text"],
                choice=r["choice"],
                decided_at=native(r["decided_at"]),
            )
            for r in rows
        ]

    @staticmethod
    def record(tx: Transaction, rows: Sequence[dict[str, Any]]) -> None:
        """Create the planned decisions and their ``SUPERSEDES`` edges inside the caller's transaction.

        Each row holds the fields of :data:`_CREATE_FIELDS` plus ``supersedes`` and
        ``superseded_by`` (lists of ``{"id", "reason"}``) and ``detected_at``.
        """
        if not rows:
            return
        tx.run("decisions/create_decisions", rows=[{f: r[f] for f in _CREATE_FIELDS} for r in rows])
        edges = [
            {
                "winner_id": r["id"],
                "loser_id": old["id"],
                "reason": old["reason"],
                "detected_at": r["detected_at"],
            }
            for r in rows
            for old in r["supersedes"]
        ]
        edges += [
            {
                "winner_id": new["id"],
                "loser_id": r["id"],
                "reason": new["reason"],
                "detected_at": r["detected_at"],
            }
            for r in rows
            for new in r["superseded_by"]
        ]
        if edges:
            tx.run("decisions/supersede_decisions", rows=edges)

    def find(
        self,
        topic: str | None = None,
        domain: str | None = None,
        scope: str | None = None,
        *,
        statuses: Sequence[str] | None = None,
        limit: int = 100,
    ) -> list[DecisionRecord]:
        """Decisions of the ``scope`` subtree, newest first, every status unless ``statuses`` says.

        ``topic`` matches when each of its words occurs (case-insensitively) in the decision's
        text, choice or reasoning; ``domain`` must match exactly (it is lower-cased first).
        """
        exact, prefix = scope_filter(scope)
        rows = self._executor.read(
            "decisions/find_decisions",
            scope=exact,
            scope_prefix=prefix,
            domain=domain.strip().lower() if domain else None,
            statuses=list(statuses) if statuses is not None else None,
            terms=topic_terms(topic),
            limit=limit,
        )
        return [
            DecisionRecord.model_validate(
                {
                    **native(r["decision"]),
                    "supersedes": r["supersedes"],
                    "superseded_by": r["superseded_by"],
                }
            )
            for r in rows
        ]
