"""A scope's memories, entities and decisions with their edges as a ``networkx.MultiDiGraph``.

Nodes are keyed by id and carry their graph properties (no embeddings) plus ``kind`` (memory,
entity or decision; an entity's own kind is ``entity_kind``) and ``label`` (a memory's or
decision's text, an entity's name). Edges carry
their type as ``type`` and as the edge key, so centrality, paths and communities run without Cypher.
"""

from __future__ import annotations

import json
from datetime import date, datetime
from pathlib import Path
from typing import Any, Literal

import networkx as nx

from graphmem.errors import InvalidInputError
from graphmem.scopes import confine, normalize_scope, require_visible, scope_filter
from graphmem.store.executor import QueryExecutor
from graphmem.store.records import native

MAX_NODES = 100_000
ExportFormat = Literal["graphml", "gexf", "json"]
FORMATS: tuple[ExportFormat, ...] = ("graphml", "gexf", "json")


def subgraph(
    executor: QueryExecutor, scope: str | None, as_of: datetime | None, allowed: list[str] | None
) -> nx.MultiDiGraph:
    """The ``scope`` subtree's graph as it stood at ``as_of`` (None: now), within ``allowed``.

    Raises InvalidInputError for a bad scope or a naive ``as_of``, NotFoundError for a scope
    outside ``allowed``.
    """
    where, allowed = normalize_scope(scope), confine(allowed)
    require_visible(where, allowed)
    if as_of is not None and as_of.tzinfo is None:
        raise InvalidInputError("as_of needs a time zone, e.g. datetime(2026, 3, 1, tzinfo=UTC).")
    exact, prefix = scope_filter(where)
    nodes = executor.read(
        "graph/subgraph_nodes",
        scope=exact,
        scope_prefix=prefix,
        allowed=allowed,
        as_of=as_of,
        limit=MAX_NODES,
    )
    graph = nx.MultiDiGraph(scope=where, as_of=as_of.isoformat() if as_of else "")
    for row in nodes:
        props: dict[str, Any] = native(row["props"])
        props.pop("embedding", None)
        props.pop("name_embedding", None)
        props.pop("revision", None)  # bookkeeping of recall's vector cache, not a fact
        meta = props.pop("metadata_json", None)
        if meta:
            props["metadata"] = json.loads(meta)
        if "kind" in props:  # an entity's own kind (person, place...) or a derived memory's
            props[f"{row['kind']}_kind"] = props.pop("kind")
        props["kind"] = row["kind"]
        props["label"] = props.get("text") or props.get("name") or props["id"]
        graph.add_node(props["id"], **props)
    if graph.number_of_nodes():
        edges = executor.read("graph/subgraph_edges", ids=list(graph.nodes), as_of=as_of)
        for row in edges:
            graph.add_edge(
                row["source"], row["target"], key=row["type"], type=row["type"], **native(row["props"])
            )
    return graph


def _flat(value: Any) -> str | int | float | bool:
    """A value GraphML and GEXF can hold: scalars as they are, times as ISO text, the rest as JSON."""
    if isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, datetime | date):
        return value.isoformat()
    return json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)


def _flattened(graph: nx.MultiDiGraph) -> nx.MultiDiGraph:
    flat = nx.MultiDiGraph(**{k: _flat(v) for k, v in graph.graph.items()})
    for node, data in graph.nodes(data=True):
        flat.add_node(node, **{k: _flat(v) for k, v in data.items() if v is not None})
    for a, b, key, data in graph.edges(keys=True, data=True):
        flat.add_edge(a, b, key=key, **{k: _flat(v) for k, v in data.items() if v is not None})
    return flat


def write_graph(graph: nx.MultiDiGraph, path: Path, fmt: ExportFormat) -> None:
    """Write ``graph`` as GraphML, GEXF (Gephi) or node-link JSON (networkx, D3, notebooks)."""
    if fmt not in FORMATS:
        raise InvalidInputError(f"Unknown format {fmt!r}: use one of {', '.join(FORMATS)}.")
    flat = _flattened(graph)
    if fmt == "graphml":
        nx.write_graphml(flat, path)
    elif fmt == "gexf":
        nx.write_gexf(flat, path)
    else:
        data = nx.node_link_data(flat, edges="edges")
        path.write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")
