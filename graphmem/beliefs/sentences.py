"""The sentences of a statement that says several things, each read as a statement of its own.

A chat message often gives its news in one sentence and talks around it in the others ("Big news,
I started at Klarna on Monday! The office is gorgeous ..."; "Actually, the venue only holds 250
people. I misread the brochure."). The judge reads one sentence at a time, so a message of several
is judged sentence by sentence: what one of its sentences replaces, the message replaces.
"""

from __future__ import annotations

from graphmem.beliefs.parse import CORRECTION
from graphmem.beliefs.restore import parse_doc
from graphmem.beliefs.statements import Statement, read_statement

# A message of more sentences than this is a story, not news of one change: it is not split.
MAX_SENTENCES = 4


def sentences_of(statement: Statement) -> list[Statement]:
    """The sentences of ``statement`` as statements of the same speaker, when it has two to
    ``MAX_SENTENCES`` of them; else an empty list."""
    found = [s.text.strip() for s in parse_doc(statement.body).sents if s.text.strip()]
    if not 1 < len(found) <= MAX_SENTENCES:
        return []
    return [read_statement(text, statement.speaker) for text in found]


def announces_change(sentence: Statement) -> bool:
    """Whether a sentence says that something changed: a word of change ("now", "moved",
    "anymore") or a correction ("Actually, ..."). Only such a sentence of a longer message is
    judged on its own; the others are talk around the news."""
    return sentence.change or CORRECTION.match(sentence.body) is not None
