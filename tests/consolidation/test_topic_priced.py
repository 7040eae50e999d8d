"""C1 takes a shared price pattern off a pair's cosine: purchases in different threads are not one topic."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import neo4j

from graphmem.consolidate.priced import states_money
from graphmem.consolidate.settings import ConsolidationSettings
from graphmem.consolidate.topic_weights import TopicWeights
from tests.consolidation.conftest import cypher
from tests.consolidation.threads import SOURCES, topics_of

# eight threads of the dev half of bench/eval/topics5.json, as dated there: five of them name a price
THREADS = {
    "kitchen": [
        (
            "2026-03-08T19:16:00Z",
            "Finally getting the kitchen redone. Three fitters coming to quote next week, budget is "
            "about £18k.",
        ),
        (
            "2026-03-15T22:19:00Z",
            "Quote from Dave Whitlock came in at £16,400 without appliances; the other two were over twenty.",
        ),
        (
            "2026-03-24T12:16:00Z",
            "We picked sage green shaker doors and an oak worktop in the end, quartz was two grand more.",
        ),
        ("2026-04-19T11:56:00Z", "Cabinets delayed: the supplier now says week 31 instead of week 26."),
        (
            "2026-04-26T07:49:00Z",
            "User mentioned the old units are out and the family is cooking on a camping stove in the"
            " dining room.",
        ),
        (
            "2026-07-17T15:35:00Z",
            "Dave found rot under the floor by the back door. Joists need sistering, extra £650.",
        ),
        (
            "2026-07-24T22:12:00Z",
            "Belfast sink is in but the tap leaks at the base; plumber coming back Friday.",
        ),
        (
            "2026-07-25T20:51:00Z",
            "It's done! Tiling finished today and Dave left a bottle of wine on the new worktop.",
        ),
    ],
    "piano": [
        (
            "2026-03-13T10:33:00Z",
            "Bought a second-hand Yamaha digital piano for £350. Going to learn properly at 45.",
        ),
        ("2026-04-02T13:17:00Z", "First lesson with Mrs Okafor. She says my left hand is lazy."),
        (
            "2026-05-23T09:42:00Z",
            "Practising scales, C, G and F major hands together, fifteen minutes before work.",
        ),
        ("2026-06-12T15:44:00Z", "Entered for Grade 1 in November: a minuet, a blues and a folk tune."),
        (
            "2026-08-02T16:21:00Z",
            "I can finally get through the minuet without stopping, though the trill is a mess.",
        ),
        (
            "2026-08-05T13:10:00Z",
            "Oscar wants lessons now too; Mrs Okafor will take him straight after me on Thursdays.",
        ),
    ],
    "car": [
        (
            "2026-06-04T19:55:00Z",
            "The old Focus failed its MOT: corroded brake pipes and a dodgy starter motor. £1,100 to "
            "fix and it's worth about £800.",
        ),
        (
            "2026-06-20T19:29:00Z",
            "Leaning towards electric. We do about 160 miles a week between work and school runs.",
        ),
        (
            "2026-06-30T07:26:00Z",
            "Test drove a used Kia Niro EV and an MG4. The Niro's boot fits the dog crate, the MG's doesn't.",
        ),
        (
            "2026-07-17T09:54:00Z",
            "Bought the Niro: 2022, 21k miles, £17,500 after £300 part-exchange for the Focus.",
        ),
        (
            "2026-07-21T21:09:00Z",
            "Sean is fitting a 7 kW charger on the side of the house next Thursday, set up to use the"
            " solar surplus.",
        ),
        ("2026-07-23T18:23:00Z", "Charging overnight on the cheap rate costs about £4 for a full battery."),
        ("2026-08-12T22:38:00Z", "Range dropped to 190 miles on the motorway in the rain."),
    ],
    "cycle_commute": [
        ("2026-03-29T09:55:00Z", "Getting a bike through the cycle-to-work scheme, saves about 40%."),
        (
            "2026-05-16T14:12:00Z",
            "Picked a hybrid, a Trek FX 2 for £680, paid from my salary over 12 months.",
        ),
        (
            "2026-06-20T18:10:00Z",
            "First commute: seven miles, 34 minutes, arrived a sweaty mess. Need to use the showers "
            "at the office.",
        ),
        ("2026-07-17T08:31:00Z", "Puncture on the canal path, had to walk the last two miles."),
        ("2026-07-23T20:34:00Z", "Someone cut through the lock at the station and took the front wheel."),
        ("2026-08-17T07:04:00Z", "Riding in three days a week now and down 3 kg since spring."),
    ],
    "half_marathon": [
        ("2026-05-02T19:24:00Z", "Signed up for the Cardiff Half in October, aiming for under two hours."),
        ("2026-05-05T14:23:00Z", "Following a 14-week plan: three runs a week, the long one on Sundays."),
        ("2026-06-17T13:17:00Z", "10-mile long run this morning in 1:32. Knees fine."),
        (
            "2026-06-18T20:53:00Z",
            "Shin splints in my right leg. Physio says cut the mileage by a third for two weeks.",
        ),
        ("2026-07-12T18:43:00Z", "Gait analysis says I overpronate, so new shoes. £120."),
        ("2026-08-08T20:51:00Z", "New parkrun PB this morning: 25:41."),
        ("2026-08-17T08:00:00Z", "Running it for Asthma + Lung UK because of Oscar. £460 raised so far."),
    ],
    "dog": [
        (
            "2026-04-07T22:42:00Z",
            "We're adopting a rescue lurcher from the kennels at Ross! He's called Mango, three years old.",
        ),
        (
            "2026-04-13T09:59:00Z",
            "First night home he cried in the crate until 3am, then ended up on the sofa.",
        ),
        (
            "2026-05-05T09:18:00Z",
            "Separation anxiety is bad. We popped to the shops for an hour and came back to a chewed "
            "door frame, a knocked-over bin and a very sorry-looking dog. The neighbours say he "
            "howled the whole time.",
        ),
        (
            "2026-05-19T10:54:00Z",
            "Booked a behaviourist, Kirsty, £90 a session. She wants us to practise leaving for just "
            "seconds at first.",
        ),
        ("2026-05-20T20:38:00Z", "The vet found a grass seed in his paw, which explains the limping."),
        ("2026-07-23T15:21:00Z", "He can be left for forty minutes now without howling. Progress."),
        (
            "2026-07-25T11:24:00Z",
            "Got a muzzle for off-lead runs on the common, his chase instinct with squirrels is scary.",
        ),
        ("2026-08-12T08:50:00Z", "Mango's insured now: £32 a month, £7,000 of vet fees a year covered."),
    ],
    "mum_70th": [
        ("2026-03-31T07:14:00Z", "Mum turns 70 in July. Hannah and I are planning a surprise party."),
        ("2026-04-11T12:49:00Z", "Booked the function room at the cricket club for 60 people, £250."),
        (
            "2026-05-16T14:59:00Z",
            "Swapped guest lists with Hannah; she has the numbers of all Mum's old teacher friends.",
        ),
        (
            "2026-06-18T07:39:00Z",
            "Caterer quotes £19 a head for a hot buffet at the cricket club. Hannah wants a hog roast"
            " instead.",
        ),
        (
            "2026-06-22T20:27:00Z",
            "Making a slideshow of Mum's photos from the sixties on. Dad found a box of them in the loft.",
        ),
        (
            "2026-06-23T17:19:00Z",
            "Nearly blew the surprise: Mum saw the group chat on Dad's phone. We told her it was "
            "about the hen do.",
        ),
        (
            "2026-07-11T16:07:00Z",
            "The party was a triumph. She burst into tears when her school friend from Zambia walked in.",
        ),
    ],
    "sourdough": [
        (
            "2026-03-23T08:16:00Z",
            "Making a sourdough starter from scratch, rye flour and water, feeding it every day.",
        ),
        ("2026-03-29T21:35:00Z", "Day 6 and it finally doubled. Named it Bubbles."),
        ("2026-04-16T15:56:00Z", "First loaf was a brick: dense, hardly any rise."),
        (
            "2026-04-26T20:42:00Z",
            "Bought kitchen scales that do 0.1 g so I can weigh the salt for the dough properly.",
        ),
        (
            "2026-07-07T11:28:00Z",
            "Much better bake: 75% hydration, cold proof overnight in the fridge, lovely ear on the crust.",
        ),
        (
            "2026-07-20T19:25:00Z",
            "Gave a jar of Bubbles to Tomasz at work, he's already baked two loaves with it.",
        ),
    ],
}


def _mixed(found: list[Counter[str]]) -> list[Counter[str]]:
    """The semantic memories under nine in ten of whose sources are one thread's."""
    return [c for c in found if max(c.values()) < 0.9 * sum(c.values())]


