"""The word gate before the belief judge turns away only pairs the judge finds no conflict in."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import numpy as np

from graphmem.beliefs.gate import JudgeGate, gate_of, may_conflict, may_conflict_pairs
from graphmem.beliefs.judge import judge
from graphmem.beliefs.restore import parse_docs
from graphmem.beliefs.statements import read_statement

EVAL = Path(__file__).parents[2] / "bench" / "eval"


def _pairs() -> list[tuple[str, str]]:
    """Every (earlier, later) pair of the belief sets: the regression pairs, and the steps of each
    scenario of the evaluation sets in the order written."""
    pairs = []
    for line in (EVAL / "belief_pairs.jsonl").read_text().splitlines():
        if line.strip():
            row = json.loads(line)
            pairs.append((row["old"], row["new"]))
    for name in ("beliefs.jsonl", "beliefs2.jsonl", "beliefs3.jsonl"):
        for line in (EVAL / name).read_text().splitlines():
            if line.strip():
                texts = [step["text"] for step in json.loads(line)["steps"]]
                pairs += list(itertools.combinations(texts, 2))
    return pairs


def test_no_pair_the_judge_finds_in_conflict_is_turned_away() -> None:
    pairs = _pairs()
    statements = {text: read_statement(text) for pair in pairs for text in pair}
    parse_docs(s.body for s in statements.values() if s.atomic)
    conflicts = 0
    for old, new in pairs:
        passes = may_conflict(gate_of(statements[old]), gate_of(statements[new]))
        for cosine in (0.4, 0.7, 0.9, 0.99):
            if judge(statements[old], statements[new], cosine).conflict:
                conflicts += 1
                assert passes, (old, new, cosine)
    assert conflicts > 500


def test_a_question_or_a_long_turn_of_chat_does_not_reach_the_judge() -> None:
    fact = gate_of(read_statement("I live in Paris."))
    assert may_conflict(fact, gate_of(read_statement("I moved to Berlin last month.")))
    assert not may_conflict(fact, gate_of(read_statement("Do you live in Berlin?")))
    chat = gate_of(
        read_statement(
            "Caroline: Thanks so much for asking! The support group was really helpful and I got to "
            "meet a lot of people who really get what I am talking about, it was amazing and so "
            "encouraging for me this week."
        )
    )
    assert not may_conflict(chat, fact)
    assert not may_conflict(fact, chat)


def test_the_array_gate_answers_as_the_gate_in_either_order() -> None:
    gates = [JudgeGate(*flags) for flags in itertools.product((False, True), repeat=4)]
    every = list(itertools.product(range(16), repeat=2))
    first = np.array([i for i, _ in every], dtype=np.intp)
    second = np.array([j for _, j in every], dtype=np.intp)
    together = may_conflict_pairs(gates, first, second)
    for i, j, answer in zip(first, second, together, strict=True):
        assert answer == (may_conflict(gates[i], gates[j]) or may_conflict(gates[j], gates[i]))
