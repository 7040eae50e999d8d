"""W3's deterministic fallback: categories and importance of a memory from its words alone.

Categories come in two kinds: what the memory is (fact, preference, instruction, routine, decision,
plan, event; 'fact' when nothing else fits) and what it is about (work, health, relationship,
hobby; only when their words occur). Importance follows the most important category, raised by
words such as 'important' or 'critical', and lowered for small talk and very short texts.
"""

from __future__ import annotations

import re

from graphmem.write.decompose import is_chit_chat

DEFAULT_IMPORTANCE = 0.5
SMALL_TALK_IMPORTANCE = 0.3
MAX_IMPORTANCE = 0.95
EMPHASIS_BONUS = 0.1
SHORT_WORDS = 4

_DAYS = r"(?:mon|tues|wednes|thurs|fri|satur|sun)day"
_PERIODS = rf"(?:day|morning|evening|night|week|weekend|month|year|{_DAYS})"


def _words(*patterns: str) -> re.Pattern[str]:
    return re.compile(r"\b(?:" + "|".join(patterns) + r")\b", re.I)


KIND_RULES: dict[str, re.Pattern[str]] = {
    "instruction": re.compile(
        r"^(?:please\s+)?(?:always|never|don'?t|do not|stop|avoid|make sure|remember to|use|call me|"
        r"reply|respond|answer|write|speak|no more|remind)\b"
        r"|\b(?:from now on|in (?:the )?future|going forward|you should|you must|i want you to|"
        r"the user wants the assistant|make sure to)\b",
        re.I,
    ),
    "preference": _words(
        r"prefers?",
        "preferred",
        "preference",
        r"likes?",
        r"loves?",
        r"enjoys?",
        r"hates?",
        r"dislikes?",
        r"favou?rites?",
        "rather",
        "fan of",
        r"can'?t stand",
        "not a fan",
    ),
    "routine": _words(
        rf"every(?: other)? {_PERIODS}",
        rf"each {_PERIODS}",
        "daily",
        "weekly",
        "monthly",
        "nightly",
        "usually",
        "typically",
        "normally",
        "routine",
        "habit",
        "always",
        rf"on {_DAYS}s",
        "on weekends",
        r"every \d+ (?:days|weeks|hours)",
        "twice a",
        "once a",
    ),
    "decision": _words(
        "decided",
        "decide",
        "decision",
        "chose",
        "chosen",
        "choose",
        "going with",
        "agreed",
        "settled on",
        "opted",
        "picked",
        "approved",
        "rejected",
        "signed off",
    ),
    "plan": _words(
        "will",
        r"\w+'ll",
        "going to",
        "gonna",
        r"plan(?:s|ned|ning)?",
        "intends?",
        rf"next {_PERIODS}",
        "tomorrow",
        "upcoming",
        "soon",
        "later this",
        r"hopes? to",
        r"scheduled",
        "deadline",
        "due",
        "remind",
    ),
    "event": _words(
        "yesterday",
        rf"last {_PERIODS}",
        r"\d+ (?:days|weeks|months|years) ago",
        "went to",
        "visited",
        "attended",
        "met",
        "happened",
        "celebrated",
        "graduated",
        "was born",
        "passed away",
        "died",
        "took place",
        r"on \d{1,2}(?:st|nd|rd|th)?",
        "wedding",
        "birthday",
    ),
}
TOPIC_RULES: dict[str, re.Pattern[str]] = {
    "work": _words(
        r"works?",
        "worked",
        "working",
        "job",
        "office",
        r"colleagues?",
        r"co-?workers?",
        "manager",
        "boss",
        r"meetings?",
        r"projects?",
        r"deadlines?",
        r"clients?",
        "team",
        "company",
        "employer",
        "career",
        r"promot\w*",
        "salary",
        "sprint",
        "standup",
        r"deploy\w*",
        "release",
        "codebase",
        r"repo\w*",
        "engineer",
        "developer",
        r"interviews?",
        "hired",
        "fired",
        "startup",
        "okrs?",
        r"stakeholders?",
        "presentation",
        r"customers?",
    ),
    "health": _words(
        r"allerg\w*",
        r"doctors?",
        r"medic\w*",
        r"diabet\w*",
        "asthma",
        r"diagnos\w*",
        "sick",
        "illness",
        "pain",
        "surgery",
        r"therap\w*",
        "blood pressure",
        r"pregnan\w*",
        r"injur\w*",
        "hospital",
        r"symptoms?",
        r"prescri\w*",
        "anxiety",
        r"depress\w*",
        "migraines?",
        "insomnia",
        "vegan",
        "vegetarian",
        "gluten",
        "lactose",
        "diet",
        r"\d+ ?mg",
        "dentist",
        "physio",
        "covid",
        "flu",
    ),
    "relationship": _words(
        "wife",
        "husband",
        "partner",
        "girlfriend",
        "boyfriend",
        "spouse",
        r"sisters?",
        r"brothers?",
        r"siblings?",
        "mother",
        "father",
        "mom",
        "mum",
        "dad",
        r"parents?",
        r"sons?",
        r"daughters?",
        r"kids?",
        "child",
        "children",
        "baby",
        r"friends?",
        "married",
        "divorced",
        "family",
        r"cousins?",
        "aunt",
        "uncle",
        "niece",
        "nephew",
        r"grand\w+",
        "dating",
        "engaged",
        r"fianc\w*",
        r"in-laws?",
        "roommate",
        r"neighbou?rs?",
    ),
    "hobby": _words(
        r"hobb(?:y|ies)",
        r"hik\w*",
        "running",
        "jogging",
        r"swim\w*",
        "guitar",
        "piano",
        "violin",
        "drums",
        "painting",
        "drawing",
        "reading",
        "novels",
        "gaming",
        "video games",
        "chess",
        "photography",
        "cooking",
        "baking",
        "yoga",
        r"climb\w*",
        "bouldering",
        r"cycl\w*",
        "biking",
        "fishing",
        "gardening",
        "knitting",
        "surfing",
        "skiing",
        "snowboarding",
        "football",
        "soccer",
        "tennis",
        "basketball",
        "golf",
        "dancing",
        "singing",
        "camping",
        "pottery",
        "woodworking",
        "crosswords?",
        "puzzles?",
        "board games",
        r"marathons?",
        r"sketch\w*",
    ),
}
IMPORTANCE_BY_CATEGORY = {
    "instruction": 0.8,
    "health": 0.8,
    "decision": 0.75,
    "preference": 0.6,
    "plan": 0.6,
    "relationship": 0.6,
    "routine": 0.55,
    "work": 0.55,
    "event": 0.5,
    "hobby": 0.5,
    "fact": DEFAULT_IMPORTANCE,
}
_EMPHASIS = _words(
    "important",
    "critical",
    "crucial",
    "urgent",
    "essential",
    "never forget",
    "always remember",
    "emergency",
    "life-threatening",
    "severe",
)


