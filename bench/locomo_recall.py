"""LoCoMo evidence recall: graphmem through REST against BM25 alone and plain vector search.

Ingests every dialog turn of the 10 LoCoMo conversations through the batch endpoint (speaker and
text, the session date as occurred_at, dia_id in metadata, one scope per conversation), counts the
supersessions the write path made (it should make almost none on ordinary dialog), then asks every
question of categories 1-4 that has evidence and reports recall@5, recall@10 and MRR of the
evidence turns per category and overall, with REST recall latency. Prints JSON lines.

    python -m bench.locomo_recall [--half dev|test|all] [--plain] [--conversations 10]
                                  [--limit-questions 0] [--consolidate]

``--half`` takes the conversations of one half of bench/eval/locomo_split.json (split once, before
tuning); ``--plain`` sends turns as most clients would: no ``source``, no speaker metadata.

With --consolidate, every job runs after the first pass and the questions are asked again
(graphmem_after_consolidation); both passes then recall with reinforce=false, so nothing but
consolidation changes between them. A third pass asks for episodic memories only
(graphmem_after_consolidation_episodic_only): what merging and fading alone did.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import time
from collections import defaultdict
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx
import numpy as np

from bench import locomo, stack
from bench.baselines import BM25, english_tokenize, vector_top
from graphmem.embedding.base import Embedder
from graphmem.embedding.factory import create_embedder

SPLIT = Path(__file__).parent / "eval" / "locomo_split.json"
CATEGORIES = {1: "multi_hop", 2: "temporal", 3: "open_domain", 4: "single_hop"}
_ID = re.compile(r"D\d+:\d+")


def evidence_ids(raw: list[str], known: set[str]) -> list[str]:
    """Normalised evidence dia_ids that exist in the conversation."""
    found: list[str] = []
    for entry in raw:
        for piece in re.split(r"[;,\s]+", entry.replace("D:", "D")):
            match = _ID.search(piece)
            if not match:
                continue
            session, turn = match.group(0)[1:].split(":")
            dia = f"D{int(session)}:{int(turn)}"
            if dia in known and dia not in found:
                found.append(dia)
    return found


def score(ranked: list[str], evidence: list[str]) -> dict[str, float]:
    """recall@5, recall@10 and reciprocal rank of the first evidence turn."""
    gold = set(evidence)
    rr = next((1.0 / (i + 1) for i, d in enumerate(ranked) if d in gold), 0.0)
    return {
        "recall@5": len(gold & set(ranked[:5])) / len(gold),
        "recall@10": len(gold & set(ranked[:10])) / len(gold),
        "mrr": rr,
    }


def emit(**fields: Any) -> None:
    """Print one JSON line."""
    print(json.dumps(fields), flush=True)


def turn_item(turn: locomo.Turn, scope: str, at: int, plain: bool) -> dict[str, Any]:
    """The REST body of one turn: with ``plain``, as most clients send it (no ``source``, no
    speaker metadata; the speaker stays in the text, as a chat log writes it)."""
    item: dict[str, Any] = {
        "text": f"{turn.speaker}: {turn.text}",
        "scope": scope,
        "occurred_at": (turn.occurred_at + timedelta(seconds=at)).isoformat(),
        "metadata": {"dia_id": turn.dia_id},
    }
    if not plain:
        item["metadata"]["speaker"] = turn.speaker
        item["source"] = "locomo"
    return item


def ingest(
    client: httpx.Client, turns: list[locomo.Turn], scope: str, plain: bool = False
) -> list[tuple[str, str]]:
    """Write the turns through the batch endpoint; returns (winner, loser) texts of supersessions."""
    superseded: list[tuple[str, str]] = []
    text_of: dict[str, str] = {}
    for start in range(0, len(turns), 500):
        chunk = turns[start : start + 500]
        items = [turn_item(t, scope, i, plain) for i, t in enumerate(chunk, start=start)]
        response = client.post("/v1/memories/batch", json={"items": items})
        response.raise_for_status()
        for result in response.json()["results"]:
            text_of[result["memory"]["id"]] = result["memory"]["text"]
            for action in result["actions"]:
                if action.startswith("superseded:"):
                    superseded.append((result["memory"]["text"], action.split(":", 1)[1]))
    return [(winner, text_of.get(loser, loser)) for winner, loser in superseded]


def evaluate(
    client: httpx.Client,
    data: list[dict[str, Any]],
    limit_questions: int,
    embedder: Embedder | None,
    totals: dict[tuple[str, str], dict[str, list[float]]],
    latencies: list[float],
    label: str = "graphmem",
    reinforce: bool = True,
    layers: list[str] | None = None,
) -> None:
    """Ask every question with evidence; baselines too when ``embedder`` is given.

    ``reinforce=False`` only looks (recall strengthens nothing), so two passes over the same graph
    differ only by what happened between them.
    """
    for sample in data:
        conv = str(sample["sample_id"])
        turns = list(locomo.turns([sample]))
        scope = f"/locomo/{conv}"
        texts = [f"{t.speaker}: {t.text}" for t in turns]
        dia = [t.dia_id for t in turns]
        if embedder is not None:
            bm25 = BM25(texts, analyzer=english_tokenize)
            bm25_plain = BM25(texts)
            matrix = embedder.embed(texts)
        qa = [q for _, q in locomo.questions([sample]) if int(q.get("category", 0)) in CATEGORIES]
        if limit_questions:
            qa = qa[:limit_questions]
        for q in qa:
            gold = evidence_ids([str(e) for e in q.get("evidence", [])], set(dia))
            if not gold:
                continue
            category = CATEGORIES[int(q["category"])]
            question = str(q["question"])
            t0 = time.perf_counter()
            body = {"query": question, "scope": scope, "limit": 10, "reinforce": reinforce, "layers": layers}
            response = client.post("/v1/recall", json=body)
            latencies.append((time.perf_counter() - t0) * 1000)
            response.raise_for_status()
            # A semantic memory counts for nothing here: only the dialog turns themselves are evidence.
            ranked = [r["metadata"].get("dia_id", "") for r in response.json()["results"]]
            systems = {label: ranked}
            if embedder is not None:
                systems |= {
                    "bm25": [dia[i] for i in bm25.top(question, 10)],
                    "bm25_plain": [dia[i] for i in bm25_plain.top(question, 10)],
                    "vector": [dia[i] for i in vector_top(matrix, embedder.embed_one(question), 10)],
                }
            for system, ranking in systems.items():
                for metric, value in score(ranking, gold).items():
                    totals[(system, category)][metric].append(value)
                    totals[(system, "overall")][metric].append(value)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--conversations", type=int, default=10)
    parser.add_argument("--limit-questions", type=int, default=0, help="0 = all")
    parser.add_argument(
        "--consolidate",
        action="store_true",
        help="after the first pass, run every consolidation job and ask again (graphmem_after_consolidation)",
    )
    parser.add_argument(
        "--half",
        choices=["dev", "test", "all"],
        default="all",
        help="conversations of bench/eval/locomo_split.json",
    )
    parser.add_argument("--plain", action="store_true", help="send turns without source and speaker metadata")
    args = parser.parse_args()

    data = locomo.load()
    if args.half != "all":
        wanted = set(json.loads(SPLIT.read_text())[args.half])
        data = [sample for sample in data if str(sample["sample_id"]) in wanted]
    data = data[: args.conversations]
    embedder = create_embedder("onnx")
    totals: dict[tuple[str, str], dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    latencies: list[float] = []
    supersessions: list[tuple[str, str]] = []
    with (
        stack.neo4j() as target,
        stack.api_server(
            target, {"GRAPHMEM_LLM": "none", "GRAPHMEM_CONSOLIDATION_HEARTBEAT_MINUTES": "0"}
        ) as url,
        httpx.Client(base_url=url, timeout=1800) as client,
    ):
        for sample in data:
            conv = str(sample["sample_id"])
            turns = list(locomo.turns([sample]))
            started = time.perf_counter()
            supersessions += ingest(client, turns, f"/locomo/{conv}", args.plain)
            emit(
                metric="ingest",
                conversation=conv,
                turns=len(turns),
                seconds=round(time.perf_counter() - started, 1),
            )
        # Compared with consolidation, both passes only look: otherwise the second pass would also
        # see what the first one reinforced, and the difference would not be consolidation's alone.
        reinforce = not args.consolidate
        evaluate(client, data, args.limit_questions, embedder, totals, latencies, reinforce=reinforce)
        if args.consolidate:
            started = time.perf_counter()
            response = client.post(
                "/v1/consolidate", params={"wait": "true"}, json={"jobs": ["nightly", "weekly", "monthly"]}
            )
            response.raise_for_status()
            for run in response.json()["runs"]:
                emit(metric="consolidation", job=run["job"], status=run["status"], counts=run["counts"])
            emit(metric="consolidation_seconds", seconds=round(time.perf_counter() - started, 1))
            evaluate(
                client, data, args.limit_questions, None, totals, [], "graphmem_after_consolidation", False
            )
            # The control: the same graph without its derived memories (merges and fading only).
            evaluate(
                client,
                data,
                args.limit_questions,
                None,
                totals,
                [],
                "graphmem_after_consolidation_episodic_only",
                False,
                ["episodic"],
            )
    for (system, category), metrics in sorted(totals.items()):
        emit(
            metric="locomo_evidence",
            half=args.half,
            plain=args.plain,
            system=system,
            category=category,
            questions=len(metrics["mrr"]),
            **{k: round(float(np.mean(v)), 4) for k, v in metrics.items()},
        )
    emit(
        metric="rest_recall_latency_ms",
        queries=len(latencies),
        p50=round(statistics.median(latencies), 2),
        p95=round(sorted(latencies)[int(0.95 * (len(latencies) - 1))], 2),
    )
    emit(
        metric="supersessions_on_dialog",
        count=len(supersessions),
        turns_ingested=sum(1 for _ in locomo.turns(data)),
    )
    for winner, loser in supersessions[:20]:
        emit(metric="supersession_example", new=winner, old=loser)


if __name__ == "__main__":
    main()
