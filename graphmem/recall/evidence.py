"""What recall knows of each candidate before it ranks them: the retrievers' evidence (cosine,
keyword shares weighed among the candidates, sub-query hits, episode context) and the expansion it
leads to (the seeds, the pool whose records are read, the candidates read in their episode)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple, Protocol

from graphmem.recall.episode_context import context_cosine
from graphmem.recall.keywords import keyword_shares
from graphmem.recall.ranking import Evidence
from graphmem.store.search import Expansion, Surroundings


class Found(Protocol):
    """A memory a retriever found: its id, the retriever's score, its cosine to the query, its text."""

    @property
    def id(self) -> str: ...
    @property
    def score(self) -> float: ...
    @property
    def cosine(self) -> float: ...
    @property
    def text(self) -> str: ...


class Hit(NamedTuple):
    """A cached vector hit before the graph has checked it (what it would be as a candidate)."""

    id: str
    score: float
    cosine: float
    text: str


@dataclass(frozen=True)
class Plan:
    """What recall reads of its candidates before ranking them, and what it expands."""

    evidence: dict[str, Evidence]
    reasons: dict[str, list[str]]
    texts: dict[str, str]
    expansion: Expansion


def in_context(
    query: str, evidence: dict[str, Evidence], pool_texts: dict[str, str], around: dict[str, Surroundings]
) -> dict[str, Evidence]:
    """Evidence with each memory's episode context (recall/episode_context.py): the cosine of the
    memory read with its neighbours, and the share of the query's telling words they match
    (weighed among the candidates, like the memory's own words)."""
    if not around:
        return evidence
    texts = {m: " ".join(a.texts) for m, a in around.items() if m in evidence}
    shares = keyword_shares(query, texts, pool_texts) if texts else {}
    return {
        m: e
        if m not in around
        else e._replace(context=context_cosine(e.cosine, around[m]), context_keyword=shares.get(m, 0.0))
        for m, e in evidence.items()
    }


def evidence_of(
    query: str, vector: Sequence[Found], fulltext: Sequence[Found], deep: Sequence[Found]
) -> tuple[dict[str, Evidence], dict[str, list[str]], dict[str, str]]:
    """What the retrievers found of each memory, the reasons to show for it, and the texts."""
    cosine = {c.id: c.cosine for c in [*fulltext, *vector]}
    texts = {c.id: c.text for c in [*deep, *fulltext, *vector]}
    keyword = keyword_shares(query, texts)
    sub: dict[str, float] = {}
    for c in deep:
        sub[c.id] = max(sub.get(c.id, 0.0), c.score)
    reasons: dict[str, list[str]] = {}
    for c in vector:
        reasons.setdefault(c.id, []).append(f"vector similarity {c.cosine:.2f}")
    for c in fulltext:
        reasons.setdefault(c.id, []).append("keyword match")
    for memory_id in sub:
        reasons.setdefault(memory_id, []).append("matched a sub-query")
    evidence = {
        m: Evidence(cosine=cosine.get(m, 0.0), keyword=keyword.get(m, 0.0), sub_query=sub.get(m, 0.0))
        for m in {*cosine, *sub}
    }
    return evidence, reasons, texts
