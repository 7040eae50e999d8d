"""A new statement that names the value a stored one holds and says it was left, or ended, replaces
it, however long the new statement runs; the same words about someone else, or a plan, do not."""

from __future__ import annotations

import signal

import pytest

from graphmem.beliefs.judge import judge
from graphmem.beliefs.left_behind import leaves_its_value, left_behind
from graphmem.beliefs.statements import read_statement


def conflict(old: str, new: str, cosine: float = 0.5) -> bool:
    return judge(read_statement(old), read_statement(new), cosine).conflict


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # left, quit, ditched: the old value as the verb's object, the new one anywhere or nowhere
        ("I'm based in Lyon.", "lol we finally left Lyon last week, the flat in Grenoble is tiny but ok"),
        ("Obinna works at Flutterwave.", "Obinna quit Flutterwave in March and is freelancing for now."),
        ("I keep my passwords in LastPass.", "Dropped LastPass after the breach; 1Password from now on."),
        # moved off, switched away from, moved out of
        ("Our logs go to Papertrail.", "We migrated off Papertrail onto Grafana Loki over the summer."),
        ("We rent a room in Camden.", "Moved out of the Camden room and into a studio near Hackney Wick."),
        # done instead of, or rather than, the old value
        (
            "The newsletter is sent with Mailchimp.",
            "It now goes out through Buttondown instead of Mailchimp.",
        ),
        # a relationship that ended, named by the other person
        ("I'm dating Rosalind.", "Rosalind and I broke up, it was mutual."),
        ("Femi is married to Tola.", "Femi divorced Tola in the spring."),
        # the value itself ended: someone named retired or died, a tool was retired
        ("Mei's supervisor is Dr. Okafor.", "Dr. Okafor retired in June, so his students are reassigned."),
        ("Our incident tool is PagerTree.", "PagerTree is deprecated here, pages go through Opsgenie."),
    ],
)
def test_a_value_left_or_ended_is_replaced(old: str, new: str) -> None:
    assert conflict(old, new)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # someone else left it
        ("My brother lives in Lyon.", "I left Lyon last week."),
        ("I work at Flutterwave.", "Obinna quit Flutterwave in March."),
        # a plan, a wish, or a denial of leaving
        ("I'm based in Lyon.", "We might leave Lyon next year."),
        ("I work at Flutterwave.", "I want to quit Flutterwave eventually."),
        # a name left that the stored statement does not hold
        ("I use Firefox at work.", "Ditched Chrome on my phone."),
        # the stored statement's own subject retiring is not its value ending
        ("Dr. Okafor lives in Leeds.", "Dr. Okafor retired in June."),
    ],
)
def test_look_alikes_of_leaving_keep_the_stored_value(old: str, new: str) -> None:
    assert not conflict(old, new)


def test_questions_name_nothing_left() -> None:
    assert left_behind("Did you leave Lyon?") == ()


def test_what_was_left_is_named_with_who_left_it() -> None:
    (left,) = left_behind("Priyanka switched from Asana to Linear.")
    assert left.names == {"asana"} and left.by == "priyanka" and not left.ended


def test_the_value_an_ending_statement_still_holds_can_be_left() -> None:
    old = read_statement("Split up with Marco; seeing Ilse now.")
    assert leaves_its_value(old, read_statement("Ilse and I broke up in the autumn."))
    assert not leaves_its_value(old, read_statement("Marco and I split for good."))


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Bilal works for Careem.", 'Bilal said, "I quit Careem, I\'m with Talabat now."'),
        ("Noor's driving test is on 9 May.", 'Noor wrote: "They moved my driving test to 23 May."'),
    ],
)
def test_a_quote_is_read_as_its_speakers_statement(old: str, new: str) -> None:
    assert conflict(old, new)


def test_a_quote_of_someone_else_leaves_the_writers_value_alone() -> None:
    assert not conflict("I work at Careem.", 'Bilal said, "I quit Careem last month."')


def test_leaving_the_work_a_title_names_replaces_the_title() -> None:
    assert conflict("Ines is a primary-school teacher.", "Ines left teaching and now works in insurance.")
    assert not conflict("Ines is a primary-school teacher.", "Ines left the choir in May.")


def test_a_preference_of_one_over_another_is_not_leaving_it() -> None:
    # "rather than" compares; the stored preference says the same
    assert not conflict(
        "Zainab prefers trains to planes.", "Given a choice, Zainab takes the train rather than a plane."
    )


@pytest.mark.parametrize(
    "text", ["Instead of Stripe, Adyen.", "instead of", "Moved out of", "", 'Bob said, ""']
)
def test_fragments_without_a_verb_are_read_at_once(text: str) -> None:
    # a fragment has no verb to hang "instead of" on: the reading stops at the sentence's root
    # (it once walked up from the root for ever); the alarm fails the test instead of hanging it
    signal.alarm(10)
    try:
        assert isinstance(left_behind(text), tuple)
        assert judge(read_statement("We pay through Stripe."), read_statement(text), 0.5).reason
    finally:
        signal.alarm(0)


def test_a_text_with_no_leaving_word_is_not_parsed(monkeypatch: pytest.MonkeyPatch) -> None:
    # most chat turns leave nothing; parsing each long one cost the write path tens of milliseconds
    import graphmem.beliefs.left_behind as module

    def no_parse(text: str) -> None:
        raise AssertionError(f"parsed {text!r}")

    monkeypatch.setattr(module, "parse_doc", no_parse)
    long_turn = (
        "Caroline: Hey Mel, good to see you! I finally finished that painting of the lake at dawn, "
        "the one with the little red boat, and my friends loved it so much."
    )
    assert left_behind(long_turn) == ()
    assert left_behind("My sister works at the bakery on Elm Street.") == ()


def test_stopping_what_the_other_names_leaves_it() -> None:
    assert conflict("I take melatonin to sleep.", "I stopped the melatonin.")


def test_someone_who_left_the_company_no_longer_holds_a_role_there() -> None:
    assert conflict("My team lead is Farah Okoye.", "Farah Okoye left the company in May.")
    assert conflict("Our CTO is Dev Malhotra.", "Dev Malhotra quit the firm after the acquisition.")
    assert not conflict("My team lead is Farah Okoye.", "Farah Okoye left the meeting early.")


def test_giving_up_the_act_the_other_states_leaves_it() -> None:
    assert conflict("Nell runs 5k every morning.", "Nell gave up running after the knee injury.")
    assert conflict("Aurelio teaches maths at a lycée.", "Aurelio retired from teaching in June.")
    # one way of doing it is not the act; someone else's giving up is theirs
    assert not conflict("Nell runs 5k every morning.", "Nell's brother gave up running.")


def test_throwing_someone_out_leaves_living_with_them() -> None:
    assert conflict("Priya lives with her partner Sam.", "Priya threw Sam out last week.")
    assert not conflict("Priya lives with her partner Sam.", "Priya threw a party last week.")


def test_wanting_a_thing_is_a_preference_a_change_can_leave() -> None:
    # "wants reminders by email" is held now (wanting to do something is a plan)
    old = "User wants invoices by post."
    assert conflict(old, "User: send invoices by email instead of post from now on")


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Our CI runs on Travis.", "We retired Travis in June; all builds run on GitHub Actions now."),
        ("My laptop runs Windows.", "Ditched Windows at last, it is all Fedora now."),
    ],
)
def test_the_writer_leaves_what_a_thing_of_theirs_held(old: str, new: str) -> None:
    assert conflict(old, new)
