"""W10: the future days a memory's text names, relative to when it happened.

spaCy's small English pipeline finds the date phrases (its DATE entities) and the tense of the
clause they sit in; dateparser turns each phrase (not the whole text: its search is slow and
reads "May I" or "We" as dates) into a day relative to ``occurred_at``
("next Friday", "tomorrow", "in two weeks", "15 March"). Numeric dates spaCy does not tag
("15/03/2026", "12.05.2026") are recognised by their format. A phrase that could lie either side
of ``occurred_at`` ("on 2 March", "Monday") counts as future only in a clause that is not in the
past tense ("the meeting was on 2 March" names no future day). Only days after ``occurred_at``'s
own day count; anything dateparser cannot read is no date, never an error.
"""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Sequence
from datetime import UTC, date, datetime
from functools import lru_cache
from typing import Any

from graphmem.language import entities, parse_all

log = logging.getLogger(__name__)

# Words of dateparser's English data that name no time on their own, so that a text holding no
# other word of that data (and no digit) names no day: connectives dateparser skips, modifiers that
# need a unit or a name ("next", "ago", "in"), the days that are never after ``occurred_at``'s
# ("today", "yesterday", "now"), the one-letter unit forms and articles ("s", "d", "a": with no
# digit or number word beside them they count nothing), and "we" and "am" (the pronoun and the verb
# of most chat; as Wednesday and a.m. they too need a number or a phrase around them).
_SKIPPED = frozenset({"about", "ad", "and", "at", "by", "from", "just", "of", "on", "the"})
_MODIFIERS = frozenset(
    {"ago", "in", "next", "last", "this", "till", "date", "less", "than", "later", "before", "after", "early"}
)
_NEVER_LATER = frozenset({"now", "today", "yesterday"})
_LETTERS = frozenset({"a", "an", "b", "d", "h", "m", "s", "y", "am", "pm", "we"})
# Words the data holds only inside a longer pattern that needs a number and a unit or another date
# word beside them: "time" (in "in 2 weeks' time") and "small" (in "the small hours"). Both are
# common in chat ("a great time", "a small group"); alone they name no day.
_IN_PATTERNS_ONLY = frozenset({"time", "small"})
_NO_DAY_ALONE = _SKIPPED | _MODIFIERS | _NEVER_LATER | _LETTERS | _IN_PATTERNS_ONLY

MAX_DAYS_PER_TEXT = 5
# A numeric date format spaCy's tagger leaves untagged: 15/03/2026, 12.05.2026, 2026-03-15.
_NUMERIC_DATE = re.compile(r"\b\d{1,4}[./-]\d{1,2}[./-]\d{1,4}\b")
_LANGUAGES = ["en"]
_WORD = re.compile(r"[^\W\d_]+")  # a run of letters: how dateparser's tokens split words


def _settings(base: datetime, prefer: str, day_first: bool | None = None) -> dict[str, Any]:
    settings: dict[str, Any] = {
        "RELATIVE_BASE": base,
        "PREFER_DATES_FROM": prefer,
        "RETURN_AS_TIMEZONE_AWARE": False,
    }
    if day_first is not None:  # only for numeric dates: on words it makes "Friday at 9" the 9th
        settings["DATE_ORDER"] = "DMY" if day_first else "MDY"
    return settings


@lru_cache(maxsize=4096)
def _parse(phrase: str, base: datetime, prefer: str, day_first: bool | None = None) -> datetime | None:
    import dateparser

    try:
        found: datetime | None = dateparser.parse(
            phrase, languages=_LANGUAGES, settings=_settings(base, prefer, day_first)
        )
        return found
    except Exception:
        return None


@lru_cache(maxsize=1)
def _date_words() -> frozenset[str]:
    """The words of dateparser's English data (months, days and their short forms, units, number
    words, times of day, relative days) that can make a phrase a date, lower case. The data's
    top-level keys are left out: they name its fields ("name", "skip", "relative-type",
    "sentence_splitter_group"), not words of a date (each field's words are in its values)."""
    from dateparser.languages.loader import default_loader

    words: set[str] = set()
    pending: list[object] = list(default_loader.get_locale("en").info.values())
    while pending:
        value = pending.pop()
        if isinstance(value, str):
            words.update(_WORD.findall(value.lower()))
        elif isinstance(value, dict):
            pending += [*value.keys(), *value.values()]
        elif isinstance(value, list):
            pending += value
    return frozenset(words - _NO_DAY_ALONE)


def may_hold_a_date(text: str) -> bool:
    """Whether ``text`` has a digit or a word of dateparser's English date vocabulary (other than
    those that name no later day alone): a text without either holds no phrase dateparser reads as
    a day after ``occurred_at``, so it needs neither spaCy's entity pass nor dateparser. Cheap: the
    write path asks it of every text it links."""
    if any(c.isdigit() for c in text):
        return True
    words = _date_words()
    return any(w in words for w in _WORD.findall(text.lower()))


def _in_past_clause(span: Any) -> bool:
    """Whether the verb governing ``span`` is in the past tense ("was", "met", "had met")."""
    token = span.root
    while token.pos_ not in {"VERB", "AUX"} and token.head.i != token.i:
        token = token.head
    if token.pos_ not in {"VERB", "AUX"}:
        return False
    tags = [token.tag_] + [c.tag_ for c in token.children if c.dep_ in {"aux", "auxpass"}]
    if "MD" in tags:  # will, would, 'd, can: not a report of the past
        return False
    return "VBD" in tags