def infer_categories(text: str) -> list[str]:
    """The categories ``text`` belongs to: its kinds (default 'fact'), then its topics."""
    kinds = [name for name, rule in KIND_RULES.items() if rule.search(text)]
    if (
        "instruction" in kinds
        and "routine" in kinds
        and not KIND_RULES["routine"].search(re.sub(r"^(?:please\s+)?always\b", "", text.strip(), flags=re.I))
    ):
        kinds.remove("routine")  # "Always answer in French" is an instruction, not a habit
    topics = [name for name, rule in TOPIC_RULES.items() if rule.search(text)]
    return (kinds or ["fact"]) + topics


def infer_importance(text: str, categories: list[str]) -> float:
    """Importance 0..1 of ``text`` given its ``categories`` (unknown categories count as 'fact')."""
    known = [IMPORTANCE_BY_CATEGORY[c] for c in categories if c in IMPORTANCE_BY_CATEGORY]
    score = max(known, default=DEFAULT_IMPORTANCE)
    meaningful = any(c != "fact" and c in IMPORTANCE_BY_CATEGORY for c in categories)
    if is_chit_chat(text) or (len(text.split()) < SHORT_WORDS and not meaningful):
        return SMALL_TALK_IMPORTANCE
    if _EMPHASIS.search(text):
        score += EMPHASIS_BONUS
    return round(min(score, MAX_IMPORTANCE), 2)
