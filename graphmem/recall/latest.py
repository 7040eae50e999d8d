"""Asked how things stand (now, or at an ``as_of`` date), the later of two statements of one person
on one thing comes first, even when the belief check did not see that it replaces the earlier one.

"Who is Sophie's biggest client at the moment?" matches "Sophie's biggest client is the wine shop
chain Cave Brun" word for word; "Cave Brun ended their contract; Sophie's main client is now the
Musée des Confluences", said months later, answers it. A later memory **follows** an earlier one
when it states the same thing of the same person: it matches at least ``min_share`` of the
earlier memory's telling words that are not names (weighed among the recall's candidates,
recall/keywords.py: "client" here). Names are left out because a later memory naming the same
place or employer mostly says more of it ("Siobhán lives in Galway", then "Siobhán works as a
teacher in Galway"). A follower is not about someone else (recall/whose.py: "Sophie's sister's
client" does not follow "Sophie's client"), and a relative's statement is followed only by one
stated of that relative. Among the earlier memory's followers, the one matching most of its words
(then the latest) takes the earlier memory's score and a hair more; chains settle in turn.

Whether a question asks how things stand is read from the words that place it at the time of
asking ("now", "currently", "these days", "at the moment"...): a plain question ("What is the
name of Amara's cat?") is not reordered, since a later memory on the same thing ("Amara's cat
Jollof had three kittens") is then no better an answer. A question with an ``as_of`` date asks
how things stood then (the memories after it are not candidates).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from graphmem.recall.keywords import keyword_shares
from graphmem.recall.whose import Whose, other_subject, stated_of

# The words that place a question at the time of asking (a fallback word list: spaCy's entity
# recogniser tags "these days" as a date but not "now" or "at the moment").
_NOW = re.compile(
    r"\b(?:now|nowadays|currently|these days|at the moment|at present|presently|right now|today|"
    r"any ?more|still)\b",
    re.IGNORECASE,
)
_WORD = re.compile(r"[\w'-]+")
# How much above the earlier memory's score a follower is put: enough to order them, too little
# to pass anything else.
_HAIR = 1e-4


def asks_how_things_stand(question: str) -> bool:
    """Whether ``question`` asks how things stand at the time of asking."""
    return _NOW.search(question) is not None


def _common_words(text: str) -> str:
    """The words of ``text`` that are not names: what it says of someone, not who or where."""
    return " ".join(w for w in _WORD.findall(text) if not w[:1].isupper())


def _follower(
    earlier: str,
    later: list[str],
    texts: Mapping[str, str],
    pool: Mapping[str, str],
    min_share: float,
) -> str | None:
    """The later memory that states most of what ``earlier`` states (then the latest: ``later``
    comes oldest first), or None when none reaches ``min_share``."""
    shares = keyword_shares(_common_words(texts[earlier]), {m: texts[m] for m in later}, pool)
    best: tuple[float, int] | None = None
    chosen = None
    earlier_whose = stated_of(texts[earlier])
    for rank, memory_id in enumerate(later):
        share = shares.get(memory_id, 0.0)
        whose = stated_of(texts[memory_id])
        if share < min_share or other_subject(earlier_whose, whose):
            continue
        if earlier_whose is not None and earlier_whose.relation and whose != earlier_whose:
            continue  # a relative's statement is followed by one stated of them
        if best is None or (share, rank) > best:
            best, chosen = (share, rank), memory_id
    return chosen


def later_first(
    scores: Mapping[str, float],
    texts: Mapping[str, str],
    occurred: Mapping[str, float],
    asked: Whose | None,
    min_share: float,
    top: int = 10,
) -> tuple[dict[str, float], set[str]]:
    """Scores where each of the ``top`` memories' follower ranks just above it, and the ids that
    moved. ``asked`` is whose fact the question asks for: a memory about someone else never
    follows. Only memories with a text and a time take part."""
    adjusted = dict(scores)
    known = [m for m in scores if m in texts and m in occurred]
    by_time = sorted(known, key=lambda m: (occurred[m], m))
    pool = {m: texts[m] for m in known}
    eligible = {m for m in known if not other_subject(asked, stated_of(texts[m]))}
    moved: set[str] = set()
    for _ in range(top):  # a chain of followers settles in at most one pass per link
        changed = False
        leaders = sorted(known, key=lambda m: (-adjusted[m], m))[:top]
        for earlier in leaders:
            later = [m for m in by_time if occurred[m] > occurred[earlier] and m in eligible]
            follower = _follower(earlier, later, texts, pool, min_share) if later else None
            if follower is not None and adjusted[follower] <= adjusted[earlier]:
                adjusted[follower] = adjusted[earlier] + _HAIR
                moved.add(follower)
                changed = True
        if not changed:
            break
    return adjusted, moved
