"""Group commit: concurrent writes to different scopes share one pipeline run and one transaction.

A write costs a few fixed round trips (begin, scope lock, similar lookup, create, links, commit)
and one model call whatever its size, so fifty writers each sending one memory spend most of their
time on overheads that one batch of fifty pays once. Writers hand their batch to
:meth:`GroupCommit.write`; while a group is being written, the batches that arrive wait, and the
next free slot takes them together. Nothing waits on a timer: a writer alone goes straight through.

A group never holds two batches that write to one scope, nor batches of different callers'
scope bindings, so every result is the one the batch would have had alone: duplicates,
contradictions, episodes and entity links are all worked out within a scope, and the writes to one
scope still follow one another (the next group sees what the last one stored). A batch for a scope
that another batch is writing or waiting to write is not grouped at all: it waits for that scope's
lock in the graph as it would without grouping, so the writers of one busy scope hold up no group
(and no group holds up them). When a group fails,
each of its batches is written again on its own, so a bad batch fails alone and nothing of it is
stored.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field

from graphmem.models import MemoryInput, WriteResult
from graphmem.scopes import ROOT

Write = Callable[[Sequence[MemoryInput]], list[WriteResult]]

# A group stops growing at this many items (the write path's batch limit) ...
MAX_GROUP_ITEMS = 1000
# ... and this many groups are written at once: while one waits on Neo4j, the next one embeds.
MAX_GROUPS_RUNNING = 2


@dataclass(eq=False)
class _Batch:
    """One caller's batch, waiting, being written, or answered."""

    items: Sequence[MemoryInput]
    binding: Hashable
    scopes: frozenset[str]
    results: list[WriteResult] | None = None
    alone: bool = False  # its group failed: the caller writes it again by itself
    taken: bool = False
    done: threading.Event = field(default_factory=threading.Event)


class GroupCommit:
    """Writes concurrent batches together (see the module docstring); safe to share between threads."""

    def __init__(
        self,
        write: Write,
        *,
        max_items: int = MAX_GROUP_ITEMS,
        max_running: int = MAX_GROUPS_RUNNING,
    ) -> None:
        self._write = write
        self._max_items = max_items
        self._max_running = max_running
        self._free = threading.Condition()
        self._waiting: list[_Batch] = []
        self._running = 0
        self._writing: dict[str, int] = {}  # scope -> batches being written to it

    def write(self, items: Sequence[MemoryInput], binding: Hashable = None) -> list[WriteResult]:
        """Write ``items`` (alone or with other callers' batches); their results, in input order.

        ``binding`` is the caller's scope binding: only batches with equal bindings share a group.
        Raises what writing ``items`` alone raises.
        """
        batch = _Batch(items, binding, frozenset(item.scope or ROOT for item in items))
        if self._contended(batch):
            # Its scope is being written or waited for already: it waits for that scope's lock in
            # the graph, as without grouping, and holds up no group meanwhile.
            try:
                return self._write(items)
            finally:
                self._done_writing(batch.scopes, group=False)
        group = self._lead(batch)
        if group is not None:
            try:
                if len(group) == 1:  # alone: written as it would be without grouping
                    return self._write(items)
                self._write_group(group)
            finally:
                self._done_writing(frozenset().union(*(member.scopes for member in group)), group=True)
        batch.done.wait()
        if batch.alone:
            return self._write(items)
        assert batch.results is not None
        return batch.results

    def _lead(self, batch: _Batch) -> list[_Batch] | None:
        """Wait for a free slot, then the group this caller writes (its own batch first, then the
        waiting batches it can take, oldest first); None when another caller took the batch."""
        with self._free:
            self._waiting.append(batch)
            self._free.wait_for(lambda: batch.taken or self._running < self._max_running)
            if batch.taken:
                return None
            group, scopes, size = [batch], set(batch.scopes), len(batch.items)
            for other in self._waiting:
                if other is batch or other.binding != batch.binding or other.scopes & scopes:
                    continue
                if size + len(other.items) > self._max_items:
                    continue
                group.append(other)
                scopes |= other.scopes
                size += len(other.items)
            for member in group:
                member.taken = True
            self._waiting = [b for b in self._waiting if not b.taken]
            self._running += 1
            for scope in scopes:
                self._writing[scope] = self._writing.get(scope, 0) + 1
            return group

    def _contended(self, batch: _Batch) -> bool:
        """Whether another batch writes or waits to write one of ``batch``'s scopes; if so, the
        batch counts as being written from now on (and is written outside the groups)."""
        with self._free:
            busy = any(scope in self._writing for scope in batch.scopes) or any(
                other.scopes & batch.scopes for other in self._waiting
            )
            if busy:
                for scope in batch.scopes:
                    self._writing[scope] = self._writing.get(scope, 0) + 1
            return busy

    def _done_writing(self, scopes: frozenset[str], *, group: bool) -> None:
        with self._free:
            for scope in scopes:
                left = self._writing[scope] - 1
                if left:
                    self._writing[scope] = left
                else:
                    del self._writing[scope]
            if group:
                self._running -= 1
            self._free.notify_all()

    def _write_group(self, group: list[_Batch]) -> None:
        """Write the group's batches as one; when that fails (however), each is marked to be
        written again alone, so its own error reaches its own caller."""
        results: list[WriteResult] | None = None
        try:
            results = self._write([item for member in group for item in member.items])
        except Exception:
            results = None
        finally:
            start = 0
            for member in group:
                if results is None:
                    member.alone = True
                else:
                    member.results = results[start : start + len(member.items)]
                    start += len(member.items)
                member.done.set()
