"""Belief-update cases: sequences of statements and which must end up current.

Each case runs in its own scope. ``steps`` are (text, occurred_at date); ``current`` lists the
steps that must stay active, ``outdated`` those that must be superseded; a step in neither list
must simply not be lost. ``batch`` sends all steps in one batch call instead of one by one.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Case:
    """One belief-update scenario."""

    name: str
    kind: str
    steps: tuple[tuple[str, str], ...]
    current: tuple[int, ...]
    outdated: tuple[int, ...] = ()
    batch: bool = False


def _c(
    name: str,
    kind: str,
    steps: list[tuple[str, str]],
    current: list[int],
    outdated: list[int] | None = None,
    batch: bool = False,
) -> Case:
    return Case(name, kind, tuple(steps), tuple(current), tuple(outdated or ()), batch)


CASES: list[Case] = [
    # --- updates: a newer value for the same subject and attribute replaces the old one
    _c(
        "database migration",
        "update",
        [
            ("The user database runs on PostgreSQL.", "2024-01-10"),
            ("We migrated the user database to MySQL.", "2024-03-02"),
        ],
        [1],
        [0],
    ),
    _c(
        "moved city",
        "update",
        [("I live in Paris.", "2023-05-01"), ("I moved to Berlin last month.", "2024-02-01")],
        [1],
        [0],
    ),
    _c(
        "new employer",
        "update",
        [("Alice works at Google.", "2022-01-01"), ("Alice now works at Microsoft.", "2024-01-01")],
        [1],
        [0],
    ),
    _c(
        "favourite colour",
        "update",
        [("My favorite color is blue.", "2023-01-01"), ("My favorite color is green.", "2024-01-01")],
        [1],
        [0],
    ),
    _c(
        "standup time",
        "update",
        [("The daily standup is at 9am.", "2024-01-01"), ("The daily standup moved to 10am.", "2024-02-01")],
        [1],
        [0],
    ),
    _c(
        "deadline pushed",
        "update",
        [
            ("The project deadline is March 15.", "2024-01-05"),
            ("The project deadline was pushed to April 2.", "2024-02-20"),
        ],
        [1],
        [0],
    ),
    _c(
        "age",
        "update",
        [("Bob is 32 years old.", "2023-01-01"), ("Bob is 33 years old.", "2024-01-01")],
        [1],
        [0],
    ),
    _c(
        "stopped being vegetarian",
        "update",
        [("I am vegetarian.", "2022-01-01"), ("I am not vegetarian anymore.", "2024-01-01")],
        [1],
        [0],
    ),
    _c(
        "preference reversed",
        "update",
        [
            ("The user prefers tea over coffee.", "2023-01-01"),
            ("The user prefers coffee over tea.", "2024-01-01"),
        ],
        [1],
        [0],
    ),
    _c(
        "hosting switched",
        "update",
        [
            ("Our API is hosted on AWS.", "2023-06-01"),
            ("We switched our API hosting to Azure.", "2024-06-01"),
        ],
        [1],
        [0],
    ),
    _c(
        "manager changed",
        "update",
        [("My manager is Sarah.", "2023-01-01"), ("My manager is now Tom.", "2024-01-01")],
        [1],
        [0],
    ),
    _c(
        "phone number",
        "update",
        [
            ("Carol's phone number is 555-0101.", "2023-01-01"),
            ("Carol's phone number is 555-0199.", "2024-01-01"),
        ],
        [1],
        [0],
    ),
    _c(
        "rent",
        "update",
        [
            ("My rent is 1200 dollars a month.", "2023-01-01"),
            ("My rent went up to 1350 dollars a month.", "2024-01-01"),
        ],
        [1],
        [0],
    ),
    _c(
        "relationship status",
        "update",
        [("Dave is single.", "2022-01-01"), ("Dave is married now.", "2024-01-01")],
        [1],
        [0],
    ),
    _c(
        "release date",
        "update",
        [
            ("Version 2.0 ships in October.", "2024-01-01"),
            ("Version 2.0 was postponed to December.", "2024-06-01"),
        ],
        [1],
        [0],
    ),
    _c(
        "three-step chain",
        "update",
        [
            ("I live in Lyon.", "2021-01-01"),
            ("I moved to Madrid.", "2022-06-01"),
            ("I moved to Lisbon.", "2024-01-01"),
        ],
        [2],
        [0, 1],
    ),
    _c(
        "stopped smoking",
        "update",
        [("Eric smokes.", "2022-01-01"), ("Eric quit smoking.", "2024-01-01")],
        [1],
        [0],
    ),
    _c(
        "language switch",
        "update",
        [
            ("The backend is written in Python.", "2023-01-01"),
            ("The backend was rewritten in Go.", "2024-01-01"),
        ],
        [1],
        [0],
    ),
    _c(
        "meeting day",
        "update",
        [("The team retro is on Friday.", "2024-01-01"), ("The team retro moved to Thursday.", "2024-03-01")],
        [1],
        [0],
    ),
    _c(
        "update in one batch",
        "update",
        [("I live in Oslo.", "2020-01-01"), ("I moved to Bergen.", "2023-01-01")],
        [1],
        [0],
        batch=True,
    ),
    # --- out of order: the later occurred_at wins whatever the arrival order
    _c(
        "late arrival of old city",
        "out_of_order",
        [("I moved to Berlin.", "2024-02-01"), ("I live in Paris.", "2023-05-01")],
        [0],
        [1],
    ),
    _c(
        "late arrival of old employer",
        "out_of_order",
        [("Alice now works at Microsoft.", "2024-01-01"), ("Alice works at Google.", "2022-01-01")],
        [0],
        [1],
    ),
    _c(
        "late arrival of old deadline",
        "out_of_order",
        [
            ("The project deadline is April 2.", "2024-02-20"),
            ("The project deadline is March 15.", "2024-01-05"),
        ],
        [0],
        [1],
    ),
    _c(
        "late arrival in a batch",
        "out_of_order",
        [("My favorite color is green.", "2024-01-01"), ("My favorite color is blue.", "2023-01-01")],
        [0],
        [1],
        batch=True,
    ),
    _c(
        "late arrival of old age",
        "out_of_order",
        [("Bob is 33 years old.", "2024-01-01"), ("Bob is 32 years old.", "2023-01-01")],
        [0],
        [1],
    ),
    _c(
        "middle of a chain arrives last",
        "out_of_order",
        [
            ("I live in Lyon.", "2021-01-01"),
            ("I moved to Lisbon.", "2024-01-01"),
            ("I moved to Madrid.", "2022-06-01"),
        ],
        [1],
        [0, 2],
    ),
    # --- additive facts: both stay true
    _c(
        "hobbies add up",
        "additive",
        [("I like hiking.", "2024-01-01"), ("I also enjoy swimming.", "2024-02-01")],
        [0, 1],
    ),
    _c(
        "two pets",
        "additive",
        [("I have a dog named Max.", "2024-01-01"), ("I have a cat named Luna.", "2024-02-01")],
        [0, 1],
    ),
    _c(
        "two languages",
        "additive",
        [("Hana speaks Japanese.", "2024-01-01"), ("Hana also speaks Portuguese.", "2024-02-01")],
        [0, 1],
    ),
    _c(
        "visited cities",
        "additive",
        [("Last year I visited Rome.", "2024-01-01"), ("I visited Vienna in the spring.", "2024-05-01")],
        [0, 1],
    ),
    _c(
        "likes two foods",
        "additive",
        [("I love sushi.", "2024-01-01"), ("I love tacos too.", "2024-02-01")],
        [0, 1],
    ),
    _c(
        "two team members",
        "additive",
        [("Priya joined the data team.", "2024-01-01"), ("Marco joined the data team.", "2024-02-01")],
        [0, 1],
    ),
    _c(
        "books read",
        "additive",
        [("I read Dune last month.", "2024-01-01"), ("I read Neuromancer this week.", "2024-02-01")],
        [0, 1],
    ),
    _c(
        "two services on one db",
        "additive",
        [
            ("The billing service uses PostgreSQL.", "2024-01-01"),
            ("The search service uses Elasticsearch.", "2024-02-01"),
        ],
        [0, 1],
    ),
    _c(
        "kids activities",
        "additive",
        [
            ("Melanie took her kids to the museum.", "2024-01-01"),
            ("Melanie took her kids to the beach.", "2024-02-01"),
        ],
        [0, 1],
    ),
    _c(
        "plays instruments",
        "additive",
        [("Frank plays the cello.", "2024-01-01"), ("Frank plays the piano as well.", "2024-02-01")],
        [0, 1],
    ),
    # --- different subjects or attributes: never conflicts
    _c(
        "different people same attribute",
        "unrelated",
        [("Bob lives in Denver.", "2024-01-01"), ("Alice lives in Austin.", "2024-02-01")],
        [0, 1],
    ),
    _c(
        "different speakers",
        "unrelated",
        [
            ("Caroline: I went to a support group yesterday.", "2024-01-01"),
            ("Melanie: I went to the beach with my kids yesterday.", "2024-01-02"),
        ],
        [0, 1],
    ),
    _c(
        "different attributes of one person",
        "unrelated",
        [("Gina lives in Chicago.", "2024-01-01"), ("Gina works at a bakery in Chicago.", "2024-02-01")],
        [0, 1],
    ),
    _c(
        "same place different events",
        "unrelated",
        [
            ("We had the offsite in Lisbon.", "2024-01-01"),
            ("The conference is in Lisbon in May.", "2024-02-01"),
        ],
        [0, 1],
    ),
    _c(
        "different projects deadlines",
        "unrelated",
        [("Project Apollo is due in March.", "2024-01-01"), ("Project Zephyr is due in June.", "2024-02-01")],
        [0, 1],
    ),
    _c(
        "dialog small talk",
        "unrelated",
        [
            ("Melanie: I'm going to the park on Sunday.", "2024-01-01"),
            ("Melanie: I'm going to the beach on Saturday.", "2024-01-02"),
        ],
        [0, 1],
    ),
    _c(
        "two dogs different names",
        "unrelated",
        [("My neighbour's dog is called Rex.", "2024-01-01"), ("My dog is called Biscuit.", "2024-02-01")],
        [0, 1],
    ),
    # --- near-duplicates: reinforce, do not supersede
    _c(
        "same fact repeated",
        "duplicate",
        [("Carol is allergic to peanuts.", "2024-01-01"), ("Carol is allergic to peanuts.", "2024-02-01")],
        [0],
    ),
    _c(
        "paraphrase kept",
        "duplicate",
        [
            ("The office closes at 6pm on Fridays.", "2024-01-01"),
            ("On Fridays the office closes at 6pm.", "2024-02-01"),
        ],
        [0, 1],
    ),
    _c(
        "restated with detail",
        "duplicate",
        [
            ("Ivan owns a red kayak.", "2024-01-01"),
            ("Ivan owns a red kayak that he keeps at the lake.", "2024-02-01"),
        ],
        [0, 1],
    ),
    _c(
        "duplicate in batch",
        "duplicate",
        [
            ("The wifi password is on the fridge.", "2024-01-01"),
            ("The wifi password is on the fridge.", "2024-01-01"),
        ],
        [0],
        batch=True,
    ),
]
