"""Intent detection: fast deterministic rules first, the llama.cpp model only when rules are unsure.

Rules score six intents from keyword and pattern cues. Specific cues (vs, summarize, cites,
a filter with no topic) weigh most; the interrogative form and "a bare noun phrase" are
weak cues, so "what cites X" is a relationship and "how does X differ from Y" a comparison.
Confidence is `0.5 + 0.5 * tanh(top - runner_up)`.

Combination rule, used only when rule confidence < `rule_threshold` and a model is given:
the model answers with JSON constrained to `{"intent": enum, "confidence": number}`.
  * model agrees with the rules: that intent, confidence `1 - (1 - rules)(1 - model)`,
    source "rules+model";
  * model disagrees: its intent wins (source "model", its confidence) when the rules had it
    as a decent second opinion (cue score >= MODEL_SUPPORT x the rules' top score) or the
    rules were nearly tied (confidence < RULES_TIED); otherwise the rules' intent stays
    (source "rules+model"). The model thus breaks ties among intents the rules found
    plausible but cannot pull a query to an intent with no cue. Why: with the model forced
    on every labelled query, SmolLM2-135M alone scored 0.48, this rule 0.98, and "the model
    wins unless the rules were sure" 0.90 (`workbench bench intent`).
Any model error or unusable reply leaves the rules' answer with a line in `warnings`.

Filters, target, depth and sub-queries always come from the rules; the model only picks the
class. Filters use the `--filter` syntax of `workbench.stores.chunks.parse_filter`.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, TypeVar

from workbench.llm.base import LanguageModel, Message, ModelError
from workbench.llm.prompts import PROMPTS_DIR

INTENTS = ("search", "metadata", "relationship", "summarize", "question", "compare")
DEPTHS = ("quick", "targeted", "comprehensive", "full")
MODEL_SUPPORT = 0.5  # the model's intent needs this fraction of the rules' top cue score to win
RULES_TIED = 0.55  # rule confidence below this (cue margin < 0.1) lets the model decide outright
INTENT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"intent": {"type": "string", "enum": list(INTENTS)}, "confidence": {"type": "number"}},
    "required": ["intent", "confidence"],
}
T = TypeVar("T")


@dataclass(frozen=True)
class Intent:
    """What a query asks for, and the filters, target, depth and sub-queries the plan needs."""

    kind: str
    confidence: float
    source: str  # "rules", "model" or "rules+model"
    filters: tuple[str, ...] = ()
    subqueries: tuple[str, ...] = ()
    target: str | None = None
    depth: str | None = None
    topic: str = ""
    warnings: tuple[str, ...] = ()


_F = re.IGNORECASE
_CUES: dict[str, tuple[tuple[re.Pattern[str], float], ...]] = {
    "compare": (
        (re.compile(r"\bvs\b\.?|\bversus\b", _F), 1.5),
        (re.compile(r"\bcompar(e|es|ed|ing|ison)\b", _F), 1.5),
        (re.compile(r"\b(difference|differences|distinction)\s+(between|of)\b", _F), 1.5),
        (re.compile(r"\bdiffers?\s+(from|between)\b|\bdifferent\s+from\b", _F), 1.5),
        (re.compile(r"\bcontrast(ing)?\b|\bsimilarities\b|\btrade-?offs?\s+between\b", _F), 1.2),
        (re.compile(r"\b(better|worse|faster|slower|stronger|weaker|(more|less)\s+\w+)\s+than\b", _F), 1.5),
        (re.compile(r"\bwhich\s+(is|one|works|performs)\b.*\bor\b", _F), 1.2),
    ),
    "summarize": (
        (re.compile(r"\bsumm?ar(y|ies|i[sz]e[sd]?|i[sz]ing)\b|\btl;?\s?dr\b|\brecap\b|\bgist\b", _F), 1.5),
        (re.compile(r"\b(key\s+)?takeaways\b|\boverview\s+of\b|\babstract\s+of\b|\bsynopsis\b", _F), 1.2),
        (re.compile(r"\bwhat('s|\s+is)\s+(the|this|that)\s+paper\b.*\babout\b", _F), 1.5),
    ),
    "relationship": (
        (re.compile(r"\bcit(e|es|ed|ing)\b|\bcitations?\b|\bbibliography\b", _F), 1.5),
        (re.compile(r"\bco-?authors?(ed)?\b|\bcollaborat\w*\b|\b(worked|works|published)\s+with\b", _F), 1.5),
        (
            re.compile(r"\bsimilar\s+to\b|\brelated\s+(work|papers|articles)\b|\bmore\s+like\s+(this|that|it)\b", _F),
            1.3,
        ),
        (re.compile(r"\bbuil(d|ds|t)\s+(up)?on\b|\bfollow[- ]?ups?\b|\bconnected\s+to\b|\bneighbou?rs\b", _F), 1.3),
        (re.compile(r"\b(papers|work|articles)\s+related\s+to\b", _F), 1.3),
        (re.compile(r"\breferences?\b|\breferenced\b|\brelated\s+to\b", _F), 0.6),
    ),
    "metadata": (
        (re.compile(r"\bhow\s+many\b|\bcount\b|^\s*(list|show)\b", _F), 0.6),
        (re.compile(r"\b(recent|latest|newest)\s+additions\b|\badded\s+(recently|last|this|today)\b", _F), 1.2),
        (re.compile(r"\b(in|to|from)\s+my\s+library\b", _F), 0.5),
    ),
    "search": (
        (
            re.compile(
                r"\b(papers|articles|work|studies|literature|research|publications|preprints)\s+"
                r"(on|about|regarding|concerning|into|of|covering)\b",
                _F,
            ),
            1.0,
        ),
        (re.compile(r"^\s*(find|search|look\s+(up|for)|show\s+me|get\s+me|fetch)\b", _F), 0.8),
        (re.compile(r"\b(anything|something|stuff)\s+(on|about|regarding)\b|^\s*do\s+i\s+have\b", _F), 1.2),
    ),
}
_INTERROGATIVE = re.compile(
    r"^\s*(what|how|why|when|where|which|who|whom|whose|does|do(?!\s+i\s+have)|did|is|are|was|were|can|could|"
    r"should|would|will|has|have|had)\b|\?\s*$|^\s*(explain|describe|tell\s+me|clarify|elaborate|"
    r"walk\s+me\s+through|help\s+me\s+understand)\b",
    _F,
)
_ASPECT_OF = re.compile(r"\b(main|key)?\s*(findings|results|contributions|conclusions|methodology|methods)\s+of\b", _F)
_FACETS = re.compile(r"\b(journals|venues|authors|tags|collections|item\s+types)\b", _F)
_PAPER_REF = re.compile(
    r"(?<![\w.])@[\w:.\-]*\w|\b(zotero:\d+:[A-Za-z0-9]+|file:\S+)|[\"“‘'][^\"”’']{3,}[\"”’']|\bpaper\b|\bet\s+al\b|"
    r"\b(?:[A-Z][\w\-]*\s+){2,}(?:(?:[a-z]{1,4}\s+)?[A-Z][\w\-]*)",
)
_DOC_REF = re.compile(
    r"\b(zotero:\d+:[A-Za-z0-9]+|file:\S+)|(?<![\w.])@[\w:.\-]*\w|[\"“‘]([^\"”’]{3,})[\"”’]|'([^']{3,})'"
)


def _word_set(text: str) -> frozenset[str]:
    return frozenset(text.split())


_STOPWORDS = _word_set(
    """a an the of in on at to for from by with about into over under and or not no is are was were be been being
    do does did have has had i me my we our you your it its this that these those there their them they what which
    who whom whose how why when where can could should would will shall may might must than then as any all some
    each every more most other such only own same so too very just also please tell give show find get look up
    search list let us via per vs versus between among across using use used"""
)
_LIBRARY_WORDS = _word_set(
    """paper papers article articles document documents item items library libraries collection collections tag
    tags tagged author authors journal journals venue venues year years everything anything something stuff read
    reading recent recently latest newest added additions many count published publications work works written
    authored preprint preprints thesis theses conference proceedings book books chapter chapters neurips nips icml
    iclr cvpr iccv eccv acl emnlp naacl aaai ijcai kdd sigir nature science cell pnas prl jacs arxiv biorxiv
    medrxiv lancet nejm"""
)
_WORD_RE = re.compile(r"[A-Za-z0-9]+(?:['’\-][A-Za-z0-9]+)*")


def content_words(text: str) -> list[str]:
    """Lowercase words of `text` that carry meaning (stopwords dropped)."""
    words = (re.sub(r"['’](s|re|ve|ll|d)$", "", m.group(0).lower()) for m in _WORD_RE.finditer(text))
    return [w for w in words if w not in _STOPWORDS]


# ---------------------------------------------------------------- filters ----------------------------------------
_Y = r"((?:19|20)\d\d)(?!\d)"
_NAME_TOKEN = r"(?:Mc|Mac|O['’])?[A-Z][a-z\u00e0-\u024f]+(?:-[A-Z][a-z\u00e0-\u024f]+)?"
_NOT_NAMES = _word_set(
    """What When Where Which Why How Who Since Before After From In On Between Papers Paper Show List Find Summarize
    Summarise Compare The Is Are Does Did Do Can Published Until Nature Science Cell Physical Review Lancet January
    February March April May June July August September October November December Spring Summer Autumn Fall Winter
    Tell Explain Describe Give Contrast Anything Everything Articles Recap"""
)
_TYPE_WORDS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"\bpre-?prints?\b", _F), "preprint"),
    (re.compile(r"(?<!my\s)\b(theses|thesis|dissertations?)\b", _F), "thesis"),
    (re.compile(r"\bconference\s+(papers?|proceedings)\b", _F), "conferencePaper"),
    (re.compile(r"\bjournal\s+(papers?|articles?)\b", _F), "journalArticle"),
    (re.compile(r"\bbook\s+chapters?\b", _F), "bookSection"),
    (re.compile(r"\bbooks\b", _F), "book"),
)
_LABEL = r"[\"“‘']([^\"”’']+)[\"”’']|([\w\-/.+:]+)"
_TAG_RES = (
    re.compile(rf"\btagged\s+(?:as\s+|with\s+)?(?:{_LABEL})", _F),
    re.compile(rf"\bwith\s+(?:the\s+)?tag\s+(?:{_LABEL})", _F),
    re.compile(rf"\btag\s*[:=]\s*(?:{_LABEL})", _F),
    re.compile(r"(?<![\w&#])#([A-Za-z][\w\-]*)()"),
)
_COLLECTION_RES = (
    re.compile(rf"\b(?:in|from|of)?\s*(?:my\s+|the\s+)?collection\s*[:=]?\s+(?:{_LABEL})", _F),
    re.compile(r"\b(?:in|from|of)?\s*(?:my\s+|the\s+)?([\w\-/.+]+)()\s+collection\b", _F),
)
_YEAR_RULES: tuple[tuple[re.Pattern[str], tuple[str, ...]], ...] = (
    (re.compile(rf"\b(?:published\s+)?between\s+{_Y}\s+and\s+{_Y}", _F), (">=", "<=")),
    (re.compile(rf"\b(?:published\s+)?(?:from\s+)?{_Y}\s*(?:-|–|to|until|through)\s*{_Y}", _F), (">=", "<=")),
    (re.compile(rf"\b(?:published\s+)?(?:since|as\s+of|starting(?:\s+in|\s+from)?)\s+{_Y}", _F), (">=",)),
    (re.compile(rf"\b(?:published\s+)?(?:from|in)?\s*{_Y}\s*(?:on(?:wards?)?|or\s+later|and\s+later|\+)", _F), (">=",)),
    (re.compile(rf"\b(?:published\s+)?(?:after|later\s+than|newer\s+than)\s+{_Y}", _F), (">",)),
    (
        re.compile(rf"\b(?:published\s+)?(?:from\s+)?(?:before|prior\s+to|earlier\s+than|older\s+than)\s+{_Y}", _F),
        ("<",),
    ),
    (re.compile(rf"\b(?:published\s+)?(?:until|up\s+to|through|no\s+later\s+than)\s+{_Y}", _F), ("<=",)),
    (re.compile(rf"\b{_Y}\s*(?:or|and)\s+(?:earlier|before)", _F), ("<=",)),
    (re.compile(rf"\b(?:published\s+)?(?:in|from|of|during|year)?\s*\(?{_Y}\)?", _F), ("=",)),
)
_CITED_AUTHOR = re.compile(rf"\b({_NAME_TOKEN})(?:\s+(?:and|&)\s+{_NAME_TOKEN})?(?:\s+et\s+al\.?)?,?\s+\(?{_Y}\)?")
_ET_AL = re.compile(rf"\b({_NAME_TOKEN})\s+et\s+al\b\.?")
_BY_AUTHOR = re.compile(
    r"\b(?:papers?|articles?|work|works|publications?|preprints?|theses|books|everything|anything|stuff|something|"
    r"written|authored|published)\s+by\s+((?:[A-Za-z\u00c0-\u024f][\w'’\-]*\.?)(?:\s+(?:van|von|de|der|da|di|du|la|le|"
    r"del|[A-Z][\w'’\-]*\.?))*)",
)


def _author_value(name: str) -> str:
    parts = [p.rstrip(".") for p in name.split() if len(p.rstrip(".")) > 1]
    return parts[-1] if parts else name


def extract_filters(query: str) -> tuple[list[str], list[str], list[tuple[int, int]]]:
    """Filter expressions found in `query`: (explicit, cited-author/year, character spans used)."""
    explicit: list[str] = []
    cited: list[str] = []
    spans: list[tuple[int, int]] = []

    def free(start: int, end: int) -> bool:
        return all(end <= s or start >= e for s, e in spans)

    for pattern in _TAG_RES:
        for m in pattern.finditer(query):
            value = (m.group(1) or m.group(2) or "").strip().rstrip(".,;?")
            if value and free(*m.span()):
                explicit.append(f"tag={value}")
                spans.append(m.span())
    for pattern in _COLLECTION_RES:
        for m in pattern.finditer(query):
            value = (m.group(1) or m.group(2) or "").strip().rstrip(".,;?")
            if value and value.lower() not in _STOPWORDS | {"whole", "entire", "zotero"} and free(*m.span()):
                explicit.append(f"collection={value}")
                spans.append(m.span())
    for m in _BY_AUTHOR.finditer(query):
        words = m.group(1).split()
        kept: list[str] = []
        for word in words:
            if word.lower() in _STOPWORDS - {"van", "von", "de", "da", "di", "du", "la", "le"} or word.isdigit():
                break
            kept.append(word)
            if word[0].islower() and word.lower() not in {"van", "von", "de", "der", "da", "di", "du", "la", "le"}:
                nxt = words[len(kept)] if len(kept) < len(words) else ""
                if not nxt or nxt.lower() in _STOPWORDS or not nxt[0].isalpha() or len(kept) >= 2:
                    break
        if kept:
            start = m.start(1)
            end = start + len(" ".join(kept))
            explicit.append(f"author={_author_value(' '.join(kept))}")
            spans.append((query.rfind("by", m.start(), start), end))
    for m in _CITED_AUTHOR.finditer(query):
        if m.group(1) not in _NOT_NAMES and free(*m.span()):
            cited += [f"author={m.group(1)}", f"year={m.group(2)}"]
            spans.append(m.span())
    for m in _ET_AL.finditer(query):
        if m.group(1) not in _NOT_NAMES and free(*m.span()):
            cited.append(f"author={m.group(1)}")
            spans.append(m.span())
    for pattern, ops in _YEAR_RULES:
        for m in pattern.finditer(query):
            if not free(*m.span()) or (m.start() > 0 and query[m.start() - 1] in "@:/"):
                continue
            explicit += [f"year{op}{year}" for op, year in zip(ops, m.groups(), strict=True)]
            spans.append(m.span())
    for pattern, value in _TYPE_WORDS:
        for m in pattern.finditer(query):
            if free(*m.span()):
                explicit.append(f"type={value}")
                spans.append(m.span())
                break
    return list(dict.fromkeys(explicit)), list(dict.fromkeys(cited)), spans


def _without(query: str, spans: Sequence[tuple[int, int]]) -> str:
    out, last = [], 0
    for start, end in sorted(spans):
        out.append(query[last:start])
        last = max(last, end)
    out.append(query[last:])
    return re.sub(r"\s+", " ", " ".join(out)).strip()


# ---------------------------------------------------------------- topic, target, depth ---------------------------
_LEAD = re.compile(
    r"^(?:(?:on|about|please|can|could|you|find|search|for|look|up|show|get|give|list|fetch|retrieve|me|all|any|"
    r"some|the|a|an|do|i|have|recent|latest)\s+)*(?:(?:papers?|articles?|work|studies|study|literature|research|"
    r"publications?|anything|everything|something|stuff|documents?)\s+(?:(?:that|which)\s+\w+\s+)?"
    r"(?:on|about|regarding|concerning|into|of|covering|in|from|published)\s+)?",
    _F,
)
_TRAIL = re.compile(r"(?:\s+(?:published|the|in|from|of|on|papers?|articles?|in my library))+\s*$|[\s?.!]+$", _F)
_DEPTH_RULES = (
    (
        "full",
        re.compile(
            r"\bentire\b|\bwhole\s+(paper|text|thing|document|article)\b|\bfull[- ]text\b|\bfull\s+paper\b|"
            r"\bcover\s+to\s+cover\b|\bevery\s+section\b|\beverything\s+in\b",
            _F,
        ),
    ),
    (
        "comprehensive",
        re.compile(
            r"\bin\s+detail\b|\bdetailed\b|\bcomprehensive(ly)?\b|\bthorough(ly)?\b|\bin[- ]depth\b|"
            r"\ball\s+aspects\b|\bdeep\s+dive\b|\bmethodology\s+and\s+findings\b|\bextensive(ly)?\b",
            _F,
        ),
    ),
    (
        "quick",
        re.compile(
            r"\bbrief(ly)?\b|\bquick(ly)?\b|\bshort\b|\btl;?\s?dr\b|\bone[- ]liner\b|\bin\s+(one|a\s+single|a)\s+"
            r"(line|sentence)\b|\bin\s+a\s+nutshell\b|\bgist\b|\babstract\s+of\b|\bat\s+a\s+glance\b",
            _F,
        ),
    ),
)
_TARGET_NOISE = _word_set(
    """summary summaries summarize summarise summarized summarised tl;dr tldr recap gist overview synopsis abstract
    takeaways key main give me a an the of from paper papers original findings results methodology methods
    conclusions contributions and what is was about does do which who whom are that cite cites cited citing by
    similar related to work more like this build builds built on upon connected in citation network around
    co-authors coauthors co-authored with collaborates collaborate has have my library find show brief briefly
    quick short detailed comprehensive covering all aspects entire full text one line please reference references
    what's sumarize summerize"""
)


