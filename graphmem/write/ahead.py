"""Reading ahead on the write path: the work that only the texts decide, done early and in batches.

A batch's parses (the belief check's) and the future days its texts name (forward triggers) do not
depend on the graph, so they are worked out in a thread while the embedding model runs (the model
call leaves the interpreter free: the second core parses meanwhile), before the scope locks are
taken. What is found is cached where the write path looks for it (``beliefs.restore.tag_docs``,
``agenda.dates``), so the write itself finds it ready; nothing here decides anything.
The parses of stored neighbours, known only under the locks, are made there in one batch too.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from typing import Protocol, runtime_checkable

from graphmem.beliefs.restore import tag_docs
from graphmem.beliefs.statements import Statement, read_statement, speaker_in
from graphmem.store.memories import StoredNeighbour

log = logging.getLogger(__name__)


@runtime_checkable
class ReadsAhead(Protocol):
    """A write-path linker with work that only the texts decide, done before the transaction and cached."""

    def read_ahead(self, texts: Sequence[tuple[str, datetime]]) -> None:
        """Work out and cache what the linker's ``plan`` will need of these (text, occurred_at)."""
        ...


def read_ahead(
    bodies: Sequence[str],
    texts: Sequence[tuple[str, datetime]],
    linkers: Iterable[object],
    also: Sequence[Callable[[], object]] = (),
) -> threading.Thread:
    """Start a thread that parses ``bodies``, runs each of ``also`` (work of the texts alone that
    the write path would otherwise do under the scope locks) and lets each linker that reads ahead
    read ``texts``; the caller joins it before it needs the results. Never raises: a failure here
    only loses the head start (the write path does the work again, and reports its errors itself)."""
    readers = [linker for linker in linkers if isinstance(linker, ReadsAhead)]

    def read() -> None:
        try:
            tag_docs(bodies)  # the belief check asks for entities of the few it judges
            for work in also:
                work()
            for reader in readers:
                reader.read_ahead(texts)
        except Exception:  # only a head start: the write path does it again and raises then
            log.warning("reading ahead of a write failed", exc_info=True)

    thread = threading.Thread(target=read, name="graphmem-read-ahead", daemon=True)
    thread.start()
    return thread


def stored_statements(neighbours: list[list[StoredNeighbour]]) -> dict[str, Statement]:
    """The statement of each stored neighbour, read once per batch (one stored memory neighbours
    many new items of a batch)."""
    read: dict[str, Statement] = {}
    for found in neighbours:
        for n in found:
            if n.id not in read:
                read[n.id] = read_statement(n.text, speaker_in(n.metadata))
    return read


def judged_bodies(pairs: Iterable[tuple[Statement, Statement]]) -> list[str]:
    """The texts the belief judge parses for these pairs: those it does not turn away before
    parsing (a statement that is not atomic, two speakers, two preference pairs). Parsed together
    in one batch beforehand, each costs about half as much as when the judge parses it alone."""
    bodies: list[str] = []
    for a, b in pairs:
        if not (a.atomic and b.atomic) or (a.ordered_pair and b.ordered_pair):
            continue
        if a.speaker and b.speaker and a.speaker != b.speaker:
            continue
        bodies += [a.body, b.body]
    return bodies
