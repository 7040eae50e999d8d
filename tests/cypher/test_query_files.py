"""Static checks of every query file in ``cypher/`` (no database needed).

The executor trusts a file's header: it routes ``read`` files to read transactions, runs ``schema``
files outside transactions, and demands exactly the ``$parameters`` the catalog parsed. These
checks keep that trust earned, and make sure every query name the Python code asks for exists.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from graphmem.store.catalog import Catalog, parse_query

REPO = Path(__file__).resolve().parents[2]
CYPHER_DIR = REPO / "cypher"
SCHEMA_DIR = CYPHER_DIR / "schema"
LIBRARY_DIR = REPO / "graphmem"

CATALOG = Catalog(CYPHER_DIR)
NAMES = CATALOG.names()

_WRITE_CLAUSE = re.compile(
    r"(?<![\w.$])(?:CREATE|MERGE|SET|DELETE|REMOVE|DETACH|FOREACH|LOAD\s+CSV)(?!\w)(?!\s*:)", re.IGNORECASE
)
_PARAM = re.compile(r"\$([A-Za-z_][A-Za-z0-9_]*)")
_PROCEDURE_CALL = re.compile(r"\bCALL\s+([A-Za-z_][\w.]*)\s*\(", re.IGNORECASE)
# Procedures a read-mode file may call; anything else could write behind the mode's back.
READ_PROCEDURES = frozenset({"db.index.vector.queryNodes", "db.index.fulltext.queryNodes", "db.awaitIndexes"})
_SCHEMA_FILE = re.compile(r"^(\d{3})_[a-z0-9_]+\.cypher$")
# Building Cypher out of values: string concatenation next to a parameter, APOC's dynamic Cypher,
# dynamic labels (``:$(...)``) and dynamic property keys (``n[$key]``).
_DYNAMIC = {
    "APOC call": re.compile(r"\bapoc\.", re.IGNORECASE),
    "string concatenated with a parameter": re.compile(r"['\"`]\s*\+\s*\$|\$[A-Za-z_]\w*\s*\+\s*['\"`]"),
    "dynamic label or type": re.compile(r":\s*\$\s*\("),
    "dynamic property key": re.compile(r"(?<![\w$.])[A-Za-z_]\w*\[\s*\$"),
}
_EXECUTOR_METHODS = {"run", "read", "write", "run_schema"}


def mask(source: str, *, strings: bool = True) -> str:
    """``source`` with comments (and, if ``strings``, string literals and backticked names) blanked.

    Lengths and line breaks are kept, so what is left is only the code Neo4j would parse.
    """
    out: list[str] = []
    i, n = 0, len(source)
    while i < n:
        two = source[i : i + 2]
        if two == "//":
            end = source.find("\n", i)
            end = n if end == -1 else end
            out.append(" " * (end - i))
            i = end
        elif two == "/*":
            end = source.find("*/", i + 2)
            end = n if end == -1 else end + 2
            out.append(re.sub(r"[^\n]", " ", source[i:end]))
            i = end
        elif source[i] in "'\"`":
            quote, j = source[i], i + 1
            while j < n and source[j] != quote:
                j += 2 if source[j] == "\\" and quote != "`" else 1
            end = min(j + 1, n)
            literal = source[i:end]
            out.append(quote + " " * (len(literal) - 2) + quote if strings else literal)
            i = end
        else:
            out.append(source[i])
            i += 1
    return "".join(out)


def source_of(name: str) -> str:
    """The raw text of the query file called ``name``."""
    return (CYPHER_DIR / f"{name}.cypher").read_text(encoding="utf-8")


def test_the_catalog_finds_the_query_files() -> None:
    assert NAMES, f"no .cypher files under {CYPHER_DIR}"
    assert any(name.startswith("schema/") for name in NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_file_opens_with_a_doc_line_then_a_mode_line(name: str) -> None:
    lines = source_of(name).splitlines()
    assert len(lines) >= 3, f"{name}: a doc line, a mode line, then the statement"
    assert re.fullmatch(r"// \S.*", lines[0]), f"{name}: line 1 must be '// <what the query does>'"
    assert re.fullmatch(r"// mode: (read|write|schema)", lines[1]), (
        f"{name}: line 2 must be '// mode: read|write|schema', not {lines[1]!r}"
    )
    query = parse_query(name, source_of(name))
    assert query.doc == lines[0][3:].strip()
    assert query.mode == lines[1].removeprefix("// mode: ")


@pytest.mark.parametrize("name", NAMES)
def test_file_holds_one_statement(name: str) -> None:
    code = mask(source_of(name)).strip()
    assert ";" not in code.rstrip(";"), f"{name}: one statement per file (found a ';' between two)"


@pytest.mark.parametrize("name", [n for n in NAMES if CATALOG.get(n).mode == "read"])
def test_read_query_cannot_write(name: str) -> None:
    code = mask(source_of(name))
    clauses = sorted({m.group(0).upper() for m in _WRITE_CLAUSE.finditer(code)})
    assert not clauses, f"{name} is mode: read but contains {clauses}; make it mode: write"
    called = {m.group(1) for m in _PROCEDURE_CALL.finditer(code)}
    unknown = sorted(called - READ_PROCEDURES)
    assert not unknown, (
        f"{name} is mode: read but calls {unknown}; if they only read, add them to READ_PROCEDURES"
    )


@pytest.mark.parametrize("name", [n for n in NAMES if CATALOG.get(n).mode == "write"])
def test_write_query_writes(name: str) -> None:
    assert _WRITE_CLAUSE.search(mask(source_of(name))), (
        f"{name} is mode: write but has no write clause; make it mode: read so it runs as a read"
    )


def test_schema_files_are_uniquely_numbered() -> None:
    files = sorted(p.name for p in SCHEMA_DIR.iterdir() if p.suffix == ".cypher")
    assert files, f"no schema files in {SCHEMA_DIR}"
    badly_named = [f for f in files if not _SCHEMA_FILE.match(f)]
    assert not badly_named, f"schema files must be named NNN_snake_case.cypher: {badly_named}"
    numbers = [int(_SCHEMA_FILE.match(f).group(1)) for f in files]  # type: ignore[union-attr]
    duplicated = sorted({n for n in numbers if numbers.count(n) > 1})
    assert not duplicated, f"schema numbers used twice: {duplicated}"
    assert not [p for p in SCHEMA_DIR.rglob("*") if p.is_dir()], "schema/ holds no sub-folders"


@pytest.mark.parametrize("name", [n for n in NAMES if n.startswith("schema/")])
def test_schema_file_is_idempotent(name: str) -> None:
    assert CATALOG.get(name).mode == "schema", f"{name}: files in schema/ are mode: schema"
    code = " ".join(mask(source_of(name)).split()).upper()
    assert "IF NOT EXISTS" in code or "IF EXISTS" in code, (
        f"{name}: schema files must be safe to re-run; add IF NOT EXISTS (or IF EXISTS for a DROP)"
    )


@pytest.mark.parametrize("name", NAMES)
def test_no_cypher_is_built_from_values(name: str) -> None:
    code = mask(source_of(name), strings=False)  # comments out, string literals kept
    found = [what for what, pattern in _DYNAMIC.items() if pattern.search(code)]
    assert not found, f"{name}: {found}; pass values as $parameters and keep labels and keys literal"


@pytest.mark.parametrize("name", NAMES)
def test_catalog_parses_exactly_the_parameters_the_statement_uses(name: str) -> None:
    code = mask(source_of(name))
    assert not re.search(r"\$(?![A-Za-z_])", code), f"{name}: use $name parameters (no $0, $`x` or ${{x}})"
    used = set(_PARAM.findall(code))
    assert CATALOG.get(name).parameters == used, (
        f"{name}: catalog parsed {sorted(CATALOG.get(name).parameters)}, the statement uses {sorted(used)}"
    )


def query_references() -> Iterator[tuple[str, str, str]]:
    """(location, method, query name) for every executor call in graphmem/ naming a query literally."""
    for path in sorted(LIBRARY_DIR.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            func = node.func
            method = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
            first = node.args[0]
            if (
                method in _EXECUTOR_METHODS
                and isinstance(first, ast.Constant)
                and isinstance(first.value, str)
                and re.fullmatch(r"[a-z_]+/[a-z0-9_]+", first.value)
            ):
                yield f"{path.relative_to(REPO)}:{node.lineno}", method, first.value


def query_name_literals() -> Iterator[tuple[str, str]]:
    """(location, name) for every string literal in graphmem/ shaped like a query name."""
    folders = "|".join(sorted({n.split("/", 1)[0] for n in NAMES}))
    shape = re.compile(rf"(?:{folders})/[a-z0-9_]+")
    for path in sorted(LIBRARY_DIR.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and shape.fullmatch(node.value):
                yield f"{path.relative_to(REPO)}:{node.lineno}", node.value


REFERENCES = list(query_references())
_METHOD_MODES = {"read": {"read"}, "write": {"write"}, "run_schema": {"schema"}, "run": {"read", "write"}}


def test_the_library_names_queries() -> None:
    assert len(REFERENCES) >= 5, (
        "the scan of graphmem/ found almost no queries; has the executor API changed?"
    )


@pytest.mark.parametrize(("where", "method", "name"), REFERENCES, ids=[r[0] for r in REFERENCES])
def test_every_query_the_library_runs_exists_in_the_right_mode(where: str, method: str, name: str) -> None:
    assert name in NAMES, f"{where} runs {name!r} but there is no cypher/{name}.cypher"
    mode = CATALOG.get(name).mode
    assert mode in _METHOD_MODES[method], f"{where}: .{method}({name!r}) on a mode: {mode} query"


def test_every_query_name_in_the_library_exists() -> None:
    missing = [f"{where}: {name}" for where, name in query_name_literals() if name not in NAMES]
    assert not missing, f"query names with no file in cypher/: {missing}"


# Tenancy (issue 12): the folders whose queries serve callers read and write memories, decisions and
# conversations only inside the caller's allowed scopes, filtered in the query itself.
TENANT_FOLDERS = ("memories", "search", "sessions", "decisions", "conversations", "beliefs")
_ALLOWED_FILTER = re.compile(
    r"any\(ok IN \$allowed WHERE (\w+)\.scope = ok OR \1\.scope STARTS WITH ok \+ '/'\)"
)


@pytest.mark.parametrize("name", [n for n in NAMES if n.split("/")[0] in TENANT_FOLDERS])
def test_every_tenant_query_filters_on_the_callers_allowed_scopes(name: str) -> None:
    text = CATALOG.get(name).text
    assert "$allowed IS NULL OR" in text, f"{name} must filter on $allowed (see graphmem/tenancy.py)"
    assert _ALLOWED_FILTER.search(text), f"{name}: use the one $allowed filter form of graphmem/tenancy.py"
