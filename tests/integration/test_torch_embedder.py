"""The `torch` extra end to end: GRAPHMEM_EMBEDDER=sentence-transformers writes and recalls on the
real Neo4j, next to memories the ONNX default wrote (same model name and dimension).

CI installs the extra (`.ci/run` sets GRAPHMEM_EXTRAS=dev,torch), and there a missing PyTorch fails
this module. Elsewhere it is skipped cleanly when PyTorch or sentence-transformers is not installed
(`pip install 'graphmem[torch]'`; several GB with CUDA wheels, so the default install leaves it out).
"""

from __future__ import annotations

import json
import os
import sys

import pytest

from graphmem.config import Settings
from graphmem.connect import Neo4jTarget, open_memory
from graphmem.embedding.factory import create_embedder
from graphmem.embedding.sentence_transformers import SentenceTransformerEmbedder
from graphmem.memory import Memory

pytestmark = pytest.mark.integration
if os.environ.get("CI"):
    import sentence_transformers  # noqa: F401  # CI installs the extra: its absence is a failure
    import torch  # noqa: F401
else:
    # at collection, so a machine without the extra does not start Neo4j only to skip
    pytest.importorskip("torch", reason="the torch extra is not installed: pip install 'graphmem[torch]'")
    pytest.importorskip("sentence_transformers", reason="pip install 'graphmem[torch]'")


def test_sentence_transformers_writes_and_recalls(
    neo4j_target: Neo4jTarget, memory: Memory, scope: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GRAPHMEM_EMBEDDER", "sentence-transformers")
    onnx_written = memory.remember("Alice keeps bees on her allotment.", scope=scope)
    settings = Settings()
    assert isinstance(create_embedder(settings.embedder), SentenceTransformerEmbedder)
    with open_memory(settings, neo4j_target) as torch_memory:
        torch_memory.remember("Alice is allergic to peanuts.", scope=scope)
        torch_memory.remember("Alice's train to Leeds leaves at 7:40.", scope=scope)
        answer = torch_memory.recall("What can Alice not eat?", scope=scope, limit=3)
        assert answer.results[0].text == "Alice is allergic to peanuts."
        bees = torch_memory.recall("Does Alice have any hobbies with animals?", scope=scope, limit=1)
        assert bees.results[0].id == onnx_written.memory.id  # an ONNX vector, found by a torch query
        assert torch_memory.health().embedding["needs_reembed"] is False


def test_embedding_speed_bench_compares_torch_with_onnx(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`python -m bench.embedding_speed` measures both embedders and how far their vectors agree."""
    from bench import embedding_speed

    monkeypatch.setattr(
        sys,
        "argv",
        ["embedding_speed", "--queries", "5", "--texts", "20", "--agreement", "20", "--threads", "1"],
    )
    embedding_speed.main()
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["embedder"] for r in records if "embedder" in r] == ["onnx", "sentence-transformers"]
    agreement = next(r for r in records if r.get("metric") == "cosine_agreement")
    assert agreement["n"] == 20
    assert agreement["min"] > 0.98  # int8 ONNX and float32 torch are the same model
