"""Plain updates people write, and the look-alikes beside them, that the offline belief check reads
through the sentence's grammar rather than through a list of slots."""

from __future__ import annotations

import pytest

from graphmem.beliefs.judge import judge
from graphmem.beliefs.statements import read_statement


def conflict(old: str, new: str, cosine: float = 0.6) -> bool:
    return judge(read_statement(old, "Ana"), read_statement(new, "Ana"), cosine).conflict


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # the holder of a slot named with "new" / "current" fills the same slot
        ("My physiotherapist is Dr. Brandt.", "My new physiotherapist is Dr. Moreau."),
        ("Our accountant is Hollis & Co.", "Our current accountant is Baxter Partners."),
        # a thing whose value is named, then changed by a verb of its own
        ("The guest network password is sunflower9.", "The guest network password changed to maple31."),
        ("The book club is at the Corner Cafe.", "The book club moved to the Old Library."),
        # someone takes over the role a stored statement names
        ("The choir's conductor is Mr. Alvarez.", "Ms. Petrov took over as the choir's conductor."),
        # one measure, a new number, worded as a level rather than with the verb
        ("I cycle 60 km a week.", "I'm up to 90 km a week."),
        # a past passive of a change verb is the change, not a state ("was upgraded to")
        ("The build box runs Debian 11.", "The build box was upgraded to Debian 12."),
        # a change verb whose object is the act the other statement says is done
        ("I bite my nails.", "I quit biting my nails last spring."),
        ("I play squash twice a week.", "I gave up playing squash after the surgery."),
        # a change done to a thing the other statement names by its owner and noun
        ("My handle on the chess site is rookmaster.", "I changed my chess handle to quietbishop."),
        ("My allergy record lists latex.", "The clinic corrected my allergy record to say nickel."),
        # leaving a role ends it ("stepped down", a particle the small model tags as an adverb)
        ("Rafa is the club's treasurer.", "Rafa stepped down as the club's treasurer."),
    ],
)
def test_updates_said_plainly_are_found(old: str, new: str) -> None:
    assert conflict(old, new)


