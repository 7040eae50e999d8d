"""Deterministic 50/50 dev/test split of the independent evaluation data.

Usage: python bench/eval/split.py [beliefs.jsonl] [user_memories.json]

* beliefs.jsonl -> beliefs_split.json, stratified by ``kind``; the same for each further set of
  belief scenarios (beliefs2.jsonl -> beliefs2_split.json, beliefs3.jsonl -> beliefs3_split.json,
  beliefs4.jsonl -> beliefs4_split.json, beliefs5.jsonl -> beliefs5_split.json).
* user_memories.json (optional, may be absent) -> user_memories_split.json,
  split by user id; the same for each further set of users (user_memories2.json ->
  user_memories2_split.json, user_memories3.json -> user_memories3_split.json, and so on for
  user_memories_extra.json and user_memories_4.json).
* ../shared/data/locomo10.json (read in place) -> locomo_split.json, split by conversation.
* topics.json -> topics_split.json, split by topic thread (and the noise memories by id); the same
  for each further set of threads (topics2.json -> topics2_split.json).
"""

from __future__ import annotations

import json
import random
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

SEED = 20261125
TOPIC_SETS = ("topics", "topics2", "topics3", "topics4", "topics5")  # bench.topic_eval --set NAME
# bench.belief_eval --set NAME, besides beliefs.jsonl (argv[1])
BELIEF_SETS = ("beliefs2", "beliefs3", "beliefs4", "beliefs5")
# bench.user_memory_eval --set NAME, besides user_memories.json (argv[2])
USER_SETS = ("user_memories2", "user_memories3", "user_memories_extra", "user_memories_4")
HERE = Path(__file__).resolve().parent


def _halve(items: list[str], rng: random.Random, extra_to_dev: bool) -> tuple[list[str], list[str]]:
    shuffled = sorted(items)
    rng.shuffle(shuffled)
    cut = (len(shuffled) + (1 if extra_to_dev else 0)) // 2
    return shuffled[:cut], shuffled[cut:]


def split_beliefs(path: Path) -> dict[str, Any]:
    by_kind: dict[str, list[str]] = defaultdict(list)
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                row = json.loads(line)
                by_kind[str(row["kind"])].append(str(row["id"]))
    rng = random.Random(SEED)
    dev: list[str] = []
    test: list[str] = []
    extra_to_dev = True
    for kind in sorted(by_kind):
        ids = by_kind[kind]
        d, t = _halve(ids, rng, extra_to_dev)
        if len(ids) % 2:
            extra_to_dev = not extra_to_dev  # alternate odd leftovers to keep totals even
        dev.extend(d)
        test.extend(t)
    return {"seed": SEED, "dev": dev, "test": test}


def _user_ids(data: Any) -> list[str]:
    """Accept the common shapes: {uid: ...}, [{"user_id"|"id"|"user": ...}], {"users": [...]}."""
    if isinstance(data, dict) and isinstance(data.get("users"), (list, dict)):
        data = data["users"]
    if isinstance(data, dict):
        return [str(k) for k in data]
    ids: list[str] = []
    for item in data:
        if isinstance(item, dict):
            for key in ("user_id", "user", "id", "uid"):
                if key in item:
                    ids.append(str(item[key]))
                    break
            else:
                raise ValueError(f"user entry without an id: {str(item)[:80]}")
        else:
            ids.append(str(item))
    return ids


def split_users(path: Path) -> dict[str, Any]:
    with path.open(encoding="utf-8") as fh:
        ids = sorted(set(_user_ids(json.load(fh))))
    dev, test = _halve(ids, random.Random(SEED), True)
    return {"seed": SEED, "dev": dev, "test": test}


LOCOMO = HERE.parent.parent.parent / "shared" / "data" / "locomo10.json"


def split_locomo(path: Path) -> dict[str, Any]:
    """LoCoMo's conversations halved by sample id (only the ids are kept here, never the data)."""
    with path.open(encoding="utf-8") as fh:
        ids = sorted(str(sample["sample_id"]) for sample in json.load(fh))
    dev, test = _halve(ids, random.Random(SEED), True)
    return {"seed": SEED, "dev": dev, "test": test}


def split_topics(path: Path) -> dict[str, Any]:
    """Topic threads halved by topic id, the noise memories halved by id, each with the fixed seed."""
    with path.open(encoding="utf-8") as fh:
        data = json.load(fh)
    rng = random.Random(SEED)
    dev, test = _halve([str(t["id"]) for t in data["topics"]], rng, True)
    noise_dev, noise_test = _halve([str(n["id"]) for n in data["noise"]], rng, True)
    return {"seed": SEED, "dev": dev, "test": test, "noise_dev": noise_dev, "noise_test": noise_test}


def _write(path: Path, obj: dict[str, Any]) -> None:
    path.write_text(json.dumps(obj, indent=1) + "\n", encoding="utf-8")
    print(f"{path}: dev={len(obj['dev'])} test={len(obj['test'])}")


def main(argv: list[str]) -> int:
    beliefs = Path(argv[1]) if len(argv) > 1 else HERE / "beliefs.jsonl"
    users = Path(argv[2]) if len(argv) > 2 else HERE / "user_memories.json"
    if beliefs.exists():
        _write(beliefs.with_name("beliefs_split.json"), split_beliefs(beliefs))
    else:
        print(f"{beliefs} not found, skipped")
    for name in BELIEF_SETS:
        scenarios = HERE / f"{name}.jsonl"
        if scenarios.exists():
            _write(HERE / f"{name}_split.json", split_beliefs(scenarios))
    if users.exists():
        _write(users.with_name("user_memories_split.json"), split_users(users))
    else:
        print(f"{users} not found, skipped")
    for name in USER_SETS:
        more_users = HERE / f"{name}.json"
        if more_users.exists():
            _write(HERE / f"{name}_split.json", split_users(more_users))
    for name in TOPIC_SETS:
        topics = HERE / f"{name}.json"
        if topics.exists():
            _write(HERE / f"{name}_split.json", split_topics(topics))
    if LOCOMO.exists():
        _write(HERE / "locomo_split.json", split_locomo(LOCOMO))
    else:
        print(f"{LOCOMO} not found, skipped")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