def _covered(found: list[Counter[str]]) -> set[str]:
    """The threads with a semantic memory of their own (nine in ten of its sources theirs)."""
    mixed = _mixed(found)
    return {c.most_common(1)[0][0] for c in found if c not in mixed}


def test_purchases_of_different_threads_are_no_topic(  # type: ignore[no-untyped-def]
    build, sleep_driver: neo4j.Driver
) -> None:
    """A piano, a bike, running shoes, a car and a kitchen, each bought for a price: under MiniLM the
    price pattern ties them more than each is tied to its own thread, and they made one semantic
    memory of five threads. With the price pattern taken off their cosine, no memory draws from
    three threads, more threads have one of their own, and a second run changes nothing."""
    priced = sorted(t for t, episodes in THREADS.items() if any(states_money(text) for _, text in episodes))
    assert len(priced) >= 5

    without = build(ConsolidationSettings(topics=replace(TopicWeights(), priced=0.0)))
    before = topics_of(without, sleep_driver, "/user/priced-off", THREADS, {})
    assert any(len(c) >= 3 for c in _mixed(before)), before  # what the correction is for

    memory = build(None)
    found = topics_of(memory, sleep_driver, "/user/priced", THREADS, {})
    assert not any(len(c) >= 3 for c in found), found
    assert len(_covered(found)) > len(_covered(before)), (before, found)

    sources = cypher(sleep_driver, SOURCES, scope="/user/priced")
    again = memory.consolidate(["nightly"]).runs[0]
    assert {k: v for k, v in again.counts.items() if v and not k.startswith("seen_")} == {}
    assert cypher(sleep_driver, SOURCES, scope="/user/priced") == sources
