"""Reading LoCoMo from ../shared/data (research-only data: read in place, never copied)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

# ../shared/data next to the checkout (a worktree sits one level deeper, so the nearest ancestor that has it).
DATA = next(
    (
        p / "shared" / "data" / "locomo10.json"
        for p in Path(__file__).resolve().parents
        if (p / "shared" / "data" / "locomo10.json").is_file()
    ),
    Path(__file__).resolve().parents[2] / "shared" / "data" / "locomo10.json",
)
_SENTENCE = re.compile(r"(?<=[.!?])\s+")


@dataclass(frozen=True)
class Turn:
    """One dialog turn of a LoCoMo conversation."""

    conversation: str
    dia_id: str
    speaker: str
    text: str
    occurred_at: datetime


def load(path: Path = DATA) -> list[dict[str, object]]:
    """The raw conversations; raises FileNotFoundError with the expected location."""
    if not path.is_file():
        raise FileNotFoundError(f"LoCoMo not found at {path}: benchmarks read it from ../shared/data/.")
    data: list[dict[str, object]] = json.loads(path.read_text(encoding="utf-8"))
    return data


def session_time(raw: str) -> datetime:
    """A LoCoMo session date such as '1:56 pm on 8 May, 2023', as UTC."""
    return datetime.strptime(raw.strip(), "%I:%M %p on %d %B, %Y").replace(tzinfo=UTC)


def turns(data: list[dict[str, object]]) -> Iterator[Turn]:
    """Every dialog turn, with its session's date, in conversation order."""
    for sample in data:
        conv = sample["conversation"]
        assert isinstance(conv, dict)
        sessions = sorted(
            (int(k.split("_")[1]), v) for k, v in conv.items() if re.fullmatch(r"session_\d+", k) and v
        )
        for number, session in sessions:
            when = session_time(conv[f"session_{number}_date_time"])
            for turn in session:
                text = turn["text"]
                if turn.get("blip_caption"):
                    text = f"{text} [shared a photo: {turn['blip_caption']}]"
                yield Turn(str(sample["sample_id"]), turn["dia_id"], turn["speaker"], text, when)


def corpus_texts(data: list[dict[str, object]], limit: int) -> list[str]:
    """Up to ``limit`` distinct memory-like texts: turns, observations, summary sentences."""
    seen: dict[str, None] = {}
    for turn in turns(data):
        seen.setdefault(f"{turn.speaker}: {turn.text}", None)
    for sample in data:
        observations = sample["observation"]
        assert isinstance(observations, dict)
        for per_speaker in observations.values():
            for facts in per_speaker.values():
                for fact in facts:
                    seen.setdefault(str(fact[0]), None)
        summaries = sample["session_summary"]
        assert isinstance(summaries, dict)
        for summary in summaries.values():
            for sentence in _SENTENCE.split(str(summary)):
                if len(sentence) > 20:
                    seen.setdefault(sentence, None)
    return list(seen)[:limit]


def questions(data: list[dict[str, object]]) -> Iterator[tuple[str, dict[str, object]]]:
    """(conversation id, qa item) for every question."""
    for sample in data:
        qa = sample["qa"]
        assert isinstance(qa, list)
        for item in qa:
            yield str(sample["sample_id"]), item
