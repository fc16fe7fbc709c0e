"""What a query is about, beyond its intent: topic, target paper, answer depth and sub-queries.

The topic is the query without its filters and lead-in ("papers on ..."); the target is the
paper a summary or relationship names (a citation key, a quoted title, or the words left
when the request words are stripped); the depth comes from wording such as "briefly" or
"in detail"; comparisons split into their compared items, searches and questions with an
explicit AND/OR into their parts, and searches with a lowercase and/or between parts of two or
more content words each into those parts.
"""

from __future__ import annotations

import re

from workbench.query.intent.words import content_words, word_set

_F = re.IGNORECASE

# ---------------------------------------------------------------- topic, target, depth ---------------------------
_DOC_REF = re.compile(
    r"\b(zotero:\d+:[A-Za-z0-9]+|file:\S+)|(?<![\w.])@[\w:.\-]*\w|[\"“‘]([^\"”’]{3,})[\"”’]|'([^']{3,})'"
)
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
_TARGET_NOISE = word_set(
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


def depth_spans(query: str) -> list[tuple[int, int]]:
    """Character spans of the depth wording in `query` ("briefly", "in detail")."""
    return [m.span() for _, pattern in _DEPTH_RULES for m in pattern.finditer(query)]


def query_target(query: str) -> str | None:
    """The paper a summary or relationship query names: a key, a quoted title, else the words left."""
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


def query_topic(query: str, kind: str) -> str:
    """The topic of a query (filters already cut out): lead-in and trailing request words stripped."""
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
