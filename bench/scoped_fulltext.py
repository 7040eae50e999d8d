"""How many fulltext (BM25) candidates a scoped recall gets in a graph of many scopes.

    python -m bench.scoped_fulltext [--n 100000] [--queries 30] [--scope /scale/user0]

Builds N memories in user scopes of ~1,000 as bench.scale does (vectors cached by it), waits for
Neo4j to be quiet, then sends the first round trip of a cached scoped recall
(``search/cached_recall_start``, as recall sends it: the query's Lucene terms, the best
``text_k`` of the index, kept where they lie in the scope, at most 50) for LoCoMo questions,
with recall's ``text_k`` (100) and larger ones. Before schema 079 the index ranked over every
scope at once, so a scope holding 1 % of the graph kept about 1 % of its best; since, a scoped
recall asks ``memory_text_scoped`` for matches within the scope (run a checkout of an earlier
commit with ``--built`` on the same graph to compare). One JSON line per
``text_k``: candidates kept (median, min, max) and the statement's median milliseconds.
With ``--built``, the Neo4j of GRAPHMEM_NEO4J_URI already holds bench.scale's N memories.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from bench import locomo, scale, stack
from graphmem.config import Settings
from graphmem.connect import open_memory
from graphmem.embedding.factory import create_embedder
from graphmem.models import RecallQuery
from graphmem.recall.lucene import lucene_query
from graphmem.recall.search import search_filter
from graphmem.store import scope_vectors
from graphmem.store.executor import Transaction

TEXT_LIMIT = 50  # the candidates recall keeps (RecallSettings.pool)
TEXT_KS = (100, 1000, 3000, 10000)  # 100: what recall sends (pool * 2)
ROUNDS = 2  # the first round of each text_k only warms up


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--per-scope", type=int, default=1000)
    parser.add_argument("--queries", type=int, default=30)
    parser.add_argument("--scope", default="/scale/user0")
    parser.add_argument("--built", action="store_true", help="the graph already holds the N memories")
    args = parser.parse_args()
    questions = [str(item["question"]) for _, item in locomo.questions(locomo.load())]
    random.Random(5).shuffle(questions)
    embedder = create_embedder("onnx")
    with (
        stack.neo4j_server(heap=scale.HEAP, pagecache=scale.PAGECACHE) as (target, jvm),
        open_memory(Settings(llm="none"), target, embedder=embedder) as memory,
    ):
        memory.prepare()
        if not args.built:
            texts = scale.corpus(args.n + 1000)[: args.n]
            vectors = scale.vectors_of(embedder, texts, embedder.model_name.replace("/", "_"))
            scale.build(memory._executor, texts, vectors, max(1, args.n // args.per_scope))
            scale.settle(jvm, scale.SETTLE_SECONDS)
        where = search_filter(RecallQuery(query="-", scope=args.scope))
        asked = [(q, lucene_query(q)) for q in questions[: args.queries]]
        for text_k in TEXT_KS:
            kept: list[int] = []
            ms: list[float] = []
            for round_ in range(ROUNDS):
                for _, lucene in asked:

                    def first(tx: Transaction, lucene: str | None = lucene, k: int = text_k) -> int:
                        started = scope_vectors.start(tx, lucene, where, text_k=k, text_limit=TEXT_LIMIT)
                        return len(started.fulltext)

                    t0 = time.perf_counter()
                    found = memory._executor.read_statements(first, "scoped-fulltext")
                    if round_ == ROUNDS - 1:
                        ms.append((time.perf_counter() - t0) * 1000)
                        kept.append(found)
            scale.emit(
                metric="scoped_fulltext",
                n=args.n,
                scope=args.scope,
                text_k=text_k,
                queries=len(asked),
                kept_median=statistics.median(kept),
                kept_min=min(kept),
                kept_max=max(kept),
                statement_p50_ms=round(statistics.median(ms), 2),
            )


if __name__ == "__main__":
    main()
