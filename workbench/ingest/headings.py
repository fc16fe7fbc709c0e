"""Heading recognition: which paper section ("methods", "references", ...) a heading names.

Pure string work on one line at a time ("2. Methods", "REFERENCES", "5 Experiments on X"), the
same for every input format; `sections` uses it to decide where one section ends and the next
begins.
"""

from __future__ import annotations

import re
from importlib import resources

from workbench.ingest.source_lines import close_letter_spacing
from workbench.records import SECTIONS

# The sections a parsed file can have: every section but the ones metadata and Zotero add.
SECTION_NAMES: tuple[str, ...] = tuple(s for s in SECTIONS if s not in ("title", "note", "annotation"))


def _phrases(name: str, *phrases: str) -> dict[str, str]:
    return {phrase: name for phrase in phrases}


# Whole-heading phrases (lower case, "&" spelt "and", trailing punctuation removed).
HEADING_PHRASES: dict[str, str] = {
    **_phrases(
        "abstract",
        "abstract",
        "summary",
        "author summary",
        "lay summary",
        "significance",
        "significance statement",
        "highlights",
    ),
    **_phrases(
        "introduction",
        "introduction",
        "background",
        "related work",
        "related works",
        "prior work",
        "previous work",
        "literature review",
        "motivation",
        "main",
        "main text",
        "introduction and background",
        "background and related work",
        "preliminaries",
        "introduction and motivation",
    ),
    **_phrases(
        "methods",
        "methods",
        "method",
        "methodology",
        "materials and methods",
        "material and methods",
        "methods and materials",
        "experimental",
        "experimental section",
        "experimental procedures",
        "experimental methods",
        "experimental setup",
        "experimental design",
        "experimental details",
        "materials",
        "data and methods",
        "methods and data",
        "online methods",
        "star methods",
        "study design",
        "approach",
        "our approach",
        "proposed method",
        "proposed approach",
        "model",
        "models",
        "theory",
        "formalism",
        "dataset",
        "datasets",
        "data",
        "implementation",
        "implementation details",
        "patients and methods",
        "subjects and methods",
        "materials and experimental methods",
    ),
    **_phrases(
        "results",
        "results",
        "result",
        "main results",
        "experiments",
        "experiment",
        "experimental results",
        "evaluation",
        "empirical evaluation",
        "results and discussion",
        "results and analysis",
        "findings",
        "experiments and results",
        "analysis",
        "performance evaluation",
        "case study",
        "case studies",
        "applications",
        "benchmarks",
    ),
    **_phrases(
        "discussion",
        "discussion",
        "discussions",
        "general discussion",
        "limitations",
        "discussion and conclusion",
        "discussion and conclusions",
    ),
    **_phrases(
        "conclusion",
        "conclusion",
        "conclusions",
        "conclusion and outlook",
        "conclusions and outlook",
        "conclusion and future work",
        "conclusions and future work",
        "concluding remarks",
        "summary and conclusion",
        "summary and conclusions",
        "summary and outlook",
        "outlook",
        "future work",
        "future directions",
        "final remarks",
        "perspectives",
    ),
    **_phrases(
        "references",
        "references",
        "reference",
        "bibliography",
        "literature cited",
        "works cited",
        "cited literature",
        "references and notes",
        "notes and references",
        "literature",
    ),
    **_phrases(
        "other",
        "acknowledgements",
        "acknowledgments",
        "acknowledgement",
        "acknowledgment",
        "funding",
        "author contributions",
        "contributions",
        "conflict of interest",
        "conflicts of interest",
        "competing interests",
        "declaration of competing interest",
        "data availability",
        "data availability statement",
        "code availability",
        "supplementary material",
        "supplementary materials",
        "supplementary information",
        "supporting information",
        "appendix",
        "appendices",
        "abbreviations",
        "declarations",
        "ethics statement",
        "additional information",
        "contents",
        "table of contents",
        "author information",
        "disclosures",
        "graphical abstract",
    ),
}

# First words that identify a longer numbered heading ("5 Experiments on X", "4 Methodology").
HEADING_KEYWORDS: dict[str, str] = {
    "introduction": "introduction",
    "background": "introduction",
    "related": "introduction",
    "methods": "methods",
    "methodology": "methods",
    "materials": "methods",
    "experimental": "methods",
    "experiments": "results",
    "evaluation": "results",
    "results": "results",
    "discussion": "discussion",
    "conclusion": "conclusion",
    "conclusions": "conclusion",
    "concluding": "conclusion",
    "limitations": "discussion",
    "references": "references",
    "appendix": "other",
    "acknowledgements": "other",
    "acknowledgments": "other",
}


def _other_languages() -> dict[str, str]:
    """Headings of papers in other languages (`assets/lexicon/section_headings.tsv`)."""
    text = resources.files("workbench").joinpath("assets/lexicon/section_headings.tsv").read_text(encoding="utf-8")
    rows = (line.split("\t") for line in text.splitlines() if line.strip() and not line.startswith("#"))
    return {phrase.strip(): section for section, _language, phrase in rows}


