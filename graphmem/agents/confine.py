"""Confining an agent's query results to its scopes, and turning graph values into plain JSON.

Every node, relationship (with both of its end nodes) and path in a returned row is checked:

- a node or relationship with a ``scope`` property is allowed when that scope lies in (or below)
  one of the caller's scopes (``/user/alice`` covers ``/user/alice/health``, not ``/user/alicex``);
- one with only a graphiti ``group_id`` is allowed when the group is one of the caller's scopes'
  groups (:func:`graphmem.entities.names.group_id_for_scope`), or when the group id can be read
  back into a scope without ambiguity (``user_alice_health`` is ``/user/alice/health``) that lies
  in the caller's scopes; a hashed group id (a scope with ``_ . @ : +``) below the caller's own
  scopes cannot be told from a sibling's, so it is withheld;
- one with neither (conversation turns, bookkeeping) is allowed only to callers who may read ``/``.

One disallowed value withholds the whole row. What this cannot protect: values Neo4j computed
before returning them. ``RETURN count(m)``, ``m.text`` or ``collect(m.scope)`` carry no node to
check, so a caller may read them from any scope; that is why a caller whose API key is bound to
scopes gets only rows made of nodes, relationships and paths (``graph_only``). Even then, how many
rows come back, and how many were withheld, can reveal whether something exists elsewhere
(``MATCH (a {scope: '/mine'}), (b) WHERE b.text CONTAINS 'x' RETURN a``). For hard isolation,
give tenants separate databases.
"""

from __future__ import annotations

import base64
import math
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from neo4j import time as neo4j_time
from neo4j.graph import Node, Path, Relationship
from neo4j.spatial import Point

from graphmem.entities.names import ROOT_GROUP_ID, group_id_for_scope
from graphmem.errors import ForbiddenQueryError
from graphmem.scopes import ROOT, normalize_scope

HIDDEN_PROPERTIES = frozenset({"embedding", "name_embedding"})
"""Node properties never returned to agents (vectors: large, and no use in a prompt)."""

_LOSSLESS_GROUP = re.compile(r"^[A-Za-z0-9-]+(?:_[A-Za-z0-9-]+)*$")
_HASHED_GROUP = re.compile(r"_[0-9a-f]{8}$")


def in_scopes(scope: str, allowed: Sequence[str]) -> bool:
    """Whether ``scope`` is one of ``allowed`` or lies below one of them."""
    return any(a == ROOT or scope == a or scope.startswith(a + "/") for a in allowed)


def group_scope(group_id: str) -> str | None:
    """The scope a graphiti ``group_id`` stands for, or None when the id is hashed or ambiguous."""
    if group_id == ROOT_GROUP_ID:
        return ROOT
    if not _LOSSLESS_GROUP.match(group_id) or _HASHED_GROUP.search(group_id):
        return None
    scope = "/" + group_id.replace("_", "/")
    return scope if group_id_for_scope(scope) == group_id else None


def group_in_scopes(group_id: str, allowed: Sequence[str]) -> bool:
    """Whether the graphiti group ``group_id`` belongs to ``allowed`` (see the module doc)."""
    if ROOT in allowed or group_id in {group_id_for_scope(a) for a in allowed}:
        return True
    scope = group_scope(group_id)
    return scope is not None and in_scopes(scope, allowed)


def marker_allowed(scope: object, group_id: object, allowed: Sequence[str]) -> bool:
    """Whether an element with these scope markers (either may be None) may be shown."""
    if isinstance(scope, str):
        return in_scopes(scope, allowed)
    if isinstance(group_id, str):
        return group_in_scopes(group_id, allowed)
    return ROOT in allowed


def narrow_scopes(requested: Sequence[str] | None, bound: Sequence[str] | None) -> list[str]:
    """The scopes a query may read: ``requested`` (default ``/``), narrowed to a key's ``bound`` ones.

    A requested scope inside a bound one is kept; a bound scope inside a requested one replaces
    it. Raises InvalidInputError for a malformed scope, ForbiddenQueryError when nothing is left.
    """
    wanted = minimal_scopes(normalize_scope(s) for s in (requested or [ROOT]))
    if bound is None:
        return wanted
    limits = minimal_scopes(normalize_scope(s) for s in bound)
    kept = [s for s in wanted if in_scopes(s, limits)] + [b for b in limits if in_scopes(b, wanted)]
    narrowed = minimal_scopes(kept)
    if not narrowed:
        raise ForbiddenQueryError(
            f"Your API key may read only {', '.join(limits)}; ask for scopes inside those."
        )
    return narrowed