def detect_depth(query: str, kind: str) -> str | None:
    """The answer depth the wording implies (summaries and questions only); questions default to targeted."""
    if kind not in ("summarize", "question"):
        return None
    for depth, pattern in _DEPTH_RULES:
        if pattern.search(query):
            return depth
    return "targeted" if kind == "question" else None


def _target(query: str) -> str | None:
    ref = _DOC_REF.search(query)
    if ref:
        return (ref.group(2) or ref.group(3) or ref.group(0)).strip()
    words = query.split()
    while words and words[0].lower().strip(":,;") in _TARGET_NOISE:
        words.pop(0)
    while words and words[-1].lower().rstrip("?.:,;") in _TARGET_NOISE:
        words.pop()
    text = " ".join(words).rstrip("?.!")
    text = re.sub(
        r"^(?:the\s+)?(?:(?:main|key)\s+)?(?:(?:methodology|methods|findings|results|conclusions)"
        r"(?:\s+and\s+)?)+\s+of\s+(?:the\s+)?",
        "",
        text,
        flags=_F,
    )
    text = re.sub(r"\s+(?:paper|in\s+(?:one|a)\s+line|in\s+detail|covering\s+all\s+aspects)$", "", text, flags=_F)
    text = re.sub(r"['’]s$", "", text).strip()
    return text or None