OTHER_LANGUAGES = _other_languages()
HEADING_PHRASES.update({phrase: name for phrase, name in OTHER_LANGUAGES.items() if phrase not in HEADING_PHRASES})
# A one-word heading of another language also opens a longer numbered one ("2 Metodologia proposta"),
# but never the references, which drop out of evidence ("2 Quellen der Daten" is not a reference list).
HEADING_KEYWORDS.update(
    {
        phrase: name
        for phrase, name in OTHER_LANGUAGES.items()
        if " " not in phrase and name not in ("abstract", "other", "references") and phrase not in HEADING_KEYWORDS
    }
)
# A Chinese or Japanese chapter number ("第 1 章", "第一章") before a heading.
_CHAPTER = re.compile(r"^第\s*[\d一二三四五六七八九十百]+\s*[章节節]\s*[:：、.．]?\s*")

_NUMBERING = re.compile(r"^(?:(\d{1,2})(\.\d{1,2})*|[IVX]{1,5}|[A-H])[.):]?\s+")
_TRAILING = re.compile(r"[\s.:;—–\-：；。．]+$")
_TOC_ENTRY = re.compile(r"(\.\s*){3,}|\s\d+$")
_APPENDIX = re.compile(r"^(?:Appendix\s+)?[A-H](?:\.\d{1,2})?\.?\s+[A-Z][^\d,;.]{3,70}$")
_MINOR_WORDS = frozenset(
    {"a", "an", "the", "of", "on", "in", "for", "and", "or", "to", "with", "via", "from", "by", "at", "as", "vs", "vs."}
)


def normalise_heading(text: str) -> str:
    """A heading as looked up in HEADING_PHRASES: lower case, "&" spelt "and", no trailing punctuation."""
    return " ".join(_TRAILING.sub("", text.replace("&", " and ")).lower().split())


def heading_section(line: str, *, explicit: bool = False) -> str | None:
    """The section a heading line names, or None when the line is not a recognised heading."""
    text = _CHAPTER.sub("", close_letter_spacing(" ".join(line.split())))
    if not text or len(text) > 90:
        return None
    numbering = _NUMBERING.match(text)
    body = text[numbering.end() :] if numbering else text
    if not body[:1].isalpha() or (not explicit and not _capital(body[:1])):
        return None
    if not explicit and _TOC_ENTRY.search(body):
        return None
    phrase = normalise_heading(body)
    if phrase in HEADING_PHRASES:
        return HEADING_PHRASES[phrase]
    letters = [c for c in body if c.isalpha()]
    head, sep, _ = body.partition(":") if ":" in body else body.partition("—")
    if sep and all(c.isupper() for c in letters):
        # ALL-CAPS run-in heading: "INTRODUCTION: IDENTIFICATION OF ..."
        return HEADING_PHRASES.get(normalise_heading(head))
    words = phrase.split()
    top_level = numbering is not None and numbering.group(1) is not None and not numbering.group(2)
    if not (explicit or top_level) or not words or len(words) > 8:
        return None
    for size in (3, 2):  # "Experimental results on X" is results, not methods
        if " ".join(words[:size]) in HEADING_PHRASES and len(words) > size:
            return HEADING_PHRASES[" ".join(words[:size])]
    return HEADING_KEYWORDS.get(words[0])


_ROMAN = {"I": 1, "V": 5, "X": 10}
_SENTENCE_END = re.compile(r"[.,;:!?]$")
NUMBERED_BODY_WORDS = 10  # a numbered heading is short: "9. Combining and Splitting Value"
SHORT_HEADING_WORDS = 4  # up to this many words a heading may be in sentence case ("3 The proposed model")


def _roman(numeral: str) -> int:
    values = [_ROMAN[c] for c in numeral]
    return sum(-v if i + 1 < len(values) and v < values[i + 1] else v for i, v in enumerate(values))


# A chapter line ("Chapter 4", "CAPÍTULO 2 – Requisitos", "第 3 章 三维重建与坐标变换"): a top-level number.
_CHAPTER_WORD = re.compile(
    r"^(?:chapter|cap[ií]tulo|kapitel|chapitre|capitolo|hoofdstuk|глава)\s+(\d{1,2}|[IVX]{1,5})\b[.:–—-]?\s*(.*)$",
    re.IGNORECASE,
)
_CJK_CHAPTER = re.compile(r"^第\s*([\d一二三四五六七八九十]+)\s*章\s*[:：、.．]?\s*(.*)$")
_CJK_DIGITS = {c: i for i, c in enumerate("零一二三四五六七八九十")}
_CJK_SENTENCE_END = re.compile(r"[。，；：！？]$")
_CJK_CLAUSE = re.compile(r"[。，；！？]")  # a clause ends inside the line: a sentence, not a heading


