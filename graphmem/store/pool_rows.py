"""The rows the graph sends of a recall's candidate pool: each memory's ranking facts
(:class:`Facts`) and its detail row, a list in :data:`DETAIL_COLUMNS` order (the record's values,
its times as epoch parts, lineage and conflicts), read as the record and facts recall needs only
when first asked for (:class:`DetailRows`). Both of a recall's expansions send them so: the
cached recall's check (search/cached_recall_expand) and the graph's (search/expand_with_details,
with each memory's text as one more value)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, NamedTuple

from graphmem.store.executor import Row


class Facts(NamedTuple):
    """The scalar properties ranking needs (cheap to read, unlike whole records). A named tuple,
    as are :class:`Candidate` and :class:`Neighbour`: a recall makes a few hundred of them, and a
    frozen dataclass of a dozen fields costs about five times as much to make (its ``__init__``
    sets each field through ``object.__setattr__``)."""

    importance: float
    strength: float
    layer: str
    categories: tuple[str, ...]
    occurred: float
    accessed: float
    spaced: int
    priority: float
    pinned: bool
    fade: float = 1.0
    faded_at: float | None = None  # when consolidation set ``fade`` (epoch seconds)
    status: str = "active"


def ranking_facts(
    importance: Any,
    strength: Any,
    layer: Any,
    categories: Any,
    occurred: Any,
    accessed: Any,
    spaced: Any,
    priority: Any,
    pinned: Any,
    fade: Any,
    faded_at: Any,
    status: Any,
) -> Facts:
    """:class:`Facts` of the values the graph sent for one memory, in its field order, with the
    defaults of a property the memory lacks (importance 0.5, strength 1.0, fade 1.0, active...)."""
    return Facts(
        float(importance if importance is not None else 0.5),
        float(strength if strength is not None else 1.0),
        str(layer),
        tuple(categories or ()),
        float(occurred or 0),
        float(accessed or 0),
        int(spaced or 0),
        float(priority or 0.0),
        bool(pinned),
        float(fade or 1.0),
        float(faded_at) if faded_at is not None else None,
        str(status or "active"),
    )


# A record's times, in the order the detail rows send them.
RECORD_TIMES = ("created_at", "occurred_at", "last_accessed_at", "updated_at")


# The values of a detail row of search/cached_recall_expand and search/expand_with_details, in
# order: the record's (as the ``memory`` map of search/recall_details names them, without its
# text), its times, then what ranking and the pool read beside them. The graph's expansion sends
# the text as one more value (GRAPH_DETAIL_COLUMNS); the cached recall's check does not (the
# cache holds it).
RECORD_COLUMNS = (
    "id",
    "layer",
    "scope",
    "importance",
    "confidence",
    "strength",
    "status",
    "source",
    "metadata_json",
    "categories",
    "access_count",
    "pinned",
)
# Each of a record's times comes as three values of the row (not a list each: decoding those
# lists cost the client about half of what the detail rows cost), in the order
# :data:`RECORD_TIMES` names the times.
TIME_PARTS = ("seconds", "nanosecond", "offset")
TIME_COLUMNS = tuple(f"{time}_{part}" for time in RECORD_TIMES for part in TIME_PARTS)
DETAIL_COLUMNS = (
    *RECORD_COLUMNS,
    *TIME_COLUMNS,
    "extractive",
    "spaced",
    "priority",
    "fade",
    "faded_at",
    "sources",
    "contradicts",
)
GRAPH_DETAIL_COLUMNS = (*DETAIL_COLUMNS, "text")
_RECORD = len(RECORD_COLUMNS)
_AT = {name: i for i, name in enumerate(DETAIL_COLUMNS)}
_TIMES_AT = _AT[TIME_COLUMNS[0]]
_AFTER_RECORD = DETAIL_COLUMNS[_TIMES_AT + len(TIME_COLUMNS) :]
_OCCURRED = _AT["occurred_at_seconds"]
_ACCESSED = _AT["last_accessed_at_seconds"]


def detail_times(values: list[Any]) -> list[list[int] | None]:
    """The times of a detail row (a list in :data:`DETAIL_COLUMNS` order) as search/recall_details
    sends them: [epoch seconds, nanosecond, offset] each, None for a time not set."""
    parts = len(TIME_PARTS)
    return [
        None if values[at] is None else values[at : at + parts]
        for at in range(_TIMES_AT, _TIMES_AT + len(TIME_COLUMNS), parts)
    ]


def detail_row(values: list[Any]) -> Row:
    """A detail row of search/cached_recall_expand (a list in :data:`DETAIL_COLUMNS` order) in
    the shape search/recall_details returns: the record's values as ``memory``, its times as
    ``times``, the rest beside them."""
    row: Row = {name: values[_AT[name]] for name in _AFTER_RECORD}
    row["memory"] = dict(zip(RECORD_COLUMNS, values[:_RECORD], strict=True))
    row["times"] = detail_times(values)
    return row


def detail_facts(values: list[Any]) -> Facts:
    """The ranking facts of a memory from its detail row as the check sends it (a list in
    :data:`DETAIL_COLUMNS` order): what :func:`graphmem.store.search.facts_of` gives of a
    candidate row of the same memory, read from the list itself (recall needs the facts of every
    memory of the pool, and the records of a few)."""
    occurred = values[_OCCURRED]
    accessed = values[_ACCESSED] if values[_ACCESSED] is not None else occurred
    return ranking_facts(
        values[_AT["importance"]],
        values[_AT["strength"]],
        values[_AT["layer"]],
        values[_AT["categories"]],
        occurred,
        accessed,
        values[_AT["spaced"]],
        values[_AT["priority"]],
        values[_AT["pinned"]],
        values[_AT["fade"]],
        values[_AT["faded_at"]],
        values[_AT["status"]],
    )


class DetailRow(dict[str, Any]):
    """A detail row in the shape :func:`detail_row` gives (the record's values, with its text, as
    ``memory``), each value taken from the list the graph sent when first read: recall
    reads the lineage of the few dozen it ranks first and the records of the ten it returns."""

    __slots__ = ("_text", "_values")

    def __init__(self, values: list[Any], text: str) -> None:
        super().__init__()
        self._values = values
        self._text = text

    def __missing__(self, key: str) -> Any:
        if key == "memory":
            value: Any = dict(zip(RECORD_COLUMNS, self._values[:_RECORD], strict=True))
            value["text"] = self._text
        elif key == "times":
            value = detail_times(self._values)
        elif key in _AFTER_RECORD:
            value = self._values[_AT[key]]
        else:
            raise KeyError(key)
        self[key] = value
        return value


class DetailRows(Mapping[str, Row]):
    """The detail rows of an expansion by memory id (:class:`DetailRow`, made when first read),
    and the ranking facts of each read from the list the graph sent (:meth:`facts`); ``texts``
    are the memories' texts (the cache's for a check, the graph's for search/expand_with_details)."""

    def __init__(self, values: dict[str, list[Any]], texts: Mapping[str, str]) -> None:
        self._values = values
        self._texts = texts
        self._rows: dict[str, Row] = {}

    def __getitem__(self, memory_id: str) -> Row:
        row = self._rows.get(memory_id)
        if row is None:
            row = self._rows[memory_id] = DetailRow(self._values[memory_id], self._texts[memory_id])
        return row

    def __contains__(self, memory_id: object) -> bool:
        return memory_id in self._values

    def __iter__(self) -> Iterator[str]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def facts(self, memory_id: str) -> Facts:
        """The ranking facts of one memory of the pool."""
        return detail_facts(self._values[memory_id])

    def text(self, memory_id: str) -> str:
        """The text of one memory of the pool."""
        return self._texts[memory_id]
