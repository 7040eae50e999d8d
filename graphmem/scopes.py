"""Scope paths: hierarchical namespaces such as ``/user/alice/health``.

A scope filter matches the scope itself and everything below it, never a sibling that merely
shares a prefix (``/user/al`` does not match ``/user/alice``).
"""

from __future__ import annotations

import re

from graphmem.errors import InvalidInputError, NotFoundError

ROOT = "/"
MAX_SCOPE_LENGTH = 512
_SCOPE = re.compile(r"^/(?:[\w.@:+\-]+(?:/[\w.@:+\-]+)*)?$")
_SEGMENT = r"[\w.@:+\-]*[\w@:+\-][\w.@:+\-]*"  # not made only of dots
SCOPE_PATTERN = rf"^\s*(?:/|/?{_SEGMENT}(?:/{_SEGMENT})*/*)?\s*$"
"""What :func:`normalize_scope` accepts, as a JSON-schema pattern (for the OpenAPI)."""


def normalize_scope(scope: str | None) -> str:
    """The canonical form of a scope path (leading ``/``, no trailing ``/``); None means the root.

    Raises InvalidInputError for anything that is not a path of word characters, ``.@:+-``.
    """
    if scope is None:
        return ROOT
    if len(scope) > MAX_SCOPE_LENGTH:
        raise InvalidInputError(
            f"Invalid scope: {len(scope)} characters, over the limit of {MAX_SCOPE_LENGTH}; "
            "use a shorter path like '/user/alice/health'."
        )
    value = scope.strip()
    if not value.startswith("/"):
        value = "/" + value
    if len(value) > 1:
        value = value.rstrip("/")
    if value != ROOT and any(segment.strip(".") == "" for segment in value.split("/")[1:]):
        raise InvalidInputError(
            f"Invalid scope {scope!r}: a segment made only of dots ('.', '..') or an empty one "
            "('//') is not a scope name; use names like '/user/alice/health'."
        )
    if not _SCOPE.match(value):
        raise InvalidInputError(
            f"Invalid scope {scope!r}: use a path like '/user/alice/health' made of letters, digits "
            "and . _ @ : + - between slashes."
        )
    return value


def scope_filter(scope: str | None) -> tuple[str | None, str | None]:
    """The ``($scope, $scope_prefix)`` pair the Cypher filters take; (None, None) reads everything."""
    value = normalize_scope(scope)
    if value == ROOT:
        return None, None
    return value, value + "/"


def confine(allowed: list[str] | None) -> list[str] | None:
    """The caller's scopes as the ``$allowed`` parameter of a query: normalised, None when
    unrestricted (no list, or a list holding the root)."""
    if allowed is None:
        return None
    scopes = [normalize_scope(s) for s in allowed]
    return None if ROOT in scopes else scopes


def overlaps(scope: str, allowed: list[str] | None) -> bool:
    """Whether any of ``scope``'s subtree is within ``allowed`` (None: everything is)."""
    if allowed is None:
        return True
    return any(within(scope, a) or within(a, scope) for a in allowed)


def within(scope: str, ancestor: str) -> bool:
    """Whether ``scope`` is ``ancestor`` or below it."""
    return ancestor == ROOT or scope == ancestor or scope.startswith(ancestor + "/")


def require_visible(scope: str, allowed: list[str] | None) -> None:
    """NotFoundError when no part of ``scope``'s subtree is within the caller's ``allowed`` scopes
    (a scope the caller may not read looks the same as one that does not exist)."""
    if not overlaps(scope, allowed):
        raise NotFoundError(
            f"No scope {scope!r} among the scopes this API key may read; ask under one of them."
        )
