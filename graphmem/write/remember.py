"""W1, W4, W5: remembering texts as episodic memories, with near-duplicate handling and belief updates.

One call handles a batch: validate, embed, drop in-batch duplicates, look up similar stored
memories (one query), reinforce stored near-duplicates, plan belief updates (LLM or offline judge),
then write everything in one transaction.
"""

from __future__ import annotations

import functools
import uuid
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from itertools import pairwise
from typing import Any, Protocol

import numpy as np

from graphmem.beliefs.gate import gate_of, may_conflict_pairs
from graphmem.beliefs.in_part import changes_in_part
from graphmem.beliefs.judge import judge_in_time, parse_sentences_ahead
from graphmem.beliefs.left_behind import parse_left_behind_ahead
from graphmem.beliefs.refine import refines
from graphmem.beliefs.resolver import LEARNED, BeliefChecker, Neighbour
from graphmem.beliefs.restore import parse_docs
from graphmem.beliefs.statements import Statement, read_statement, speaker_in
from graphmem.clock import Clock
from graphmem.dynamics.contradiction import contradiction_beta, penalised_strength
from graphmem.dynamics.reinforcement import is_spaced, reinforce
from graphmem.embedding.base import Embedder
from graphmem.errors import InvalidInputError, TextTooLongError
from graphmem.llm.base import Usage
from graphmem.models import MemoryInput, MemoryRecord, WriteResult
from graphmem.scopes import ROOT
from graphmem.store.executor import Transaction
from graphmem.store.memories import (
    EpisodeHead,
    MemoryStore,
    NewMemory,
    Reinforcement,
    StoredNeighbour,
    Supersession,
)
from graphmem.write.ahead import judged_bodies, read_ahead, stored_statements
from graphmem.write.dedup import batch_duplicates, text_key
from graphmem.write.fields import FieldInference

DEFAULT_IMPORTANCE = 0.5
DEFAULT_CONFIDENCE = 1.0
INITIAL_STRENGTH = 1.0


class GraphLinker(Protocol):
    """A write-path stage that links new memories into the graph (entities, decisions)."""

    def plan(
        self, memories: Sequence[NewMemory], speakers: Sequence[str | None], tx: Transaction | None = None
    ) -> tuple[list[dict[str, Any]], Usage]:
        """Work out the rows to write for these new memories; what it reads of the graph, it reads
        in ``tx`` when given (the write transaction: one transaction fewer, under the scope locks)."""
        ...

    def write(self, tx: Transaction, rows: list[dict[str, Any]]) -> None:
        """Write the planned rows inside the write transaction."""
        ...


@dataclass(frozen=True)
class WriteLimits:
    """Bounds and thresholds of the write path."""

    max_text_bytes: int = 32 * 1024
    max_batch_items: int = 1000
    batch_duplicate_cosine: float = 0.98
    store_duplicate_cosine: float = 0.98
    # Stages that can be switched off (all on by default): W3, W5, and W6 + W7.
    infer_fields: bool = True
    belief_checks: bool = True
    link_graph: bool = True


def check_inputs(items: Sequence[MemoryInput], limits: WriteLimits) -> None:
    """Raise before anything is written when the batch or one of its texts is too large."""
    if not items:
        raise InvalidInputError("Give at least one item to remember.")
    if len(items) > limits.max_batch_items:
        raise InvalidInputError(
            f"A batch holds at most {limits.max_batch_items} items; split these {len(items)} into several."
        )
    for i, item in enumerate(items):
        size = len(item.text.encode("utf-8"))
        if size > limits.max_text_bytes:
            raise TextTooLongError(
                f"Item {i}: text is {size} bytes, over the limit of {limits.max_text_bytes} "
                "(GRAPHMEM_MAX_TEXT_BYTES); split it or use /v1/extract."
            )


def speaker_of(item: MemoryInput) -> str | None:
    """Who 'I' is in the item's text, when the caller said so in metadata."""
    return speaker_in(item.metadata)