def _topic(query: str, kind: str) -> str:
    text = _LEAD.sub("", query, count=1) if kind in ("search", "metadata") else query
    previous = None
    while previous != text:
        previous, text = text, _TRAIL.sub("", text)
    return text.strip() or query.strip().rstrip("?")


# ---------------------------------------------------------------- decomposition -----------------------------------
_COMPARE_FORMS = (
    re.compile(
        r"^(?:please\s+)?(?:compare|comparing|comparison\s+of|contrast|contrasting)\s+(?P<a>.+?)\s+"
        r"(?:and|with|to|vs\.?|versus|against)\s+(?P<b>.+)$",
        _F,
    ),
    re.compile(
        r"^(?:what(?:'s|\s+is|\s+are)\s+)?(?:the\s+)?(?:main\s+|key\s+)?(?:differences?|distinctions?|"
        r"similarities(?:\s+and\s+differences)?|trade-?offs?)\s+(?:between|of)\s+(?P<a>.+?)\s+"
        r"(?:and|vs\.?|versus)\s+(?P<b>.+)$",
        _F,
    ),
    re.compile(
        r"^how\s+(?:does|do|did|is|are)\s+(?P<a>.+?)\s+(?:differ|compare|stack\s+up)\s+"
        r"(?:from|to|with|against)\s+(?P<b>.+)$",
        _F,
    ),
    re.compile(
        r"^(?:is|are|was|were)\s+(?P<a>.+?)\s+(?:better|worse|faster|slower|stronger|weaker|(?:more|less)\s+\w+)"
        r"\s+than\s+(?P<b>.+)$",
        _F,
    ),
    re.compile(
        r"^which\s+(?:is|one\s+is|works|performs)\s+\w+(?:\s+(?P<ctx>[^:]+))?:\s*(?P<a>.+?)\s+or\s+(?P<b>.+)$", _F
    ),
    re.compile(r"^which\s+(?:is|one\s+is|works|performs)\s+\w+\s*,?\s+(?P<a>.+?)\s+or\s+(?P<b>.+)$", _F),
)
_VERSUS = re.compile(r"\s+(?:vs\.?|versus)\s+", _F)
_CONTEXT = re.compile(r"\s+((?:for|on|in|at|across|when|regarding|under)\s+.+)$", _F)


