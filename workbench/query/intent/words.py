"""What the intent rules read from a query's words: content words and explicit filters.

Filters come out in the `--filter` syntax of `workbench.query.filters.parse_filter`: tags,
collections and authors named in the wording (`tagged X`, `papers by Y`), year ranges, item
types, and cited-author references (`Smith et al. 2019`), which the intent decides to keep as
filters or leave as the paper a relationship or summary is about.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from workbench.text.fts_text import word_units

_F = re.IGNORECASE


def word_set(text: str) -> frozenset[str]:
    """The whitespace-separated words of a literal list."""
    return frozenset(text.split())


_STOPWORDS = word_set(
    """a an the of in on at to for from by with about into over under and or not no is are was were be been being
    do does did have has had i me my we our you your it its this that these those there their them they what which
    who whom whose how why when where can could should would will shall may might must than then as any all some
    each every more most other such only own same so too very just also please tell give show find get look up
    search list let us via per vs versus between among across using use used"""
)
# words about the library itself rather than a topic ("papers", "tagged", "NeurIPS")
LIBRARY_WORDS = word_set(
    """paper papers article articles document documents item items library libraries collection collections tag
    tags tagged author authors journal journals venue venues year years everything anything something stuff read
    reading recent recently latest newest added additions many count published publications work works written
    authored preprint preprints thesis theses conference proceedings book books chapter chapters neurips nips icml
    iclr cvpr iccv eccv acl emnlp naacl aaai ijcai kdd sigir nature science cell pnas prl jacs arxiv biorxiv
    medrxiv lancet nejm"""
)


def content_words(text: str) -> list[str]:
    """Lowercase words of `text` that carry meaning (stopwords dropped), in any script ("naïve", "алгоритм");
    Chinese, Japanese and Korean runs as their character pairs, as keyword search reads them."""
    words = (re.sub(r"['’](s|re|ve|ll|d)$", "", w.lower()) for w in word_units(text))
    return [w for w in words if w not in _STOPWORDS]


# ---------------------------------------------------------------- filters ----------------------------------------
_Y = r"((?:19|20)\d\d)(?!\d)"
_NAME_TOKEN = r"(?:Mc|Mac|O['’])?[A-Z][a-z\u00e0-\u024f]+(?:-[A-Z][a-z\u00e0-\u024f]+)?"
_NOT_NAMES = word_set(
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


def without_spans(query: str, spans: Sequence[tuple[int, int]]) -> str:
    """`query` with the character spans cut out and white space folded."""
    out, last = [], 0
    for start, end in sorted(spans):
        out.append(query[last:start])
        last = max(last, end)
    out.append(query[last:])
    return re.sub(r"\s+", " ", " ".join(out)).strip()
