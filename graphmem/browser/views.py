"""The saved Browser views: the read queries of ``cypher/browser/``, in the order the guide shows them.

Browser runs them as they are; their ``$parameters`` are set in Browser with ``:param``.
"""

from __future__ import annotations

from importlib import resources

from pydantic import BaseModel, ConfigDict

from graphmem.errors import QueryCatalogError
from graphmem.store.catalog import Catalog, default_catalog

VIEW_FOLDER = "browser"
STYLE_RESOURCE = "style.grass"

# (query name, slide title); the guide shows the views in this order.
_TITLES: tuple[tuple[str, str], ...] = (
    ("browser/user_graph", "A user's graph"),
    ("browser/contradiction_chains", "Contradiction chains"),
    ("browser/schema_lineage", "Where a schema came from"),
    ("browser/changed_this_week", "What changed this week"),
)


class BrowserView(BaseModel):
    """One saved query, as the guide offers it."""

    model_config = ConfigDict(frozen=True)

    name: str
    title: str
    doc: str
    cypher: str
    parameters: tuple[str, ...]


def browser_views(catalog: Catalog | None = None) -> list[BrowserView]:
    """Every saved view, in guide order.

    Raises:
        QueryCatalogError: a view's file is missing or malformed, a file in ``cypher/browser/``
            has no title here, or a view is not a read query.
    """
    catalog = catalog or default_catalog()
    on_disk = {n for n in catalog.names() if n.startswith(VIEW_FOLDER + "/")}
    untitled = sorted(on_disk - {name for name, _ in _TITLES})
    if untitled:
        raise QueryCatalogError(
            f"{untitled} in cypher/{VIEW_FOLDER}/ have no title; add them to graphmem/browser/views.py"
        )
    views = []
    for name, title in _TITLES:
        query = catalog.get(name)
        if query.mode != "read":
            raise QueryCatalogError(f"{name}.cypher must be mode: read; Browser views only read")
        views.append(
            BrowserView(
                name=name, title=title, doc=query.doc, cypher=query.text,
                parameters=tuple(sorted(query.parameters)),
            )
        )  # fmt: skip
    return views


def style_sheet() -> str:
    """The GraSS style sheet for Neo4j Browser (``:style`` loads it from the API)."""
    return resources.files("graphmem.browser").joinpath(STYLE_RESOURCE).read_text(encoding="utf-8")