def _compare_items(text: str) -> list[str]:
    text = text.strip().rstrip("?.!")
    items: list[str] = []
    context = ""
    for form in _COMPARE_FORMS:
        m = form.match(text)
        if m:
            items = [m.group("a"), m.group("b")]
            context = (m.groupdict().get("ctx") or "").strip()
            break
    if not items and _VERSUS.search(text):
        items = _VERSUS.split(text)
        head = re.split(r"\b(?:of|between)\s+", items[0], flags=_F)
        items[0] = head[-1]
    if len(items) < 2:
        return []
    tail = _CONTEXT.search(items[-1])
    if tail and not context:
        context = tail.group(1)
        items[-1] = items[-1][: tail.start()]
    lead = r"^(?:the\s+|a\s+|an\s+)?(?:(?:methods?|approach(?:es)?|results?|findings|performance|accuracy)\s+of\s+)?"
    cleaned = [re.sub(lead, "", i.strip(" ,:;"), flags=_F) for i in items]
    return [f"{i} {context}".strip() for i in cleaned if i]


def _looks_like_title(text: str) -> bool:
    words = [w for w in text.split() if w[:1].isalpha()]
    capitalised = sum(1 for w in words if w[0].isupper())
    return len(words) >= 4 and capitalised >= 0.7 * len(words)


