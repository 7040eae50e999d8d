"""The catalog of Cypher files: every statement graphmem runs lives in ``cypher/`` as a file.

A query file holds one statement and opens with a doc comment and a mode line::

    // Create a batch of episodic memories.
    // mode: write
    UNWIND $rows AS row ...

The query's name is its path below ``cypher/`` without the extension (``memories/create_memories``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Literal

from graphmem.errors import QueryCatalogError

Mode = Literal["read", "write", "schema"]

_PARAM = re.compile(r"\$([A-Za-z_][A-Za-z0-9_]*)")
_STRING = re.compile(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"")
_MODE = re.compile(r"^//\s*mode:\s*(read|write|schema)\s*$")


@dataclass(frozen=True)
class CypherQuery:
    """One statement from the catalog, with what the executor needs to run it safely."""

    name: str
    text: str
    mode: Mode
    doc: str
    parameters: frozenset[str]


def cypher_root() -> Path:
    """The folder holding the ``.cypher`` files: packaged copy first, then the source tree."""
    here = Path(__file__).resolve().parent.parent
    for candidate in (here / "_cypher", here.parent / "cypher"):
        if candidate.is_dir():
            return candidate
    raise QueryCatalogError(f"No cypher/ folder found next to {here}; reinstall graphmem (pip install -e .).")


def _strip_comments(text: str) -> str:
    lines = [line for line in text.splitlines() if not line.strip().startswith("//")]
    return "\n".join(lines).strip()


def parse_query(name: str, source: str) -> CypherQuery:
    """Parse one query file's text; raises QueryCatalogError when the header is missing."""
    lines = source.strip().splitlines()
    if len(lines) < 3 or not lines[0].startswith("//"):
        raise QueryCatalogError(f"{name}.cypher must open with a '// doc' line and a '// mode:' line.")
    match = _MODE.match(lines[1].strip())
    if match is None:
        raise QueryCatalogError(f"{name}.cypher: second line must be '// mode: read|write|schema'.")
    text = _strip_comments(source)
    if not text:
        raise QueryCatalogError(f"{name}.cypher holds no statement.")
    params = frozenset(_PARAM.findall(_STRING.sub("''", text)))
    mode: Mode = match.group(1)  # type: ignore[assignment]
    return CypherQuery(name=name, text=text, mode=mode, doc=lines[0][2:].strip(), parameters=params)


class Catalog:
    """Loads query files by name from a root folder, parsing each once."""

    def __init__(self, root: Path) -> None:
        self._root = root
        self._cache: dict[str, CypherQuery] = {}

    @property
    def root(self) -> Path:
        """The folder the queries are read from."""
        return self._root

    def get(self, name: str) -> CypherQuery:
        """The query called ``name``; raises QueryCatalogError when no such file exists."""
        query = self._cache.get(name)
        if query is None:
            path = self._root / f"{name}.cypher"
            if not path.is_file():
                raise QueryCatalogError(f"No Cypher file {path}; every query lives in cypher/.")
            query = parse_query(name, path.read_text(encoding="utf-8"))
            self._cache[name] = query
        return query

    def names(self) -> list[str]:
        """Every query name in the catalog, sorted."""
        return sorted(str(p.relative_to(self._root).with_suffix("")) for p in self._root.rglob("*.cypher"))


@lru_cache(maxsize=1)
def default_catalog() -> Catalog:
    """The catalog over the project's own ``cypher/`` folder."""
    return Catalog(cypher_root())
