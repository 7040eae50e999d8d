"""C1 reads whom a memory means by 'he' or 'she' from a memory of its scope that names them."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from graphmem.consolidate.referents import ReferentRule, genders, referred_entities


def _unit(*values: float) -> NDArray[np.float32]:
    v = np.asarray(values, dtype=np.float32)
    out: NDArray[np.float32] = v / np.linalg.norm(v)
    return out


def test_pronouns_are_read_with_their_gender() -> None:
    assert genders("He's called Mango, three years old.") == {"m"}
    assert genders("The vet found a grass seed in his paw.") == {"m"}
    assert genders("She stalled twice at the big roundabout.") == {"f"}
    assert genders("Added her to my insurance as a learner.") == {"f"}
    assert genders("Mrs Okafor will take him straight after me.") == {"m"}
    assert genders("Tiling finished today; the kitchen is done.") == frozenset()
    assert genders("They hate the new colours.") == frozenset()


TEXTS = {
    "dog": "We're adopting a rescue lurcher! He's called Mango.",
    "newfoundland": "Saw a huge Newfoundland at the park, very pleased with himself.",
    "maya": "Maya got her provisional licence for her 17th.",
    "kitchen": "Dave found rot under the floor by the back door.",
    "cried": "First night home he cried in the crate until 3am.",
    "stalled": "She stalled twice at the big roundabout.",
    "wine": "It's done! He left a bottle of wine on the new worktop.",
    "progress": "He can be left for forty minutes now. Progress.",
    "insured": "Mango's insured now: £32 a month.",
    "passed": "Maya passed her test!",
}
ENTITIES = {
    "dog": ("mango",),
    "newfoundland": ("newfoundland",),
    "maya": ("maya",),
    "kitchen": ("dave",),
    "progress": ("progress",),  # a sentence-opening word read as a name
    "insured": ("mango",),
    "passed": ("maya",),
}
MENTIONS = {"mango": 2, "maya": 2, "dave": 1, "newfoundland": 1, "progress": 1}
VECTORS = {
    "dog": _unit(1, 0.1, 0, 0),
    "newfoundland": _unit(1, 0.1, 0, 0.5),
    "maya": _unit(0, 1, 0.1, 0),
    "kitchen": _unit(0, 0, 1, 0),
    "cried": _unit(1, 0.3, 0, 0.6),
    "stalled": _unit(0.1, 1, 0.2, 0),
    "wine": _unit(0.2, 0, 1, 0),
    "progress": _unit(1, 0, 0, 0.2),
    "insured": _unit(1, 0, 0, 0),
    "passed": _unit(0, 1, 0, 0),
}
ORDER = list(TEXTS)
RULE = ReferentRule(window=10, min_cosine=0.3, min_mentions=2)


def _read(rule: ReferentRule = RULE, scopes: dict[str, str] | None = None) -> dict[str, tuple[str, ...]]:
    occurred = {m: float(k) for k, m in enumerate(ORDER)}
    where = scopes or dict.fromkeys(ORDER, "/u")
    return referred_entities(ORDER, TEXTS, ENTITIES, MENTIONS, occurred, where, VECTORS, rule)


def test_a_pronoun_takes_whom_the_most_similar_memory_names_beside_that_pronoun() -> None:
    found = _read()
    assert found["cried"] == ("mango",)  # 'he', as the memory naming Mango, not the one-off dog
    assert found["stalled"] == ("maya",)  # 'she': Maya, never Mango
    # 'he' in the kitchen: Dave is named once and beside no pronoun, and Mango's memory is unlike it
    assert found["wine"] == ()
    for memory in ("dog", "maya", "kitchen", "newfoundland", "progress", "insured", "passed"):
        assert found[memory] == ENTITIES[memory]  # a memory naming someone keeps its own


def test_only_memories_within_the_window_count() -> None:
    assert _read(ReferentRule(window=1, min_cosine=0.3, min_mentions=2))["cried"] == ()
    assert _read(ReferentRule(window=0, min_cosine=0.3, min_mentions=2)) == {
        m: ENTITIES.get(m, ()) for m in ORDER
    }


def test_scopes_are_read_apart() -> None:
    scopes = {m: ("/a" if m in {"dog", "maya", "insured", "passed"} else "/b") for m in ORDER}
    found = _read(scopes=scopes)
    assert found["cried"] == () and found["stalled"] == ()
