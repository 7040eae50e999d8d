"""Tenancy: confining an operation to the scopes the caller's API key is bound to.

The API resolves a key to its allowed scopes (None: unrestricted) and hands them to the Memory
facade, which runs the operation inside :func:`confined`. The executor then passes them as
``$allowed`` to every Cypher file that declares that parameter; those files filter in their
``WHERE``::

    ($allowed IS NULL OR any(s IN $allowed WHERE m.scope = s OR m.scope STARTS WITH s + '/'))

so a memory outside the allowed scopes is never read, changed or deleted: it answers exactly
as an unknown id. Writes into a scope outside them are refused up front (ScopeForbiddenError).

X5 agent spaces: a key may write in fewer scopes than it reads. A :class:`Grant` (the scopes a
key reads, plus the narrower ``writes``) confines reads to the first and writes to the second:
the executor passes a query file of ``// mode: write`` the write scopes as ``$allowed``, any
other file the read scopes. So an agent's key bound to ``/org/acme/agent/planner`` that also
reads ``/org/acme`` recalls every agent of acme, and changes, deletes and writes only in its own
space; another tenant stays unknown to it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar

from graphmem.errors import ScopeForbiddenError
from graphmem.scopes import ROOT, normalize_scope

ALLOWED_PARAMETER = "allowed"
"""The name of the Cypher parameter that carries the caller's allowed scopes."""

READ_ONLY_PREFIX = "read:"
"""Marks a scope a key only reads, in ``GRAPHMEM_API_KEYS`` (``key@/org/a/agent/p|read:/org/a``)."""

Scopes = tuple[str, ...] | None  # canonical scopes; None: every scope

_ALLOWED: ContextVar[tuple[Scopes, Scopes]] = ContextVar("graphmem_allowed_scopes", default=(None, None))


class Grant(list[str]):
    """A key's binding when it writes in fewer scopes than it reads (X5: an agent's own space
    inside its tenant): the list holds every scope it reads, ``writes`` those it may write,
    change and delete in (each inside a read scope; empty: a read-only key).

    It is a list of the read scopes so that every reader of a binding works unchanged; only
    :func:`confined` (and so every write) looks at ``writes``.
    """

    def __init__(self, reads: Iterable[str], writes: Iterable[str]) -> None:
        super().__init__(reads)
        self.writes: list[str] = list(writes)

    def __repr__(self) -> str:
        return f"Grant(reads={list(self)!r}, writes={self.writes!r})"


def binding(scopes: Sequence[str] | None, read_scopes: Sequence[str] | None = None) -> list[str] | None:
    """A key's binding from the scopes it reads and writes and those it only reads.

    None when unbound (neither given); a plain list when it writes wherever it reads; else a
    :class:`Grant`. Raises InvalidInputError for a malformed scope.
    """
    writes = [normalize_scope(s) for s in scopes or []]
    if not read_scopes:
        return writes or None
    reads = [*writes, *(normalize_scope(s) for s in read_scopes)]
    return Grant(reads, writes)


def describe(bound: Sequence[str] | None) -> str:
    """A binding as ``GRAPHMEM_API_KEYS`` writes it (``/a|read:/b``); ``(unbound)`` for None."""
    if bound is None:
        return "(unbound)"
    writes = bound.writes if isinstance(bound, Grant) else list(bound)
    return "|".join([*writes, *(f"{READ_ONLY_PREFIX}{s}" for s in bound if s not in writes)])


def _split(allowed: Iterable[str]) -> tuple[Scopes, Scopes]:
    """(read scopes, write scopes) of a binding, canonical; writes kept inside the reads."""
    listed = list(allowed)
    reads = canonical(listed)
    writes = canonical(allowed.writes) if isinstance(allowed, Grant) else reads
    if reads is not None and writes != reads:
        writes = narrow_to(writes, reads) if writes is not None else reads
    return reads, writes


