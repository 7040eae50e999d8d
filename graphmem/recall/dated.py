"""A question asked as of a date, read without the words that name the date.

"Which company did Priya work for at the end of 2023?", asked with ``as_of`` 2023-12-31, is
answered by the memories that held then; the filter already says when. Left in the question, the
date's words only blur what is asked: "2024" matches "Yu-ting's thesis defence is scheduled for 20
June 2024" for "What was Yu-ting's income in early 2024?", and the date pulls the question's vector
away from "Yu-ting's stipend is 30,000 NT dollars a month". The dates are spaCy's DATE entities
that hold a number, with the preposition that introduces them ("at the end of 2023", "in early
2024").
"""

from __future__ import annotations

from graphmem.language import parse


def without_dates(question: str) -> str:
    """``question`` without its dates and their prepositions; the question itself when nothing
    but a date would be left."""
    doc = parse(question)
    cut: set[int] = set()
    for entity in doc.ents:
        if entity.label_ != "DATE" or not any(c.isdigit() for c in entity.text):
            continue  # a date names a year or a day; "school year" (also a DATE to spaCy) does not
        start = entity.start
        if start > 0 and doc[start - 1].pos_ == "ADP":
            start -= 1
        cut.update(range(start, entity.end))
    if not cut:
        return question
    kept = "".join(token.text_with_ws for token in doc if token.i not in cut).strip()
    if doc[-1].i in cut and doc[-1].text in {"?", "."}:
        kept += doc[-1].text
    kept = kept.replace(" ?", "?").replace(" .", ".").lstrip(" ,;:")
    return kept if any(c.isalpha() for c in kept) else question
