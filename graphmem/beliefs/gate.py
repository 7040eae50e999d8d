"""A word-level test before the belief judge: which pairs of statements the judge could find in
conflict at all, read without a parse.

Every conflict :func:`graphmem.beliefs.judge.judge` finds needs the older statement to be one
atomic statement (as it reads it: a quote as its speaker's own, a name written out as the other's
initials), and the newer one atomic too or naming a leaving or an ending it might tell of
(:func:`graphmem.beliefs.left_behind.may_leave_something`). What each statement shows of that is
read once (:func:`gate_of`); a pair the gate turns away is one the judge would answer "no
conflict", so checking it first changes no verdict, and the judge (whose later tests parse both
texts) reads only the few pairs left: in a batch of chat turns, most close pairs hold a text of
several sentences or a question.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from graphmem.beliefs.initials import written_initials
from graphmem.beliefs.left_behind import may_leave_something
from graphmem.beliefs.reported import reported
from graphmem.beliefs.statements import Statement


@dataclass(frozen=True)
class JudgeGate:
    """What the judge's first tests read of one statement, as it reads it (``reported``)."""

    atomic: bool
    may_leave: bool  # it might say a value was left or ended (no parse: only its words)
    initials: bool  # it writes a name as initials ("NHS"): the other may be read again with them
    written_out: bool  # it writes out a run of capitalised words that initials could stand for


def gate_of(statement: Statement) -> JudgeGate:
    """The gate's reading of ``statement`` (cheap: a regular expression or two, no parse)."""
    read = reported(statement)
    short, long = written_initials(read.body)
    return JudgeGate(read.atomic, may_leave_something(read.body), bool(short), bool(long))


def may_conflict(old: JudgeGate, new: JudgeGate) -> bool:
    """False only when the judge cannot find ``old`` and ``new`` in conflict (``old`` the earlier
    one). A statement the other may read again by its initials always passes: read so, it may be
    atomic where it was not."""
    return bool(_may(_flags([old, new]), np.array([0]), np.array([1]))[0])


def may_conflict_pairs(
    gates: Sequence[JudgeGate], first: NDArray[np.intp], second: NDArray[np.intp]
) -> NDArray[np.bool_]:
    """:func:`may_conflict` for many pairs at once (``gates[first[i]]``, ``gates[second[i]]``), in
    either order (the pairs' order in time is not looked at): one array operation per flag where
    a Python call per pair cost about as much as the judge's own first tests."""
    flags = _flags(gates)
    result: NDArray[np.bool_] = _may(flags, first, second) | _may(flags, second, first)
    return result


def _flags(gates: Sequence[JudgeGate]) -> tuple[NDArray[np.bool_], ...]:
    """The gates' flags as arrays: atomic, may_leave, initials, written_out."""
    return tuple(
        np.array([getattr(g, flag) for g in gates], dtype=bool)
        for flag in ("atomic", "may_leave", "initials", "written_out")
    )


def _may(
    flags: tuple[NDArray[np.bool_], ...], old: NDArray[np.intp], new: NDArray[np.intp]
) -> NDArray[np.bool_]:
    """The gate's rule for each pair (``old[i]`` the earlier, ``new[i]`` the later): the earlier
    one atomic (or read so by the other's initials), and the later one atomic likewise or naming
    a leaving."""
    atomic, leaves, initials, written_out = flags
    old_atomic = atomic[old] | (initials[new] & written_out[old])
    new_atomic = atomic[new] | (initials[old] & written_out[new])
    result: NDArray[np.bool_] = old_atomic & (new_atomic | leaves[new])
    return result
