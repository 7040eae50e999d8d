"""W7: recording the decisions memories state, with reversals, in two steps around the write transaction.

:meth:`DecisionRecorder.plan` runs before the transaction: it detects decisions (one LLM call per
batch, or offline), reads the active decisions of the scopes and domains involved (one query),
embeds the texts it compares (one call) and decides which older decisions each new one reverses.
The later ``decided_at`` wins: a new decision dated before a stored one it conflicts with is
recorded already superseded. :meth:`DecisionRecorder.write` only creates nodes and edges, inside
the caller's transaction.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from graphmem.clock import Clock, SystemClock
from graphmem.decisions.detect import DEFAULT_TEXTS_PER_CALL, DecisionDetector, DecisionDraft
from graphmem.decisions.reversal import DecisionFacts, decision_facts, reverses
from graphmem.embedding.base import Embedder
from graphmem.embedding.kept import KeptVectors
from graphmem.llm.base import LLM, Usage
from graphmem.store.decisions import DecisionStore
from graphmem.store.executor import Transaction

DecisionSource = tuple[str, str, str, datetime]
"""(memory_id, text, scope, decided_at): a memory that may state a decision, and when it was said."""


@dataclass
class _Entry:
    """A decision in force while the batch is planned: stored, or new in this batch."""

    id: str
    facts: DecisionFacts
    decided_at: datetime
    row: dict[str, Any] | None = None
    active: bool = True


@dataclass
class _Ledger:
    """The decisions of one (scope, domain) the batch's new decisions are compared with."""

    entries: list[_Entry] = field(default_factory=list)


class DecisionRecorder:
    """Plans and writes the decisions of a batch of memories (see the module docstring)."""

    def __init__(
        self,
        llm: LLM,
        embedder: Embedder,
        store: DecisionStore,
        *,
        clock: Clock | None = None,
        texts_per_call: int = DEFAULT_TEXTS_PER_CALL,
    ) -> None:
        self._detector = DecisionDetector(llm, texts_per_call=texts_per_call)
        self._embedder = embedder
        self._kept = KeptVectors(embedder)
        self._store = store
        self._clock: Clock = clock or SystemClock()

    def plan(
        self, memories: Sequence[DecisionSource], tx: Transaction | None = None
    ) -> tuple[list[dict[str, Any]], Usage]:
        """The decision rows of ``memories`` for :meth:`write` (input order), and what the LLM calls cost.

        One row per memory that states a decision, with ``id, memory_id, scope, text, choice,
        reasoning, domain, outcome, decided_at, status, recorded_at, detected_at`` and
        ``supersedes`` / ``superseded_by`` (lists of ``{"id", "reason"}``). Reads Neo4j once (in
        ``tx`` when given: the write transaction the rows go into) and embeds once; raises
        DatabaseUnavailableError or EmbeddingError when those fail (an LLM failure falls back to
        the offline detector).
        """
        if not memories:
            return [], Usage()
        drafts, usage = self._detector.detect_batch([m[1] for m in memories])
        found = [(m, d) for m, d in zip(memories, drafts, strict=True) if d is not None]
        if not found:
            return [], usage
        now = self._clock.now()
        rows = [_row(memory, draft, now) for memory, draft in found]
        ledgers = self._ledgers(rows, tx)
        facts = {id(r): decision_facts(r["text"], r["choice"]) for r in rows}
        stored = [e.facts for ledger in ledgers.values() for e in ledger.entries]
        vectors = self._vectors(stored + list(facts.values()))
        for row in sorted(rows, key=lambda r: r["decided_at"]):
            ledger = ledgers[(row["scope"], row["domain"])]
            new = _Entry(row["id"], facts[id(row)], row["decided_at"], row)
            for old in [e for e in ledger.entries if e.active]:
                _compare(old, new, vectors)
                if not new.active:
                    break  # a later stored decision already replaces it
            if new.active:
                ledger.entries.append(new)
        return rows, usage

    @staticmethod
    def write(tx: Transaction, rows: list[dict[str, Any]]) -> None:
        """Create the planned decisions and their ``SUPERSEDES`` edges, inside the caller's transaction."""
        DecisionStore.record(tx, rows)

    def _ledgers(
        self, rows: Sequence[dict[str, Any]], tx: Transaction | None
    ) -> dict[tuple[str, str], _Ledger]:
        keys = {(r["scope"], r["domain"]) for r in rows}
        ledgers = {key: _Ledger() for key in keys}
        for stored in self._store.active(sorted(keys), tx=tx):
            ledgers[(stored.scope, stored.domain)].entries.append(
                _Entry(stored.id, decision_facts(stored.text, stored.choice), stored.decided_at)
            )
        return ledgers

    def _vectors(self, facts: Sequence[DecisionFacts]) -> dict[str, Any]:
        # stored decisions are compared again at every write of their scope: their vectors are kept
        return dict(self._kept.vectors(sorted({t for f in facts for t in (f.text, f.slot)})))


def _row(memory: DecisionSource, draft: DecisionDraft, now: datetime) -> dict[str, Any]:
    memory_id, _, scope, decided_at = memory
    return {
        "id": str(uuid.uuid4()),
        "memory_id": memory_id,
        "scope": scope,
        "text": draft.text,
        "choice": draft.choice,
        "reasoning": draft.reasoning,
        "domain": draft.domain,
        "outcome": draft.outcome,
        "decided_at": decided_at,
        "status": "active",
        "recorded_at": now,
        "detected_at": now,
        "supersedes": [],
        "superseded_by": [],
    }


def _compare(old: _Entry, new: _Entry, vectors: dict[str, Any]) -> None:
    """Record a reversal when ``old`` (in force) and ``new`` conflict; the later ``decided_at`` wins."""
    earlier, later = (old, new) if old.decided_at <= new.decided_at else (new, old)
    text_cosine = float(vectors[earlier.facts.text] @ vectors[later.facts.text])
    slot_cosine = float(vectors[earlier.facts.slot] @ vectors[later.facts.slot])
    verdict = reverses(earlier.facts, later.facts, text_cosine, slot_cosine)
    if not verdict.conflict or new.row is None:
        return
    if later is new:
        new.row["supersedes"].append({"id": old.id, "reason": verdict.reason})
        old.active = False
        if old.row is not None:
            old.row["status"] = "superseded"
    else:
        new.row["superseded_by"].append({"id": old.id, "reason": verdict.reason})
        new.row["status"] = "superseded"
        new.active = False
