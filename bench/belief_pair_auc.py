"""How well the belief check's learned pair readers tell an update from the rest on the pairs of
the belief scenario sets' dev halves, in process (no database): every two steps of a dev scenario,
the older in time first, labelled an update where the scenario wants the older superseded and the
newer not. Prints the AUC of update-vs-rest and update-vs-same-or-restated (``merge_ok``) for the
pair head (beliefs/pair_head.py), the frozen reader (pair_reader.py), tuned readers
(pair_tuned.py; ``--weights``, once per weight file, for others than the shipped one) and the means
of the head with each reader, as the belief check takes them, then p(update) of each reader on a few
plain value swaps and restatements written for this probe (none from an evaluation set).

    python -m bench.belief_pair_auc [--weights graphmem/beliefs/pair_tuned.npz ...]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from bench.belief_eval import SETS, load_half
from graphmem.beliefs.pair_head import shipped_head
from graphmem.beliefs.pair_reader import PairReading, shipped_reader
from graphmem.beliefs.pair_tuned import WEIGHTS, tuned_reader_from
from graphmem.embedding.onnx_minilm import OnnxMiniLMEmbedder

# (older, newer, is an update): plain swaps of one value, and the same value said in other words
PROBES = [
    ("Kenji lives in Fukuoka.", "Kenji lives in Nagoya.", True),
    ("Marta works at Siemens.", "Marta works at Bosch.", True),
    ("My favourite tea is oolong.", "My favourite tea is sencha.", True),
    ("The team standup is at 9:30.", "The team standup is at 10:15.", True),
    ("Omar drives a Toyota Corolla.", "Omar drives a Honda Civic.", True),
    ("Priya's dentist is Dr. Alvarez.", "Priya's dentist is Dr. Kim.", True),
    ("Kenji lives in Fukuoka.", "Kenji's home is in Fukuoka.", False),
    ("Marta works at Siemens.", "Marta is employed by Siemens.", False),
    ("The team standup is at 9:30.", "We meet for standup at half past nine.", False),
    ("Omar drives a Toyota Corolla.", "Omar's car is a Corolla.", False),
    ("Kenji lives in Fukuoka.", "Kenji's sister lives in Nagoya.", False),
    ("Marta works at Siemens.", "Marta's husband works at Bosch.", False),
]


def dev_pairs() -> list[dict[str, Any]]:
    """Every two steps of each dev scenario, older first, with the label the scenario implies."""
    pairs = []
    for name in SETS:
        for scenario in load_half("dev", name):
            steps, gone = scenario["steps"], set(scenario["superseded"])
            merged = set(scenario.get("merge_ok", []))
            for j in range(len(steps)):
                for i in range(j):
                    a, b = (i, j) if steps[i]["occurred_at"] <= steps[j]["occurred_at"] else (j, i)
                    label = "update" if a in gone and b not in gone else "same" if b in merged else "rest"
                    pairs.append({"old": steps[a]["text"], "new": steps[b]["text"], "label": label})
    return pairs


def auc(scores: NDArray[np.float64], positive: NDArray[np.bool_]) -> float:
    """Area under the ROC curve (ties count half)."""
    pos, neg = scores[positive], scores[~positive]
    greater = (pos[:, None] > neg[None, :]).sum() + 0.5 * (pos[:, None] == neg[None, :]).sum()
    return round(float(greater / (len(pos) * len(neg))), 4)


def read(
    reader: PairReading, embedder: OnnxMiniLMEmbedder, pairs: list[tuple[str, str]]
) -> NDArray[np.float64]:
    """p(update) of ``reader`` on ``pairs``, in chunks of 32."""
    found = []
    for start in range(0, len(pairs), 32):
        chunk = pairs[start : start + 32]
        old = np.asarray(embedder.embed([a for a, _ in chunk]))
        new = np.asarray(embedder.embed([b for _, b in chunk]))
        found.append(reader.update_probability(embedder, chunk, (old * new).sum(axis=1).tolist()))
    return np.concatenate(found)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--weights", type=Path, action="append", help="a tuned reader's weight file")
    args = parser.parse_args()
    files: list[Path] = args.weights or [WEIGHTS]
    embedder = OnnxMiniLMEmbedder()
    head, frozen = shipped_head(), shipped_reader()
    assert head is not None and frozen is not None
    pairs = dev_pairs()
    texts = [(p["old"], p["new"]) for p in pairs]
    labels = np.asarray([p["label"] for p in pairs])
    old = np.asarray(embedder.embed([a for a, _ in texts]), np.float64)
    new = np.asarray(embedder.embed([b for _, b in texts]), np.float64)
    scores = {"head": head.update_probability(old, new), "frozen": read(frozen, embedder, texts)}
    readers: dict[str, PairReading] = {"frozen": frozen}
    readers.update({f"tuned:{path.name}": tuned_reader_from(path) for path in files})
    scores.update(
        {name: read(reader, embedder, texts) for name, reader in readers.items() if name != "frozen"}
    )
    for name in readers:
        scores[f"mean_head_{name}"] = (scores["head"] + scores[name]) / 2
    update, same = labels == "update", labels == "same"
    vs_same = update | same
    print(
        json.dumps(
            {
                "what": f"pair AUC update-vs-rest, {len(pairs)} dev scenario pairs, {update.sum()} updates",
                **{k: auc(v, update) for k, v in scores.items()},
                "update_vs_same": {k: auc(v[vs_same], update[vs_same]) for k, v in scores.items()},
            }
        )
    )
    probe = [(a, b) for a, b, _ in PROBES]
    wanted = np.asarray([u for _, _, u in PROBES])
    for name, reader in readers.items():
        p = read(reader, embedder, probe)
        print(
            json.dumps(
                {
                    "what": "p(update) on the probe pairs (6 value swaps, 6 restatements or other subjects)",
                    "reader": name,
                    "swaps": [round(float(x), 3) for x in p[wanted]],
                    "others": [round(float(x), 3) for x in p[~wanted]],
                    "right_at_0.5": int(((p >= 0.5) == wanted).sum()),
                }
            )
        )


if __name__ == "__main__":
    main()