def decompose(topic: str, kind: str) -> tuple[str, ...]:
    """Sub-queries: compared items; explicit AND/OR parts; lowercase and/or parts of two+ content words each."""
    if kind == "compare":
        return tuple(_compare_items(topic))
    if kind not in ("search", "question") or topic[:1] in "\"“'" or _looks_like_title(topic):
        return ()
    parts = [p.strip() for p in re.split(r"\s+(?:AND|OR)\s+", topic) if p.strip()]
    if len(parts) > 1:
        return tuple(parts)
    if kind != "search" or re.search(r"\bbetween\b", topic, _F):
        return ()
    parts = [p.strip() for p in re.split(r"\s+(?:and|or)\s+", topic) if p.strip()]
    if len(parts) > 1 and all(len(content_words(p)) >= 2 for p in parts):
        return tuple(parts)
    return ()


# ---------------------------------------------------------------- rules --------------------------------------------
def rule_scores(query: str, topic_words: Sequence[str], has_filters: bool) -> dict[str, float]:
    """Cue scores per intent (0 when no cue fired), before the default bonus."""
    scores = dict.fromkeys(INTENTS, 0.0)
    for kind, cues in _CUES.items():
        scores[kind] += sum(weight for pattern, weight in cues if pattern.search(query))
    has_ref = bool(_PAPER_REF.search(query))
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
    kind, confidence, scores, *_ = _rules(query)
    return kind, confidence, scores