def heading_number(line: str) -> tuple[tuple[int, ...], str] | None:
    """The full number and title of a line shaped like a numbered heading at any level: a chapter
    ("Chapter 4", "第 3 章 …" → (4,), (3,)), a top-level heading ("2. Transactions" → (2,)) or a
    sub-heading ("3.6 Considerações finais" → (3, 6)); None for anything else.

    The sub-heading's words must be shaped as `numbered_heading` wants them (short, starting with a
    capital or a letter of a script without case, not ended like a sentence).
    """
    text = " ".join(line.split())
    chapter = _CHAPTER_WORD.match(text) or _CJK_CHAPTER.match(text)
    if chapter:
        token, title = chapter.group(1), chapter.group(2)
        number = _chapter_number(token)
        if number is None or (title and numbered_heading(f"1 {title}") is None):
            return None  # "第 2 章：目标识别的前处理。首先对…" outlines the thesis; it is no heading
        return (number,), title
    numbering = _NUMBERING.match(text)
    if numbering is None or numbering.group(1) is None:
        top = numbered_heading(text)  # "IV. EVALUATION"
        return ((top[0],), top[1]) if top else None
    token = text[: numbering.end()].strip().rstrip(".):")
    top = numbered_heading(f"{numbering.group(1)} {text[numbering.end() :]}")
    if top is None:
        return None
    return tuple(int(part) for part in token.split(".")), top[1]


def _chapter_number(token: str) -> int | None:
    if token.isdigit():
        return int(token)
    if set(token) <= set(_ROMAN):
        return _roman(token)
    if set(token) <= set(_CJK_DIGITS):  # 三 → 3, 十二 → 12, 二十 → 20
        tens, _, units = token.partition("十")
        if "十" not in token:
            return _CJK_DIGITS[token] if len(token) == 1 else None
        return (_CJK_DIGITS.get(tens, 1) if tens else 1) * 10 + (_CJK_DIGITS.get(units, 0) if units else 0)
    return None


def numbered_heading(line: str) -> tuple[int, str] | None:
    """The top-level number and title of a line shaped like a numbered heading ("2. Transactions",
    "3) Network", "IV. EVALUATION"), whatever it names; None for anything else.

    A heading is short, starts with a capital and does not end like a sentence, so numbered list
    items ("3) Each node works on finding a difficult proof-of-work for its block.") are not
    headings; sub-headings ("3.2 …") and lettered ones ("A. …") have no top-level number. Whether
    the number continues the paper's own numbering is the caller's to check (`sections`).
    """
    text = " ".join(line.split())
    numbering = _NUMBERING.match(text)
    if numbering is None or numbering.group(2) or len(text) > 90:
        return None
    token = text[: numbering.end()].strip().rstrip(".):")
    body = text[numbering.end() :]
    words = body.split()
    if not words or len(words) > NUMBERED_BODY_WORDS or not _capital(body[:1]) or _SENTENCE_END.search(body):
        return None
    caseless = body[:1].lower() == body[:1].upper()  # Han, kana, Hangul: "引言" is a whole heading
    if _CJK_SENTENCE_END.search(body) or (caseless and (len(body) > 30 or _CJK_CLAUSE.search(body))):
        return None  # a sentence of a script without case, or a line of one too long to be a heading
    if _TOC_ENTRY.search(body) or sum(c.isalpha() for c in body) < (2 if caseless else 3):
        return None
    major = [w for w in words if w.lower() not in _MINOR_WORDS and w[:1].isalpha()]
    if len(words) > SHORT_HEADING_WORDS and sum(w[:1].isupper() for w in major) < 0.75 * len(major):
        return None  # a longer line must be in Title Case to be a heading ("2 Code is available at …" is a footnote)
    if token.isdigit():
        return int(token), body
    if token and set(token) <= set(_ROMAN):
        return _roman(token), body
    return None  # a letter: an appendix or a sub-heading


def numbered_subheading(line: str) -> bool:
    """Whether a line is shaped like a numbered sub-heading ("2.2 Interface", "3.1.4 Leader Election"):
    `numbered_heading`'s rule for its words, under a number of two or more levels."""
    text = " ".join(line.split())
    numbering = _NUMBERING.match(text)
    if numbering is None or not numbering.group(2):
        return False
    return numbered_heading(f"{numbering.group(1)} {text[numbering.end() :]}") is not None


def _capital(letter: str) -> bool:
    """A heading's first letter: a capital, or a letter of a script without case (Han, kana, Hangul)."""
    return letter.isupper() or (letter.isalpha() and letter.lower() == letter.upper())


def is_summary_heading(text: str) -> bool:
    """Whether a heading is "Summary" (or German "Zusammenfassung"), numbered or not: an abstract
    or a conclusion by position."""
    return normalise_heading(_NUMBERING.sub("", text)) in ("summary", "zusammenfassung")


def is_appendix_heading(text: str) -> bool:
    """A lettered heading after the references ("A Implementation Details"), in Title Case."""
    if not _APPENDIX.match(text) or len(text.split()) > 10:
        return False
    words = text.split()[1:]
    return all(w[:1].isupper() or w.lower() in _MINOR_WORDS for w in words)
