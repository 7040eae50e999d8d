"""R8 scope tree: what is remembered where, as the scope hierarchy with counts per branch."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from pydantic import BaseModel, Field

from graphmem.errors import InvalidInputError
from graphmem.scopes import ROOT, confine, normalize_scope, require_visible, scope_filter, within

if TYPE_CHECKING:  # the REST clients import the models here without the driver
    from graphmem.store.executor import QueryExecutor


class ScopeCounts(BaseModel):
    """Memories counted in total, by layer and by status."""

    total: int = 0
    by_layer: dict[str, int] = Field(default_factory=dict)
    by_status: dict[str, int] = Field(default_factory=dict)

    def add(self, layer: str, status: str, n: int) -> None:
        """Count ``n`` more memories of ``layer`` and ``status``."""
        self.total += n
        self.by_layer[layer] = self.by_layer.get(layer, 0) + n
        self.by_status[status] = self.by_status.get(status, 0) + n


class ScopeNode(BaseModel):
    """One scope of the tree: its own memories, its whole subtree's, and its child scopes."""

    path: str
    own: ScopeCounts = Field(default_factory=ScopeCounts, description="Memories stored at this exact scope")
    subtree: ScopeCounts = Field(default_factory=ScopeCounts, description="This scope and all below it")
    children: list[ScopeNode] = Field(default_factory=list, description="Child scopes, by path")


def _parent(path: str) -> str:
    head = path.rsplit("/", 1)[0]
    return head or ROOT


def _canonical(scope: str) -> bool:
    try:
        return normalize_scope(scope) == scope
    except InvalidInputError:
        return False


def build_tree(under: str, rows: Iterable[tuple[str, str, str, int]]) -> ScopeNode:
    """The tree below ``under`` from (scope, layer, status, count) rows of its subtree."""
    nodes: dict[str, ScopeNode] = {under: ScopeNode(path=under)}

    def node(path: str) -> ScopeNode:
        if path not in nodes:
            nodes[path] = ScopeNode(path=path)
            parent = node(_parent(path))
            parent.children.append(nodes[path])
        return nodes[path]

    for scope, layer, status, n in rows:
        if not _canonical(scope) or not within(scope, under):
            continue  # written by hand outside graphmem ("user/x", "/a/"): no place in the tree
        node(scope).own.add(layer, status, n)
        path = scope
        while True:
            nodes[path].subtree.add(layer, status, n)
            if path == under:
                break
            path = _parent(path)
    for each in nodes.values():
        each.children.sort(key=lambda c: c.path)
    return nodes[under]


def scope_tree(executor: QueryExecutor, under: str | None, allowed: list[str] | None) -> ScopeNode:
    """The scope tree below ``under`` (default the root), counting only memories in ``allowed``.

    Raises InvalidInputError for a bad path, NotFoundError when ``under`` lies outside ``allowed``.
    """
    where, allowed = normalize_scope(under), confine(allowed)
    require_visible(where, allowed)
    exact, prefix = scope_filter(where)
    rows = executor.read("scopes/scope_counts", scope=exact, scope_prefix=prefix, allowed=allowed)
    return build_tree(where, ((r["scope"], r["layer"], r["status"], int(r["n"])) for r in rows))


def render_tree(root: ScopeNode) -> list[str]:
    """The tree as indented text lines: path, subtree count (own count), active/superseded/archived."""
    lines: list[str] = []

    def walk(node: ScopeNode, depth: int) -> None:
        name = node.path if depth == 0 else node.path.rsplit("/", 1)[1]
        statuses = ", ".join(f"{k} {v}" for k, v in sorted(node.subtree.by_status.items()))
        own = f" (own {node.own.total})" if node.own.total and node.children else ""
        lines.append(f"{'  ' * depth}{name}  {node.subtree.total}{own}  {statuses}".rstrip())
        for child in node.children:
            walk(child, depth + 1)

    walk(root, 0)
    return lines
