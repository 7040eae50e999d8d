"""A later act of a person retires what it changes, not every earlier fact of that person.

"Yuki moved to the intensive care unit" is news of her job, not of her home; "Kwame sold 40
bags of cocoa" is a harvest sold, not the farm; "Ayesha's brother Faisal joined Google" is
Faisal's news. The pairs here are phrasings of those kinds, not cases of the evaluation sets.
"""

from __future__ import annotations

import pytest

from graphmem.beliefs.judge import judge
from graphmem.beliefs.statements import read_statement


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # a move to no place names no new home
        ("Tomasz lives in Gdańsk, in Wrzeszcz.", "Tomasz moved to the night shift at the depot."),
        # "to work" is where one goes, not a job
        ("Ines takes the tram to work.", "Ines joined Siemens as a test engineer."),
        # what someone is paid is not what they pay
        ("Farid rents a flat in Leeds for 900 pounds a month.", "Farid's salary is 41,000 pounds a year."),
        # what is sold is the object of "sold", not what its words share
        ("Nadia owns an olive grove near Kalamata.", "Nadia sold 300 litres of olive oil last autumn."),
        # a named relative's change is theirs
        ("Lena's favourite singer is Björk.", "Lena's brother Jonas joined Spotify as a designer."),
        ("Marek quit the brewery in March.", "Marek and Zofia broke up."),
        # what was done stays done
        ("Ruth studied law at Trinity College.", "Ruth became a partner at the law firm."),
        # two things counted are two measures
        ("Dev has four grandchildren.", "Dev bought 3 more hectares, bringing the vineyard to 12 hectares."),
        # an ending verb ends its object, not what the rest of the sentence names
        ("Hugo married Chloé and moved to Nantes.", "Hugo finished his PhD and joined Airbus in Nantes."),
        # a name is written as one
        ("Greta sings in a jazz choir.", "Greta's dog Jazz died at 14."),
        # a slot filled with a name holds the name, not what describes it
        ("Tom's best friend is Sam Okafor from his rugby club.", "Tom gave up rugby after the injury."),
    ],
)
def test_a_later_act_keeps_an_unrelated_fact(old: str, new: str) -> None:
    verdict = judge(read_statement(old), read_statement(new), 0.6)
    assert not verdict.conflict, verdict.reason


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Tomasz lives in Gdańsk.", "Tomasz moved to a flat in Sopot."),
        ("Nadia drives a Fiat Panda.", "Nadia sold the Panda and bought a Dacia."),
        (
            "Lena's younger brother Jonas is studying design in Graz.",
            "Lena's brother Jonas joined Spotify as a designer.",
        ),
        ("Ruth's manager is Oliver Grant.", "Oliver Grant retired."),
        ("Farid's salary is 41,000 pounds a year.", "Farid's salary went up to 45,000 pounds a year."),
        ("Hugo is doing a PhD at the University of Nantes.", "Hugo finished his PhD and joined Airbus."),
        ("Greta has two dogs, Jazz and Pepper.", "Greta's dog Jazz died at 14."),
        ("Tom plays rugby for a club in Bath.", "Tom gave up rugby after the injury."),
    ],
)
def test_a_real_update_still_retires_the_fact(old: str, new: str) -> None:
    verdict = judge(read_statement(old), read_statement(new), 0.6)
    assert verdict.conflict, verdict.reason