def _rules(query: str) -> tuple[str, float, dict[str, float], tuple[str, ...], tuple[str, ...], list[tuple[int, int]]]:
    explicit, cited, spans = extract_filters(query)
    rest = _without(query, spans)
    topic_words = [w for w in content_words(rest) if w not in _LIBRARY_WORDS]
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
    return ranked[0], confidence, scores, tuple(explicit), tuple(cited), spans


# ---------------------------------------------------------------- model --------------------------------------------
@cache
def intent_prompt() -> str:
    """The few-shot system prompt for intent classification (assets/prompts/intent.md)."""
    return (PROMPTS_DIR / "intent.md").read_text(encoding="utf-8").strip()


def classify_with_model(query: str, model: LanguageModel, max_tokens: int = 48) -> tuple[str, float]:
    """The model's (intent, confidence) for `query`, JSON-schema constrained; ModelError when unusable."""
    messages = [Message("system", intent_prompt()), Message("user", f"Query: {query.strip()}")]
    reply = model.complete(messages, max_tokens=max_tokens, schema=INTENT_SCHEMA, temperature=0.0)
    try:
        data = json.loads(reply.text)
        kind = str(data["intent"]).strip().lower()
        confidence = float(data["confidence"])
    except (ValueError, KeyError, TypeError) as exc:
        raise ModelError(f"intent model reply is not {{intent, confidence}} JSON: {reply.text[:80]!r}") from exc
    if kind not in INTENTS:
        raise ModelError(f"intent model answered an unknown intent {kind!r}")
    if math.isnan(confidence):
        raise ModelError("intent model answered a confidence that is not a number")
    if confidence > 1.0 and confidence <= 100.0:
        confidence /= 100.0  # a percentage
    return kind, min(1.0, max(0.0, confidence))


