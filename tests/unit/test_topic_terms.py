"""An offline topic summary names what its memories are about and tells them in the order they happened."""

from __future__ import annotations

from datetime import UTC, datetime

from graphmem.consolidate.distil import Member, extractive
from graphmem.consolidate.topic_terms import ScopeWords, topic_terms

SCOPE = "/u/ana"
OTHERS = [
    "Renewed the TV licence online.",
    "First day at the new job went well.",
    "Booked the dentist for next week.",
    "User prefers short answers.",
    "Bought a new phone case.",
    "Went for a long walk this week.",
]
SOURDOUGH = [
    ("1", "User started a sourdough starter from rye flour and named it Doughby.", 1),
    ("2", "First loaf came out dense and flat, the starter wasn't active enough yet.", 20),
    ("3", "Third loaf had an open crumb and the sourdough finally rises properly.", 45),
]


def _words() -> ScopeWords:
    texts = {f"o{i}": t for i, t in enumerate(OTHERS)} | {i: t for i, t, _ in SOURDOUGH}
    return ScopeWords.of(texts, dict.fromkeys(texts, SCOPE), ["User"])


def _members(entities: tuple[str, ...] = ()) -> list[Member]:
    # the latest episode is the most central: a summary quoting by centrality alone told it first
    return [
        Member(i, text, 0.5 + day / 100, entities, occurred=datetime(2025, 3, day, tzinfo=UTC), scope=SCOPE)
        for i, text, day in [(i, t, min(d, 28)) for i, t, d in SOURDOUGH]
    ]


def test_a_topic_without_a_shared_entity_is_named_by_the_rare_words_its_memories_share() -> None:
    summary = extractive("semantic", _members(), _words())
    head = summary.split(" (")[0]
    assert set(head.split(", ")) == {"sourdough", "starter", "loaf"}
    assert "first" not in head and "user" not in head.lower()  # common in the scope, and the owner


def test_a_topic_summary_quotes_its_central_episodes_in_the_order_they_happened() -> None:
    summary = extractive("semantic", _members(), _words())
    assert "(3 memories, 1 March to 28 March 2025): " in summary
    first, second = summary.split(": ", 1)[1].split("; ", 1)
    assert first.startswith("First loaf came out dense")  # 1 March is the least central: not quoted
    assert second.startswith("Third loaf had an open crumb")


def test_a_name_a_longer_shared_name_holds_is_not_repeated() -> None:
    texts = [["Sam Whitfield", "Sam"], ["Sam Whitfield", "Sam"], ["Sam"]]
    assert topic_terms(["a", "b", "c"], texts, 3) == ["Sam Whitfield"]


def test_a_shared_word_is_named_as_the_memories_write_it() -> None:
    texts = ["Plans to combine them into a Vanguard SIPP.", "Transfers done; the SIPP holds 41,000 pounds."]
    words = ScopeWords.of({"a": texts[0], "b": texts[1], "c": "Renewed the TV licence."}, {}, ["User"])
    assert topic_terms(texts, [(), ()], 3, words) == ["SIPP"]
