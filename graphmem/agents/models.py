"""What agents get back from graph queries (X4): pure data."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field


class CypherResult(BaseModel):
    """The rows of a read query, confined to the caller's scopes."""

    columns: list[str] = Field(description="The query's column names, in RETURN order.")
    rows: list[list[Any]] = Field(
        description="One list per row, values in column order. Nodes are {element_id, labels, "
        "properties} (no embeddings), relationships {element_id, type, start, end, properties}, "
        "paths {nodes, relationships}, times ISO-8601 strings."
    )
    truncated: bool = Field(
        default=False, description="True when the query had more rows than the limit; narrow it or page."
    )
    withheld: int = Field(
        default=0, description="Rows left out because they hold a node or edge outside the caller's scopes."
    )
    scopes: list[str] = Field(
        default_factory=list, description="The scopes the query could read (also passed as $scopes)."
    )


class AgentQuery(BaseModel):
    """A ready-made read query agents can run by name."""

    name: str
    doc: str = Field(description="What the query returns.")
    parameters: list[str] = Field(
        description="The parameters the caller passes; $scopes and $limit are filled in by graphmem."
    )