def _narrow(inner: Scopes, outer: Scopes) -> Scopes:
    return inner if outer is None else outer if inner is None else narrow_to(inner, outer)


def canonical(allowed: Iterable[str] | None) -> tuple[str, ...] | None:
    """The allowed scopes normalised, sorted and minimal; None (unrestricted) when ``/`` is among them.

    Raises InvalidInputError for a malformed scope.
    """
    if allowed is None:
        return None
    scopes = {normalize_scope(s) for s in allowed}
    if ROOT in scopes:
        return None
    return tuple(s for s in sorted(scopes) if not any(o != s and s.startswith(o + "/") for o in scopes))


@contextmanager
def confined(allowed: Iterable[str] | None) -> Iterator[None]:
    """Run the block confined to ``allowed`` scopes (None: unrestricted, or the enclosing confinement).

    A :class:`Grant` confines writes to its ``writes``. Confinements nest by narrowing: an inner
    None keeps the outer scopes.
    """
    outer_reads, outer_writes = _ALLOWED.get()
    if allowed is None:
        effective = (outer_reads, outer_writes)
    else:
        reads, writes = _split(allowed)
        effective = (_narrow(reads, outer_reads), _narrow(writes, outer_writes))
    token = _ALLOWED.set(effective)
    try:
        yield
    finally:
        _ALLOWED.reset(token)


def current_allowed() -> list[str] | None:
    """The scopes the running operation may read (``$allowed`` of a read query); None: all."""
    value = _ALLOWED.get()[0]
    return None if value is None else list(value)


def current_writable() -> list[str] | None:
    """The scopes the running operation may write, change and delete in (``$allowed`` of a
    ``// mode: write`` query); None: all."""
    value = _ALLOWED.get()[1]
    return None if value is None else list(value)


def current_for(mode: str) -> list[str] | None:
    """The ``$allowed`` value of a query file of ``mode``: the write scopes for writes."""
    return current_writable() if mode == "write" else current_allowed()


def within(scope: str, allowed: Sequence[str] | None) -> bool:
    """Whether ``scope`` is one of ``allowed`` or lies below one of them (always, when unrestricted)."""
    if allowed is None:
        return True
    return any(a == ROOT or scope == a or scope.startswith(a + "/") for a in allowed)


def narrow_to(requested: Sequence[str], allowed: Sequence[str]) -> tuple[str, ...]:
    """The part of ``requested`` scopes inside ``allowed``: a requested scope inside an allowed one
    is kept, an allowed scope inside a requested one replaces it (``/`` asks for all of them)."""
    kept = {r for r in requested if within(r, allowed)} | {a for a in allowed if within(a, requested)}
    return tuple(s for s in sorted(kept) if not any(o != s and s.startswith(o + "/") for o in kept))


def narrowed(bound: Sequence[str], requested: Sequence[str]) -> list[str]:
    """A binding narrowed to the ``requested`` scopes (a :class:`Grant` stays one, its writes
    narrowed alike); empty when nothing of it is requested."""
    reads = list(narrow_to(requested, bound))
    if isinstance(bound, Grant):
        return Grant(reads, narrow_to(requested, bound.writes))
    return reads


def check_writable(scope: str | None) -> None:
    """Refuse a write into ``scope`` (None: the root) outside the running operation's allowed scopes.

    Raises ScopeForbiddenError naming the scopes the key may write to.
    """
    allowed = current_writable()
    target = normalize_scope(scope)
    if not within(target, allowed):
        raise ScopeForbiddenError(writes_refused(target, allowed or []))


def writes_refused(target: str, writable: Sequence[str]) -> str:
    """What a caller is told when it writes outside the scopes it may write to."""
    if not writable:
        return f"Your API key only reads; it may write nowhere ({target!r} included). Use a key that writes."
    return (
        f"Your API key may write only under {', '.join(writable)}; "
        f"{target!r} is outside them. Set 'scope' to one of those (or a path below one)."
    )