def combine(
    rule_kind: str, rule_conf: float, scores: dict[str, float], model_kind: str, model_conf: float
) -> tuple[str, float, str]:
    """Merge rules and model per the module's combination rule: (kind, confidence, source)."""
    if model_kind == rule_kind:
        return rule_kind, round(min(0.99, 1 - (1 - rule_conf) * (1 - model_conf)), 3), "rules+model"
    support = scores.get(model_kind, 0.0)
    if rule_conf < RULES_TIED or (support > 0 and support >= MODEL_SUPPORT * scores.get(rule_kind, 0.0)):
        return model_kind, round(model_conf, 3), "model"
    return rule_kind, rule_conf, "rules+model"


def detect_intent(query: str, model: LanguageModel | None = None, rule_threshold: float = 0.75) -> Intent:
    """Classify `query` by rules, asking `model` only when rule confidence is below `rule_threshold`."""
    if not query.strip():
        return Intent("search", 0.0, "rules", warnings=("empty query",))
    kind, confidence, scores, explicit, cited, spans = _rules(query)
    source = "rules"
    warnings: list[str] = []
    if model is not None and confidence < rule_threshold:
        try:
            model_kind, model_conf = classify_with_model(query, model)
        except (ModelError, OSError) as exc:
            warnings.append(f"intent model unusable, kept the rules' answer: {exc}")
        else:
            kind, confidence, source = combine(kind, confidence, scores, model_kind, model_conf)
    filters = explicit if kind in ("relationship", "summarize", "compare") else explicit + cited
    rest = _without(query, spans if kind not in ("relationship", "summarize", "compare") else ())
    rest = _without(rest, [m.span() for m in re.finditer(r"\b(?:in|to|from)\s+my\s+library\b", rest, _F)])
    topic = _topic(rest, kind)
    if kind == "metadata" and not [w for w in content_words(topic) if w not in _LIBRARY_WORDS]:
        topic = ""
    target = _target(_without(query, _depth_spans(query))) if kind in ("summarize", "relationship") else None
    return Intent(
        kind=kind,
        confidence=confidence,
        source=source,
        filters=tuple(dict.fromkeys(filters)),
        subqueries=decompose(topic, kind),
        target=target,
        depth=detect_depth(query, kind),
        topic=topic,
        warnings=tuple(warnings),
    )