@dataclass
class _Draft:
    """One kept item on its way to the graph."""

    index: int
    item: MemoryInput
    scope: str
    occurred_at: datetime
    statement: Statement
    embedding: list[float]
    memory_id: str = field(default_factory=lambda: str(uuid.uuid4()))
    reinforce_id: str | None = None
    actions: list[str] = field(default_factory=list)
    lost_to: str | None = None
    llm_calls: int = 0


class RememberPipeline:
    """Validates, embeds, de-duplicates, checks beliefs and stores memories."""

    def __init__(
        self,
        store: MemoryStore,
        embedder: Embedder,
        clock: Clock,
        limits: WriteLimits,
        beliefs: BeliefChecker,
        fields: FieldInference,
        linkers: Sequence[GraphLinker] = (),
    ) -> None:
        self._store = store
        self._embedder = embedder
        self._clock = clock
        self._limits = limits
        self._beliefs = beliefs
        self._fields = fields
        self._linkers = tuple(linkers)

    def remember(self, items: Sequence[MemoryInput]) -> list[WriteResult]:
        """Store each item (or reinforce its stored near-duplicate); results in input order.

        The whole batch is one transaction: on any error nothing is written. What does not depend
        on the graph (fields, embeddings, parses, in-batch duplicates) is worked out first; the
        checks against stored memories run inside the transaction, after it holds the write lock
        of each scope it writes, so concurrent writers to one scope never both store a text.
        """
        check_inputs(items, self._limits)
        needs_fields = [
            i for i, item in enumerate(items) if item.categories is None or item.importance is None
        ]
        field_usage = Usage()
        now = self._clock.now()
        statements = [read_statement(item.text, speaker_of(item)) for item in items]
        ahead = None
        # The lookup floor of each statement (its parses with entities), worked out meanwhile: one
        # list, or none when the read-ahead failed or did not run (the write path works it out then).
        floors_ahead: list[list[float]] = []
        if len(items) > 1:  # a lone text embeds too quickly to hide anything behind it
            ahead = read_ahead(
                [s.body for s in statements if s.atomic] if self._limits.belief_checks else [],
                [(item.text, item.occurred_at or now) for item in items],
                self._linkers if self._limits.link_graph else (),
                also=[lambda: floors_ahead.append(self._beliefs.lookup_min_cosines(statements))]
                if self._limits.belief_checks
                else [],
            )
        try:
            # Fields (categories, importance) change nothing the read-ahead reads: inferred meanwhile.
            if self._limits.infer_fields:
                items, field_usage = self._fields.complete(items)
            vectors = self._embedder.embed([item.text for item in items])
        finally:
            if ahead is not None:
                ahead.join()
        scopes = [item.scope or ROOT for item in items]
        times = [item.occurred_at or now for item in items]
        owners = self._batch_owners(
            vectors, scopes, statements, times, [text_key(item.text) for item in items]
        )
        kept = [i for i, owner in enumerate(owners) if owner is None]
        field_charge = needs_fields[0] if needs_fields and field_usage.calls else None

        def work(tx: Transaction) -> list[WriteResult]:
            # Built afresh on every attempt: a retried transaction must not see the last one's plan.
            drafts = [
                _Draft(
                    i, items[i], scopes[i], items[i].occurred_at or now, statements[i], vectors[i].tolist()
                )
                for i in kept
            ]
            if field_charge is not None:  # one batched call: charged to the first item that needed it
                for d in drafts:
                    if d.index == field_charge:
                        d.llm_calls += field_usage.calls
            floors = [floors_ahead[0][d.index] for d in drafts] if floors_ahead else None
            return self._write_drafts(tx, owners, drafts, vectors, now, floors)

        return self._store.write(work)

    def _write_drafts(
        self,
        tx: Transaction,
        owners: list[int | None],
        drafts: list[_Draft],
        vectors: np.ndarray,
        now: datetime,
        floors: list[float] | None = None,
    ) -> list[WriteResult]:
        """Take the write lock of each draft's scope, check the drafts against the stored memories
        (read under the locks, in the same statement) and write them; ``floors``: each draft's
        lookup floor when read ahead."""
        if floors is None:
            floors = (
                self._beliefs.lookup_min_cosines([d.statement for d in drafts])
                if self._limits.belief_checks
                else [self._limits.store_duplicate_cosine] * len(drafts)
            )
        neighbours = self._store.lock_and_find_similar(
            tx, [(d.scope, d.embedding) for d in drafts], min_cosine=floors
        )
        reinforcements: dict[str, Reinforcement] = {}
        supersessions: list[Supersession] = []
        stored = stored_statements(neighbours)
        judged = [
            (stored[n.id], d.statement) for d, found in zip(drafts, neighbours, strict=True) for n in found
        ]
        parse_docs(judged_bodies(judged))
        parse_sentences_ahead(judged)
        if self._limits.belief_checks:
            parse_left_behind_ahead(
                _in_time(stored[n.id], n.occurred_at, d.statement, d.occurred_at)
                for d, found in zip(drafts, neighbours, strict=True)
                for n in found
                if n.cosine >= self._beliefs.min_cosine
            )
        for draft, found in zip(drafts, neighbours, strict=True):
            self._against_store(draft, found, stored, now, reinforcements, supersessions)
        fresh = [d for d in drafts if d.reinforce_id is None]
        if self._limits.belief_checks:
            supersessions += self._within_batch(fresh, vectors, now)
        create = [self._new_memory(d, now, supersessions) for d in fresh]
        outcome = self._store.apply_in(
            tx,
            create,
            list(reinforcements.values()),
            supersessions,
            _episode_pairs(fresh),
            self._link(tx, create, fresh),
            _episode_heads(fresh),
        )
        return self._results(owners, drafts, outcome.created, outcome.reinforced)

    def _link(
        self, tx: Transaction, create: list[NewMemory], fresh: list[_Draft]
    ) -> list[Callable[[Transaction], None]]:
        """W6 entities and W7 decisions: planned (reading the graph in ``tx``) and written in ``tx``."""
        steps: list[Callable[[Transaction], None]] = []
        if not self._limits.link_graph:
            return steps
        for linker in self._linkers:
            rows, usage = linker.plan(create, [speaker_of(d.item) for d in fresh], tx)
            if usage.calls and fresh:
                fresh[0].llm_calls += usage.calls
            if rows:
                steps.append(functools.partial(linker.write, rows=rows))
        return steps

    def _batch_owners(
        self,
        vectors: np.ndarray,
        scopes: list[str],
        statements: list[Statement],
        times: list[datetime],
        keys: list[str],
    ) -> list[int | None]:
        owners = batch_duplicates(vectors, scopes, self._limits.batch_duplicate_cosine, keys)
        for i, owner in enumerate(owners):
            if owner is None:
                continue
            if judge_in_time(statements[owner], times[owner], statements[i], times[i], 1.0).conflict:
                owners[i] = None  # nearly the same words, opposite meaning: not a duplicate
        return owners

    def _against_store(
        self,
        draft: _Draft,
        found: list[StoredNeighbour],
        stored: dict[str, Statement],
        now: datetime,
        reinforcements: dict[str, Reinforcement],
        supersessions: list[Supersession],
    ) -> None:
        key = text_key(draft.item.text)
        twin = next((n for n in found if text_key(n.text) == key), None)
        if twin is not None:  # the same words (case and punctuation aside): a duplicate at any cosine
            draft.reinforce_id = twin.id
            reinforcements[twin.id] = _reinforcement(reinforcements.get(twin.id), twin, now)
            return
        for n in found:
            if n.cosine < self._limits.store_duplicate_cosine:
                break
            if not judge_in_time(
                stored[n.id], n.occurred_at, draft.statement, draft.occurred_at, n.cosine
            ).conflict:
                draft.reinforce_id = n.id
                reinforcements[n.id] = _reinforcement(reinforcements.get(n.id), n, now)
                return
        if not self._limits.belief_checks:
            return
        plan, usage = self._beliefs.plan(
            draft.item.text,
            draft.statement,
            draft.occurred_at,
            [
                Neighbour(n.id, n.text, n.cosine, n.occurred_at, n.strength, stored[n.id], n.embedding)
                for n in found
            ],
            draft.embedding,
        )
        draft.llm_calls += usage.calls
        replaced = plan.replaced()
        if not plan.insert_new and not replaced and found:
            draft.reinforce_id = found[0].id
            reinforcements[found[0].id] = _reinforcement(reinforcements.get(found[0].id), found[0], now)
            return
        by_id = {n.id: n for n in found}
        self._refinements(draft, [n for n in found if n.id not in replaced], stored, now, supersessions)
        in_part = plan.in_part()
        for memory_id, reason in replaced.items():
            old = by_id[memory_id]
            draft.actions.append(f"contradicts:{old.id}")
            if memory_id in in_part:  # only some of what the earlier says: both stay current
                supersessions.append(_in_part(draft, old, reason, now))
            elif draft.occurred_at >= old.occurred_at:
                draft.actions.append(f"superseded:{old.id}")
                supersessions.append(
                    _supersession(draft.memory_id, old.id, reason, old.strength, DEFAULT_CONFIDENCE, now)
                )
            else:  # the stored belief is the newer one: the new statement arrives already outdated
                draft.lost_to = old.id
                draft.actions.append(f"superseded_by:{old.id}")
                supersessions.append(
                    _supersession(old.id, draft.memory_id, reason, INITIAL_STRENGTH, old.confidence, now)
                )

    @staticmethod
    def _lost(a: _Draft, b: _Draft, reason: str, now: datetime) -> Supersession:
        """The later of two drafts of one batch replaces the earlier one, or contradicts it only
        in part where it changes only some of what the earlier says (beliefs/in_part.py)."""
        winner, loser = (b, a) if b.occurred_at >= a.occurred_at else (a, b)
        if changes_in_part(loser.statement, winner.statement):
            winner.actions.append(f"contradicts:{loser.memory_id}")
            loser.actions.append(f"contradicts:{winner.memory_id}")
            winner_id, loser_id = winner.memory_id, loser.memory_id
            return _supersession(
                winner_id, loser_id, reason, INITIAL_STRENGTH, DEFAULT_CONFIDENCE, now, in_part=True
            )
        winner.actions += [f"contradicts:{loser.memory_id}", f"superseded:{loser.memory_id}"]
        loser.actions += [f"contradicts:{winner.memory_id}", f"superseded_by:{winner.memory_id}"]
        loser.lost_to = winner.memory_id
        return _supersession(
            winner.memory_id, loser.memory_id, reason, INITIAL_STRENGTH, DEFAULT_CONFIDENCE, now
        )

    @staticmethod
    def _refinements(
        draft: _Draft,
        candidates: list[StoredNeighbour],
        stored: dict[str, Statement],
        now: datetime,
        supersessions: list[Supersession],
    ) -> None:
        """D3: a labile memory restated with a qualification is refined by the new statement."""
        for n in candidates:
            if draft.occurred_at >= n.occurred_at and refines(
                stored[n.id], draft.statement, n.cosine, n.labile_until, now
            ):
                draft.actions += [f"refined:{n.id}", f"superseded:{n.id}"]
                supersessions.append(
                    Supersession(draft.memory_id, n.id, "refined", 0.0, n.strength, now, contradicts=False)
                )
                return

    def _within_batch(self, fresh: list[_Draft], vectors: np.ndarray, now: datetime) -> list[Supersession]:
        found: list[Supersession] = []
        if len(fresh) < 2:
            return found
        # All pair cosines in one matrix product (a batch of 500 is 125k pairs: a Python loop over
        # them cost about a third of a second), then only the close pairs of one scope, in order.
        block = vectors[[d.index for d in fresh]]
        cosines = block @ block.T
        pairs = _judged_pairs(fresh, cosines >= self._beliefs.min_cosine)
        # their entities in one batch (the read-ahead parsed the texts without them)
        parse_docs(judged_bodies((fresh[a].statement, fresh[b].statement) for a, b in pairs))
        parse_left_behind_ahead(
            _in_time(fresh[a].statement, fresh[a].occurred_at, fresh[b].statement, fresh[b].occurred_at)
            for a, b in pairs
        )
        # later draft -> earlier ones kept unread, with the probability the pair model must reach
        unread: dict[int, list[tuple[int, float]]] = defaultdict(list)
        for a_pos, b_pos in pairs:
            a, b = fresh[a_pos], fresh[b_pos]
            # Within a batch (most often a conversation: a message of several sentences against a
            # short one of the same chat) a message is not read sentence by sentence: that reading
            # found nothing in LoCoMo's chat and cost about a tenth of a batch's API CPU.
            verdict = judge_in_time(
                a.statement,
                a.occurred_at,
                b.statement,
                b.occurred_at,
                float(cosines[a_pos, b_pos]),
                by_sentence=False,
            )
            if verdict.conflict:
                found.append(self._lost(a, b, verdict.reason, now))
            elif (floor := self._beliefs.model_floor(verdict, a.statement, b.statement)) is not None:
                late, early = (b_pos, a_pos) if b.occurred_at >= a.occurred_at else (a_pos, b_pos)
                unread[late].append((early, floor))
        for later, earlier_ones in unread.items():
            new = fresh[later]
            if new.lost_to is not None:
                continue  # the judge found it replaced already: it replaces nothing itself
            candidates = [
                (
                    Neighbour(
                        str(e),
                        fresh[e].item.text,
                        float(cosines[later, e]),
                        fresh[e].occurred_at,
                        1.0,
                        fresh[e].statement,
                        block[e],
                    ),
                    floor,
                )
                for e, floor in earlier_ones
                if fresh[e].lost_to is None
            ]
            text = new.item.text
            chosen = self._beliefs.learned_replacement(candidates, new.occurred_at, block[later], text)
            if chosen is not None:
                found.append(self._lost(fresh[int(chosen)], new, LEARNED, now))
        return found

    @staticmethod
    def _new_memory(draft: _Draft, now: datetime, supersessions: list[Supersession]) -> NewMemory:
        item = draft.item
        strength = INITIAL_STRENGTH
        for s in supersessions:
            if s.loser_id == draft.memory_id and not s.in_part:
                strength = min(strength, s.loser_strength)
        return NewMemory(
            id=draft.memory_id,
            text=item.text,
            scope=draft.scope,
            categories=item.categories or [],
            importance=DEFAULT_IMPORTANCE if item.importance is None else item.importance,
            confidence=DEFAULT_CONFIDENCE,
            strength=strength,
            created_at=now,
            occurred_at=draft.occurred_at,
            source=item.source,
            metadata=item.metadata or {},
            embedding=draft.embedding,
            status="superseded" if draft.lost_to else "active",
        )

    @staticmethod
    def _results(
        owners: list[int | None],
        drafts: list[_Draft],
        created: list[MemoryRecord],
        reinforced: dict[str, MemoryRecord],
    ) -> list[WriteResult]:
        created_by_id = {m.id: m for m in created}
        by_index: dict[int, WriteResult] = {}
        for d in drafts:
            if d.reinforce_id is not None:
                by_index[d.index] = WriteResult(
                    memory=reinforced[d.reinforce_id], actions=["reinforced"], llm_calls=d.llm_calls
                )
            else:
                by_index[d.index] = WriteResult(
                    memory=created_by_id[d.memory_id],
                    actions=["created", *dict.fromkeys(d.actions)],
                    llm_calls=d.llm_calls,
                )
        results = []
        for i, owner in enumerate(owners):
            if owner is None:
                results.append(by_index[i])
            else:
                results.append(WriteResult(memory=by_index[owner].memory, actions=["duplicate"]))
        return results


