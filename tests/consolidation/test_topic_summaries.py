"""C1 offline: a topic's semantic memory names what its episodes share and tells them in the order
they happened, over the days they span; not the owner's name, not one copied episode."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

import neo4j

from tests.consolidation.conftest import cypher

# four threads written in the first person and the profile facts of the dev half of
# bench/eval/topics3.json, dated as written
_SET = json.loads((Path(__file__).parents[2] / "bench" / "eval" / "topics3.json").read_text())
_DEV_NOISE = set(
    json.loads((Path(__file__).parents[2] / "bench" / "eval" / "topics3_split.json").read_text())["noise_dev"]
)
ROWS = sorted(
    [
        (e["occurred_at"], e["text"])
        for t in _SET["topics"]
        if t["id"] in ("driving_lessons", "eczema", "podcast", "tortoise")
        for e in t["episodes"]
    ]
    + [(n["occurred_at"], n["text"]) for n in _SET["noise"] if n["id"] in _DEV_NOISE]
)


def test_a_topic_summary_names_its_subject_and_tells_its_episodes_in_order(
    build, sleep_driver: neo4j.Driver
) -> None:  # type: ignore[no-untyped-def]
    scope = "/user/summaries"
    memory = build()
    for at, text in ROWS:
        memory.remember(text, scope=scope, occurred_at=datetime.fromisoformat(at.replace("Z", "+00:00")))
    assert memory.consolidate(["nightly"]).runs[0].status == "succeeded"
    rows = cypher(
        sleep_driver,
        "MATCH (s:SemanticMemory {status: 'active', scope: $scope})-[:DERIVED_FROM]->(e:Memory) "
        "WITH s, e ORDER BY e.occurred_at "
        "RETURN s.text AS text, collect(e.text) AS sources",
        scope=scope,
    )
    assert len(rows) >= 3
    for row in rows:
        text, sources = str(row["text"]), [str(t).rstrip(".") for t in row["sources"]]  # type: ignore[union-attr]
        head, body = text.split(": ", 1)
        assert "User" not in head and " memories, " in head and " to " in head, text  # the days it spans
        quoted = [body.index(s) for s in sources if s in body]
        assert len(quoted) >= 2, text  # not one copied episode
        assert quoted == sorted(quoted), text  # in the order they happened
