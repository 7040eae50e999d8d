"""The failure modes found on data written apart from the code, pinned on the real stack (real
Neo4j, real MiniLM): score order, conflict tags, 'used to', as_of order, a small user memory where
the literal match comes first, and episodes without a named source."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from graphmem.memory import Memory
from graphmem.models import RecallQuery
from graphmem.store import similar

pytestmark = pytest.mark.integration

FACTS = [
    "Teodora is allergic to penicillin.",
    "Teodora's brother Marko lives in Zagreb.",
    "Teodora works as a radiographer at the city hospital.",
    "Teodora has a grey cat called Mrvica.",
    "Teodora is vegetarian.",
    "Teodora swims every Thursday evening.",
    "Teodora's sister Ana is a nurse in Split.",
    "Teodora drives a red Fiat Panda.",
    "Teodora speaks Croatian, German and English.",
    "Teodora's favourite band is Radiohead.",
    "Teodora studied physics at the University of Zagreb.",
    "Teodora's birthday is on 9 October.",
    "Teodora lives in Rijeka.",
    "Teodora prefers tea over coffee.",
    "Teodora's manager is Dr. Horvat.",
    "Teodora runs half marathons in about two hours.",
    "Teodora's rent is 650 euros a month.",
    "Teodora plays the piano badly but happily.",
    "Teodora's partner Ivan is a ferry captain.",
    "Teodora volunteers at an animal shelter on Saturdays.",
    "Teodora moved to Pula.",
]


def _day(n: int) -> datetime:
    return datetime(2024, 1, 1, 12, tzinfo=UTC) + timedelta(days=7 * n)


@pytest.fixture
def teodora(memory: Memory, scope: str) -> dict[str, str]:
    """A 21-fact user memory written one fact at a time, a week apart; text -> memory id."""
    return {
        text: memory.remember(text, scope=scope, occurred_at=_day(i)).memory.id
        for i, text in enumerate(FACTS)
    }


def test_the_literal_match_comes_first_in_a_small_user_memory(
    memory: Memory, scope: str, teodora: dict[str, str]
) -> None:
    for question, fact in [
        ("What is Teodora allergic to?", "Teodora is allergic to penicillin."),
        ("Where does Teodora's brother Marko live?", "Teodora's brother Marko lives in Zagreb."),
        ("What car does Teodora drive?", "Teodora drives a red Fiat Panda."),
        ("which languages does teodora speak", "Teodora speaks Croatian, German and English."),
        ("Who is Teodora's manager?", "Teodora's manager is Dr. Horvat."),
    ]:
        found = memory.recall_query(RecallQuery(query=question, scope=scope, limit=5, reinforce=False))
        assert found.results[0].id == teodora[fact], question


def test_only_the_moved_home_is_replaced_among_twenty_facts_about_one_person(
    memory: Memory, teodora: dict[str, str]
) -> None:
    replaced = {text for text, memory_id in teodora.items() if memory.get(memory_id).status != "active"}
    assert replaced == {"Teodora lives in Rijeka."}


def test_the_belief_that_replaced_a_match_answers_the_question_now(
    memory: Memory, scope: str, teodora: dict[str, str]
) -> None:
    found = memory.recall_query(RecallQuery(query="Where does Teodora live?", scope=scope, reinforce=False))
    assert found.results[0].id == teodora["Teodora moved to Pula."]
    assert "replaced a belief that matches" in found.results[0].match_reasons


def test_results_are_in_score_order_and_unrelated_facts_are_no_conflict(
    memory: Memory, scope: str, teodora: dict[str, str]
) -> None:
    found = memory.recall_query(RecallQuery(query="Tell me about Teodora", scope=scope, limit=10))
    scores = [r.score for r in found.results]
    assert scores == sorted(scores, reverse=True)
    assert not any("conflict" in r.tags for r in found.results)


def test_a_move_replaces_the_old_home_and_as_of_puts_the_old_home_first(
    memory: Memory, scope: str, teodora: dict[str, str]
) -> None:
    rijeka, pula = teodora["Teodora lives in Rijeka."], teodora["Teodora moved to Pula."]
    assert memory.get(rijeka).status == "superseded"
    now = memory.recall_query(RecallQuery(query="Which city is Teodora based in these days?", scope=scope))
    assert now.results[0].id == pula
    assert rijeka not in {r.id for r in now.results}
    then = memory.recall_query(
        RecallQuery(
            query="Where does Teodora live?", scope=scope, as_of=_day(len(FACTS) - 2), reinforce=False
        )
    )
    assert then.results[0].id == rijeka


def test_a_statement_about_the_past_does_not_retire_the_current_fact(memory: Memory, scope: str) -> None:
    madrid = memory.remember("Bob lives in Madrid.", scope=scope, occurred_at=_day(0)).memory
    memory.remember("Bob used to live in Paris.", scope=scope, occurred_at=_day(1))
    memory.remember("Back in 2015 Bob worked in Lyon.", scope=scope, occurred_at=_day(2))
    assert memory.get(madrid.id).status == "active"


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (
            "Our user database runs on PostgreSQL.",
            "We moved the user database from PostgreSQL to CockroachDB.",
        ),
        ("Lena's manager is Jonas Berg.", "Lena now reports to Miriam Okafor."),
        ("The team's CI runs on Jenkins.", "The team's CI runs on Buildkite."),
        ("The public API allows 100 requests per minute.", "The public API allows 250 requests per minute."),
    ],
)
def test_plain_updates_replace_the_old_value(memory: Memory, scope: str, old: str, new: str) -> None:
    first = memory.remember(old, scope=scope, occurred_at=_day(0)).memory
    memory.remember(new, scope=scope, occurred_at=_day(3))
    assert memory.get(first.id).status == "superseded"


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Bob lives in Madrid.", "Bob's sister lives in Rome."),
        ("Nadia likes hiking.", "Nadia also enjoys kayaking."),
        ("Ravi works at Siemens.", "Ravi might move to Bosch next year."),
    ],
)
def test_decoys_additions_and_plans_keep_the_old_fact(memory: Memory, scope: str, old: str, new: str) -> None:
    first = memory.remember(old, scope=scope, occurred_at=_day(0)).memory
    memory.remember(new, scope=scope, occurred_at=_day(3))
    assert memory.get(first.id).status == "active"


def test_writes_minutes_apart_without_a_source_form_an_episode(memory: Memory, scope: str) -> None:
    start = datetime(2024, 6, 1, 18, tzinfo=UTC)
    turns = [
        "Mia: I finally adopted a dog from the shelter!",
        "Leo: That's great, what did you call her?",
        "Mia: Biscuit. She's a two-year-old beagle.",
    ]
    for i, text in enumerate(turns):
        memory.remember(text, scope=scope, occurred_at=start + timedelta(minutes=2 * i))
    memory.remember("Leo: Unrelated, the boiler broke.", scope=scope, occurred_at=start + timedelta(days=3))
    found = memory.recall_query(RecallQuery(query="What did Mia call her dog?", scope=scope, limit=3))
    reasons = {r.text: r.match_reasons for r in found.results}
    assert "Mia: Biscuit. She's a two-year-old beagle." in reasons
    assert any("next to a match in its episode" in why for why in reasons.values())
    assert "Leo: Unrelated, the boiler broke." not in reasons


def test_a_turn_that_answers_only_in_its_context_is_found(memory: Memory, scope: str) -> None:
    """A chat answer often names nothing of the question ("Every Sunday morning, rain or shine.");
    recall reads each turn with the turns around it, so the answer is found for a question that
    matches the turn before it, and says why."""
    start = datetime(2024, 6, 1, 18, tzinfo=UTC)
    chats = [
        [
            "Mia: Work has been hectic, the quarterly report is due on Friday.",
            "Leo: Do you still go bouldering at that gym by the river?",
            "Mia: Every Sunday morning, rain or shine.",
            "Leo: Nice. I should come along some time.",
        ],
        [
            "Leo: How was the concert last night?",
            "Mia: Loud! The band played for almost three hours.",
            "Leo: Did you take the train home?",
            "Mia: No, a friend gave me a lift.",
        ],
        [
            "Mia: My sister visits next week, she wants to see the old town.",
            "Leo: The cathedral is worth it, and the market on Saturdays.",
            "Mia: I'll take her there on Saturday then.",
        ],
    ]
    for day, turns in enumerate(chats):
        for i, text in enumerate(turns):
            memory.remember(text, scope=scope, occurred_at=start + timedelta(days=day, minutes=2 * i))
    found = memory.recall_query(
        RecallQuery(query="How often does Mia go bouldering?", scope=scope, limit=3, reinforce=False)
    )
    reasons = {r.text: r.match_reasons for r in found.results}
    assert "Mia: Every Sunday morning, rain or shine." in reasons
    why = reasons["Mia: Every Sunday morning, rain or shine."]
    assert any(w.startswith("episode context similarity") for w in why)


@pytest.mark.parametrize("exact_below", [5000, 0], ids=["scope scanned in process", "vector index"])
def test_a_write_finds_the_memory_it_updates_in_a_small_scope_and_a_large_one(
    memory: Memory, scope: str, exact_below: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The similar-memory lookup of a write reads a small scope once and ranks it in process; a
    scope above the bound asks the vector index. Either way the old value is found and replaced."""
    monkeypatch.setattr(similar, "EXACT_SCOPE_BELOW", exact_below)
    first = memory.remember("The team's CI runs on Jenkins.", scope=scope, occurred_at=_day(0)).memory
    memory.remember("Rosa knits scarves in winter.", scope=scope, occurred_at=_day(1))
    memory.remember("The team's CI runs on Buildkite.", scope=scope, occurred_at=_day(3))
    assert memory.get(first.id).status == "superseded"


