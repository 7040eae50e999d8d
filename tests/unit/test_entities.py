"""W6: entity extraction (offline and through a scripted LLM), names, and resolution. No database."""

from __future__ import annotations

import numpy as np
import pytest

from graphmem.entities.extract import EntityExtractor, EntityMention, extract_entities
from graphmem.entities.names import entity_key, group_id_for_scope
from graphmem.entities.resolve import KnownEntity, resolve_mentions
from graphmem.errors import LLMError
from graphmem.llm.none import NoLLM
from graphmem.llm.scripted import ScriptedLLM


def names(text: str, speaker: str | None = None) -> list[str]:
    return [m.name for m in extract_entities(text, speaker)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Melanie: I painted a sunrise with Caroline last Friday.", ["Melanie", "Caroline"]),
        ("Yesterday Alice's sister moved to New York City.", ["Alice", "New York City"]),
        ("We migrated from MySQL to PostgreSQL in March.", ["MySQL", "PostgreSQL"]),
        ("let's go with postgres and redis for now.", ["PostgreSQL", "Redis"]),
        (
            "Dr. Smith works at the Bank of America in St. Louis.",
            ["Dr. Smith", "Bank of America", "St. Louis"],
        ),
        ("I met Will at Google on Monday. He starts in June.", ["Will", "Google"]),
        ("Call Jane about the API and the CEO sync. FYI the UI is broken.", ["Jane"]),
        ("Painted a picture today. Melanie loved it.", ["Melanie"]),
        ("The iPhone app uses Swift and Node.js.", ["iPhone", "Swift", "Node.js"]),
        ("I like rust and spring rolls.", []),
        ("The Beatles played in Hamburg. The band was great.", ["Beatles", "Hamburg"]),
        ("Alice met Alice's friend. Then ALICE laughed.", ["Alice"]),
    ],
)
def test_offline_extractor_finds_proper_nouns(text: str, expected: list[str]) -> None:
    assert names(text) == expected


def test_speaker_is_an_entity_and_pronouns_days_months_are_not() -> None:
    found = extract_entities("On Tuesday in May I told her we'd visit Oslo.", speaker="Bob")
    assert [(m.name, m.kind) for m in found] == [("Bob", "person"), ("Oslo", None)]


def test_product_names_get_their_canonical_spelling_and_kind() -> None:
    found = extract_entities("we run k8s and mongo; MYSQL is legacy")
    assert [(m.name, m.kind) for m in found] == [
        ("MySQL", "technology"),
        ("Kubernetes", "technology"),
        ("MongoDB", "technology"),
    ]


@pytest.mark.parametrize(
    ("name", "key"),
    [
        ("Alice's", "alice"),
        ("  ALICE ", "alice"),
        ("James'", "james"),
        ("The Beatles", "beatles"),
        ("Node.js", "node js"),
        ("C++", "c++"),
        ("Dr.  Smith", "dr smith"),
        ("...", ""),
    ],
)
def test_entity_key_normalises(name: str, key: str) -> None:
    assert entity_key(name) == key


@pytest.mark.parametrize(
    ("scope", "group_id"),
    [("/", "root"), ("/user/alice", "user_alice"), ("/team-a/x1", "team-a_x1")],
)
def test_group_id_is_readable_when_the_scope_allows(scope: str, group_id: str) -> None:
    assert group_id_for_scope(scope) == group_id


def test_group_ids_of_different_scopes_never_collide_and_use_graphiti_characters() -> None:
    scopes = ["/user/alice", "/user_alice", "/root", "/", "/a.b", "/a_b", "/user/élodie", "/x@y:z+w"]
    ids = [group_id_for_scope(s) for s in scopes]
    assert len(set(ids)) == len(ids)
    assert all(gid.replace("_", "").replace("-", "").isalnum() and gid.isascii() for gid in ids)


def unit(*values: float) -> np.ndarray:
    v = np.asarray(values, dtype=np.float32)
    return v / np.linalg.norm(v)


def test_resolution_merges_spellings_short_forms_and_close_embeddings() -> None:
    known = [
        KnownEntity("melanie", "Melanie", "person", unit(1, 0, 0), id="e1"),
        KnownEntity("new york city", "New York City", None, unit(0, 1, 0), id="e2"),
        KnownEntity("postgresql", "PostgreSQL", "technology", unit(0, 0, 1), id="e3"),
        KnownEntity("caroline", "Caroline", None, None, id="e4"),
    ]
    mentions = [
        EntityMention(name="melanie's"),
        EntityMention(name="Mel"),
        EntityMention(name="Carolline"),
        EntityMention(name="NYC"),
        EntityMention(name="Postgres", kind="technology"),
        EntityMention(name="Oslo"),
    ]
    vectors = [None, None, None, unit(0.05, 1, 0), unit(0.3, 0, 1), unit(1, 1, 1)]
    got = resolve_mentions(mentions, vectors, known)
    assert [(r.name, r.reason) for r in got] == [
        ("Melanie", "exact"),
        ("Melanie", "alias"),
        ("Caroline", "fuzzy"),
        ("New York City", "embedding"),
        ("PostgreSQL", "embedding"),
        ("Oslo", "new"),
    ]
    assert got[0].entity is not None and got[0].entity.id == "e1"
    assert got[5].new and got[5].entity is None


def test_technology_names_are_never_short_forms_of_each_other() -> None:
    known = [KnownEntity("javascript", "JavaScript", "technology", None, id="e1")]
    got = resolve_mentions([EntityMention(name="Java", kind="technology")], [None], known)
    assert got[0].new


