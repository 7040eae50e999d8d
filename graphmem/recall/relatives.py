"""People the memories introduce as someone's relative, read as that relative where a memory
names them alone.

"Kenji's younger brother Takeshi is a baseball coach" introduces Takeshi as Kenji's brother, and
"Lucía lives in Palermo with her roommate Camila" Camila as Lucía's roommate. A later memory often
names them alone ("Takeshi is a scout for the Hanshin Tigers", "Camila opened her own tattoo
studio"): it states the brother's or the roommate's fact, and whose-fact readings
(recall/whose.py) see in it only a name. Recall reads such a memory as if it said whose relative
it names ("Kenji's brother Takeshi is a scout for the Hanshin Tigers"): a question about Kenji's
brother finds the brother's later fact, and one about Lucía's own home does not take her
roommate's move for hers. A question naming the relative ("What does Takeshi do?") reads the
memory as it is.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping

from graphmem.recall.whose import NO_NAMES, RELATIVE_ADJECTIVE, Whose, relative_of, stated_of

_NAME = r"[A-Z][\w\u00C0-\u024F-]+"
# "Kenji's younger brother Takeshi", "Aisha's mother, Fatima,"
_BY_NAME = re.compile(rf"\b({_NAME})(?:'s|\u2019s)\s+{RELATIVE_ADJECTIVE}([a-z]+),?\s+({_NAME})")
# "with her roommate Camila", "his wife Adaeze": the owner is the memory's subject
_BY_PRONOUN = re.compile(rf"\b(?:his|her|their)\s+{RELATIVE_ADJECTIVE}([a-z]+),?\s+({_NAME})")


def introduced(texts: Collection[str]) -> dict[str, tuple[Whose, str]]:
    """Each name (lower-cased) that ``texts`` introduce as one person's relative, with whose
    relative it is and the noun that says so; a name introduced as two people's is left out."""
    found: dict[str, tuple[Whose, str]] = {}
    clashing: set[str] = set()
    for text in texts:
        subject = stated_of(text)
        owner_of_pronoun = subject.owner if subject and not subject.relation else None
        pairs = [(m.group(1), m.group(2), m.group(3)) for m in _BY_NAME.finditer(text)]
        if owner_of_pronoun is not None and owner_of_pronoun not in NO_NAMES:
            pairs += [(owner_of_pronoun, m.group(1), m.group(2)) for m in _BY_PRONOUN.finditer(text)]
        for owner, noun, name in pairs:
            whose = relative_of(owner, noun)
            if whose is None or name.lower() == whose.owner:
                continue
            key = name.lower()
            if key in found and found[key][0] != whose:
                clashing.add(key)
            found.setdefault(key, (whose, noun))
    return {name: known for name, known in found.items() if name not in clashing}


def as_relatives(
    texts: Mapping[str, str],
    names_asked: Collection[str],
    known: Mapping[str, tuple[Whose, str]] | None = None,
) -> dict[str, str]:
    """The memories of ``texts`` whose subject is a name introduced as someone's relative
    (``known``, by default those ``texts`` introduce: :func:`introduced`), rewritten to say whose
    ("Takeshi is a scout..." -> "Kenji's brother Takeshi is a scout..."); none about a name the
    question names (``names_asked``, lower-cased)."""
    known = introduced(list(texts.values())) if known is None else known
    if not known:
        return {}
    rewritten = {}
    for memory_id, text in texts.items():
        subject = stated_of(text)
        if subject is None or subject.relation or subject.owner in names_asked or subject.owner not in known:
            continue
        if not text.lstrip()[:1].isupper() or not text.lstrip().lower().startswith(subject.owner):
            continue  # a note ("User: ...") or a subject further in
        whose, noun = known[subject.owner]
        rewritten[memory_id] = f"{whose.owner[:1].upper()}{whose.owner[1:]}'s {noun} {text.lstrip()}"
    return rewritten