def _may_name_a_future_day(doc: Any, base: datetime, day_first: bool) -> bool:
    """Whether one of ``doc``'s date phrases (its DATE entities, recurring or not, and its numeric
    dates) reads as a day after ``base``'s: only such a text needs the full parse that tells one day
    from a day of every week, and a past clause from a future one. A text whose dates all lie in
    the past ("last week", "yesterday": most dates of chat) is done without it."""
    phrases: list[tuple[str, bool | None]] = [(e.text, None) for e in doc.ents if e.label_ == "DATE"]
    phrases += [(m.group(), day_first) for m in _NUMERIC_DATE.finditer(doc.text)]
    for phrase, order in phrases:
        when = _parse(phrase, base, "future", order)
        if when is not None and when.date() > base.date():
            return True
    return False


def _recurring(ent: Any) -> bool:
    """A day of every week rather than one day: "every Friday", "each Monday", "on Fridays" (a
    plural name, or a determiner that is neither an article nor a demonstrative such as "this")."""
    root = ent.root
    if root.tag_ == "NNPS" or (root.tag_ == "NNS" and root.pos_ == "PROPN"):
        return True
    kinds = [set(c.morph.get("PronType")) for c in root.children if c.dep_ == "det"]
    return any(not kind & {"Art", "Dem"} for kind in kinds)


def _phrases(doc: Any) -> list[tuple[Any, str, bool]]:
    """(span, phrase, numeric) for each date phrase: spaCy's DATE entities that name one day (not
    "every Friday"), and numeric dates (read on their own, in the configured day order)."""
    numeric = [(m.start(), m.end()) for m in _NUMERIC_DATE.finditer(doc.text)]
    found = []
    for ent in doc.ents:
        if ent.label_ != "DATE" or _recurring(ent):
            continue
        if any(s < ent.end_char and ent.start_char < e for s, e in numeric):
            continue
        found.append((ent, ent.text, False))
    for s, e in numeric:
        span = doc.char_span(s, e, alignment_mode="expand")
        if span is not None:
            found.append((span, doc.text[s:e], True))
    return found


def future_days(text: str, occurred_at: datetime, *, day_first: bool = True) -> list[date]:
    """The days after ``occurred_at``'s day that ``text`` names, earliest first (at most five).

    ``day_first`` reads 03/04/2027 as 3 April (False: as March 4). Never raises for odd text.
    """
    return future_days_batch([(text, occurred_at)], day_first=day_first)[0]


def future_days_batch(items: Sequence[tuple[str, datetime]], *, day_first: bool = True) -> list[list[date]]:
    """:func:`future_days` for many (text, occurred_at) pairs.

    Texts without a digit or a date word (:func:`may_hold_a_date`: most chat) name no day and are
    done at once. On the others, a first pass runs only spaCy's entity recogniser (half the cost
    of a full parse), or takes the full parse already made of a text (the belief check's:
    graphmem.language keeps one per text); only texts with a date phrase that dateparser reads as
    a later day are parsed in full (once, for both) and read again.
    """
    keys = [(text, occurred_at, day_first) for text, occurred_at in items]
    with _found_lock:
        known = {key: _found[key] for key in keys if key in _found}
    missing = [key for key in dict.fromkeys(keys) if key not in known]
    if missing:
        found = _read_days(missing)
        known.update(found)
        with _found_lock:
            _found.update(found)
            while len(_found) > FOUND_CACHE_SIZE:
                _found.pop(next(iter(_found)))
    return [list(known[key]) for key in keys]


# The days found for recent (text, occurred_at, day_first), kept so that the write path can read
# them ahead, outside its transaction and beside the embedding, and find them there when it links.
FOUND_CACHE_SIZE = 4096
_found: dict[tuple[str, datetime, bool], list[date]] = {}
_found_lock = threading.Lock()


def _read_days(keys: Sequence[tuple[str, datetime, bool]]) -> dict[tuple[str, datetime, bool], list[date]]:
    texts = [text for text, _, _ in keys]
    worded = [i for i, text in enumerate(texts) if may_hold_a_date(text)]
    dated = [
        i
        for i, doc in zip(worded, entities([texts[i] for i in worded]), strict=True)
        if _may_name_a_future_day(doc, _base(keys[i][1]), keys[i][2])
    ]
    days: dict[tuple[str, datetime, bool], list[date]] = {key: [] for key in keys}
    for i, doc in zip(dated, parse_all([texts[i] for i in dated]), strict=True):
        _, occurred_at, day_first = keys[i]
        days[keys[i]] = _days(doc, occurred_at, day_first)
    return days


def _base(occurred_at: datetime) -> datetime:
    """``occurred_at`` as dateparser's relative base: naive, in UTC."""
    return occurred_at.astimezone(UTC).replace(tzinfo=None) if occurred_at.tzinfo else occurred_at


def _days(doc: Any, occurred_at: datetime, day_first: bool) -> list[date]:
    base = _base(occurred_at)
    days: set[date] = set()
    for span, phrase, numeric in _phrases(doc):
        when = _parse(phrase, base, "future", day_first if numeric else None)
        if when is None or when.date() <= base.date():
            continue  # unreadable, or not after the day the memory happened
        if not numeric:
            past = _parse(phrase, base, "past")
            # a phrase that reads either side of occurred_at ("on 2 March", "Monday"): the tense decides
            if (past is None or past.date() != when.date()) and _in_past_clause(span):
                continue
        days.add(when.date())
    return sorted(days)[:MAX_DAYS_PER_TEXT]