def minimal_scopes(scopes: Iterable[str]) -> list[str]:
    """The distinct scopes, sorted, without any that lies below another of them."""
    unique = sorted(set(scopes))
    return [s for s in unique if not any(o != s and in_scopes(s, [o]) for o in unique)]


def graph_values(value: Any) -> Iterator[Node | Relationship]:
    """Every node and relationship inside a returned value (paths, lists and maps opened)."""
    if isinstance(value, Node | Relationship):
        yield value
    elif isinstance(value, Path):
        yield from value.nodes
        yield from value.relationships
    elif isinstance(value, list | tuple):
        for item in value:
            yield from graph_values(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from graph_values(item)


def has_plain_values(value: Any) -> bool:
    """Whether a returned value holds anything but nodes, relationships, paths and nulls."""
    if value is None or isinstance(value, Node | Relationship | Path):
        return False
    if isinstance(value, list | tuple):
        return any(has_plain_values(item) for item in value)
    if isinstance(value, dict):
        return any(has_plain_values(item) for item in value.values())
    return True


def plain_value_refusal(column: str, scopes: Sequence[str]) -> ForbiddenQueryError:
    """The error for a plain value in a row of a caller confined to ``scopes`` by its API key."""
    return ForbiddenQueryError(
        f"Your API key is confined to {', '.join(scopes)}, so rows may hold only nodes, relationships "
        f"and paths (each checked against those scopes); column {column!r} holds other values. "
        "Return whole nodes instead, e.g. RETURN m rather than m.text or count(m)."
    )


@dataclass(frozen=True)
class Markers:
    """The scope markers of nodes the rows reference, by element id."""

    by_id: Mapping[str, tuple[object, object]]

    def allowed(self, element_id: str, scopes: Sequence[str]) -> bool:
        """Whether the node with this element id may be shown (unknown nodes: root readers only)."""
        scope, group_id = self.by_id.get(element_id, (None, None))
        return marker_allowed(scope, group_id, scopes)


def known_markers(rows: Sequence[Sequence[Any]]) -> tuple[dict[str, tuple[object, object]], set[str]]:
    """The markers of the nodes the rows hold, and the end-node ids of relationships they lack."""
    known: dict[str, tuple[object, object]] = {}
    ends: set[str] = set()
    for row in rows:
        for element in graph_values(list(row)):
            if isinstance(element, Node):
                known[element.element_id] = (element.get("scope"), element.get("group_id"))
            else:
                ends.update(n.element_id for n in element.nodes if n is not None)
    return known, ends - set(known)


def row_allowed(row: Sequence[Any], markers: Markers, scopes: Sequence[str]) -> bool:
    """Whether every node and relationship of ``row`` (with its end nodes) lies in ``scopes``."""
    for element in graph_values(list(row)):
        if isinstance(element, Node):
            if not markers.allowed(element.element_id, scopes):
                return False
            continue
        scope, group_id = element.get("scope"), element.get("group_id")
        if (scope is not None or group_id is not None) and not marker_allowed(scope, group_id, scopes):
            return False
        if not all(n is not None and markers.allowed(n.element_id, scopes) for n in element.nodes):
            return False
    return True


def plain(value: Any) -> Any:
    """A returned value as plain JSON data: nodes as ``{element_id, labels, properties}``,
    relationships as ``{element_id, type, start, end, properties}``, paths as
    ``{nodes, relationships}``, times as ISO-8601 strings; vectors dropped from nodes."""
    if isinstance(value, Node):
        return {
            "element_id": value.element_id,
            "labels": sorted(value.labels),
            "properties": {k: plain(v) for k, v in value.items() if k not in HIDDEN_PROPERTIES},
        }
    if isinstance(value, Relationship):
        start, end = value.nodes
        return {
            "element_id": value.element_id,
            "type": value.type,
            "start": start.element_id if start is not None else None,
            "end": end.element_id if end is not None else None,
            "properties": {k: plain(v) for k, v in value.items()},
        }
    if isinstance(value, Path):
        return {"nodes": [plain(n) for n in value.nodes], "relationships": [plain(r) for r in value]}
    return _plain_scalar(value)


def _plain_scalar(value: Any) -> Any:
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)  # 'nan', 'inf': JSON has no such numbers
    if isinstance(value, neo4j_time.DateTime | neo4j_time.Date | neo4j_time.Time):
        return value.iso_format()
    if isinstance(value, neo4j_time.Duration):
        return str(value.iso_format())
    if isinstance(value, Point):
        return {"srid": value.srid, "coordinates": list(value)}
    if isinstance(value, bytes | bytearray):
        return base64.b64encode(bytes(value)).decode("ascii")
    return value
