"""W7: recognising decisions in memory texts, offline (phrase patterns) or with an LLM.

The offline detector reads "we decided to X because Y", "decision: X", "let's go with X", "we
chose / picked / will use X", "I've decided X" and "we're going with X"; the reasoning comes from a
"because / since / as / so that / given that / due to" clause, a leading "Because Y, ...", or a
following "The reason is Y"; the domain from keywords. Questions, conditionals and
"we haven't decided yet" are not decisions.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from typing import Literal, get_args

from pydantic import BaseModel, Field

from graphmem.entities.lexicon import PRODUCT_CATEGORIES
from graphmem.entities.names import entity_key
from graphmem.errors import LLMError
from graphmem.llm.base import LLM, Usage

log = logging.getLogger(__name__)

Domain = Literal["engineering", "infra", "product", "hiring", "finance", "marketing", "personal", "general"]
DOMAINS: tuple[str, ...] = get_args(Domain)
MAX_CHOICE_CHARS = 300


def _vocabulary(words: str) -> frozenset[str]:
    """The set of the space-separated words of ``words``."""
    return frozenset(words.split())


_DOMAIN_WORDS: dict[str, frozenset[str]] = {
    "hiring": _vocabulary(
        "hire hiring hired candidate candidates recruit recruiting recruiter interview "
        "interviews offer headcount contractor contractors engineer engineers designer "
        "team-member intern interns"
    ),
    "finance": _vocabulary(
        "budget cost costs price pricing revenue invest investment funding spend spending "
        "expense expenses salary salaries payroll vendor contract subscription cheaper expensive "
        "money payments payment stripe invoice invoices"
    ),
    "marketing": _vocabulary(
        "campaign campaigns brand branding seo ads advertising newsletter social marketing "
        "audience launch-event conference blog"
    ),
    "product": _vocabulary(
        "feature features roadmap launch users user customers customer ux ui design release mvp "
        "onboarding beta pricing-page product app mobile dashboard"
    ),
    "infra": _vocabulary(
        "server servers cloud aws gcp azure kubernetes k8s docker hosting host hosted deploy "
        "deployment cluster terraform datacenter region cdn vercel heroku netlify cloudflare "
        "infra infrastructure devops ci pipeline monitoring uptime vm vms"
    ),
    "engineering": _vocabulary(
        "code codebase api database db postgres postgresql mysql sqlite mongodb redis library "
        "framework refactor architecture language python rust go typescript javascript java "
        "react django fastapi backend frontend service microservice microservices schema "
        "migration orm test tests testing bug bugs graphql grpc sdk repo monorepo queue kafka "
        "cache engineering neo4j"
    ),
    "personal": _vocabulary(
        "home apartment house car vacation holiday trip diet gym health family wedding kids "
        "school doctor move moving rent buy birthday dinner hobby"
    ),
}

_NEGATED_BEFORE = re.compile(
    r"(?:\b(?:not|never|yet\s+to|if|whether|should|would|could|might|maybe|perhaps)|n't)\s+(?:\w+\s+){0,2}$",
    re.IGNORECASE,
)
_SUBJECT = r"(?:\b(?:we|i|they|the\s+team|our\s+team|team|the\s+company|everyone)|(?-i:\b[A-Z][a-z]+))"
_HAVE = r"(?:\s*(?:'ve|\u2019ve|\s+have|\s+has|\s+had))?"
_ADVERB = r"(?:\s+(?:finally|just|now|already|officially|collectively|all))?"
_ACTION = (
    r"(?:use|go\s+with|adopt|switch\s+to|move\s+to|migrate\s+to|stick\s+with|standardi[sz]e\s+on|"
    r"keep|drop|stop\s+using|build|hire|buy|launch)"
)
_PATTERNS: tuple[re.Pattern[str], ...] = tuple(
    re.compile(p, re.IGNORECASE)
    for p in (
        _SUBJECT
        + _HAVE
        + _ADVERB
        + r"\s+(?:decided|chose|chosen|picked(?!\s+up)|selected|agreed(?=\s+(?:to|on|that)\b)|"
        r"settled(?=\s+on\b)|committed(?=\s+to\b)|opted(?=\s+(?:to|for)\b))\b\s*(?P<x>.+)",
        r"\b(?:final\s+)?decision\s*(?::|-|\u2013|\u2014|\bis\b|\bwas\b)\s*(?P<x>.+)",
        r"\blet(?:'|\u2019)?s\s+(?P<x>(?:go\s+with|stick\s+with|use|switch\s+to|move\s+to|adopt|pick|choose)\s+.+)",
        r"\b(?:we|i)\s*(?:will|'ll|\u2019ll|are\s+going\s+to|am\s+going\s+to|(?:'|\u2019)re\s+going\s+to|"
        r"are\s+gonna|(?:'|\u2019)re\s+gonna)\s+(?P<x>" + _ACTION + r"\s+.+)",
        r"\b(?:we|i)\s*(?:(?:'|\u2019)re|\s+are|\s+am|(?:'|\u2019)m)\s+going\s+with\s+(?P<x>.+)",
    )
)
_UNDECIDED = re.compile(
    r"\b(?:undecided|not\s+(?:yet\s+)?decided|haven't\s+decided|have\s+not\s+decided|"
    r"hasn't\s+decided|still\s+deciding|no\s+decision|yet\s+to\s+decide)\b",
    re.IGNORECASE,
)
_PRONOUN_START = r"(?=(?:it|its|it's|they|we|our|there|he|she|i|you)\b)"
_CLAUSE_START = r"(?=(?:it|its|it's|they|we|our|there|he|she|i|you|the|this|that|these|those)\b)"
_REASON = re.compile(
    r"\s*,?\s*\b(?:because(?:\s+of)?|given\s+that|due\s+to|so\s+that|in\s+order\s+to|"
    r"since\s+" + _CLAUSE_START + r"|as\s+" + _PRONOUN_START + r")\s*(?P<y>.+)$",
    re.IGNORECASE,
)
_LEADING_REASON = re.compile(r"^\s*(?:because|since|as|given\s+that)\s+(?P<y>[^,]+),", re.IGNORECASE)
_FOLLOWING_REASON = re.compile(
    r"^\s*(?:the\s+reason\s+(?:is|was|being)|reason:|(?:that's|this\s+is|that\s+is)\s+because|because)"
    r"\s*(?:that\s+)?(?P<y>.+)$",
    re.IGNORECASE,
)
_LEAD_WORDS = re.compile(
    r"^(?:to|on|upon|for|that|we(?:'ll|\u2019ll|\s+will|\s+should|\s+would)?|i(?:'ll|\u2019ll|\s+will)?|"
    r"(?:we|i)\s+(?:are|am)\s+going\s+to)\s+",
    re.IGNORECASE,
)
_SENTENCES = re.compile(r"[^.!?\n]+(?:[.!?]+|$)")
_SPEAKER_PREFIX = re.compile(r"^\s*[A-Z][\w.'-]{0,40}(?: [A-Z][\w.'-]{0,40})?\s*:\s+")


class DecisionDraft(BaseModel):
    """A decision read from a text, before it is stored."""

    text: str = Field(description="the sentence stating the decision")
    choice: str = Field(description="what was decided, e.g. 'use PostgreSQL for the main database'")
    reasoning: str = Field(default="", description="why, when the text says so; else empty")
    domain: Domain = Field(default="general")
    outcome: str | None = Field(default=None, description="how it turned out, if the text says; else null")


def classify_domain(text: str) -> Domain:
    """The domain whose keywords ``text`` uses most; ``general`` if none.

    Known products count too: a cloud for ``infra``, any other for ``engineering``. Ties go to
    the more specific domain (hiring, finance, marketing, product, infra, engineering, personal).
    """
    words = [w.rstrip(".") for w in re.findall(r"[a-z0-9][a-z0-9+#.-]*", text.lower())]
    products = [PRODUCT_CATEGORIES.get(entity_key(w), frozenset()) for w in words]
    extra = {
        "infra": sum(1 for c in products if "cloud" in c),
        "engineering": sum(1 for c in products if c and "cloud" not in c),
    }
    best: tuple[int, str] = (0, "general")
    for domain, vocabulary in _DOMAIN_WORDS.items():
        score = sum(1 for w in words if w in vocabulary) + extra.get(domain, 0)
        if score > best[0]:
            best = (score, domain)
    return best[1]  # type: ignore[return-value]


def _clean(fragment: str) -> str:
    text = " ".join(fragment.split()).strip(" ,;:-\u2013\u2014")
    return text.rstrip(".!").strip()


def _split_reason(tail: str) -> tuple[str, str]:
    """(choice, reasoning) of what follows the decision verb."""
    match = _REASON.search(tail)
    if match is None or match.start() == 0:
        return _clean(tail), ""
    return _clean(tail[: match.start()]), _clean(match.group("y"))


def _decision_in(sentence: str) -> tuple[str, str] | None:
    """(choice, reasoning) when ``sentence`` states a decision."""
    if sentence.rstrip().endswith("?") or _UNDECIDED.search(sentence):
        return None
    for pattern in _PATTERNS:
        match = pattern.search(sentence)
        if match is None or _NEGATED_BEFORE.search(sentence[: match.start()]):
            continue
        tail = _LEAD_WORDS.sub("", match.group("x").strip())
        tail = _LEAD_WORDS.sub("", tail)
        choice, reasoning = _split_reason(tail)
        lead = _LEADING_REASON.match(sentence[: match.start()] + ",")
        if not reasoning and lead is not None:
            reasoning = _clean(lead.group("y"))
        if len(choice) >= 2:
            return choice[:MAX_CHOICE_CHARS], reasoning
    return None


def detect_decision(text: str) -> DecisionDraft | None:
    """The first decision ``text`` states, or None. Pure; raises nothing."""
    prefix = _SPEAKER_PREFIX.match(text)
    body = text
    if prefix is not None and "decision" not in prefix.group(0).lower():
        body = text[prefix.end() :]
    sentences = [s.strip() for s in _SENTENCES.findall(body) if s.strip()]
    for i, sentence in enumerate(sentences):
        found = _decision_in(sentence)
        if found is None:
            continue
        choice, reasoning = found
        if not reasoning and i + 1 < len(sentences):
            following = _FOLLOWING_REASON.match(sentences[i + 1])
            if following is not None:
                reasoning = _clean(following.group("y"))
        return DecisionDraft(
            text=_clean(sentence) or choice,
            choice=choice,
            reasoning=reasoning,
            domain=classify_domain(f"{choice} {reasoning}"),
        )
    return None


class _Detected(BaseModel):
    """Whether one numbered text states a decision, and if so which."""

    index: int = Field(description="the number of the text, as given")
    is_decision: bool = Field(description="true only when the text states something decided, not proposed")
    decision: DecisionDraft | None = None


class DetectedDecisions(BaseModel):
    """For each numbered text, the decision it states (made, not merely proposed or asked about)."""

    texts: list[_Detected] = Field(default_factory=list)


SYSTEM = (
    "You keep a ledger of decisions. For each numbered text, say whether it states a decision that was "
    "made (not a proposal, a question, or something still open). For a decision give the sentence that "
    "states it, what was chosen, the reasoning the text gives (empty if none), the domain, and the "
    "outcome only if the text reports one."
)
DEFAULT_TEXTS_PER_CALL = 25


_CUE = re.compile(
    r"\b(decid\w*|decision|chose|choose|chosen|picked|pick|go(?:ing)? with|settled on|opted|opt for|"
    r"will use|we'll use|switch(?:ed|ing)? to|adopt\w*|revert\w*|reverse\w*|drop(?:ped)?|plan to)\b",
    re.IGNORECASE,
)


def has_decision_cue(text: str) -> bool:
    """Whether ``text`` has a word that announces a decision (worth asking the model about)."""
    return _CUE.search(text) is not None


class DecisionDetector:
    """Finds decisions in a batch of texts: one LLM call per ``texts_per_call`` texts, offline otherwise.

    Without a model, or when a call fails (LLMError), the offline detector answers for the texts
    that call covered; a text the answer leaves out gets the offline answer too.
    """

    def __init__(self, llm: LLM, *, texts_per_call: int = DEFAULT_TEXTS_PER_CALL) -> None:
        self._llm = llm
        self._texts_per_call = max(1, texts_per_call)

    def detect_batch(self, texts: Sequence[str]) -> tuple[list[DecisionDraft | None], Usage]:
        """The decision of each text (None for none), in input order, and what the calls cost."""
        found: list[DecisionDraft | None] = [None] * len(texts)
        cued = [i for i, t in enumerate(texts) if self._llm.available and has_decision_cue(t)]
        asked = set(cued)
        for i, text in enumerate(texts):
            if i not in asked:
                found[i] = detect_decision(text)
        usage = Usage()
        # Only texts with a decision cue go to the model: a batch of plain facts costs no call.
        for start in range(0, len(cued), self._texts_per_call):
            chunk = cued[start : start + self._texts_per_call]
            drafts, spent = self._ask([texts[i] for i in chunk], 0)
            for i, draft in zip(chunk, drafts, strict=True):
                found[i] = draft
            usage += spent
        return found, usage

    def _ask(self, texts: list[str], offset: int) -> tuple[list[DecisionDraft | None], Usage]:
        prompt = "Texts:\n" + "\n".join(f"[{offset + i}] {t}" for i, t in enumerate(texts))
        try:
            reply = self._llm.structured(
                task="decisions", system=SYSTEM, prompt=prompt, output=DetectedDecisions, max_tokens=2048
            )
        except LLMError as e:
            log.warning("decision detection falls back to the offline detector: %s", e)
            return [detect_decision(t) for t in texts], Usage(calls=1)
        answered = {item.index - offset: item for item in reply.value.texts}
        drafts: list[DecisionDraft | None] = []
        for i, text in enumerate(texts):
            item = answered.get(i)
            if item is None:
                drafts.append(detect_decision(text))
            elif item.is_decision and item.decision is not None and item.decision.choice.strip():
                drafts.append(item.decision)
            else:
                drafts.append(None)
        return drafts, reply.usage