def _depth_spans(query: str) -> list[tuple[int, int]]:
    return [m.span() for _, pattern in _DEPTH_RULES for m in pattern.finditer(query)]


# ---------------------------------------------------------------- retrieval helpers --------------------------------
def merge_subquery_results(results: Sequence[Sequence[T]], key: Callable[[T], str], limit: int, k: int = 60) -> list[T]:
    """Reciprocal-rank-fuse ranked lists from sub-queries, without duplicates; ties go in round-robin order."""
    scores: dict[str, float] = {}
    order: dict[str, tuple[int, int]] = {}
    items: dict[str, T] = {}
    for list_index, hits in enumerate(results):
        seen: set[str] = set()
        for rank, hit in enumerate(hits):
            ident = key(hit)
            if ident in seen:
                continue
            seen.add(ident)
            scores[ident] = scores.get(ident, 0.0) + 1.0 / (k + rank + 1)
            if ident not in items:
                items[ident] = hit
                order[ident] = (rank, list_index)
    ranked = sorted(items, key=lambda ident: (-scores[ident], order[ident]))
    return [items[ident] for ident in ranked[: max(0, limit)]]


def _stem(word: str) -> str:
    for suffix in ("ing", "es", "s", "ed"):
        if len(word) > len(suffix) + 3 and word.endswith(suffix):
            return word[: -len(suffix)]
    return word


def query_coverage(query: str, texts: Sequence[str]) -> float:
    """Fraction of the query's content words (crudely stemmed) found in `texts`; 1.0 for a query without any."""
    wanted = {_stem(w) for w in content_words(query)}
    if not wanted:
        return 1.0
    found = {_stem(w) for text in texts for w in content_words(text)}
    return len(wanted & found) / len(wanted)


def needs_escalation(top_scores: Sequence[float], coverage: float, min_score: float, min_coverage: float) -> bool:
    """Whether retrieval looks weak (no hits, best score below `min_score`, or coverage below `min_coverage`)."""
    return not top_scores or max(top_scores) < min_score or coverage < min_coverage
