"""What a belief change can break, in process (``Memory``, the write path and settings of REST
with no LLM), on dev halves only. Prints JSON lines.

- **users' facts**: every dev user of bench/eval/user_memories*.json is written one fact at a time
  in date order into a scope of its own (as bench.user_memory_eval does through REST); then every
  supersession (old text, new text, the reason the graph records) is listed and judged from the
  set's questions: ``wrong`` when the retired fact answers a question asked of now (no ``as_of``:
  the set says it still holds), ``right`` when it answers only questions asked as of a date before
  the newer fact and the newer fact answers a ``current`` question, ``unjudged`` otherwise.
- **LoCoMo dev**: the dev conversations' turns (bench/eval/locomo_split.json) written with plain
  input, 500 to a batch as bench.locomo_recall does; a dialog states few beliefs, so every turn
  retired is listed for a person to judge.
- **kept in part**: every contradiction in part (a newer fact that changes only some of what an
  older one says: beliefs/in_part.py, the older kept current) is listed and judged too: ``right``
  when the older fact answers a question asked of now, ``wrong`` when it answers only questions
  asked as of a date, ``unjudged`` otherwise.

    python -m bench.belief_guards [--set user_memories ...] [--out FILE] [--skip-locomo]
"""

from __future__ import annotations

import argparse
import json
from datetime import datetime
from pathlib import Path
from typing import Any, Literal

from bench import locomo, stack
from bench.locomo_recall import SPLIT, turn_item
from bench.user_memory_eval import SETS, load_half
from graphmem.config import Settings
from graphmem.connect import open_memory
from graphmem.memory import Memory
from graphmem.models import MemoryInput

Verdict = Literal["right", "wrong", "unjudged"]
LOCOMO_BATCH = 500


def verdict(old: str, new: str, facts: dict[str, dict[str, Any]], questions: list[dict[str, Any]]) -> Verdict:
    """Whether retiring fact ``old`` in favour of fact ``new`` agrees with the user's questions."""
    asked_now = [q for q in questions if not q.get("as_of")]
    if any(old in q["answer_facts"] for q in asked_now):
        return "wrong"
    before_new = [q for q in questions if q.get("as_of") and q["as_of"] < facts[new]["occurred_at"]]
    was_true = any(old in q["answer_facts"] for q in before_new)
    now_true = any(new in q["answer_facts"] for q in asked_now if q["type"] == "current")
    return "right" if was_true and now_true else "unjudged"


def supersessions(memory: Memory, scope: str) -> list[dict[str, Any]]:
    """Every SUPERSEDES edge written in ``scope``."""
    rows = memory._executor.read("beliefs/scope_supersessions", scope=scope, allowed=None)
    return [dict(row) for row in rows]


def contradictions_in_part(memory: Memory, scope: str) -> list[dict[str, Any]]:
    """Every CONTRADICTS edge marked in_part written in ``scope`` (the older memory kept current)."""
    rows = memory._executor.read("beliefs/scope_contradictions_in_part", scope=scope, allowed=None)
    return [dict(row) for row in rows]


def kept_verdict(
    old: str, new: str, facts: dict[str, dict[str, Any]], questions: list[dict[str, Any]]
) -> Verdict:
    """Whether keeping fact ``old`` current after ``new`` contradicted it in part agrees with the
    user's questions: ``right`` when it answers a question asked of now, ``wrong`` where retiring
    it would have been right (:func:`verdict`), ``unjudged`` otherwise."""
    if any(old in q["answer_facts"] for q in questions if not q.get("as_of")):
        return "right"
    return "wrong" if verdict(old, new, facts, questions) == "right" else "unjudged"


def emit(out: Any, **fields: Any) -> None:
    """Print one JSON line (and write it to ``out`` when given)."""
    line = json.dumps(fields, ensure_ascii=False)
    print(line, flush=True)
    if out is not None:
        out.write(line + "\n")


def users_guard(memory: Memory, name: str, out: Any) -> None:
    """Write the dev users of set ``name``; list and judge every supersession among their facts."""
    counts = {"right": 0, "wrong": 0, "unjudged": 0}
    kept = {"right": 0, "wrong": 0, "unjudged": 0}
    users = load_half("dev", name)
    for user in users:
        scope = f"/guards/{name}/{user['id']}"
        fact_of: dict[str, str] = {}
        for fact in sorted(user["facts"], key=lambda f: f["occurred_at"]):
            when = datetime.fromisoformat(f"{fact['occurred_at']}T12:00:00+00:00")
            result = memory.remember(fact["text"], scope=scope, occurred_at=when)
            fact_of[result.memory.id] = fact["id"]
        facts = {f["id"]: f for f in user["facts"]}
        readings = (
            (supersessions(memory, scope), verdict, counts, "verdict"),
            (contradictions_in_part(memory, scope), kept_verdict, kept, "in_part"),
        )
        for rows, judge, tally, field in readings:
            for row in rows:
                old, new = fact_of.get(row["loser_id"], ""), fact_of.get(row["winner_id"], "")
                judged: Verdict = judge(old, new, facts, user["questions"]) if old and new else "unjudged"
                tally[judged] += 1
                emit(
                    out,
                    guard="users",
                    set=name,
                    user=user["id"],
                    old=row["loser_text"],
                    new=row["winner_text"],
                    reason=row["reason"],
                    **{field: judged},
                )
    emit(
        out,
        guard="users",
        set=name,
        half="dev",
        users=len(users),
        facts=sum(len(u["facts"]) for u in users),
        supersessions=sum(counts.values()),
        **counts,
        in_part={**kept, "all": sum(kept.values())},
    )


def locomo_guard(memory: Memory, out: Any) -> None:
    """Write the LoCoMo dev conversations' turns with plain input; list every turn retired."""
    wanted = set(json.loads(SPLIT.read_text())["dev"])
    data = [sample for sample in locomo.load() if str(sample["sample_id"]) in wanted]
    written = retired = 0
    for sample in data:
        scope = f"/guards/locomo/{sample['sample_id']}"
        turns = list(locomo.turns([sample]))
        for start in range(0, len(turns), LOCOMO_BATCH):
            chunk = turns[start : start + LOCOMO_BATCH]
            items = [turn_item(t, scope, i, plain=True) for i, t in enumerate(chunk, start=start)]
            memory.remember_batch([MemoryInput.model_validate(item) for item in items])
        written += len(turns)
        for row in supersessions(memory, scope):
            retired += 1
            emit(
                out,
                guard="locomo",
                conversation=sample["sample_id"],
                old=row["loser_text"],
                new=row["winner_text"],
                reason=row["reason"],
            )
    emit(out, guard="locomo", half="dev", conversations=len(data), turns=written, superseded=retired)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--set", dest="sets", action="append", choices=SETS, help="users' sets (default all)")
    parser.add_argument("--out", type=Path, help="also write every line to this file")
    parser.add_argument("--skip-locomo", action="store_true", help="only the users' facts")
    args = parser.parse_args()
    out = args.out.open("w", encoding="utf-8") if args.out else None
    try:
        with stack.neo4j() as target, open_memory(Settings(llm="none"), target) as memory:
            for name in args.sets or SETS:
                users_guard(memory, name, out)
            if not args.skip_locomo:
                locomo_guard(memory, out)
    finally:
        if out is not None:
            out.close()


if __name__ == "__main__":
    main()
