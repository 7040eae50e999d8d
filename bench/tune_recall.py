"""Tuning the recall ranking on dev halves only: LoCoMo (plain input) and the user memories together.

Loads the dev conversations of bench/eval/locomo_split.json (sent as most clients would: no source,
no speaker metadata) and the dev users of the three user sets (bench/eval/user_memories*.json) into
one fresh Neo4j, in process, then asks every question under each candidate ``RankWeights`` with
``reinforce=false`` and prints one JSON line per configuration: LoCoMo recall@10 and the users'
hit@1 / hit@3, all together and per set. The test halves are never read here.

    python -m bench.tune_recall [--every 2] [--grid keyword=0.2,0.4,0.7 context_share=0.7,0.85]
"""

from __future__ import annotations

import argparse
import itertools
import json
import time
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

from bench import locomo, stack
from bench.locomo_recall import CATEGORIES, SPLIT, evidence_ids
from bench.user_memory_eval import load_half
from graphmem.config import Settings
from graphmem.connect import open_memory
from graphmem.memory import Memory
from graphmem.models import MemoryInput, RecallQuery
from graphmem.recall.search import RecallSettings

USER_SETS = ("user_memories", "user_memories2", "user_memories3")  # every set's dev half


def load_locomo(memory: Memory) -> list[tuple[str, str, list[str]]]:
    """Write the dev conversations; returns (scope, question, evidence dia_ids)."""
    wanted = set(json.loads(SPLIT.read_text())["dev"])
    data = [s for s in locomo.load() if str(s["sample_id"]) in wanted]
    asked: list[tuple[str, str, list[str]]] = []
    for sample in data:
        scope = f"/tune/locomo/{sample['sample_id']}"
        turns = list(locomo.turns([sample]))
        dia_of: dict[str, str] = {}
        for start in range(0, len(turns), 500):
            chunk = turns[start : start + 500]
            items = [
                MemoryInput(
                    text=f"{t.speaker}: {t.text}",
                    scope=scope,
                    occurred_at=t.occurred_at + timedelta(seconds=i),
                    metadata={"dia_id": t.dia_id},
                )
                for i, t in enumerate(chunk, start=start)
            ]
            for t, result in zip(chunk, memory.remember_batch(items), strict=True):
                dia_of[result.memory.id] = t.dia_id
        known = set(dia_of.values())
        for _, q in locomo.questions([sample]):
            if int(str(q.get("category", 0))) not in CATEGORIES:
                continue
            gold = evidence_ids([str(e) for e in q.get("evidence", [])], known)  # type: ignore[attr-defined]
            if gold:
                asked.append((scope, str(q["question"]), gold))
    return asked


def load_users(memory: Memory) -> list[tuple[str, str, set[str], str | None, dict[str, str], str]]:
    """Write the dev users' facts of every user set one at a time; returns (scope, question, gold
    ids, as_of, id map, set)."""
    asked = []
    for name, user in [(set_name, u) for set_name in USER_SETS for u in load_half("dev", set_name)]:
        scope = f"/tune/users/{user['id']}"
        fact_of: dict[str, str] = {}
        for fact in sorted(user["facts"], key=lambda f: f["occurred_at"]):
            at = datetime.fromisoformat(fact["occurred_at"]).replace(hour=12, tzinfo=UTC)
            fact_of[memory.remember(fact["text"], scope=scope, occurred_at=at).memory.id] = fact["id"]
        for q in user["questions"]:
            asked.append((scope, q["question"], set(q["answer_facts"]), q.get("as_of"), fact_of, name))
    return asked


def evaluate(memory: Memory, conv: list[Any], users: list[Any]) -> dict[str, float]:
    """LoCoMo recall@10 and users' hit@1 / hit@3 under the recaller's current settings."""
    recall10 = []
    for scope, question, gold in conv:
        found = memory.recall_query(RecallQuery(query=question, scope=scope, limit=10, reinforce=False))
        ranked = {r.metadata.get("dia_id") for r in found.results}
        recall10.append(len(set(gold) & ranked) / len(gold))
    hit1, hit3 = [], []
    by_set: dict[str, list[tuple[float, float]]] = {}
    for scope, question, gold, as_of, fact_of, name in users:
        when = None if not as_of else datetime.fromisoformat(as_of).replace(hour=23, minute=59, tzinfo=UTC)
        found = memory.recall_query(
            RecallQuery(query=question, scope=scope, limit=5, reinforce=False, as_of=when)
        )
        ranked = [fact_of.get(r.id, "") for r in found.results]
        hit1.append(float(bool(ranked) and ranked[0] in gold))
        hit3.append(float(bool(set(ranked[:3]) & gold)))
        by_set.setdefault(name, []).append((hit1[-1], hit3[-1]))
    mean = lambda v: round(sum(v) / max(1, len(v)), 4)  # noqa: E731
    sets = {
        f"{name}_hit@{k}": mean([pair[i] for pair in v])
        for name, v in by_set.items()
        for i, k in enumerate((1, 3))
    }
    return {"locomo_recall@10": mean(recall10), "users_hit@1": mean(hit1), "users_hit@3": mean(hit3), **sets}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--every", type=int, default=1, help="ask every n-th LoCoMo question")
    parser.add_argument("--grid", nargs="*", default=["keyword=1.5", "context_share=0.85"])
    args = parser.parse_args()
    grid = {k: [float(v) for v in vs.split(",")] for k, vs in (g.split("=") for g in args.grid)}
    with stack.neo4j() as target:
        connection = open_memory(Settings(llm="none"), target)
        memory = connection.memory
        memory.prepare()
        started = time.perf_counter()
        conv = load_locomo(memory)[:: args.every]
        users = load_users(memory)
        print(
            json.dumps(
                {
                    "loaded_s": round(time.perf_counter() - started, 1),
                    "locomo": len(conv),
                    "users": len(users),
                }
            )
        )
        recaller = memory._recaller  # a tuning harness: swap the weights, keep the graph
        base = RecallSettings()
        for values in itertools.product(*grid.values()):
            chosen = dict(zip(grid, values, strict=True))
            recaller._settings = replace(base, ranking=replace(base.ranking, **chosen))
            print(json.dumps({**chosen, **evaluate(memory, conv, users)}), flush=True)
        connection.close()


if __name__ == "__main__":
    main()
