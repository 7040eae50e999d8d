"""C1 ties two memories sharing a phrase (two content words side by side) more than their words apart:
'book club' in two episodes of a book club outweighs 'book' shared with 'Booked the function room'."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import neo4j

from bench.topic_eval import load_half
from graphmem.consolidate.settings import ConsolidationSettings
from graphmem.consolidate.topic_weights import TopicWeights
from tests.consolidation.conftest import cypher
from tests.consolidation.threads import SOURCES, topics_of


def _threads() -> dict[str, list[tuple[str, str]]]:
    """The dev half of bench/eval/topics.json by thread (its noise memories as one 'noise' thread)."""
    out: dict[str, list[tuple[str, str]]] = {}
    for row in load_half("dev", "topics"):
        out.setdefault(row["topic"] or "noise", []).append((row["occurred_at"], row["text"]))
    return out


def _mixing(found: list[Counter[str]], a: str, b: str) -> list[Counter[str]]:
    return [c for c in found if c[a] and c[b]]


def test_a_shared_phrase_keeps_a_homonyms_stray_out_of_a_thread(  # type: ignore[no-untyped-def]
    build, sleep_driver: neo4j.Driver
) -> None:
    """Without phrases, a book club's episodes and a birthday party's 'Booked the function room'
    made one semantic memory (they share the stem 'book'); with them the book club's own episodes,
    which say 'book club', hold together without the stray, the club keeps a memory of its own,
    and a second run changes nothing."""
    threads = _threads()
    without = build(ConsolidationSettings(topics=replace(TopicWeights(), phrases=0.0)))
    before = topics_of(without, sleep_driver, "/user/phrases-off", threads, {})
    assert _mixing(before, "book_club", "mum_birthday"), before  # what phrases are for

    memory = build(None)
    found = topics_of(memory, sleep_driver, "/user/phrases", threads, {})
    assert not _mixing(found, "book_club", "mum_birthday"), found
    assert any(c["book_club"] >= 3 and sum(c.values()) == c["book_club"] for c in found), found

    sources = cypher(sleep_driver, SOURCES, scope="/user/phrases")
    again = memory.consolidate(["nightly"]).runs[0]
    assert {k: v for k, v in again.counts.items() if v and not k.startswith("seen_")} == {}
    assert cypher(sleep_driver, SOURCES, scope="/user/phrases") == sources