def test_an_ambiguous_short_form_starts_its_own_entity() -> None:
    known = [
        KnownEntity("melanie", "Melanie", "person", None, id="e1"),
        KnownEntity("melvin", "Melvin", "person", None, id="e2"),
    ]
    got = resolve_mentions([EntityMention(name="Mel")], [None], known)
    assert got[0].new and got[0].key == "mel"


def test_within_a_batch_the_full_name_becomes_canonical() -> None:
    mentions = [EntityMention(name="Mel"), EntityMention(name="Melanie", kind="person")]
    got = resolve_mentions(mentions, [None, None], [])
    assert [(r.name, r.reason) for r in got] == [("Melanie", "alias"), ("Melanie", "new")]


def test_one_structured_call_per_batch_and_the_speaker_is_kept() -> None:
    llm = ScriptedLLM(
        {
            "entities": [
                {
                    "texts": [
                        {"index": 0, "entities": [{"name": "Caroline", "kind": "Person"}, {"name": "she"}]},
                        {"index": 1, "entities": [{"name": "Acme Corp", "kind": "organization"}]},
                    ]
                }
            ]
        }
    )
    found, usage = EntityExtractor(llm).extract_batch(
        ["I called caroline.", "acme corp hired me."], ["Melanie", None]
    )
    assert usage.calls == 1 and len(llm.calls) == 1
    assert [(m.name, m.kind) for m in found[0]] == [("Melanie", "person"), ("Caroline", "person")]
    assert [(m.name, m.kind) for m in found[1]] == [("Acme Corp", "organization")]
    assert "[0] (speaker: Melanie) I called caroline." in llm.calls[0].prompt


def test_a_failed_call_and_a_left_out_text_fall_back_to_the_offline_extractor() -> None:
    failing = ScriptedLLM({"entities": [LLMError("overloaded")]})
    found, usage = EntityExtractor(failing).extract_batch(["Bob moved to Lisbon."])
    assert [m.name for m in found[0]] == ["Bob", "Lisbon"] and usage.calls == 1
    partial = ScriptedLLM({"entities": [{"texts": [{"index": 1, "entities": []}]}]})
    found, _ = EntityExtractor(partial).extract_batch(["Bob moved to Lisbon.", "nothing here"])
    assert [m.name for m in found[0]] == ["Bob", "Lisbon"] and found[1] == []


def test_without_a_model_no_call_is_made_and_big_batches_are_split() -> None:
    found, usage = EntityExtractor(NoLLM()).extract_batch(["Bob moved to Lisbon."])
    assert usage.calls == 0 and [m.name for m in found[0]] == ["Bob", "Lisbon"]
    llm = ScriptedLLM({"entities": [{"texts": []}, {"texts": []}]})
    EntityExtractor(llm, texts_per_call=2).extract_batch(["a", "b", "c"])
    assert len(llm.calls) == 2 and llm.remaining() == {"entities": 0}


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Ingrid moved to Tromsø last spring.", "Tromsø"),
        ("Had lunch with Amélie from the Lyon office.", "Amélie"),
        ("Siobhán teaches in Ranelagh.", "Siobhán"),
        ("Agnieszka drives a Škoda Octavia.", "Škoda Octavia"),
    ],
)
def test_names_written_with_letters_beyond_ascii_are_whole(text: str, name: str) -> None:
    assert name in [m.name for m in extract_entities(text)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Tiles finally arrived and went up.", []),
        ("Black mould has appeared on the ceiling.", []),
        ("Transfers of the other two completed; total in the SIPP is 41,000 pounds.", ["SIPP"]),
        ("Bought tickets for the Natural History Museum for Sam.", ["Natural History Museum", "Sam"]),
        ("Priya picked sage green cabinet fronts.", ["Priya"]),
        ("Luna keeps scratching the new sofa.", ["Luna"]),
    ],
)
def test_a_common_word_opening_a_sentence_is_no_entity_and_a_name_there_is(
    text: str, expected: list[str]
) -> None:
    assert names(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("They want to reach B1 French within a year.", ["French"]),
        ("Passed a mock DELF B1 listening paper.", ["DELF B1"]),
        ("User asked for answers in British English spelling.", ["User", "British English"]),
        ("Dr. Smith works at the Bank of America.", ["Dr. Smith", "Bank of America"]),
    ],
)
def test_a_level_or_number_written_before_a_name_is_not_part_of_it(text: str, expected: list[str]) -> None:
    assert names(text) == expected


def test_a_person_presented_by_a_role_is_not_the_short_form_of_a_known_longer_name() -> None:
    texts = [
        "Sam Whitfield, the user's teammate, applied for the manager role.",
        "User wrote a peer review for Sam.",
        "User's nephew Sam turns seven on 14 June.",
        "Sam's party is at a soft play in Didsbury.",
    ]
    known: list[KnownEntity] = []
    keys = []
    for text in texts:  # one memory at a time, as the write path links them
        people = [m for m in extract_entities(text) if m.name != "User"]
        resolved = resolve_mentions(people, [None] * len(people), known)
        known += [KnownEntity(r.key, r.name, r.kind, None, id=r.key) for r in resolved if r.new]
        keys.append([r.key for r in resolved if r.name != "Didsbury"])
    assert keys == [["sam whitfield"], ["sam whitfield"], ["sam"], ["sam"]]


def test_a_role_is_read_from_apposition_compounds_and_naming() -> None:
    found = [
        [(m.name, m.introduced) for m in extract_entities(text)]
        for text in [
            "Booked weekly sessions with a tutor named Amélie.",
            "The teacher, Marguerite, said the walls were even.",
            "Marguerite said the walls were even; Jo agreed.",
        ]
    ]
    assert found == [[("Amélie", True)], [("Marguerite", True)], [("Marguerite", False), ("Jo", False)]]
