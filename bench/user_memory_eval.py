"""A small user memory, asked as a user would: hit@1 and hit@3 of graphmem beside plain MiniLM
cosine and BM25 over the same facts, on the dev or test half of one set of users:
bench/eval/user_memories.json (the default) or user_memories2.json (``--set``, written later and
never tuned on) or user_memories3.json (written in session 28 by someone who had not read the recall
code: 22 users, decoy relatives whose facts change too) or user_memories_extra.json (8 users
written in session 33 before any tuning on them: attributes asked in other words, statements
holding two facts, relatives' changes) or user_memories_4.json (10 users written in session 34
before any tuning on them: first and third person mixed, changes said without a change word,
relatives, colleagues and neighbours as decoys), each halved by user id in ``<set>_split.json``.

Each user's facts are written one at a time, in date order, through REST (one scope per user),
then every question is asked with ``reinforce: false`` (so asking does not change what is
measured; ``--reinforce`` asks as a default client would). Questions typed ``as_of`` send the
date. The baselines rank all of the user's facts (they know nothing of time or supersession;
for ``as_of`` questions they rank the facts written by then). Prints JSON lines.

    python -m bench.user_memory_eval [--set user_memories|user_memories2|user_memories3|
        user_memories_extra|user_memories_4] [--half dev|test|all] [--reinforce] [--failures]
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from pathlib import Path
from typing import Any

import httpx
import numpy as np

from bench import stack
from bench.baselines import BM25, english_tokenize, vector_top
from graphmem.embedding.factory import create_embedder

EVAL = Path(__file__).parent / "eval"
SETS = ("user_memories", "user_memories2", "user_memories3", "user_memories_extra", "user_memories_4")


def load_half(half: str, name: str = "user_memories") -> list[dict[str, Any]]:
    """The users of one half of a set (each split was made once, before any tuning, with a fixed seed)."""
    users: list[dict[str, Any]] = json.loads((EVAL / f"{name}.json").read_text())["users"]
    if half == "all":
        return users
    split = json.loads((EVAL / f"{name}_split.json").read_text())
    wanted = set(split[half])
    return [u for u in users if u["id"] in wanted]


def emit(**fields: Any) -> None:
    """Print one JSON line."""
    print(json.dumps(fields), flush=True)


def write_user(client: httpx.Client, user: dict[str, Any], scope: str) -> dict[str, str]:
    """Write the user's facts one at a time in date order; returns memory id -> fact id."""
    fact_of: dict[str, str] = {}
    for fact in sorted(user["facts"], key=lambda f: f["occurred_at"]):
        body = {"text": fact["text"], "scope": scope, "occurred_at": f"{fact['occurred_at']}T12:00:00Z"}
        response = client.post("/v1/memories", json=body)
        response.raise_for_status()
        fact_of[response.json()["memory"]["id"]] = fact["id"]
    return fact_of


def hits(ranked: list[str], gold: set[str]) -> dict[str, float]:
    """hit@1 and hit@3 of one ranking."""
    return {
        "hit@1": float(bool(ranked[:1]) and ranked[0] in gold),
        "hit@3": float(bool(set(ranked[:3]) & gold)),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--set", dest="set_name", choices=SETS, default=SETS[0], help="which set of users")
    parser.add_argument("--half", choices=["dev", "test", "all"], default="test")
    parser.add_argument("--reinforce", action="store_true", help="recall as a default client does")
    parser.add_argument("--failures", action="store_true", help="print each question graphmem misses")
    args = parser.parse_args()
    users = load_half(args.half, args.set_name)
    embedder = create_embedder("onnx")
    totals: dict[tuple[str, str], dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    with (
        stack.neo4j() as target,
        stack.api_server(target, {"GRAPHMEM_LLM": "none"}) as url,
        httpx.Client(base_url=url, timeout=120) as client,
    ):
        for user in users:
            scope = f"/eval/users/{user['id']}"
            fact_of = write_user(client, user, scope)
            facts = user["facts"]
            texts = [f["text"] for f in facts]
            matrix = embedder.embed(texts)
            for q in user["questions"]:
                gold = set(q["answer_facts"])
                as_of = q.get("as_of")
                body: dict[str, Any] = {"query": q["question"], "scope": scope, "limit": 5}
                body["reinforce"] = args.reinforce
                if as_of:
                    body["as_of"] = f"{as_of}T23:59:59Z"
                response = client.post("/v1/recall", json=body)
                response.raise_for_status()
                results = response.json()["results"]
                ranked = [fact_of.get(r["id"], "") for r in results]
                visible = [i for i, f in enumerate(facts) if not as_of or f["occurred_at"] <= as_of]
                query_vector = embedder.embed([q["question"]])[0]
                cosine = [facts[visible[i]]["id"] for i in vector_top(matrix[visible], query_vector, 3)]
                bm25 = BM25([texts[i] for i in visible], analyzer=english_tokenize)
                keyword = [facts[visible[i]]["id"] for i in bm25.top(q["question"], 3)]
                for system, ranking in (("graphmem", ranked), ("cosine", cosine), ("bm25", keyword)):
                    for measure, value in hits(ranking, gold).items():
                        totals[(system, q["type"])][measure].append(value)
                        totals[(system, "all")][measure].append(value)
                if args.failures and not (ranked and ranked[0] in gold):
                    by_id = {f["id"]: f["text"] for f in facts}
                    emit(
                        miss=q["id"],
                        type=q["type"],
                        question=q["question"],
                        want=[by_id[g] for g in gold],
                        got=[
                            (by_id.get(f, "?"), r["score"], r["match_reasons"])
                            for f, r in zip(ranked, results, strict=True)
                        ][:3],
                    )
    for (system, kind), measures in sorted(totals.items()):
        emit(
            set=args.set_name,
            half=args.half,
            system=system,
            type=kind,
            questions=len(measures["hit@1"]),
            **{m: round(float(np.mean(v)), 3) for m, v in measures.items()},
        )


if __name__ == "__main__":
    main()
