"""CPU of the write path's work on the texts alone (spaCy, dateparser, entity extraction), as JSON lines.

    python -m bench.text_work [--texts 1000] [--rounds 3]

The texts are bench.scale's REST sample (LoCoMo turns and pairs of turns, read in place from
../shared/data), in batches of 500 as REST takes them. Each round starts from empty caches and
does what the default write path does with a batch's texts in the API process, apart from the
embedding and Neo4j: reads each statement, runs the read-ahead (the belief check's parses, entity
extraction's parses, the future-day pass) and extracts each text's entities. Prints the process
CPU time per text of each round (a busy machine moves it much less than a rate): run it from two
checkouts back to back (``PYTHONPATH=DIR``) to compare them.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from collections.abc import Sequence
from datetime import UTC, datetime

from bench.scale import BATCH, corpus
from graphmem import language
from graphmem.agenda import dates
from graphmem.agenda.triggers import TriggerLinking
from graphmem.beliefs.statements import read_statement
from graphmem.entities.extract import extract_entities, parse_ahead
from graphmem.write.ahead import read_ahead

OCCURRED_AT = datetime(2026, 3, 2, 9, tzinfo=UTC)


class EntityReading:
    """The entity linker's read-ahead, without the linker (no embedder, no store)."""

    @staticmethod
    def read_ahead(texts: Sequence[tuple[str, datetime]]) -> None:
        """Parse what entity extraction reads of ``texts``."""
        parse_ahead([text for text, _ in texts])


def one_round(texts: list[str]) -> float:
    """Process CPU seconds of the text work on ``texts``, from empty caches."""
    language._parsed.clear()
    dates._found.clear()
    dates._parse.cache_clear()
    started = time.process_time()
    for i in range(0, len(texts), BATCH):
        part = texts[i : i + BATCH]
        statements = [read_statement(t) for t in part]
        ahead = read_ahead(
            [s.body for s in statements if s.atomic],
            [(t, OCCURRED_AT) for t in part],
            [EntityReading(), TriggerLinking()],
        )
        ahead.join()
        for text in part:
            extract_entities(text)
    return time.process_time() - started


def main() -> None:
    """Print one JSON line per round."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--texts", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    texts = corpus(2000 + args.texts)[2000:]  # bench.scale --n 2000's REST sample
    language.parse_all(["Warm up with Bob next Friday."])  # models loaded outside the rounds
    dates.future_days("Warm up with Bob next Friday.", OCCURRED_AT)
    extract_entities("Hey Bob, warm up.")
    for n in range(args.rounds):
        seconds = one_round(texts)
        print(
            json.dumps(
                {
                    "metric": "text_work_cpu",
                    "round": n,
                    "texts": len(texts),
                    "ms_per_text": round(1000 * seconds / len(texts), 2),
                    "load": round(os.getloadavg()[0], 2),
                }
            ),
            flush=True,
        )


if __name__ == "__main__":
    main()
