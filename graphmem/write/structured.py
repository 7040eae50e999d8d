"""Facts from JSON tool output: each leaf becomes 'subject key: value', prose leaves become sentences.

{"name": "Acme", "founded": 1999, "address": {"city": "Berlin"}} gives "Acme founded: 1999." and
"Acme address city: Berlin.": an object's name (or title, label) is the subject of its other
fields, so each fact still says what it is about when read alone.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable

MAX_STRUCTURED_FACTS = 200
MAX_LIST_ITEMS = 20
PROSE_MIN_WORDS = 8
_NAME_KEYS = ("name", "title", "label", "display_name", "username", "full_name")
_ID_KEYS = ("id", "key", "uuid", "slug")
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")

Prose = Callable[[str], list[str]]


def json_facts(text: str, prose: Prose) -> list[str] | None:
    """The facts of ``text`` when it is a JSON object or array, else None (it is not JSON).

    ``prose`` decomposes long string values that are sentences rather than values.
    """
    stripped = text.strip()
    if not stripped.startswith(("{", "[")):
        return None
    try:
        data = json.loads(stripped)
    except ValueError:
        return None
    if not isinstance(data, dict | list):
        return None
    facts: list[str] = []
    _flatten(data, "", facts, prose)
    return facts[:MAX_STRUCTURED_FACTS]


def _flatten(value: object, path: str, out: list[str], prose: Prose) -> None:
    if len(out) >= MAX_STRUCTURED_FACTS:
        return
    if isinstance(value, dict):
        _flatten_object(value, path, out, prose)
    elif isinstance(value, list):
        _flatten_list(value, path, out, prose)
    else:
        text = _scalar(value)
        if text is None or not path:
            return
        if isinstance(value, str) and len(text.split()) >= PROSE_MIN_WORDS:
            out.extend(prose(text))
        else:
            out.append(_sentence(f"{path}: {text}"))


def _flatten_object(value: dict[object, object], path: str, out: list[str], prose: Prose) -> None:
    name = _first(value, _NAME_KEYS)
    ident = _first(value, _ID_KEYS) if path and name is None else None
    subject, used = path, ""
    if name is not None:
        used, subject = name
    elif ident is not None:
        used, subject = ident[0], f"{path} {ident[1]}"
    rest = {str(k): v for k, v in value.items() if str(k) != used}
    if name is not None and path and not any(_has_content(v) for v in rest.values()):
        out.append(_sentence(f"{path}: {subject}"))
        return
    for key, item in rest.items():
        _flatten(item, f"{subject} {_words(key)}".strip(), out, prose)


def _flatten_list(value: list[object], path: str, out: list[str], prose: Prose) -> None:
    scalars = [_scalar(v) for v in value if not isinstance(v, dict | list)]
    shown = [s for s in scalars if s is not None]
    if shown and len(shown) == len(value):
        listed = ", ".join(shown[:MAX_LIST_ITEMS])
        more = len(shown) - MAX_LIST_ITEMS
        if path:
            out.append(_sentence(f"{path}: {listed}" + (f" and {more} more" if more > 0 else "")))
        return
    for i, item in enumerate(value, start=1):
        named = isinstance(item, dict) and (_first(item, _NAME_KEYS) or _first(item, _ID_KEYS))
        _flatten(item, path if named else f"{path} {i}".strip(), out, prose)


def _first(value: dict[object, object], keys: tuple[str, ...]) -> tuple[str, str] | None:
    """The first of ``keys`` holding a usable name, with that name."""
    for key in keys:
        found = value.get(key)
        if isinstance(found, str | int) and not isinstance(found, bool) and str(found).strip():
            return key, " ".join(str(found).split())
    return None


def _has_content(value: object) -> bool:
    return bool(value) if isinstance(value, dict | list) else _scalar(value) is not None


def _scalar(value: object) -> str | None:
    if value is None or isinstance(value, dict | list):
        return None
    if isinstance(value, bool):
        return "yes" if value else "no"
    text = " ".join(str(value).split())
    return text or None


def _words(key: str) -> str:
    """'temperatureC' / 'temperature_c' -> 'temperature c'."""
    return " ".join(_CAMEL.sub(" ", key).replace("_", " ").replace("-", " ").split()).lower()


def _sentence(text: str) -> str:
    text = text.strip()
    text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?" else text + "."
