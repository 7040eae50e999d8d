"""A memory that says little but its owner's name ("Nkechi lives in Enugu.") is near every
question about her; the memory that answers comes first all the same, from the vector cache and
from the graph alike (real Neo4j, real MiniLM: recall/hubs.py)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import numpy as np
import pytest

from graphmem.config import Settings
from graphmem.connect import Neo4jTarget, open_memory
from graphmem.embedding.base import Embedder
from graphmem.memory import Memory
from graphmem.models import RecallQuery
from graphmem.store.search import Expansion, SearchFilter, SearchStore, centrality_of

pytestmark = pytest.mark.integration

FACTS = [
    "Nkechi lives in Enugu.",
    "Nkechi's birthday is 2 May.",
    "Nkechi teaches chemistry at a girls' secondary school.",
    "Nkechi is allergic to shrimp.",
    "Nkechi sings in the choir at her parish on Sundays.",
    "Nkechi's husband Obinna runs a pharmacy.",
    "Nkechi speaks Igbo, English and some French.",
    "Nkechi has a tabby cat named Ose.",
    "Nkechi takes a keke napep to school every morning.",
    "Nkechi's mother lives in Onitsha.",
    "Nkechi is saving for a master's degree in education.",
    "Nkechi supports Rangers International.",
    "Nkechi grows tomatoes and ugu in her backyard.",
    "Nkechi reads crime novels before bed.",
    "Nkechi's daughter Adaeze is learning to swim.",
    "Nkechi has high blood pressure and takes amlodipine.",
]
ASKED = [
    ("Does Nkechi have any animals at home?", "Nkechi has a tabby cat named Ose."),
    ("Does Nkechi have a garden?", "Nkechi grows tomatoes and ugu in her backyard."),
]


def test_the_answer_outranks_a_memory_near_every_question_about_its_owner(
    neo4j_target: Neo4jTarget, embedder: Embedder, memory: Memory, scope: str
) -> None:
    start = datetime(2024, 1, 1, 12, tzinfo=UTC)
    ids = {
        text: memory.remember(text, scope=scope, occurred_at=start + timedelta(days=7 * i)).memory.id
        for i, text in enumerate(FACTS)
    }
    from_graph = open_memory(Settings(recall_vector_cache_rows=0), neo4j_target, embedder=embedder)
    try:
        for question, answer in ASKED:
            ask = RecallQuery(query=question, scope=scope, limit=3, reinforce=False)
            for recaller in (memory, from_graph.memory):
                first = recaller.recall_query(ask).results[0]
                assert first.id == ids[answer], (question, first.text)
    finally:
        from_graph.close()


def test_the_graph_tells_how_central_each_candidate_is_without_sending_its_embedding(
    embedder: Embedder, memory: Memory, scope: str
) -> None:
    texts = FACTS[:8]
    ids = [memory.remember(text, scope=scope).memory.id for text in texts]
    store = SearchStore(memory._executor)
    expansion = Expansion(seeds=(), pool=tuple(ids), context_of=tuple(ids), max_entity_mentions=25)
    where = SearchFilter(scopes=[(scope, scope + "/")], statuses=["active"], layers=None)
    question = embedder.embed_one("Does Nkechi have any animals at home?").tolist()
    _, pool = store.read(lambda tx: store.neighbourhood(tx, expansion, question, where))
    # each one's mean cosine to the others, as the vector cache computes it from the embeddings
    # (each embedded alone, as remember stored it: the int8 products quantise a batch's input as a
    # whole, so a text's vector in a batch of others differs in about the fifth decimal)
    alone = [embedder.embed([text])[0] for text in texts]
    expected = centrality_of(ids, np.asarray(alone, dtype=np.float64))
    assert pool.centrality == pytest.approx(expected, abs=1e-5)
    assert max(expected, key=expected.__getitem__) == ids[0]  # "Nkechi lives in Enugu.": says least else
    for few in ((), ids[:1]):  # no centre to measure from
        alone = Expansion(seeds=(), pool=few, context_of=few, max_entity_mentions=25)
        assert store.read(lambda tx, e=alone: store.neighbourhood(tx, e, question, where))[1].centrality == {}
