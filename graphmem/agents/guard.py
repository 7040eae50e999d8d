"""The read-only guard for an agent's own Cypher (X4): what is refused before and after ``EXPLAIN``.

Three layers, each enough on its own for the common cases and together fail-closed:

1. :func:`check_text` reads the statement itself (comments and string literals blanked): one
   statement, no ``USE``, no ``LOAD CSV``, no ``CALL {...} IN TRANSACTIONS``, and every procedure
   and namespaced function on the allow-lists (so no ``apoc.*``, ``gds.*``, ``dbms.*``,
   ``db.create.*``, ``tx.*``).
2. :func:`check_plan` reads Neo4j's own ``EXPLAIN``: the query type must be ``r`` (read only) and
   no operator of the plan may write, load files, administer the server or call a procedure
   outside the allow-list.
3. The query then runs in a READ transaction, where Neo4j itself refuses any write.

Pure functions; they raise :class:`~graphmem.errors.ForbiddenQueryError` with a message that says
what to change.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

from graphmem.errors import ForbiddenQueryError

ALLOWED_PROCEDURES = frozenset(
    {
        "db.labels",
        "db.relationshipTypes",
        "db.propertyKeys",
        "db.index.fulltext.queryNodes",
        "db.index.fulltext.queryRelationships",
        "db.index.vector.queryNodes",
    }
)
"""Procedures an agent may call: schema names and the read-only index searches."""

ALLOWED_FUNCTION_NAMESPACES = frozenset(
    {"date", "datetime", "localdatetime", "localtime", "time", "duration", "point", "vector.similarity"}
)
"""Namespaces of Neo4j's built-in namespaced functions; plain functions (``count``...) are built in."""

_ALLOWED_PROCEDURES_LOWER = frozenset(p.lower() for p in ALLOWED_PROCEDURES)
_NAME = r"[A-Za-z_][A-Za-z0-9_]*"
_DOTTED = rf"{_NAME}(?:\s*\.\s*{_NAME})+"
_PROCEDURE = re.compile(rf"(?<![\w.$])CALL\s+({_NAME}(?:\s*\.\s*{_NAME})*)", re.IGNORECASE)
_FUNCTION = re.compile(rf"(?<![\w.$])({_DOTTED})\s*\(")
_TEXT_RULES: list[tuple[re.Pattern[str], str]] = [
    (
        re.compile(r"(?<![\w.$])USE\s+[\w`]", re.IGNORECASE),
        "USE is not allowed: the query runs on graphmem's own database.",
    ),
    (
        re.compile(r"(?<![\w.$])LOAD\s+CSV(?!\w)", re.IGNORECASE),
        "LOAD CSV is not allowed: agents read the graph, not files or URLs.",
    ),
    (
        re.compile(r"(?<![\w.$])IN\s+(?:\S+\s+)?(?:CONCURRENT\s+)?TRANSACTIONS(?!\w)", re.IGNORECASE),
        "CALL { ... } IN TRANSACTIONS is not allowed: the query runs in one read transaction.",
    ),
    (
        re.compile(r"(?<![\w.$])PERIODIC\s+COMMIT(?!\w)", re.IGNORECASE),
        "USING PERIODIC COMMIT is not allowed: the query runs in one read transaction.",
    ),
    (
        re.compile(
            r"^\s*(?:SHOW|GRANT|REVOKE|DENY|ALTER|START|STOP|TERMINATE|RENAME|ENABLE|DEALLOCATE|REALLOCATE"
            r"|DRYRUN|DROP|CREATE\s+(?:OR\s+REPLACE\s+)?(?:USER|ROLE|DATABASE|COMPOSITE|ALIAS|SERVER"
            r"|INDEX|CONSTRAINT|(?:RANGE|TEXT|POINT|LOOKUP|FULLTEXT|VECTOR)\s+INDEX))(?!\w)",
            re.IGNORECASE,
        ),
        "Administration and schema commands (SHOW, CREATE USER, GRANT, DROP, ...) are not allowed; "
        "read the graph with MATCH ... RETURN.",
    ),
]
# Operators that write, lock, load files, administer the server or leave the read transaction.
_FORBIDDEN_OPERATOR = re.compile(
    r"^(?:Create|Set|Remove|Delete|DetachDelete|Lock|Show|Terminate|Drop|Alter|Rename|Grant|Revoke|Deny"
    r"|Enable|Administration|SystemProcedure|EmptyResult|DoNothingIf|AssertSame|LoadCSV)"
    r"|Foreach|Merge|Transaction"
)
_PROCEDURE_DETAILS = re.compile(rf"^\s*({_NAME}(?:\.{_NAME})*)\s*\(")


