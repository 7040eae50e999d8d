"""Pure logic: W10 future days (spaCy + dateparser), the W13 profile's sections and budget, and the
R8 scope tree."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from graphmem.agenda.dates import future_days, may_hold_a_date
from graphmem.agenda.models import ProfileLine
from graphmem.agenda.profile import Candidate, build_profile, section_of

WEDNESDAY = datetime(2026, 3, 4, 10, 0, tzinfo=UTC)


FUTURE_DAYS = [
    ("Dentist appointment next Friday at 9.", [date(2026, 3, 6)]),
    ("Call Bob tomorrow.", [date(2026, 3, 5)]),
    ("The review is on 15 March.", [date(2026, 3, 15)]),
    ("Ship it in two weeks.", [date(2026, 3, 18)]),
    ("Deadline 15/03/2026.", [date(2026, 3, 15)]),
    ("The flight is at 9am on 12.05.2026.", [date(2026, 5, 12)]),
    ("Launch on 2026-04-01.", [date(2026, 4, 1)]),
    ("We meet on Monday and review it next Friday.", [date(2026, 3, 6), date(2026, 3, 9)]),
    ("The meeting was moved to next Friday.", [date(2026, 3, 6)]),
]


@pytest.mark.parametrize(("text", "days"), FUTURE_DAYS)
def test_a_future_day_is_found(text: str, days: list[date]) -> None:
    assert future_days(text, WEDNESDAY) == days


@pytest.mark.parametrize(
    "text",
    [
        "I went hiking last Friday.",  # past
        "The board meeting was on 2 March.",  # a bare day in a past-tense clause
        "I talked to Ann on Monday.",
        "I met him 3 days ago.",
        "Due 2026-03-01.",  # before the memory happened
        "Today I feel great.",  # the same day is not a future day
        "May I help?",  # not a month
        "Every Friday I swim.",  # a routine, not a day
        "I swim each Monday.",
        "We meet on Fridays.",
        "I like green tea.",
        "On 99/99/9999 zzz.",  # unreadable: no day, no error
        "",
    ],
)
def test_no_future_day(text: str) -> None:
    assert future_days(text, WEDNESDAY) == []


@pytest.mark.parametrize(
    "text",
    [text for text, _ in FUTURE_DAYS]
    + [
        "See you in a fortnight.",
        "Back in ten days.",
        "Lunch at noon on Thu.",
        "Tonight or tomorrow?",
        "Done in two weeks' time.",
        "Up in the small hours of Sunday.",
    ],
)
def test_every_text_that_names_a_day_goes_through_the_date_pass(text: str) -> None:
    assert may_hold_a_date(text)


@pytest.mark.parametrize(
    "text",
    [
        "Caroline: We went to the lake and I am so happy!",
        "I'd love that, it's great.",
        "Today I feel great.",
        # "time" and "small" are in dateparser's data only inside "in 2 weeks' time", "the small
        # hours"; "name", "group" and "type" only as names of its fields
        "Melanie: I had a great time with my small support group, what's the name of that type of art?",
    ],
)
def test_chat_without_a_digit_or_a_date_word_skips_the_date_pass(text: str) -> None:
    assert not may_hold_a_date(text)
    assert future_days(text, WEDNESDAY) == []


def test_numeric_dates_follow_the_configured_day_order() -> None:
    assert future_days("Passport expires 03/04/2027.", WEDNESDAY) == [date(2027, 4, 3)]
    assert future_days("Passport expires 03/04/2027.", WEDNESDAY, day_first=False) == [date(2027, 3, 4)]


def test_relative_days_count_from_occurred_at() -> None:
    assert future_days("My exam is in two weeks.", datetime(2025, 11, 10, tzinfo=UTC)) == [date(2025, 11, 24)]


def test_profile_sections_come_from_categories() -> None:
    assert section_of(["fact", "relationship"]) == "relationships"
    assert section_of(["preference"]) == "preferences"
    assert section_of(["plan", "hobby"]) == "priorities"
    assert section_of(["fact", "work"]) == "identity"
    assert section_of(["instruction"]) is None
    assert section_of(["event"]) is None


def test_profile_takes_turns_between_sections_within_the_budget() -> None:
    candidates = [
        Candidate("p1", "I like tea.", ["preference"]),
        Candidate("p2", "I like jazz.", ["preference"]),
        Candidate("i1", "I live in Munich.", ["fact"]),
        Candidate("x", "A" * 100, ["fact"]),
        Candidate("r1", "My sister is Ann.", ["relationship"]),
    ]
    profile = build_profile(candidates, chars=60, now=WEDNESDAY)
    assert profile.preferences == [
        ProfileLine(id="p1", text="I like tea."),
        ProfileLine(id="p2", text="I like jazz."),
    ]
    assert profile.identity == [ProfileLine(id="i1", text="I live in Munich.")]
    assert profile.relationships == [ProfileLine(id="r1", text="My sister is Ann.")]
    assert profile.chars == 11 + 12 + 17 + 17 <= 60
    assert build_profile(candidates, chars=0, now=WEDNESDAY).chars == 0


def test_scope_tree_counts_own_and_subtree_and_skips_odd_paths() -> None:
    from graphmem.scopetree import build_tree

    tree = build_tree(
        "/",
        [
            ("/user/alice", "episodic", "active", 2),
            ("/user/alice/health", "episodic", "superseded", 1),
            ("/team", "semantic", "unknown", 1),
            ("user/odd", "episodic", "active", 5),  # not a canonical path: left out
            ("/a/", "episodic", "active", 5),
        ],
    )
    assert tree.subtree.total == 4 and tree.own.total == 0
    assert [c.path for c in tree.children] == ["/team", "/user"]
    user = tree.children[1]
    assert (user.own.total, user.subtree.total) == (0, 3)
    assert user.children[0].subtree.by_status == {"active": 2, "superseded": 1}


def test_a_date_in_a_sentence_without_a_verb_is_read() -> None:
    # the walk up to the governing verb stops at the root (a fragment has no verb at all)
    assert future_days("Dentist appointment on 15 March.", datetime(2026, 3, 1, tzinfo=UTC)) == [
        date(2026, 3, 15)
    ]
