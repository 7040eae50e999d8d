"""The belief scenario sets' dev halves (bench/belief_eval.py's scenarios and pass rule) under
several configurations of the belief check in one run, in process (``Memory`` with no LLM, as REST
writes) against one Neo4j: each configuration names ``BeliefSettings`` fields to change and,
optionally, a tuned reader's weight file to read pairs with (then the tuned reader is on). Prints a
JSON line of dev pass rates per set and their sum for each configuration. Dev halves only.

    python -m bench.belief_eval_configs --config '{"name": "frozen"}' \
        --config '{"name": "tuned", "tuned_pair_reader": true}' \
        --config '{"name": "new", "weights": "/tmp/pair_tuned.npz", "pair_model_min": 0.4}'
"""

from __future__ import annotations

import argparse
import functools
import json
import time
from datetime import datetime
from pathlib import Path
from typing import Any
from unittest import mock

from bench import stack
from bench.belief_eval import SETS, load_half, passes
from graphmem import connect
from graphmem.beliefs import resolver
from graphmem.beliefs.pair_tuned import tuned_reader_from
from graphmem.config import Settings
from graphmem.connect import open_memory
from graphmem.memory import Memory


def play(memory: Memory, scenario: dict[str, Any], scope: str) -> bool:
    """Write the scenario's steps in arrival order; whether the final statuses pass."""
    ids = []
    for step in scenario["steps"]:
        when = datetime.fromisoformat(f"{step['occurred_at']}T12:00:00+00:00")
        metadata = {"speaker": step["speaker"]} if step.get("speaker") else None
        ids.append(memory.remember(step["text"], scope=scope, occurred_at=when, metadata=metadata).memory.id)
    status = [memory.get(memory_id).status for memory_id in ids]
    return passes(scenario, status)


def run(target: Any, config: dict[str, Any]) -> dict[str, Any]:
    """Every dev scenario under ``config``; pass rates per set."""
    overrides = {k: v for k, v in config.items() if k not in ("name", "weights")}
    if config.get("weights"):
        overrides["tuned_pair_reader"] = True
        reader = tuned_reader_from(Path(config["weights"]))
        patch_reader = mock.patch.object(resolver, "shipped_tuned_reader", lambda: reader)
    else:
        patch_reader = mock.patch.object(resolver, "shipped_tuned_reader", resolver.shipped_tuned_reader)
    settings = functools.partial(resolver.BeliefSettings, **overrides)
    started = time.time()
    rates = {}
    with (
        patch_reader,
        mock.patch.object(connect, "BeliefSettings", settings),
        open_memory(Settings(llm="none"), target) as memory,
    ):
        memory.prepare()
        for name in SETS:
            scenarios = load_half("dev", name)
            ok = sum(play(memory, s, f"/cfg/{config['name']}/{name}/{s['id']}") for s in scenarios)
            rates[name] = round(ok / len(scenarios), 3)
    dev = list(rates.values())
    return {"config": config, "dev": dev, "sum": round(sum(dev), 3), "s": round(time.time() - started)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", action="append", required=True, help="a JSON object (see above)")
    parser.add_argument("--out", type=Path, help="also append every line to this file")
    args = parser.parse_args()
    with stack.neo4j() as target:
        for text in args.config:
            line = json.dumps(
                {"what": "belief scenario pass rate, dev halves in process", **run(target, json.loads(text))}
            )
            print(line, flush=True)
            if args.out is not None:
                with args.out.open("a", encoding="utf-8") as out:
                    out.write(line + "\n")


if __name__ == "__main__":
    main()
