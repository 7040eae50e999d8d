"""W10 on the write path: how fast texts are read for future days (spaCy + dateparser), as JSON lines.

Run: ``python -m bench.future_days [--texts 2000] [--dated 0.1]``. The texts are the embedding
bench's memory-like mix; a share ``--dated`` of them gets a date phrase appended ("next Friday",
"on 15 March", "in two weeks", "20/03/2026"...), so both paths are timed: the entity-only pass
every text takes and the full parse plus dateparser that only texts with a date phrase take.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from datetime import UTC, datetime

from bench.embedding_speed import generate_texts
from graphmem.agenda.dates import future_days_batch

PHRASES = [
    "We meet again next Friday.",
    "The review is on 15 March.",
    "Ship it in two weeks.",
    "The visa expires on 20/03/2026.",
    "Call Bob tomorrow.",
    "The launch is planned for 2026-04-01.",
    "The meeting was on 2 March.",
]


def main() -> None:
    """Print one JSON line per batch size."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--texts", type=int, default=2000)
    parser.add_argument("--dated", type=float, default=0.1, help="share of texts with a date phrase")
    args = parser.parse_args()
    rng = random.Random(11)
    texts = [
        t + " " + rng.choice(PHRASES) if rng.random() < args.dated else t for t in generate_texts(args.texts)
    ]
    at = datetime(2026, 3, 4, 10, tzinfo=UTC)
    future_days_batch([("warm up next Friday", at)])
    for batch in (1, 100, 1000):
        started = time.perf_counter()
        found = 0
        for i in range(0, len(texts), batch):
            found += sum(1 for days in future_days_batch([(t, at) for t in texts[i : i + batch]]) if days)
        seconds = time.perf_counter() - started
        record = {
            "bench": "future_days",
            "batch": batch,
            "texts": len(texts),
            "dated_share": args.dated,
            "with_future_day": found,
            "texts_per_s": round(len(texts) / seconds, 1),
            "ms_per_text": round(1000 * seconds / len(texts), 2),
        }
        print(json.dumps(record), flush=True)


if __name__ == "__main__":
    main()
