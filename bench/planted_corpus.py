"""A generated corpus with planted topics: each topic is told in many paraphrased episodes.

The consolidation benchmark checks that C1 finds these topics again. Every topic has a subject, a
few ways of naming what it is about, and details; the templates vary the wording, so two episodes
of one topic share meaning, not sentences. Noise episodes are one-offs about unrelated things.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

# (what the topic is about, in three wordings; details that vary between episodes)
TOPICS: list[tuple[tuple[str, str, str], tuple[str, ...]]] = [
    (("cello lessons", "learning the cello", "practising the cello"), ("Bach suites", "bow hold", "scales")),
    (
        ("the Berlin marathon", "marathon training", "long-distance running"),
        ("a 30 km run", "new running shoes", "interval sessions"),
    ),
    (
        ("the kitchen renovation", "redoing the kitchen", "the new kitchen"),
        ("the extractor fan", "the plumber's visit", "a new induction hob"),
    ),
    (
        ("sourdough baking", "baking sourdough bread", "the sourdough starter"),
        ("rye flour", "a dutch oven", "the overnight proof"),
    ),
    (
        ("the Postgres migration", "moving the database to Postgres", "migrating off MySQL"),
        ("schema diffs", "replication lag", "the cutover plan"),
    ),
    (
        ("Spanish classes", "learning Spanish", "studying Spanish"),
        ("irregular verbs", "the subjunctive", "a tutor from Madrid"),
    ),
    (("the dog Max", "walking Max the beagle", "Max the dog"), ("the vet", "a new leash", "the dog park")),
    (
        ("the Japan trip", "travelling to Japan", "the holiday in Japan"),
        ("Kyoto temples", "a rail pass", "ryokan bookings"),
    ),
    (
        ("rock climbing", "bouldering at the gym", "climbing walls"),
        ("a V4 problem", "chalk and shoes", "finger strength"),
    ),
    (
        ("the mortgage application", "applying for a mortgage", "the home loan"),
        ("the interest rate", "the surveyor", "the deposit"),
    ),
    (("the vegetable garden", "growing vegetables", "the allotment"), ("tomato plants", "slugs", "compost")),
    (
        ("chess practice", "playing chess online", "studying chess openings"),
        ("the Sicilian defence", "blitz games", "endgame puzzles"),
    ),
    (
        ("the wedding planning", "organising the wedding", "the wedding in June"),
        ("the venue", "the guest list", "the caterer"),
    ),
    (
        ("the knee injury", "physiotherapy for the knee", "the sore knee"),
        ("ligament exercises", "an MRI scan", "ice packs"),
    ),
    (
        ("the Kubernetes cluster", "running services on Kubernetes", "the k8s upgrade"),
        ("helm charts", "node pools", "pod evictions"),
    ),
    (
        ("the podcast", "recording the podcast", "the weekly podcast episode"),
        ("a new microphone", "guest interviews", "audio editing"),
    ),
    (
        ("the book club", "the monthly book club", "reading for book club"),
        ("a Murakami novel", "the discussion night", "next month's pick"),
    ),
    (
        ("the electric car", "driving the new EV", "charging the electric car"),
        ("the home charger", "range on the motorway", "battery health"),
    ),
    (
        ("the startup fundraising", "raising the seed round", "pitching to investors"),
        ("the pitch deck", "term sheets", "a lead investor"),
    ),
    (
        ("the piano recital", "preparing for the piano recital", "the recital in May"),
        ("a Chopin nocturne", "stage nerves", "daily practice"),
    ),
    (
        ("the sleep problems", "trouble sleeping", "insomnia at night"),
        ("melatonin", "no screens before bed", "waking at 3am"),
    ),
    (
        ("the photography hobby", "taking photos with the new camera", "landscape photography"),
        ("a wide-angle lens", "golden hour", "editing in Lightroom"),
    ),
    (
        (
            "the hiring for the data team",
            "recruiting data engineers",
            "interviewing candidates for the data team",
        ),
        ("the take-home task", "a senior candidate", "the offer letter"),
    ),
    (
        ("the flaky CI pipeline", "the unreliable build pipeline", "CI failures"),
        ("timeouts in tests", "a retry policy", "cached dependencies"),
    ),
    (
        ("the daughter's school", "Emma's new school", "the school run for Emma"),
        ("the parent evening", "homework help", "the school bus"),
    ),
    (
        ("coffee roasting", "roasting coffee beans at home", "the home coffee roaster"),
        ("Ethiopian beans", "first crack", "a burr grinder"),
    ),
    (
        ("the yoga practice", "morning yoga", "yoga classes"),
        ("sun salutations", "a new mat", "breathing exercises"),
    ),
    (
        ("the apartment hunt", "looking for a new flat", "searching for an apartment"),
        ("viewings on Saturday", "the rent budget", "a flat near the park"),
    ),
    (
        ("the vintage motorbike", "restoring the old motorbike", "the 1970s Honda"),
        ("the carburettor", "a rusty frame", "spare parts"),
    ),
    (
        ("the beekeeping", "keeping bees", "the beehives in the garden"),
        ("the queen bee", "honey harvest", "a bee suit"),
    ),
    (
        ("the tax return", "filing taxes", "the annual tax return"),
        ("the self-assessment form", "HMRC", "the filing deadline"),
    ),
    (
        ("the mobile app launch", "launching the mobile app", "the app release"),
        ("the App Store review", "beta testers", "crash reports"),
    ),
    (
        ("the salsa dancing", "salsa classes", "dancing salsa on Thursdays"),
        ("a new partner", "the spins", "the Friday social"),
    ),
    (
        ("the aquarium", "the fish tank", "keeping tropical fish"),
        ("neon tetras", "water filters", "the pH level"),
    ),
    (
        ("the climate conference", "the talk at the climate conference", "presenting at the climate summit"),
        ("the slides", "carbon data", "the panel"),
    ),
    (
        ("the grandmother's health", "looking after grandma", "grandma's hospital visits"),
        ("her blood pressure", "the care home", "weekend visits"),
    ),
    (
        ("the woodworking", "building furniture in the workshop", "making a table from walnut"),
        ("a table saw", "dovetail joints", "wood finish"),
    ),
    (
        ("the cycling commute", "cycling to work", "riding the bike to the office"),
        ("the bike lane", "rain gear", "a puncture"),
    ),
    (
        ("the machine learning course", "the online ML course", "studying machine learning"),
        ("gradient descent", "the final project", "neural networks"),
    ),
    (
        ("the wine tasting", "learning about wine", "the wine course"),
        ("Burgundy reds", "tasting notes", "the sommelier"),
    ),
    (
        ("the security audit", "the penetration test", "the audit of our security"),
        ("open ports", "the auditor's report", "password policies"),
    ),
    (
        ("the surfing lessons", "learning to surf", "surfing in Cornwall"),
        ("a foam board", "catching waves", "the wetsuit"),
    ),
    (
        ("the allergy to cats", "being allergic to cats", "the cat allergy"),
        ("antihistamines", "sneezing fits", "the allergist"),
    ),
    (
        ("the chili cook-off", "the chili competition", "cooking chili for the contest"),
        ("smoked chipotle", "the judges", "a secret spice mix"),
    ),
    (
        ("the solar panels", "installing solar panels", "the rooftop solar"),
        ("the inverter", "the installer's quote", "feed-in tariff"),
    ),
    (
        ("the pottery class", "throwing pots on the wheel", "ceramics evenings"),
        ("glazing", "the kiln", "a wobbly bowl"),
    ),
    (
        ("the pricing change", "changing the subscription pricing", "the new price tiers"),
        ("churn numbers", "the enterprise tier", "customer emails"),
    ),
    (
        ("the astronomy", "stargazing with the telescope", "watching the night sky"),
        ("Jupiter's moons", "a dark-sky site", "the star chart"),
    ),
    (
        ("the choir", "singing in the choir", "choir rehearsals"),
        ("the tenor section", "the Christmas concert", "sight-reading"),
    ),
    (
        ("the car accident", "the insurance claim after the crash", "the fender bender"),
        ("the body shop", "the other driver", "a police report"),
    ),
]

TEMPLATES: tuple[str, ...] = (
    "Spent most of the evening on {a}; {d} took longer than expected.",
    "Had a frustrating day with {a} because of {d}.",
    "Finally some progress on {a}: {d} is sorted now.",
    "Talked to a friend about {a} and especially {d}.",
    "{A} is going well this week, mostly thanks to {d}.",
    "Made a note to look into {d} for {a}.",
    "Another weekend dedicated to {a}, focusing on {d}.",
    "Read an article about {d} that could help with {a}.",
    "Worried about {a}; {d} keeps being a problem.",
    "Bought what I needed for {a}, including {d}.",
    "Set a goal for {a} this month: get {d} right.",
    "Told my partner that {a} is taking a lot of my time, {d} in particular.",
    "Watched a video on {d} while thinking about {a}.",
    "Can't stop thinking about {a}, and {d} is the part I enjoy.",
    "Scheduled time on Tuesday for {a} and {d}.",
    "Reflected on how {a} has changed my routine; {d} is now a habit.",
    "Asked an expert for advice on {a}; they suggested working on {d}.",
    "Wrote down lessons from {a}: {d} matters more than I thought.",
    "Got good news about {a} today regarding {d}.",
    "Gave myself a break from {a}, but {d} is still on my mind.",
)

NOISE: tuple[str, ...] = (
    "The train to the airport was delayed by twenty minutes.",
    "My neighbour repainted her front door bright yellow.",
    "The supermarket has stopped selling my favourite cereal.",
    "I found an old postcard from my uncle in a drawer.",
    "It snowed briefly in the morning and melted by noon.",
    "The library changed its opening hours to 9 to 5.",
    "A new ramen place opened across the street.",
    "My phone screen cracked when I dropped it on the stairs.",
    "The electricity went out for an hour during the storm.",
    "I lost my umbrella somewhere on the bus.",
    "The office coffee machine is broken again.",
    "A parcel for someone else was delivered to my door.",
    "We watched a documentary about deep sea creatures.",
    "The river flooded the path near the old mill.",
    "I renewed my passport and the photo looks terrible.",
    "There was a street festival with live jazz downtown.",
    "My cousin is moving to New Zealand next year.",
    "The dentist said I need to floss more often.",
    "I tried a pineapple pizza and did not hate it.",
    "The lift in our building was out of order all week.",
    "A fox has been digging in the bins at night.",
    "The museum has a new exhibition about Roman coins.",
    "I forgot my keys at work and had to go back.",
    "The local bakery now closes on Mondays.",
    "Someone left a piano on the pavement with a free sign.",
    "I finally cleaned out the garage on Sunday.",
    "The town is building a roundabout at the crossroads.",
    "My old laptop battery barely lasts an hour now.",
    "A hot air balloon landed in the field behind the school.",
    "I learned that octopuses have three hearts.",
    "The water bill this quarter was unusually high.",
    "The power company sent a letter about smart meters.",
    "My favourite band announced a reunion tour.",
    "I got a parking ticket outside the pharmacy.",
    "The neighbours' kids built a treehouse.",
    "Our internet provider raised prices again.",
    "The bus driver wished everyone a happy new year.",
    "I spilled tea on the sofa and it left a stain.",
    "The price of petrol dropped a little this week.",
    "A seagull stole a chip right out of my hand at the beach.",
)


@dataclass(frozen=True)
class PlantedEpisode:
    """One generated episode and the topic it was planted in (-1 for noise)."""

    text: str
    topic: int


def planted_corpus(
    topics: int = 50, per_topic: int = 20, noise: int = 40, seed: int = 7
) -> list[PlantedEpisode]:
    """``topics`` x ``per_topic`` paraphrased episodes plus ``noise`` one-offs, shuffled."""
    if topics > len(TOPICS) or noise > len(NOISE) or per_topic > len(TEMPLATES):
        raise ValueError(f"at most {len(TOPICS)} topics, {len(TEMPLATES)} per topic, {len(NOISE)} noise")
    rng = random.Random(seed)
    episodes: list[PlantedEpisode] = []
    for t, (wordings, details) in enumerate(TOPICS[:topics]):
        for i, template in enumerate(rng.sample(TEMPLATES, per_topic)):
            about = wordings[i % len(wordings)]
            text = template.format(a=about, A=about[0].upper() + about[1:], d=rng.choice(details))
            episodes.append(PlantedEpisode(text, t))
    episodes.extend(PlantedEpisode(text, -1) for text in NOISE[:noise])
    rng.shuffle(episodes)
    return episodes


def adjusted_rand_index(truth: list[int], found: list[int]) -> float:
    """ARI of two labelings of the same items (Hubert & Arabie); -1 labels count as singletons."""
    if len(truth) != len(found):
        raise ValueError("the labelings must have the same length")
    n = len(truth)
    a = _singletons(truth)
    b = _singletons(found)
    pairs: dict[tuple[int, int], int] = {}
    rows: dict[int, int] = {}
    cols: dict[int, int] = {}
    for x, y in zip(a, b, strict=True):
        pairs[(x, y)] = pairs.get((x, y), 0) + 1
        rows[x] = rows.get(x, 0) + 1
        cols[y] = cols.get(y, 0) + 1
    index = sum(_choose2(v) for v in pairs.values())
    sum_rows = sum(_choose2(v) for v in rows.values())
    sum_cols = sum(_choose2(v) for v in cols.values())
    expected = sum_rows * sum_cols / _choose2(n) if n > 1 else 0.0
    maximum = (sum_rows + sum_cols) / 2
    if maximum == expected:
        return 1.0
    return (index - expected) / (maximum - expected)


def _choose2(k: int) -> float:
    return k * (k - 1) / 2


def _singletons(labels: list[int]) -> list[int]:
    top = max([x for x in labels if x >= 0], default=-1)
    out: list[int] = []
    for x in labels:
        if x < 0:
            top += 1
            out.append(top)
        else:
            out.append(x)
    return out
