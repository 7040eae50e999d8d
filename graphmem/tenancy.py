"""Tenancy: confining an operation to the scopes the caller's API key is bound to.

The API resolves a key to its allowed scopes (None: unrestricted) and hands them to the Memory
facade, which runs the operation inside :func:`confined`. The executor then passes them as
``$allowed`` to every Cypher file that declares that parameter; those files filter in their
``WHERE``::

    ($allowed IS NULL OR any(s IN $allowed WHERE m.scope = s OR m.scope STARTS WITH s + '/'))

so a memory outside the allowed scopes is never read, changed or deleted: it answers exactly
as an unknown id. Writes into a scope outside them are refused up front (ScopeForbiddenError).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar

from graphmem.errors import ScopeForbiddenError
from graphmem.scopes import ROOT, normalize_scope

ALLOWED_PARAMETER = "allowed"
"""The name of the Cypher parameter that carries the caller's allowed scopes."""

_ALLOWED: ContextVar[tuple[str, ...] | None] = ContextVar("graphmem_allowed_scopes", default=None)


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

    Confinements nest by narrowing: an inner None keeps the outer scopes.
    """
    outer = _ALLOWED.get()
    inner = canonical(allowed)
    effective = inner if outer is None else outer if inner is None else narrow_to(inner, outer)
    token = _ALLOWED.set(effective)
    try:
        yield
    finally:
        _ALLOWED.reset(token)


def current_allowed() -> list[str] | None:
    """The scopes the running operation is confined to (the value of ``$allowed``); None: all."""
    value = _ALLOWED.get()
    return None if value is None else list(value)


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


def check_writable(scope: str | None) -> None:
    """Refuse a write into ``scope`` (None: the root) outside the running operation's allowed scopes.

    Raises ScopeForbiddenError naming the scopes the key may write to.
    """
    allowed = current_allowed()
    target = normalize_scope(scope)
    if not within(target, allowed):
        raise ScopeForbiddenError(
            f"Your API key may write only under {', '.join(allowed or [])}; "
            f"{target!r} is outside them. Set 'scope' to one of those (or a path below one)."
        )