@pytest.mark.parametrize(
    ("old", "new", "cosine"),
    [
        # a denial added to a denial
        ("I don't eat pork.", "I don't eat shellfish either.", 0.62),
        # the same amount in words and in digits
        ("The deposit is $1,500.", "The deposit is fifteen hundred dollars.", 0.93),
        # a person is not a thing whose value a copula names
        ("Talia is a pharmacist in Leeds.", "Talia moved to York.", 0.5),
        # the same unit, but another act
        ("I cycle 60 km a week.", "I swim 3 km a week.", 0.6),
        # a relative's number is the relative's (an age), not a value of the owner's
        ("Omar is 41.", "Omar's husband is 44.", 0.85),
        # a present passive is a state: being engaged to someone is no move
        ("Kim lives in Oslo.", "Kim is engaged to Keiko.", 0.5),
        # another thing's holder of the same kind of slot
        ("My physiotherapist is Dr. Brandt.", "My sister's new physiotherapist is Dr. Moreau.", 0.7),
    ],
)
def test_look_alikes_stay(old: str, new: str, cosine: float) -> None:
    assert not conflict(old, new, cosine)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # a small count in words is a number ("one coffee")
        ("I drink about three teas a day.", "I've cut down to one tea a day."),
        # a note's key is the slot a sentence fills
        ("Favourite film: Alien.", "These days my favourite film is Arrival."),
        # what is done "instead" replaces the like thing
        ("We're renting a cottage in Devon.", "We're renting a cottage in Cornwall instead."),
        # an ending verb (phrasal too) that names the old value ends it
        ("I'm learning Portuguese.", "I gave up Portuguese and started Greek."),
        # a "new" holder of the slot the stored statement fills, named in passing
        ("My physio is Dr. Evans.", "I've switched clinics and see a new physio, Dr. Sato."),
        # a particle split from its verb by the object: "handed the team over to"
        ("Rhea runs the design team.", "Rhea handed the design team over to Malik."),
    ],
)
def test_grammar_read_updates_of_session_21(old: str, new: str) -> None:
    assert conflict(old, new)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # someone else's change verb done to the thing: "put the rent up", "upped my dose"
        ("Our rent is £1,300 a month.", "The landlord put our rent up to £1,450."),
        ("I'm on 10mg of amlodipine.", "The doctor upped my amlodipine to 20mg."),
        # "my X" and "the X" are one thing, and a new day is when it now happens
        ("My choir rehearses on Mondays.", "The choir switched to Thursday evenings."),
        # a bare noun ("Team retros") is a thing, and "team retros" are the retros
        ("Team retros are on Miro.", "The retros moved to FigJam."),
        # a change verb names what it leaves with "off" or "from"
        ("Our CDN is Cloudflare.", "The company is moving off Cloudflare onto Fastly."),
        ("We track bugs in Jira.", "The team switched from Jira to Linear in spring."),
        # "these days" says how things are now, and a noun can name the act a verb does
        ("We build the app with Gradle.", "Builds are all Bazel these days."),
        # the same thing at a new time, the reason for it in a clause of its own
        ("I catch the 6:50 bus.", "I've been catching the 7:20 bus since the route changed."),
        # "instead of" names the value replaced
        ("We're going with Mailgun for email.", "Email will go through Postmark instead of Mailgun."),
        # a correction opener announces the change; the thing decided on is named again
        ("We decided to use MySQL for the audit log.", "Scratch that, the audit log will be Elasticsearch."),
        # "got moved to" is the act of a change verb, as "was moved to" is; "bumped" raises
        ("The code freeze starts on June 2.", "The code freeze got moved up to May 28."),
        ("My reading goal is 20 books a year.", "I bumped my reading goal to 30 books a year."),
        # selling what the other statement names is no restatement of it
        ("Ola's bike is a Brompton.", "Ola sold the Brompton; she walks everywhere now."),
        # ending phrasal verbs: "broke up", "came off"; closing an account ends it
        ("Mira is going out with Sven.", "Mira and Sven split up last month."),
        ("Theo takes statins.", "Theo came off the statins in May."),
        ("I bank with Lloyds.", "Closed my Lloyds account and moved to Starling."),
        # "Turns out" opens a correction without a comma
        ("Jade is allergic to aspirin.", "Turns out Jade isn't allergic to aspirin after all."),
        # someone switched "my inhaler": the head noun names "my asthma inhaler"
        ("My hay fever spray is Beconase.", "The pharmacist switched my spray to Nasonex."),
        # new hours, announced as a change
        ("My rota is 6am-2pm.", "I'm on lates now, 2pm-10pm."),
    ],
)
def test_grammar_read_updates_of_session_22(old: str, new: str) -> None:
    assert conflict(old, new)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # a unit written onto a number leaves the number as it is: two doses of two things
        ("Hana takes 50mg of sertraline.", "Hana takes 1000mg of vitamin C."),
        # a new day for another thing
        ("Meetings with Ola are on Mondays.", "The book club switched to Thursdays."),
        # a thing of a kind, not the one the memory knows
        ("The shop opens at 9.", "The shop closes at 6 on weekdays."),
        # a new time for someone else's bus
        ("I catch the 6:50 bus.", "My sister catches the 7:20 bus now."),
        # a shop closing at a time ends nothing
        ("The bakery is on Elm Street.", "The bakery closes at 4 on Saturdays."),
        # hours of another thing the subject does
        ("I work 9am-5pm.", "I volunteer 6pm-8pm on Tuesdays now."),
    ],
)
def test_look_alikes_of_session_22_stay(old: str, new: str) -> None:
    assert not conflict(old, new)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # being laid off ends working somewhere it names
        ("Marek works for Siemens.", "Marek was laid off when Siemens closed the Poznań plant."),
        # a break-up, even when the rest of the sentence moves back somewhere ("moved back in")
        (
            "Ines lives with her boyfriend Tomás.",
            "Ines and Tomás broke up and she moved back in with her mum.",
        ),
        # the owner cancels the thing a statement about it names
        ("Olu's ferry to Split is on Friday.", "Olu cancelled the Split holiday."),
        # "there won't be" denies the thing itself
        ("The school fete is on 14 June.", "There won't be a school fete this summer."),
        # a later clause about "it" is about the thing the clause before it named
        ("The launch party is on 2 May.", "The launch party got pushed back, it's 16 May now."),
        # a day from which the statement holds announces a change
        ("The pharmacy closes at 6.", "Starting next month the pharmacy closes at 8."),
        # "it" after a person is not the person: it is what they renewed
        ("My library card expires in 2026.", "I renewed my library card; it now expires in 2029."),
        # a number a measure went down or up "to"
        ("I have 25 days of holiday a year.", "After the new contract I'm down to 20 days of holiday."),
        ("The Kafka topic has 6 partitions.", "Bumped the topic to 12 partitions for the sale."),
        # one thing told from two sides: what "we" act on, then the thing itself, a change announced
        ("We park the van behind the depot.", "The van is parked at the new yard on Mill Lane now."),
        ("Invoices go out from Xero.", "We send invoices from QuickBooks now."),
        # a change verb to another of one kind ("plan", "desk"), told apart by its own words
        ("Tom works on the night desk.", "Tom moved to the features desk."),
        # a note whose key's words name the slot the other statement changed
        ("We moved the offsite venue to Bath.", "Final offsite venue: Oxford."),
        # another of one kind with "now" and no change verb, the next clause pointing back
        (
            "Dara works the night shift at the depot, 10pm to 6am.",
            "Dara's on the day shift now, she starts at 7am.",
        ),
        # an ending verb in one clause, the value it ends named in the next
        (
            "Femi is the secretary of the allotment society.",
            "Femi stepped down and Ruth was voted in as secretary.",
        ),
        # "going to" a place is no plan: a new habit with a change announced
        ("I shop at Tesco.", "We get groceries delivered by Ocado now instead of going to Tesco."),
        # trading in or swapping out what the other statement names replaces it
        ("Omar's bike is a Brompton.", "Omar traded in the Brompton for a Tern."),
    ],
)
def test_grammar_read_updates_of_session_23(old: str, new: str) -> None:
    assert conflict(old, new)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # a denial about someone else's thing ends nothing of the subject's
        ("Jonas doesn't own a bike.", "Jonas's sister owns a bike."),
        # going swimming every morning is a habit, not a change of state
        ("Maeve lives in Cork.", "Maeve goes sea swimming at Myrtleville every morning."),
        # an operation that went well is no change of state of what a pointing-back clause named
        (
            "Dad was told he needs a knee replacement.",
            "Knee replacement went well; he's on the ward for three days.",
        ),
        # the earlier holder of a slot, said in the past ("first", "old", "previous")
        ("Bruno's manager is Keiko.", "Bruno's first manager at the bank was Harald."),
        # the past on the auxiliary: "didn't open until 9" back then
        ("The gym opens at 6.", "When it first opened, the gym didn't open until 8."),
        # two of a kind, told apart by where
        ("We decided to open a warehouse in Leeds.", "We decided to open a warehouse in Bristol."),
        # a month or a day written short is the same month or day
        ("Rent is due on the 1st of Oct.", "Rent is due on 1 October."),
        # a restatement as a whole, whatever its clauses pair up as
        (
            "I'm allergic to wasp stings, I carry antihistamines.",
            "Wasp stings: I'm allergic, always have antihistamines on me.",
        ),
        # growing up somewhere is about the past
        ("Nana lives in sheltered housing in Derby.", "Nana grew up in Sheffield."),
        # a number reached "to" for another act
        ("I row 8 km on Saturdays.", "I've worked up to cycling 40 km on Sundays."),
    ],
)
def test_look_alikes_of_session_23(old: str, new: str) -> None:
    assert not conflict(old, new)


def test_a_company_the_tagger_reads_as_a_common_noun_is_still_a_name() -> None:
    # the small English model tags "Wayfair" in "I work at Wayfair" as a noun, not a name
    from graphmem.beliefs.parse import read_clause

    assert "wayfair" in read_clause("I work at Wayfair on the search team.").names


def test_giving_up_what_names_the_doer_is_a_denial() -> None:
    assert conflict("Mateus is a heavy smoker.", "Mateus doesn't smoke anymore.")
    assert conflict("I'm a part-time tutor.", "I'm not tutoring anymore.", 0.7)


def test_two_named_things_of_one_kind_each_keep_their_value() -> None:
    # a name on the same common noun tells two things apart; a change said of one still replaces
    assert not conflict("On the Falcon team we deploy with Argo.", "On the Heron team we use Spinnaker.")
    assert not conflict("The Leeds office opens at 8.", "The Bristol office opens at 9.")