def mask_cypher(text: str) -> str:
    """``text`` with comments and string literals blanked and backticks dropped from quoted names.

    What is left is the code Neo4j parses, so keyword checks cannot be fooled by a comment or a
    string (``/* CREATE */``, ``'apoc.run'``) nor dodged by quoting (`` `apoc`.`run` ``).
    """
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        two = text[i : i + 2]
        if two == "//":
            end = text.find("\n", i)
            end = n if end == -1 else end
            out.append(" " * (end - i))
            i = end
        elif two == "/*":
            end = text.find("*/", i + 2)
            end = n if end == -1 else end + 2
            out.append(re.sub(r"[^\n]", " ", text[i:end]))
            i = end
        elif text[i] in "'\"`":
            quote, j = text[i], i + 1
            while j < n and text[j] != quote:
                j += 2 if text[j] == "\\" and quote != "`" else 1
            end = min(j + 1, n)
            if quote == "`":
                out.append(re.sub(r"[^\w.]", "_", text[i + 1 : end - 1]))
            else:
                out.append(quote + " " * max(end - i - 2, 0) + quote)
            i = end
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def _squash(name: str) -> str:
    return re.sub(r"\s+", "", name)


def procedure_allowed(name: str) -> bool:
    """Whether an agent may call the procedure ``name`` (compared without case)."""
    return _squash(name).lower() in _ALLOWED_PROCEDURES_LOWER


def function_allowed(name: str) -> bool:
    """Whether an agent may call the namespaced function ``name`` (built-in namespaces only)."""
    namespace = _squash(name).lower().rpartition(".")[0]
    return namespace in ALLOWED_FUNCTION_NAMESPACES


def _procedure_refusal(name: str) -> ForbiddenQueryError:
    allowed = ", ".join(sorted(ALLOWED_PROCEDURES))
    return ForbiddenQueryError(f"Procedure {_squash(name)} is not allowed; agents may call only {allowed}.")


def _function_refusal(name: str) -> ForbiddenQueryError:
    return ForbiddenQueryError(
        f"Function {_squash(name)} is not allowed; namespaced functions must be Neo4j built-ins "
        f"({', '.join(sorted(ALLOWED_FUNCTION_NAMESPACES))})."
    )


def check_text(query: str) -> None:
    """Refuse what the statement's own text shows: several statements, USE, LOAD CSV, batching,
    and procedures or functions off the allow-lists. Raises ForbiddenQueryError."""
    code = mask_cypher(query)
    if ";" in code.strip().rstrip(";"):
        raise ForbiddenQueryError("Send one statement per request: remove the ';' between statements.")
    for pattern, message in _TEXT_RULES:
        if pattern.search(code):
            raise ForbiddenQueryError(message)
    for match in _PROCEDURE.finditer(code):
        if not procedure_allowed(match.group(1)):
            raise _procedure_refusal(match.group(1))
    for match in _FUNCTION.finditer(code):
        before = code[: match.start()].rstrip()
        if re.search(r"(?<![\w.$])CALL$", before, re.IGNORECASE):
            continue  # a procedure, checked above
        if not function_allowed(match.group(1)):
            raise _function_refusal(match.group(1))


def _operators(plan: Mapping[str, Any]) -> Iterator[Mapping[str, Any]]:
    yield plan
    for child in plan.get("children") or []:
        yield from _operators(child)


def _operator_name(operator: Mapping[str, Any]) -> str:
    return str(operator.get("operatorType", "")).split("@", 1)[0]


def _check_procedure_call(details: str) -> None:
    match = _PROCEDURE_DETAILS.match(details)
    if match is None:
        raise ForbiddenQueryError("The query calls a procedure graphmem cannot identify; call it by name.")
    if not procedure_allowed(match.group(1)):
        raise _procedure_refusal(match.group(1))
    _check_functions(details[match.end() :])


def _check_functions(details: str) -> None:
    for match in _FUNCTION.finditer(mask_cypher(details)):
        if not function_allowed(match.group(1)):
            raise _function_refusal(match.group(1))


def check_plan(query_type: str, plan: Mapping[str, Any]) -> None:
    """Refuse a query whose EXPLAIN shows more than reading: a query type other than ``r``, a
    writing or administrative operator, or a procedure or function off the allow-lists.
    Raises ForbiddenQueryError."""
    if query_type != "r":
        kind = {"rw": "reads and writes", "w": "writes", "s": "changes the schema or the server"}
        raise ForbiddenQueryError(
            f"Only read queries are allowed; Neo4j says this one {kind.get(query_type, 'is not read-only')} "
            f"(query type {query_type!r}). Use MATCH ... RETURN without CREATE, MERGE, SET, DELETE, REMOVE."
        )
    for operator in _operators(plan):
        name = _operator_name(operator)
        details = str((operator.get("args") or {}).get("Details", ""))
        if _FORBIDDEN_OPERATOR.search(name):
            raise ForbiddenQueryError(
                f"The query's plan has a {name} step, which agents may not run; read with MATCH ... RETURN."
            )
        if name.startswith("ProcedureCall"):
            _check_procedure_call(details)
        else:
            _check_functions(details)