@pytest.mark.parametrize("exact_below", [5000, 0], ids=["scope scanned in process", "vector index"])
def test_a_named_change_replaces_the_statement_of_the_same_relation_however_unlike_it_reads(
    memory: Memory, scope: str, exact_below: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ "I work for Deloitte" and "Started at PwC today!" share no word (MiniLM 0.17): the change is
    found by the relation the two state, among the speaker's other statements with a name."""
    monkeypatch.setattr(similar, "EXACT_SCOPE_BELOW", exact_below)
    said = {"speaker": "Ana"}
    employer = memory.remember("I work for Deloitte.", scope=scope, occurred_at=_day(0), metadata=said).memory
    home = memory.remember("I live in Leeds.", scope=scope, occurred_at=_day(1), metadata=said).memory
    car = memory.remember("I drive a Toyota Yaris.", scope=scope, occurred_at=_day(2), metadata=said).memory
    written = memory.remember(
        "Just started a new job at KPMG.", scope=scope, occurred_at=_day(3), metadata=said
    )
    assert memory.get(employer.id).status == "superseded"
    assert f"superseded:{employer.id}" in written.actions
    assert memory.get(home.id).status == "active"
    assert memory.get(car.id).status == "active"


def test_a_named_change_leaves_what_another_relation_says(memory: Memory, scope: str) -> None:
    kept = [
        memory.remember(text, scope=scope, occurred_at=_day(i)).memory
        for i, text in enumerate(
            ["Chiamaka drives a Toyota Corolla.", "Chiamaka's sister Ngozi is a lawyer."]
        )
    ]
    lagos = memory.remember("Chiamaka lives in Lagos.", scope=scope, occurred_at=_day(2)).memory
    memory.remember("Chiamaka moved to Abuja.", scope=scope, occurred_at=_day(3))
    assert memory.get(lagos.id).status == "superseded"
    assert [memory.get(m.id).status for m in kept] == ["active", "active"]


def test_each_named_change_in_a_chain_replaces_the_one_before(memory: Memory, scope: str) -> None:
    """A named change states where things stand now ("Moved to Capgemini." is being at Capgemini),
    so the next change of the same relation replaces it in turn."""
    said = {"speaker": "Ana"}
    texts = ["I work at Accenture.", "Moved to Capgemini.", "Joined Infosys in June."]
    written = [
        memory.remember(t, scope=scope, occurred_at=_day(i), metadata=said).memory
        for i, t in enumerate(texts)
    ]
    assert [memory.get(m.id).status for m in written] == ["superseded", "superseded", "active"]


def test_a_state_said_to_hold_now_replaces_the_statement_of_the_same_relation(
    memory: Memory, scope: str
) -> None:
    """No change verb, only "now": the statement of the same relation is replaced and the speaker's
    other named statements stay; what someone is doing at the moment ("reading Dune now") replaces
    nothing."""
    said = {"speaker": "Tomek"}
    texts = ["I drive a Skoda Fabia.", "I live in Clapham.", "I bank with Monzo."]
    kept = [
        memory.remember(t, scope=scope, occurred_at=_day(i), metadata=said).memory
        for i, t in enumerate(texts)
    ]
    memory.remember("I'm reading Dune now.", scope=scope, occurred_at=_day(4), metadata=said)
    assert [memory.get(m.id).status for m in kept] == ["active", "active", "active"]
    memory.remember("My car is a Kia Niro now.", scope=scope, occurred_at=_day(5), metadata=said)
    assert [memory.get(m.id).status for m in kept] == ["superseded", "active", "active"]


def test_a_change_that_names_its_slot_replaces_no_move(memory: Memory, scope: str) -> None:
    """ "Tiago's team lead is now Petra Holm" names the slot it fills: it replaces no earlier
    move of Tiago's, however alike the two read with their names masked."""
    moved = memory.remember("Tiago moved to Rotterdam.", scope=scope, occurred_at=_day(0)).memory
    memory.remember("Tiago's team lead is now Petra Holm.", scope=scope, occurred_at=_day(1))
    assert memory.get(moved.id).status == "active"


def test_a_name_beside_the_subject_is_no_new_value(memory: Memory, scope: str) -> None:
    """ "Tomasz and Ewa got engaged" names Ewa beside Tomasz, not as where he went: it leaves
    "Tomasz moved to Gdańsk" standing."""
    moved = memory.remember("Tomasz moved to Gdańsk.", scope=scope, occurred_at=_day(0)).memory
    memory.remember("Tomasz and Ewa got engaged.", scope=scope, occurred_at=_day(1))
    assert memory.get(moved.id).status == "active"


def test_a_club_joined_is_not_replaced_by_the_next_thing_started(memory: Memory, scope: str) -> None:
    """Only a change whose name is what it moved to counts as where things stand: joining a club
    that meets somewhere named is not replaced by volunteering somewhere else."""
    club = memory.remember(
        "User joined a rowing club that trains at Putney Embankment.", scope=scope, occurred_at=_day(0)
    ).memory
    memory.remember(
        "User started volunteering at the Oxfam shop on Saturdays.", scope=scope, occurred_at=_day(1)
    )
    assert memory.get(club.id).status == "active"


def test_a_change_without_a_name_replaces_the_fact_it_is_clearly_most_like(
    memory: Memory, scope: str
) -> None:
    """ "Works days now" names no value, yet among Wen's facts one is clearly the one it changes;
    her other facts, an act she told, and a span that ends in "now" stay as they were."""
    texts = [
        "Wen works night shifts at the bakery.",
        "Wen lives in Leeds.",
        "Wen has a sister called Mei.",
        "Wen ran a 10k in March.",
    ]
    kept = [memory.remember(t, scope=scope, occurred_at=_day(i)).memory for i, t in enumerate(texts)]
    memory.remember("Wen has been learning the violin for a year now.", scope=scope, occurred_at=_day(5))
    assert [memory.get(m.id).status for m in kept] == ["active"] * 4
    memory.remember("Wen switched to day shifts at the bakery.", scope=scope, occurred_at=_day(6))
    assert [memory.get(m.id).status for m in kept] == ["superseded", "active", "active", "active"]


def test_a_long_message_that_leaves_the_stored_value_replaces_it(memory: Memory, scope: str) -> None:
    """The value left is named in a chatty message of several clauses; a relative's city stays."""
    home = memory.remember("I live in Lyon, near the Croix-Rousse.", scope=scope, occurred_at=_day(0)).memory
    sister = memory.remember("My sister lives in Lyon too.", scope=scope, occurred_at=_day(1)).memory
    memory.remember(
        "ok so big news, I finally left Lyon in August and the flat in Annecy is tiny, but the lake!",
        scope=scope,
        occurred_at=_day(2),
    )
    assert (memory.get(home.id).status, memory.get(sister.id).status) == ("superseded", "active")