def _in_time(
    first: Statement, first_at: datetime, second: Statement, second_at: datetime
) -> tuple[Statement, Statement]:
    """(old, new) as :func:`judge_in_time` orders two statements: the one that happened later is new."""
    return (second, first) if second_at < first_at else (first, second)


def _judged_pairs(fresh: list[_Draft], close: np.ndarray) -> list[tuple[int, int]]:
    """The pairs (in order) of ``fresh`` the belief judge reads: close (``close``: their cosines at
    the judge's floor), of one scope, and let through by its word gate (``beliefs.gate``: a pair
    turned away there is one the judge finds no conflict in, so no verdict changes)."""
    scopes = np.unique([d.scope for d in fresh], return_inverse=True)[1]
    a, b = np.nonzero(np.triu(close, k=1))
    keep = scopes[a] == scopes[b]
    a, b = a[keep], b[keep]
    keep = may_conflict_pairs([gate_of(d.statement) for d in fresh], a, b)
    return [(int(i), int(j)) for i, j in zip(a[keep], b[keep], strict=True)]


# Memories of one scope and source (no source counts as one) written this close together form an
# episode: consecutive ones are joined by NEXT, within a batch and across writes.
EPISODE_GAP = timedelta(minutes=30)


def _same_episode(a: _Draft, b: _Draft) -> bool:
    return (
        a.scope == b.scope
        and a.item.source == b.item.source
        and abs(b.occurred_at - a.occurred_at) <= EPISODE_GAP
    )


