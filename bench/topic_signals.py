"""What tells a topic set's threads apart, offline: how strong each of C1's signals is inside a
thread against across threads, and how C1 misses the threads it misses, per set.

Per set's half (``bench/eval/<set>.json``, its split), over the pairs of topic episodes:
- cosine_in / cosine_out: mean MiniLM cosine of two episodes of one thread / of two threads;
- word_in / word_out: share of pairs sharing a content word rare in the scope (held by at most a
  fifth of its memories; spaCy's stop list left out, as C1's words);
- entity_in / entity_out: the same for an entity (the owner, 'user', left out);
- nearest_same: share of episodes whose nearest memory by cosine is of their own thread;
- mutual / one_sided: of the pairs among the 5 nearest of one side, how many are each other's
  and what share of each kind is one thread (C1's nearness bonus counts both sides);
- words_per_episode, entities_per_episode;
- C1's topics (as ``bench.topic_subsets`` builds the signals): threads covered, and each missed
  thread by cause: ``unclustered`` (no episode in a topic), ``with_strays`` (most in one topic that
  is not 90 % its own), ``fragments`` (most of it in topics each mostly its own, none 90 % its own
  and large enough), ``absorbed`` (pieces in other threads' topics, the rest in none); the impure
  topics by shape ('2x1': two of one thread and one of another).
Prints one JSON line per set.

    python -m bench.topic_signals [--set topics topics2 ...] [--half dev]
"""

from __future__ import annotations

import argparse
import itertools
import json
from collections import Counter
from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from bench.topic_eval import SETS, SHARE, load_half
from bench.topic_subsets import clusters_of, entity_keys
from graphmem.consolidate.shared_keys import topic_words

NEAREST = 5  # C1's nearest by vector per memory (TopicWeights.neighbours)
MAX_SHARE = 0.2  # a key held by more of the scope ties nothing (TopicWeights.entity_max_share)


def pair_signals(rows: Sequence[dict[str, Any]], vectors: NDArray[np.float32]) -> dict[str, Any]:
    """Inside-thread against across-thread strength of the cosine, shared words and entities."""
    n = len(rows)
    topics = [r["topic"] for r in rows]
    words = [set(topic_words(r["text"])) for r in rows]
    entities = [set(found) - {"user"} for found in entity_keys([r["text"] for r in rows])]
    word_count = Counter(w for found in words for w in found)
    entity_count = Counter(e for found in entities for e in found)
    limit = max(2, int(MAX_SHARE * n))
    sims = vectors @ vectors.T
    inside: dict[str, list[float]] = {"cosine": [], "word": [], "entity": []}
    across: dict[str, list[float]] = {"cosine": [], "word": [], "entity": []}
    for i, j in itertools.combinations(range(n), 2):
        if topics[i] is None or topics[j] is None:
            continue
        side = inside if topics[i] == topics[j] else across
        side["cosine"].append(float(sims[i, j]))
        side["word"].append(float(any(word_count[w] <= limit for w in words[i] & words[j])))
        side["entity"].append(float(any(entity_count[e] <= limit for e in entities[i] & entities[j])))
    out: dict[str, Any] = {}
    for name in inside:
        out[f"{name}_in"] = round(float(np.mean(inside[name])), 3)
        out[f"{name}_out"] = round(float(np.mean(across[name])), 3)
    lengths = [len(r["text"].split()) for r in rows if r["topic"]]
    named = [len(e) for e, t in zip(entities, topics, strict=True) if t]
    return (
        out
        | nearness(topics, sims)
        | {
            "words_per_episode": round(float(np.mean(lengths)), 1),
            "entities_per_episode": round(float(np.mean(named)), 2),
        }
    )


def nearness(topics: Sequence[str | None], sims: NDArray[np.float32]) -> dict[str, Any]:
    """How often an episode's nearest is of its thread, and how telling a mutual and a one-sided
    pair among the ``NEAREST`` nearest are."""
    n = len(topics)
    ranked = sims.copy()
    np.fill_diagonal(ranked, -np.inf)
    order = np.argsort(-ranked, axis=1)[:, :NEAREST]
    near = np.zeros((n, n), dtype=bool)
    near[np.repeat(np.arange(n), NEAREST), order.ravel()] = True
    same = [topics[int(order[i, 0])] == topics[i] for i in range(n) if topics[i]]
    mutual: list[bool] = []
    one_sided: list[bool] = []
    for i, j in itertools.combinations(range(n), 2):
        if near[i, j] or near[j, i]:
            kind = mutual if near[i, j] and near[j, i] else one_sided
            kind.append(bool(topics[i]) and topics[i] == topics[j])
    return {
        "nearest_same": round(float(np.mean(same)), 3),
        "mutual": {"pairs": len(mutual), "same_thread": round(float(np.mean(mutual)), 3)},
        "one_sided": {"pairs": len(one_sided), "same_thread": round(float(np.mean(one_sided)), 3)},
    }


def misses(topics: Sequence[str | None], found: Sequence[Sequence[int]]) -> dict[str, Any]:
    """Threads covered, each missed thread's cause and the impure topics' shapes."""
    covered: set[str] = set()
    shapes: Counter[str] = Counter()
    for members in found:
        labels = Counter(topics[m] or f"noise:{m}" for m in members)
        top, n = labels.most_common(1)[0]
        if n / len(members) >= SHARE and not top.startswith("noise:"):
            covered.add(top)
        else:
            shapes["x".join(str(k) for k in sorted(labels.values(), reverse=True))] += 1
    threads = sorted({t for t in topics if t})
    causes: Counter[str] = Counter()
    for thread in sorted(set(threads) - covered):
        size = sum(1 for t in topics if t == thread)
        held = [(sum(1 for m in c if topics[m] == thread), len(c)) for c in found]
        held = [(k, total) for k, total in held if k]
        if not held:
            causes["unclustered"] += 1
        elif len(held) == 1 and held[0][0] * 2 > size:
            causes["with_strays"] += 1
        elif all(k * 2 >= total for k, total in held) and sum(k for k, _ in held) * 2 > size:
            causes["fragments"] += 1
        else:
            causes["absorbed"] += 1
    return {
        "covered": len(covered),
        "threads": len(threads),
        "thread_sizes": dict(sorted(Counter(Counter(t for t in topics if t).values()).items())),
        "missed": dict(sorted(causes.items())),
        "impure_shapes": dict(shapes.most_common()),
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--set", choices=SETS, nargs="+", default=list(SETS), dest="sets")
    parser.add_argument("--half", choices=["dev", "test"], default="dev", help="test: only to report, once")
    args = parser.parse_args()
    from graphmem.embedding.factory import create_embedder

    embedder = create_embedder("onnx")
    for name in args.sets:
        rows = load_half(args.half, name)
        for row in rows:
            row["occurred_at"] = row["occurred_at"].replace("Z", "+00:00")
        vectors = np.asarray(embedder.embed([r["text"] for r in rows]), dtype=np.float32)
        _, found = clusters_of(rows, vectors)
        topics = [r["topic"] for r in rows]
        signals = pair_signals(rows, vectors)
        print(json.dumps({"set": name, "half": args.half, **signals, **misses(topics, found)}), flush=True)


if __name__ == "__main__":
    main()
