"""W13 core profile: identity, preferences, relationships and priorities from current memories.

The profile is computed from the graph when asked (at every session start, or on demand), so a
belief replaced a minute ago ("I moved to Munich" over "I live in Berlin") is already gone from
it: superseded memories never enter. Memories are sorted into sections by their categories (the
write path infers them, W3); lessons (instructions) are left to the session's ``lessons``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from graphmem.agenda.models import CoreProfile, ProfileLine
from graphmem.errors import InvalidInputError
from graphmem.scopes import scope_filter
from graphmem.store.executor import QueryExecutor

DEFAULT_PROFILE_CHARS = 1500
MAX_PROFILE_CHARS = 20000
PER_SECTION = 5
CANDIDATES = 200

# First match wins: a fact about a sister is a relationship, a plan about work a priority.
SECTIONS: tuple[tuple[str, frozenset[str]], ...] = (
    ("relationships", frozenset({"relationship"})),
    ("preferences", frozenset({"preference"})),
    ("priorities", frozenset({"plan", "decision"})),
    ("identity", frozenset({"fact", "work", "health", "hobby"})),
)
LESSON_CATEGORIES = ("instruction", "lesson")


@dataclass(frozen=True)
class Candidate:
    """A current memory that may enter the profile, in rank order."""

    id: str
    text: str
    categories: Sequence[str]


def section_of(categories: Sequence[str]) -> str | None:
    """The profile section a memory with these categories belongs to (None: none)."""
    given = set(categories)
    if given & set(LESSON_CATEGORIES):
        return None
    return next((name for name, wanted in SECTIONS if given & wanted), None)


def build_profile(
    candidates: Sequence[Candidate], *, chars: int, now: datetime, per_section: int = PER_SECTION
) -> CoreProfile:
    """Fill the sections in turns (each section's best, then each one's second best...) while the
    texts fit in ``chars`` characters; a text that does not fit is passed over for a shorter one."""
    queues: dict[str, list[Candidate]] = {name: [] for name, _ in SECTIONS}
    for c in candidates:
        section = section_of(c.categories)
        if section is not None:
            queues[section].append(c)
    chosen: dict[str, list[ProfileLine]] = {name: [] for name in queues}
    used = 0
    for rank in range(max((len(q) for q in queues.values()), default=0)):
        for name, _ in SECTIONS:
            queue = queues[name]
            if rank >= len(queue) or len(chosen[name]) >= per_section:
                continue
            line = queue[rank]
            if used + len(line.text) <= chars:
                chosen[name].append(ProfileLine(id=line.id, text=line.text))
                used += len(line.text)
    return CoreProfile(**chosen, chars=used, computed_at=now)


class ProfileBuilder:
    """Reads profile candidates from the graph and builds the profile."""

    def __init__(self, executor: QueryExecutor) -> None:
        self._executor = executor

    def profile(self, scope: str, *, chars: int, allowed: list[str] | None, now: datetime) -> CoreProfile:
        """The core profile of the ``scope`` subtree within ``chars`` characters (0 to 20,000).

        Raises InvalidInputError for a budget out of range or a bad scope.
        """
        if not 0 <= chars <= MAX_PROFILE_CHARS:
            raise InvalidInputError(f"profile_chars must be between 0 and {MAX_PROFILE_CHARS}; got {chars}.")
        exact, prefix = scope_filter(scope)
        rows = self._executor.read(
            "agenda/profile_candidates",
            scope=exact,
            scope_prefix=prefix,
            allowed=allowed,
            categories=sorted({c for _, wanted in SECTIONS for c in wanted}),
            excluded=list(LESSON_CATEGORIES),
            limit=CANDIDATES,
        )
        candidates = [Candidate(r["id"], r["text"], r["categories"] or []) for r in rows]
        return build_profile(candidates, chars=chars, now=now)
