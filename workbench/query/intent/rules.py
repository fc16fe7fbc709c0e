"""The intent rules: cue tables that score six intents, and the confidence of the winner.

Rules score six intents from keyword and pattern cues. Specific cues (vs, summarize, cites,
a filter with no topic) weigh most; the interrogative form and "a bare noun phrase" are
weak cues, so "what cites X" is a relationship and "how does X differ from Y" a comparison.
Confidence is `0.5 + 0.5 * tanh(top - runner_up)`. `workbench.query.intent.detect` decides whether
the model is asked as well.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

from workbench.query.intent.words import LIBRARY_WORDS, content_words, extract_filters, without_spans

INTENTS = ("search", "metadata", "relationship", "summarize", "question", "compare")

_F = re.IGNORECASE
# "references", "related to": a relationship between papers only when the query speaks of papers
# (or names one); "Which physical time references does the clock API rely on?" asks of a paper's content.
_WEAK_RELATIONSHIP = r"\breferences?\b|\breferenced\b|\brelated\s+to\b"
# (pattern, weight) per intent, all matched case-insensitively
_CUE_PATTERNS: dict[str, tuple[tuple[str, float], ...]] = {
    "compare": (
        (r"\bvs\b\.?|\bversus\b", 1.5),
        (r"\bcompar(e|es|ed|ing|ison)\b", 1.5),
        (r"\b(difference|differences|distinction)\s+(between|of)\b", 1.5),
        (r"\bdiffers?\s+(from|between)\b|\bdifferent\s+from\b", 1.5),
        (r"\bcontrast(ing)?\b|\bsimilarities\b|\btrade-?offs?\s+between\b", 1.2),
        (r"\b(better|worse|faster|slower|stronger|weaker|(more|less)\s+\w+)\s+than\b", 1.5),
        (r"\bwhich\s+(is|one|works|performs)\b.*\bor\b", 1.2),
    ),
    "summarize": (
        (r"\bsumm?ar(y|ies|i[sz]e[sd]?|i[sz]ing)\b|\btl;?\s?dr\b|\brecap\b|\bgist\b", 1.5),
        (r"\b(key\s+)?takeaways\b|\boverview\s+of\b|\babstract\s+of\b|\bsynopsis\b", 1.2),
        (r"\bwhat('s|\s+is)\s+(the|this|that)\s+paper\b.*\babout\b", 1.5),
    ),
    "relationship": (
        (r"\bcit(e|es|ed|ing)\b|\bcitations?\b|\bbibliography\b", 1.5),
        (r"\bco-?authors?(ed)?\b|\bcollaborat\w*\b|\b(worked|works|published)\s+with\b", 1.5),
        (r"\bsimilar\s+to\b|\brelated\s+(work|papers|articles)\b|\bmore\s+like\s+(this|that|it)\b", 1.3),
        (r"\bbuil(d|ds|t)\s+(up)?on\b|\bfollow[- ]?ups?\b|\bconnected\s+to\b|\bneighbou?rs\b", 1.3),
        (r"\b(papers|work|articles)\s+related\s+to\b", 1.3),
        (_WEAK_RELATIONSHIP, 0.6),
    ),
    "metadata": (
        (r"\bhow\s+many\b|\bcount\b|^\s*(list|show)\b", 0.6),
        (r"\b(recent|latest|newest)\s+additions\b|\badded\s+(recently|last|this|today)\b", 1.2),
        (r"\b(in|to|from)\s+my\s+library\b", 0.5),
    ),
    "search": (
        (
            r"\b(papers|articles|work|studies|literature|research|publications|preprints)\s+"
            r"(on|about|regarding|concerning|into|of|covering)\b",
            1.0,
        ),
        (r"^\s*(find|search|look\s+(up|for)|show\s+me|get\s+me|fetch)\b", 0.8),
        (r"\b(anything|something|stuff)\s+(on|about|regarding)\b|^\s*do\s+i\s+have\b", 1.2),
    ),
}
_CUES: dict[str, tuple[tuple[re.Pattern[str], float], ...]] = {
    kind: tuple((re.compile(pattern, _F), weight) for pattern, weight in cues) for kind, cues in _CUE_PATTERNS.items()
}
_INTERROGATIVE = re.compile(
    r"^\s*(what|how|why|when|where|which|who|whom|whose|does|do(?!\s+i\s+have)|did|is|are|was|were|can|could|"
    r"should|would|will|has|have|had)\b|[?？]\s*$|^\s*(explain|describe|tell\s+me|clarify|elaborate|"
    r"walk\s+me\s+through|help\s+me\s+understand)\b|"
    r"(如何|怎么|怎样|为什么|为何|什么|哪些|哪个|是否|多少|なぜ|どうして|どうやって|どのよう)|"
    r"(吗|(です|ます|でしょう)か)\s*[?？]?\s*$|(^|\s)(무엇|어떻게|왜)(\s|$)",
    _F,
)
_ASPECT_OF = re.compile(r"\b(main|key)?\s*(findings|results|contributions|conclusions|methodology|methods)\s+of\b", _F)
_LIBRARY_WORD = re.compile(r"\b(papers?|articles?|works?|publications?|preprints?|studies|authors?)\b", _F)
_FACETS = re.compile(r"\b(journals|venues|authors|tags|collections|item\s+types)\b", _F)
_PAPER_REF = re.compile(
    r"(?<![\w.])@[\w:.\-]*\w|\b(zotero:\d+:[A-Za-z0-9]+|file:\S+)|[\"“‘'][^\"”’']{3,}[\"”’']|\bpaper\b|\bet\s+al\b|"
    r"\b(?:[A-Z][\w\-]*\s+){2,}(?:(?:[a-z]{1,4}\s+)?[A-Z][\w\-]*)",
)


@dataclass(frozen=True)
class RuleReading:
    """What the rules make of a query: the intent, its confidence, every cue score, and the filters."""

    kind: str
    confidence: float
    scores: dict[str, float]
    explicit: tuple[str, ...]  # filters the wording states (tags, years, authors named with "by")
    cited: tuple[str, ...]  # author and year filters from a cited reference ("Smith et al. 2019")
    spans: list[tuple[int, int]]  # character spans of the query the filters were read from


def rule_scores(query: str, topic_words: Sequence[str], has_filters: bool) -> dict[str, float]:
    """Cue scores per intent (0 when no cue fired), before the default bonus."""
    scores = dict.fromkeys(INTENTS, 0.0)
    has_ref = bool(_PAPER_REF.search(query))
    of_papers = has_ref or bool(_LIBRARY_WORD.search(query))
    for kind, cues in _CUES.items():
        counted = [(p, w) for p, w in cues if of_papers or p.pattern != _WEAK_RELATIONSHIP]
        scores[kind] += sum(weight for pattern, weight in counted if pattern.search(query))
    if has_ref and _ASPECT_OF.search(query):
        scores["summarize"] += 1.2
    if has_ref and re.search(r"\brelated\s+to\b|\breferenc(e|es|ed|ing)\b", query, _F):
        scores["relationship"] += 0.7
    library_only = not topic_words
    if library_only:
        scores["metadata"] += 1.5 if has_filters or _FACETS.search(query) else 0.0
        scores["question"] -= 0.6
        scores["search"] = 0.0
    elif scores["metadata"] > 0:
        scores["metadata"] *= 0.5
    return scores


def classify_with_rules(query: str) -> tuple[str, float, dict[str, float]]:
    """The rules' (intent, confidence, cue scores per intent) for `query`."""
    reading = read_rules(query)
    return reading.kind, reading.confidence, reading.scores


def read_rules(query: str) -> RuleReading:
    """The rules' full reading of `query`: intent, confidence, cue scores and filters."""
    explicit, cited, spans = extract_filters(query)
    rest = without_spans(query, spans)
    topic_words = [w for w in content_words(rest) if w not in LIBRARY_WORDS]
    scores = rule_scores(query, topic_words, bool(explicit or cited))
    interrogative = bool(_INTERROGATIVE.search(query))
    if interrogative and topic_words:
        scores["question"] += 0.6
    if topic_words:
        scores["search"] += 0.3
    specific = any(scores[k] > 0 for k in ("compare", "summarize", "relationship", "metadata"))
    if not specific and not (scores["search"] > 0.5 and not interrogative):
        default = "metadata" if not topic_words else "question" if interrogative else "search"
        scores[default] += 0.7
    ranked = sorted(INTENTS, key=lambda k: -scores[k])
    margin = scores[ranked[0]] - scores[ranked[1]]
    confidence = round(0.5 + 0.5 * math.tanh(max(0.0, margin)), 3)
    return RuleReading(ranked[0], confidence, scores, tuple(explicit), tuple(cited), spans)