def _episode_pairs(fresh: list[_Draft]) -> list[tuple[str, str]]:
    """Consecutive new memories of one episode (same scope and source, within ``EPISODE_GAP``)."""
    return [(a.memory_id, b.memory_id) for a, b in pairwise(fresh) if _same_episode(a, b)]


def _episode_heads(fresh: list[_Draft]) -> list[EpisodeHead]:
    """New memories that open a run of their batch: each may continue an episode already stored."""
    heads = []
    for i, d in enumerate(fresh):
        if d.lost_to is None and (i == 0 or not _same_episode(fresh[i - 1], d)):
            heads.append(
                EpisodeHead(d.memory_id, d.scope, d.item.source, d.occurred_at, d.occurred_at - EPISODE_GAP)
            )
    return heads


def _reinforcement(previous: Reinforcement | None, n: StoredNeighbour, now: datetime) -> Reinforcement:
    if previous is not None:
        return previous
    last = n.last_accessed_at or n.occurred_at
    hours = max(0.0, (now - last).total_seconds() / 3600)
    return Reinforcement(
        id=n.id,
        strength=reinforce(n.strength, hours),
        spaced_access_count=n.spaced_access_count + (1 if is_spaced(hours) else 0),
        accessed_at=now,
    )


def _in_part(draft: _Draft, old: StoredNeighbour, reason: str, now: datetime) -> Supersession:
    """The later of ``draft`` and ``old`` contradicting only some of what the earlier says."""
    later, earlier = (
        (draft.memory_id, old.id) if draft.occurred_at >= old.occurred_at else (old.id, draft.memory_id)
    )
    return _supersession(later, earlier, reason, old.strength, DEFAULT_CONFIDENCE, now, in_part=True)


def _supersession(
    winner_id: str,
    loser_id: str,
    reason: str,
    loser_strength: float,
    evidence: float,
    now: datetime,
    *,
    in_part: bool = False,
) -> Supersession:
    """The winner's contradiction of the loser; the loser weakened, unless it is contradicted only
    in part (it stays current at its strength for the rest of what it says)."""
    return Supersession(
        winner_id=winner_id,
        loser_id=loser_id,
        reason=reason,
        strength=round(1.0 - contradiction_beta(loser_strength, evidence), 4),
        loser_strength=loser_strength if in_part else penalised_strength(loser_strength, evidence),
        detected_at=now,
        in_part=in_part,
    )
