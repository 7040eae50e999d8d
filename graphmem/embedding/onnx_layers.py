"""MiniLM's ONNX graph cut after one of its transformer layers, for readers that run the layers
above it themselves (the belief check's tuned pair reader: beliefs/pair_tuned.py).

The cut graph is the model file's own nodes up to the output LayerNorm of the layer below, so its
states are the ones the full graph computes there, to the last bit: a reader fitted on them sees at
run time what it saw in training. The cut is made once, in memory, with the ``onnx`` package.
"""

from __future__ import annotations

from pathlib import Path

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
    try:
        model = onnx.load(str(path))
    except Exception as e:  # onnx raises its own and protobuf's errors
        raise EmbeddingError(f"the ONNX model {path} could not be read: {e}") from e
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
