"""Group commit: concurrent writes to different scopes share one write; one scope's writes never do,
and a failing batch fails alone."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor

import pytest

from graphmem.errors import InvalidInputError
from graphmem.models import MemoryInput, WriteResult
from graphmem.write.group import GroupCommit
from tests.records import record_of


class Writer:
    """Records the batches it is given; the first one waits until ``gate`` opens, so the writes
    sent meanwhile queue up behind it. A batch holding ``bad`` fails whole."""

    def __init__(self, bad: str | None = None) -> None:
        self.gate = threading.Event()
        self.calls: list[list[str]] = []
        self.bad = bad
        self._lock = threading.Lock()

    def __call__(self, items: Sequence[MemoryInput]) -> list[WriteResult]:
        with self._lock:
            first = not self.calls
            self.calls.append([i.text for i in items])
        if first:
            self.gate.wait(10)
        if self.bad in [i.text for i in items]:
            raise InvalidInputError(f"{self.bad} is not welcome")
        return [WriteResult(memory=record_of(i), actions=["created"]) for i in items]


def _send_while_first_is_held(
    group: GroupCommit, writer: Writer, batches: list[list[MemoryInput]], binding: list[object] | None = None
) -> list[list[WriteResult] | Exception]:
    """Send ``batches[0]``, then the others while it is being written; each caller's outcome."""
    bindings = binding or [None] * len(batches)

    def send(i: int) -> list[WriteResult] | Exception:
        try:
            return group.write(batches[i], bindings[i])
        except Exception as e:  # the test looks at each caller's error
            return e

    with ThreadPoolExecutor(len(batches)) as pool:
        first = pool.submit(send, 0)
        while not writer.calls:
            threading.Event().wait(0.005)
        rest = [pool.submit(send, i) for i in range(1, len(batches))]
        threading.Event().wait(0.2)  # let them all queue up behind the first
        writer.gate.set()
        return [first.result(10), *(f.result(10) for f in rest)]


def test_concurrent_writes_to_different_scopes_share_one_write_and_each_gets_its_own_results() -> None:
    writer = Writer()
    group = GroupCommit(writer, max_running=1)
    batches = [[MemoryInput(text=f"t{i}", scope=f"/u/{i}")] for i in range(6)]
    outcomes = _send_while_first_is_held(group, writer, batches)
    assert [[r.memory.text for r in o] for o in outcomes if isinstance(o, list)] == [
        [f"t{i}"] for i in range(6)
    ]
    assert writer.calls[0] == ["t0"]
    assert sorted(writer.calls[1]) == [f"t{i}" for i in range(1, 6)]  # the five waiting ones, together
    assert len(writer.calls) == 2


def test_writes_to_one_scope_are_never_in_one_group() -> None:
    writer = Writer()
    group = GroupCommit(writer, max_running=1)
    batches = [[MemoryInput(text=f"t{i}", scope="/u/same")] for i in range(4)]
    outcomes = _send_while_first_is_held(group, writer, batches)
    assert all(isinstance(o, list) and len(o) == 1 for o in outcomes)
    assert all(len(call) == 1 for call in writer.calls)  # one after the other, as without grouping


def test_callers_with_different_scope_bindings_are_not_grouped() -> None:
    writer = Writer()
    group = GroupCommit(writer, max_running=1)
    batches = [[MemoryInput(text=f"t{i}", scope=f"/u/{i}")] for i in range(5)]
    bindings: list[object] = [None, ("/u/1",), ("/u/2",), None, None]
    _send_while_first_is_held(group, writer, batches, bindings)
    for call in writer.calls[1:]:
        assert not ({"t1", "t2"} & set(call)) or len(call) == 1


def test_a_failing_batch_fails_alone_and_its_neighbours_are_written() -> None:
    writer = Writer(bad="t3")
    group = GroupCommit(writer, max_running=1)
    batches = [[MemoryInput(text=f"t{i}", scope=f"/u/{i}")] for i in range(6)]
    outcomes = _send_while_first_is_held(group, writer, batches)
    assert isinstance(outcomes[3], InvalidInputError)
    for i, outcome in enumerate(outcomes):
        if i != 3:
            assert isinstance(outcome, list)
            assert outcome[0].memory.text == f"t{i}"


def test_a_lone_write_goes_straight_through_and_raises_its_own_error() -> None:
    writer = Writer(bad="oops")
    writer.gate.set()
    group = GroupCommit(writer)
    assert group.write([MemoryInput(text="fine", scope="/a")])[0].memory.text == "fine"
    with pytest.raises(InvalidInputError, match="oops"):
        group.write([MemoryInput(text="oops", scope="/a")])
    assert writer.calls == [["fine"], ["oops"]]


def test_a_group_stops_growing_at_its_item_limit() -> None:
    writer = Writer()
    group = GroupCommit(writer, max_items=3, max_running=1)
    batches = [[MemoryInput(text=f"t{i}", scope=f"/u/{i}")] for i in range(7)]
    outcomes = _send_while_first_is_held(group, writer, batches)
    assert all(isinstance(o, list) for o in outcomes)
    assert max(len(call) for call in writer.calls) <= 3


def test_a_write_to_a_scope_already_being_written_goes_its_own_way_at_once() -> None:
    writer = Writer()
    group = GroupCommit(writer, max_running=1)
    with ThreadPoolExecutor(2) as pool:
        first = pool.submit(group.write, [MemoryInput(text="t0", scope="/busy")])
        while not writer.calls:
            threading.Event().wait(0.005)
        # the only group slot is taken, yet a second write to the busy scope is not held up behind
        # it: it is written by itself, as without grouping (the scope's lock in the graph orders them)
        second = pool.submit(group.write, [MemoryInput(text="t1", scope="/busy")])
        assert second.result(5)[0].memory.text == "t1"
        assert not first.done()
        writer.gate.set()
        assert first.result(5)[0].memory.text == "t0"
    assert writer.calls == [["t0"], ["t1"]]
