"""Belief pairs through REST, offline (no LLM): a regression check of the belief check on 816
pairs of statements written by the engineers while they worked on it (bench/eval/belief_pairs.jsonl:
415 updates, 401 look-alikes or restatements that must both stay; sets session23-1 and -2 were
written in session 23 by engineers who never read the belief code, -2 held out until the session's
rules were done (116 of 160 with the judge of the session's start, in process; 125 after,
through REST); set session21-8 was written before the code read it and scored 28 of 40 on that
first reading, set session22-9 24 of 40, session22-10 (look-alikes with days, bare nouns and
closing times) 21 of 24, session22-11 (units written onto numbers) 10 of 12, session22-12
(decisions, schedules, health, jobs) 19 of 30, session22-13 18 of 30, session22-14 (health,
relationships, home life) 16 of 30, session22-15 (hours) 6 of 6 after the rule they were written
for, session22-16 (tools, employers) 13 of 20). Each pair is
written in a scope of its own, the old statement a day before the new one; an update passes when
the old memory ends superseded, a look-alike when both stay active. Besides the totals, a line per
set gives graphmem's passes in it (``belief_pairs_set``).

These pairs were looked at while the rules were written, so they are not a held-out measure:
``bench.belief_eval --half test`` is. Beside graphmem, the same run prints what the embedding alone
would say (an update whenever the two statements are at least 0.75 similar, the belief check's
own bar for one slot) and what "never an update" scores.

    python -m bench.belief_pairs
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
import numpy as np

from bench import stack
from graphmem.embedding.factory import create_embedder

PAIRS = Path(__file__).parent / "eval" / "belief_pairs.jsonl"
COSINE_BAR = 0.75


def load() -> list[dict[str, Any]]:
    return [json.loads(line) for line in PAIRS.read_text().splitlines() if line.strip()]


def superseded(client: httpx.Client, pair: dict[str, Any], scope: str) -> bool:
    """Whether writing ``new`` a day after ``old`` leaves ``old`` superseded."""
    ids = []
    for text, day in ((pair["old"], "2026-01-01"), (pair["new"], "2026-01-02")):
        response = client.post(
            "/v1/memories", json={"text": text, "scope": scope, "occurred_at": f"{day}T12:00:00Z"}
        )
        response.raise_for_status()
        ids.append(response.json()["memory"]["id"])
    return bool(client.get(f"/v1/memories/{ids[0]}").json()["status"] == "superseded")


def main() -> None:
    pairs = load()
    embedder = create_embedder("onnx")
    olds = np.asarray(embedder.embed([p["old"] for p in pairs]))
    news = np.asarray(embedder.embed([p["new"] for p in pairs]))
    cosines = (olds * news).sum(axis=1) / (np.linalg.norm(olds, axis=1) * np.linalg.norm(news, axis=1))
    passed: Counter[str] = Counter()
    per_set: Counter[str] = Counter()  # graphmem's passes in each set
    with (
        stack.neo4j() as target,
        stack.api_server(target, {"GRAPHMEM_LLM": "none"}) as url,
        httpx.Client(base_url=url, timeout=60) as client,
    ):
        for number, (pair, cosine) in enumerate(zip(pairs, cosines, strict=True)):
            update = pair["expect"] == "update"
            said = superseded(client, pair, f"/bench/pairs/p{number}")
            passed["graphmem"] += said == update
            per_set[pair["set"]] += said == update
            passed["cosine>=0.75"] += bool(cosine >= COSINE_BAR) == update
            passed["never an update"] += not update
            if said != update:
                print(json.dumps({"failed": pair, "cosine": round(float(cosine), 2)}, ensure_ascii=False))
    for system, count in passed.items():
        print(
            json.dumps(
                {
                    "metric": "belief_pairs",
                    "system": system,
                    "pairs": len(pairs),
                    "passed": count,
                    "rate": round(count / len(pairs), 3),
                }
            )
        )

    sizes = Counter(str(pair["set"]) for pair in pairs)
    for name, size in sorted(sizes.items()):
        print(json.dumps({"metric": "belief_pairs_set", "set": name, "pairs": size, "passed": per_set[name]}))


if __name__ == "__main__":
    main()
