"""``graphmem scopes`` (R8, what is remembered where) and ``graphmem export`` (the graph for analysis)."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

import click

from graphmem.config import Settings
from graphmem.connect import open_memory
from graphmem.errors import InvalidInputError
from graphmem.graph.subgraph import FORMATS, ExportFormat, write_graph
from graphmem.scopetree import render_tree
from graphmem.targets import resolve_target


@click.command()
@click.option("--under", default="/", show_default=True, help="The subtree to show, e.g. /user.")
@click.option("--json", "as_json", is_flag=True, help="Print the tree as JSON (counts by layer and status).")
@click.pass_obj
def scopes(settings: Settings, under: str, as_json: bool) -> None:
    """The scope hierarchy with memory counts per branch: what is remembered where."""
    with open_memory(settings, resolve_target(settings)) as memory:
        tree = memory.scope_tree(under)
    if as_json:
        click.echo(json.dumps(tree.model_dump(mode="json"), indent=2, ensure_ascii=False))
        return
    for line in render_tree(tree):
        click.echo(line)


@click.command()
@click.option("--scope", default="/", show_default=True, help="The scope subtree to export.")
@click.option(
    "--format", "fmt", type=click.Choice(FORMATS), default="graphml", show_default=True, help="File format."
)
@click.option("--as-of", default=None, help="The graph as it stood then (ISO time, e.g. 2026-03-01T00:00Z).")
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="File to write (default graphmem-<scope>.<format>).",
)
@click.pass_obj
def export(settings: Settings, scope: str, fmt: ExportFormat, as_of: str | None, output: Path | None) -> None:
    """Write a scope's memories, entities, decisions and edges for Gephi, Cytoscape or networkx."""
    when = None
    if as_of is not None:
        try:
            when = datetime.fromisoformat(as_of.replace("Z", "+00:00"))
        except ValueError as e:
            raise InvalidInputError(f"--as-of {as_of!r} is not an ISO time such as 2026-03-01T00:00Z.") from e
        if when.tzinfo is None:
            raise InvalidInputError(f"--as-of {as_of!r} needs a time zone, such as 2026-03-01T00:00Z.")
    with open_memory(settings, resolve_target(settings)) as memory:
        graph = memory.subgraph(scope, as_of=when)
    name = scope.strip("/").replace("/", "-") or "all"
    path = output or Path(f"graphmem-{name}.{fmt}")
    write_graph(graph, path, fmt)
    click.echo(f"{path}: {graph.number_of_nodes()} nodes, {graph.number_of_edges()} edges ({fmt})")
