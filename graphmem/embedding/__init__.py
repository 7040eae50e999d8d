"""Text embedders behind the small :class:`Embedder` protocol.

Importing this package is cheap: the model runtimes are imported when an embedder first loads.
"""

from graphmem.embedding.base import Embedder, Vectors, blend, l2_normalize
from graphmem.embedding.factory import EmbedderName, create_embedder
from graphmem.embedding.onnx_minilm import OnnxMiniLMEmbedder
from graphmem.embedding.sentence_transformers import SentenceTransformerEmbedder

__all__ = [
    "Embedder",
    "EmbedderName",
    "OnnxMiniLMEmbedder",
    "SentenceTransformerEmbedder",
    "Vectors",
    "blend",
    "create_embedder",
    "l2_normalize",
]
