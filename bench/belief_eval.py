"""Belief updates on scenarios written apart from the code (bench/eval/beliefs.jsonl, or with
``--set beliefs2`` the second set, bench/eval/beliefs2.jsonl, written in session 23 without reading
the judge's code, or ``--set beliefs3``, the third, bench/eval/beliefs3.jsonl, written in session 24
apart from the code, or ``--set beliefs4``, the fourth, bench/eval/beliefs4.jsonl, written in
session 27 by someone who had not read the judge's code, or ``--set beliefs5``, the fifth,
bench/eval/beliefs5.jsonl, written in session 28 by someone who had not read the judge's code): the
pass rate of the offline write path on the dev or test half, per kind and per pattern.

Each scenario's steps are written one at a time in arrival order through REST into a scope of
their own (``speaker`` goes to metadata when the step names one); a scenario passes when every
step listed ``superseded`` ended superseded, every step listed ``current`` is still active, and
every ``merge_ok`` restatement is active or was merged into an active memory. Prints JSON lines.
Beside it, in the same run, two baselines on the same scenarios and the same MiniLM vectors: the
embedding alone (a step replaces every earlier active step at least 0.75 similar, the belief
check's own bar for one slot, the later one in time winning) and "never an update".

    python -m bench.belief_eval [--set beliefs|beliefs2|beliefs3|beliefs4|beliefs5 ...]
        [--half dev|test|all] [--failures] [--in-process]

``--in-process`` writes through ``graphmem.Memory`` in this process (the write path and settings of
REST, no HTTP, one Neo4j for every set named): the same statuses, and no request timeouts on a
loaded machine.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

import httpx
import numpy as np

from bench import stack
from graphmem.config import Settings
from graphmem.connect import open_memory
from graphmem.embedding.factory import create_embedder
from graphmem.memory import Memory

EVAL = Path(__file__).parent / "eval"


SETS = ("beliefs", "beliefs2", "beliefs3", "beliefs4", "beliefs5")


def load_half(half: str, name: str = "beliefs") -> list[dict[str, Any]]:
    """The scenarios of one half of set ``name`` (split once, before tuning, with a fixed seed)."""
    lines = (EVAL / f"{name}.jsonl").read_text().splitlines()
    scenarios = [json.loads(line) for line in lines if line.strip()]
    if half == "all":
        return scenarios
    wanted = set(json.loads((EVAL / f"{name}_split.json").read_text())[half])
    return [s for s in scenarios if s["id"] in wanted]


def play(client: httpx.Client, scenario: dict[str, Any], scope: str) -> tuple[bool, list[str]]:
    """Write the steps; returns (passed, the final status of each step's memory)."""
    ids: list[str] = []
    for step in scenario["steps"]:
        body: dict[str, Any] = {
            "text": step["text"],
            "scope": scope,
            "occurred_at": f"{step['occurred_at']}T12:00:00Z",
        }
        if step.get("speaker"):
            body["metadata"] = {"speaker": step["speaker"]}
        response = client.post("/v1/memories", json=body)
        response.raise_for_status()
        ids.append(response.json()["memory"]["id"])
    status = [client.get(f"/v1/memories/{memory_id}").json()["status"] for memory_id in ids]
    return passes(scenario, status), status


def play_in_process(memory: Memory, scenario: dict[str, Any], scope: str) -> tuple[bool, list[str]]:
    """:func:`play` through ``memory`` in this process."""
    ids: list[str] = []
    for step in scenario["steps"]:
        result = memory.remember(
            step["text"],
            scope=scope,
            occurred_at=datetime.fromisoformat(f"{step['occurred_at']}T12:00:00+00:00"),
            metadata={"speaker": step["speaker"]} if step.get("speaker") else None,
        )
        ids.append(result.memory.id)
    status: list[str] = [memory.get(memory_id).status for memory_id in ids]
    return passes(scenario, status), status


COSINE_BAR = 0.75


def passes(scenario: dict[str, Any], status: list[str]) -> bool:
    """Whether the final statuses are the ones the scenario wants."""
    ok = all(status[i] == "superseded" for i in scenario["superseded"])
    ok = ok and all(status[i] == "active" for i in scenario["current"])
    return ok and all(status[i] == "active" for i in scenario.get("merge_ok", []))


def cosine_alone(scenario: dict[str, Any], vectors: np.ndarray) -> list[str]:
    """The statuses the embedding alone would leave: in arrival order, a step and every earlier
    active step at least ``COSINE_BAR`` similar to it are one slot, and the later in time stays."""
    steps = scenario["steps"]
    unit = vectors / np.linalg.norm(vectors, axis=1, keepdims=True)
    status = ["active"] * len(steps)
    for j in range(len(steps)):
        for i in range(j):
            if status[i] != "active" or status[j] != "active" or float(unit[i] @ unit[j]) < COSINE_BAR:
                continue
            older = i if steps[i]["occurred_at"] <= steps[j]["occurred_at"] else j
            status[older] = "superseded"
    return status


Player = Callable[[dict[str, Any], str], tuple[bool, list[str]]]


def run_set(name: str, half: str, failures: bool, player: Player) -> None:
    """Play one set's scenarios of ``half`` with ``player``; print failures, pass rates, baselines."""
    scenarios = load_half(half, name)
    passed: Counter[str] = Counter()
    total: Counter[str] = Counter()
    embedder = create_embedder("onnx")
    baselines: Counter[str] = Counter()
    for scenario in scenarios:
        vectors = np.asarray(embedder.embed([s["text"] for s in scenario["steps"]]))
        baselines["cosine>=0.75"] += passes(scenario, cosine_alone(scenario, vectors))
        baselines["never an update"] += passes(scenario, ["active"] * len(scenario["steps"]))
    for scenario in scenarios:
        ok, status = player(scenario, f"/eval/{name}/{scenario['id']}")
        for key in ("all", f"kind:{scenario['kind']}", f"pattern:{scenario['pattern']}"):
            total[key] += 1
            passed[key] += ok
        if failures and not ok:
            steps = [s["text"] for s in scenario["steps"]]
            failed = {"set": name, "failed": scenario["id"], "pattern": scenario["pattern"], "steps": steps}
            print(
                json.dumps({**failed, "status": status, "want_superseded": scenario["superseded"]}),
                flush=True,
            )
    for key in sorted(total, key=lambda k: (k != "all", k)):
        rate = round(passed[key] / total[key], 3)
        print(
            json.dumps({"set": name, "half": half, "group": key, "scenarios": total[key], "pass_rate": rate})
        )
    for system, count in baselines.items():
        rate = round(count / len(scenarios), 3)
        row = {"set": name, "half": half, "group": "all", "baseline": system, "scenarios": len(scenarios)}
        print(json.dumps({**row, "pass_rate": rate}), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "--set", dest="names", nargs="+", choices=SETS, default=["beliefs"], help="which sets"
    )
    parser.add_argument("--half", choices=["dev", "test", "all"], default="test")
    parser.add_argument("--failures", action="store_true", help="print every failed scenario")
    parser.add_argument("--in-process", action="store_true", help="write through Memory, not REST")
    args = parser.parse_args()
    with stack.neo4j() as target:
        if args.in_process:
            with open_memory(Settings(llm="none"), target) as memory:
                for name in args.names:
                    run_set(
                        name, args.half, args.failures, lambda sc, scope: play_in_process(memory, sc, scope)
                    )
            return
        with (
            stack.api_server(target, {"GRAPHMEM_LLM": "none"}) as url,
            httpx.Client(base_url=url, timeout=120) as client,
        ):
            for name in args.names:
                run_set(name, args.half, args.failures, lambda sc, scope: play(client, sc, scope))


if __name__ == "__main__":
    main()
