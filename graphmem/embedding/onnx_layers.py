"""MiniLM's ONNX graph cut after one of its transformer layers, for readers that run the layers
above it themselves (the belief check's tuned pair reader: beliefs/pair_tuned.py).

The cut graph is the model file's own nodes up to the output LayerNorm of the layer below, so its
states are the ones the full graph computes there, to the last bit: a reader fitted on them sees at
run time what it saw in training. The cut is made once, in memory, with the ``onnx`` package.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from graphmem.embedding.base import import_optional
from graphmem.errors import EmbeddingError

# the weight of the LayerNorm that closes each transformer layer, in the sentence-transformers export
_LAYER_OUTPUT_NORM = "inner.encoder.layer.{layer}.output.LayerNorm.weight"


def graph_below_layer(path: Path, layer: int) -> bytes:
    """The model at ``path`` cut so that its one output, ``hidden_state``, is the states that
    enter transformer layer ``layer`` (0-based: 5 is the last of all-MiniLM-L6-v2's six), padded
    like the input. Raises EmbeddingError when the ``onnx`` package is missing, ``layer`` is under
    1, or the graph is not the MiniLM export this reads (no such layer)."""
    onnx = import_optional("onnx", "pip install onnx")
    if layer < 1:
        raise EmbeddingError(
            f"a graph can be cut only above its first transformer layer, not below layer {layer}"
        )
    model = _loaded(onnx, path)
    weight = _LAYER_OUTPUT_NORM.format(layer=layer - 1)
    norms = [n for n in model.graph.node if n.op_type == "LayerNormalization" and weight in n.input]
    if len(norms) != 1:
        raise EmbeddingError(f"{path} has no transformer layer {layer - 1} to cut after (no {weight})")
    inputs = [i.name for i in model.graph.input]
    try:
        cut = onnx.utils.Extractor(model).extract_model(inputs, [norms[0].output[0]])
    except Exception as e:  # onnx raises plain exceptions for a graph it cannot cut
        raise EmbeddingError(f"{path} could not be cut after layer {layer - 1}: {e}") from e
    cut.graph.output[0].name = "hidden_state"
    for node in cut.graph.node:
        node.output[:] = ["hidden_state" if o == norms[0].output[0] else o for o in node.output]
    data: bytes = cut.SerializeToString()
    return data


# the top layer's six projections in the order the graph computes them (query, key, value,
# attention output, intermediate, output), then its biases and LayerNorms by initialiser name
PROJECTIONS = ("wq", "wk", "wv", "wo", "wi", "wf")
LAYER_PARAMETERS = {
    "bq": "attention.self.query.bias",
    "bk": "attention.self.key.bias",
    "bv": "attention.self.value.bias",
    "bo": "attention.output.dense.bias",
    "ln1w": "attention.output.LayerNorm.weight",
    "ln1b": "attention.output.LayerNorm.bias",
    "bi": "intermediate.dense.bias",
    "bf": "output.dense.bias",
    "ln2w": "output.LayerNorm.weight",
    "ln2b": "output.LayerNorm.bias",
}
_LAYERS = 6


@dataclass(frozen=True, eq=False)
class LayerWeights:
    """New weights for one transformer layer of the graph (see :func:`graph_with_layer`); compared
    by identity, so a session made with them can be kept for them."""

    layer: int
    weights: Mapping[str, NDArray[np.float32]]


def graph_with_layer(path: Path, layer: int, weights: Mapping[str, NDArray[np.float32]]) -> bytes:
    """The model at ``path`` with transformer ``layer``'s weights replaced by ``weights`` (the
    keys of PROJECTIONS as ``(in, out)`` matrices and of LAYER_PARAMETERS), in float32: the int8
    matrices' dequantising Cast and Mul nodes give way to the new matrices. Raises EmbeddingError
    when the ``onnx`` package is missing or the graph is not the int8 MiniLM export this reads."""
    onnx = import_optional("onnx", "pip install onnx")
    from onnx import numpy_helper

    model = _loaded(onnx, path)
    graph = model.graph
    quantised = {i.name for i in graph.initializer if i.name.endswith("_q")}
    matmuls = [n for n in graph.node if n.op_type == "MatMul" and n.input[1] + "_q" in quantised]
    if len(matmuls) != _LAYERS * len(PROJECTIONS):
        raise EmbeddingError(f"{path} is not the int8 MiniLM export: {len(matmuls)} int8 projections")
    per_layer = len(PROJECTIONS)
    own = matmuls[layer * per_layer : (layer + 1) * per_layer]
    replaced = {n.input[1]: weights[key] for n, key in zip(own, PROJECTIONS, strict=True)}
    prefix = f"inner.encoder.layer.{layer}."
    replaced.update({prefix + name: weights[key] for key, name in LAYER_PARAMETERS.items()})
    dequantising = {n.name for n in graph.node if n.output and n.output[0] in replaced}
    dequantising |= {f"{name}_cast" for name in replaced}
    kept_nodes = [n for n in graph.node if n.name not in dequantising]
    del graph.node[:]
    graph.node.extend(kept_nodes)
    dropped = {f"{name}_q" for name in replaced} | {f"{name}_scale" for name in replaced} | set(replaced)
    kept = [i for i in graph.initializer if i.name not in dropped]
    del graph.initializer[:]
    graph.initializer.extend(kept)
    for name, value in replaced.items():
        graph.initializer.append(numpy_helper.from_array(np.asarray(value, np.float32), name))
    data: bytes = model.SerializeToString()
    return data


def _loaded(onnx: Any, path: Path) -> Any:
    """The ONNX model at ``path``; raises EmbeddingError when it cannot be read."""
    try:
        return onnx.load(str(path))
    except Exception as e:  # onnx raises its own and protobuf's errors
        raise EmbeddingError(f"the ONNX model {path} could not be read: {e}") from e
