"""Belief-update accuracy through REST, offline (no LLM): runs bench/belief_cases.py and prints
the pass rate per kind and overall as JSON lines, plus each failure.

    python -m bench.belief_updates
"""

from __future__ import annotations

import json
from collections import Counter

import httpx

from bench import stack
from bench.belief_cases import CASES, Case


def run_case(client: httpx.Client, case: Case, scope: str) -> tuple[bool, dict[int, str]]:
    """Play one case; returns (passed, status of each step's memory)."""
    items = [{"text": text, "scope": scope, "occurred_at": f"{day}T12:00:00Z"} for text, day in case.steps]
    if case.batch:
        response = client.post("/v1/memories/batch", json={"items": items})
        response.raise_for_status()
        ids = [r["memory"]["id"] for r in response.json()["results"]]
    else:
        ids = []
        for item in items:
            response = client.post("/v1/memories", json=item)
            response.raise_for_status()
            ids.append(response.json()["memory"]["id"])
    status = {i: client.get(f"/v1/memories/{memory_id}").json()["status"] for i, memory_id in enumerate(ids)}
    ok = all(status[i] == "active" for i in case.current) and all(
        status[i] == "superseded" for i in case.outdated
    )
    if case.kind in {"additive", "unrelated", "duplicate"}:
        ok = ok and all(s == "active" for s in status.values())
    return ok, status


def main() -> None:
    passed: Counter[str] = Counter()
    total: Counter[str] = Counter()
    with (
        stack.neo4j() as target,
        stack.api_server(target, {"GRAPHMEM_LLM": "none"}) as url,
        httpx.Client(base_url=url, timeout=60) as client,
    ):
        for number, case in enumerate(CASES):
            ok, status = run_case(client, case, f"/bench/beliefs/case{number}")
            total[case.kind] += 1
            passed[case.kind] += ok
            if not ok:
                print(
                    json.dumps(
                        {
                            "failed": case.name,
                            "kind": case.kind,
                            "status": status,
                            "steps": [t for t, _ in case.steps],
                        }
                    )
                )
    for kind in total:
        print(
            json.dumps(
                {
                    "metric": "belief_update_pass_rate",
                    "kind": kind,
                    "cases": total[kind],
                    "passed": passed[kind],
                    "rate": round(passed[kind] / total[kind], 3),
                }
            )
        )
    overall = sum(passed.values()) / sum(total.values())
    print(
        json.dumps(
            {
                "metric": "belief_update_pass_rate",
                "kind": "overall",
                "cases": sum(total.values()),
                "passed": sum(passed.values()),
                "rate": round(overall, 3),
            }
        )
    )


if __name__ == "__main__":
    main()
