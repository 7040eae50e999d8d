"""A name written out in one statement and by its initials in the other is one name: "I work for the
NHS" / "My employer is the National Health Service", "We host on AWS" / "on Amazon Web Services".
The written-out name is read as its initials, so both statements name the same value."""

from __future__ import annotations

import re
from functools import lru_cache

from graphmem.beliefs.statements import Statement, read_statement

_INITIALS = re.compile(r"\b[A-Z]{2,6}\b")
# a run of capitalised words, small words between them ("Bank of America", "Food and Drug Administration")
_RUN = re.compile(r"\b[A-Z][\w'-]*(?:\s+(?:(?:of|the|and|for|&)\s+)*[A-Z][\w'-]*)+")
_SMALL = frozenset({"of", "the", "and", "for", "&"})


def _initials(run: str) -> str:
    return "".join(word[0] for word in run.split() if word.lower() not in _SMALL).upper()


@lru_cache(maxsize=8192)
def written_initials(text: str) -> tuple[frozenset[str], frozenset[str]]:
    """(the initials ``text`` writes, the initials of the names it writes out)."""
    return frozenset(_INITIALS.findall(text)), frozenset(_initials(m) for m in _RUN.findall(text))


def _shortened(text: str, initials: frozenset[str]) -> str:
    """``text`` with each run of capitalised words whose initials are in ``initials`` written so."""

    def written(match: re.Match[str]) -> str:
        short = _initials(match.group(0))
        return short if short in initials else match.group(0)

    return _RUN.sub(written, text)


def alike_names(old: Statement, new: Statement) -> tuple[Statement, Statement]:
    """``old`` and ``new``, each read again with a name the other gives by its initials written by
    them; the statements themselves when neither does (most pairs: two look-ups)."""
    old_short, old_long = written_initials(old.body)
    new_short, new_long = written_initials(new.body)
    if new_short & old_long:
        old = read_statement(_shortened(old.body, new_short), old.speaker)
    if old_short & new_long:
        new = read_statement(_shortened(new.body, old_short), new.speaker)
    return old, new
