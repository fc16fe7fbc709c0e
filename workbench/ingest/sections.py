"""Text heuristics shared by the parsers: clean-up, section splitting and identifiers.

Everything here is pure string work on already-extracted text (heading recognition, paragraph
joining, DOI/arXiv/year spotting), so it is easy to test and identical for PDF, plain text,
Markdown and HTML input.
"""

from __future__ import annotations

import itertools
import re
import statistics
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Literal

from workbench.models import Section

SECTION_NAMES: tuple[str, ...] = (
    "abstract",
    "introduction",
    "methods",
    "results",
    "discussion",
    "conclusion",
    "references",
    "other",
)

LineKind = Literal["text", "break", "heading"]


@dataclass(frozen=True, slots=True)
class SourceLine:
    """One line of extracted text: body text, a paragraph break, or an explicit heading."""

    text: str
    page: int
    kind: LineKind = "text"


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
    "references": "references",
    "appendix": "other",
    "acknowledgements": "other",
    "acknowledgments": "other",
}

_NUMBERING = re.compile(r"^(?:(\d{1,2})(\.\d{1,2})*|[IVX]{1,5}|[A-H])[.):]?\s+")
_TRAILING = re.compile(r"[\s.:;—–-]+$")
_INLINE_ABSTRACT = re.compile(r"^(Abstract|ABSTRACT|Summary|SUMMARY)\s*[—–:.-]\s*(\S.*)$")
_CAPS_ABSTRACT = re.compile(r"^ABSTRACT\s+(\S.*)$")
_KEYWORDS_LINE = re.compile(r"^(Keywords|KEYWORDS|Key words|Index Terms)\b\s*[—–:.-]?\s*(.*)$")
_APPENDIX = re.compile(r"^(?:Appendix\s+)?[A-H](?:\.\d{1,2})?\.?\s+[A-Z][^\d,;.]{3,70}$")
_DOI = re.compile(r"\b(10\.\d{4,9}/\S+)")
_ARXIV_MARGIN = re.compile(r"arXiv:(\d{4}\.\d{4,5}|[a-z-]+(?:\.[A-Z]{2})?/\d{7})(?:v\d+)?\s+\[")
_ARXIV_ANY = re.compile(r"arXiv:\s?(\d{4}\.\d{4,5}|[a-z-]+(?:\.[A-Z]{2})?/\d{7})", re.IGNORECASE)
_YEAR = re.compile(r"(?<!\d)(19\d{2}|20\d{2})(?!\d)")
_HYPHEN_END = re.compile(r"(\w+)-$")
_TOC_ENTRY = re.compile(r"(\.\s*){3,}|\s\d+$")
_LINE_NUMBER = re.compile(r"^(\d{1,5})\s+(?=\S)")
_BARE_NUMBER = re.compile(r"(\d{1,5})")
_ARXIV_STAMP = re.compile(r"^arXiv:\d{4}\.\d{4,5}(v\d+)?\s+\[[^\]]+\]\s+\d{1,2} \w{3} \d{4}$")
_LIGATURES = str.maketrans(
    {
        "\ufb00": "ff",
        "\ufb01": "fi",
        "\ufb02": "fl",
        "\ufb03": "ffi",
        "\ufb04": "ffl",
        "\u00a0": " ",
        "\u2009": " ",
        "\u202f": " ",
        "\u00ad": "",
        "\ufeff": "",
    }
)
_CONTROL = re.compile(r"[\x00\x01\x03-\x08\x0b\x0c\x0e-\x1f\x7f]")
_PDFIUM_HYPHEN = re.compile(r"(\w+)\x02\s*(\S*)")
# Hyphenated line ends whose first half is a whole word: keep the hyphen ("self-supervised").
_KEEP_HYPHEN = frozenset(
    {
        "self",
        "non",
        "well",
        "state",
        "cross",
        "high",
        "low",
        "long",
        "short",
        "large",
        "small",
        "fine",
        "open",
        "two",
        "three",
        "four",
        "data",
        "task",
        "time",
        "end",
        "user",
        "rule",
    }
)
_MINOR_WORDS = frozenset(
    {"a", "an", "the", "of", "on", "in", "for", "and", "or", "to", "with", "via", "from", "by", "at", "as", "vs", "vs."}
)
_TERMINAL = (".", "?", "!", ":", ".”", '."', ".)")


def clean_text(raw: str) -> str:
    """Normalise extracted text: LF line ends, no NULs or control chars, ligatures expanded."""
    text = raw.replace("\r\n", "\n").replace("\r", "\n").translate(_LIGATURES)
    # PDFium marks a line-end hyphen it has already joined with \x02 ("pa\x02pers").
    text = _PDFIUM_HYPHEN.sub(lambda m: _join_hyphenated(m.group(1), m.group(2)), text)
    return _CONTROL.sub("", text.replace("\x02", ""))


def _join_hyphenated(left: str, right: str, *, compound: bool = False) -> str:
    """Join a word split by a line-end hyphen, keeping the hyphen for real compounds."""
    if not right:
        return left + "-"
    right_letters = re.sub(r"\W.*$", "", right)
    keep = (
        compound
        or "-" in right
        or not left[-1:].islower()  # "LLM-based", "Smith-Jones"
        or (left.lower() in _KEEP_HYPHEN and len(right_letters) >= 4)
    )
    return f"{left}-{right}" if keep or not right[:1].islower() else left + right


def join_lines(lines: Iterable[str]) -> str:
    """Join the lines of one paragraph: undo line-end hyphenation and collapse whitespace."""
    parts: list[str] = []
    for raw_line in lines:
        line = " ".join(raw_line.split())
        if parts and line:
            parts[-1], line = _dehyphenate(parts[-1], line)
        if line:
            parts.append(line)
    return " ".join(parts)


def _dehyphenate(previous: str, line: str) -> tuple[str, str]:
    """Move the end of a word hyphenated across a line break back onto the previous line."""
    match = _HYPHEN_END.search(previous[-80:])
    if not match or not previous[-2:-1].isalpha() or not line[:1].isalnum():
        return previous, line
    start = len(previous) - len(previous[-80:]) + match.start()
    head, _, rest = line.partition(" ")
    compound = previous[start - 1 : start] == "-"  # "state-of-the-" + "art"
    return previous[:start] + _join_hyphenated(match.group(1), head, compound=compound), rest


def _normalise_heading(text: str) -> str:
    return " ".join(_TRAILING.sub("", text.replace("&", " and ")).lower().split())


def heading_section(line: str, *, explicit: bool = False) -> str | None:
    """The section a heading line names, or None when the line is not a recognised heading."""
    text = " ".join(line.split())
    if not text or len(text) > 90:
        return None
    numbering = _NUMBERING.match(text)
    body = text[numbering.end() :] if numbering else text
    if not body[:1].isalpha() or (not explicit and not body[:1].isupper()):
        return None
    if not explicit and _TOC_ENTRY.search(body):
        return None
    phrase = _normalise_heading(body)
    if phrase in HEADING_PHRASES:
        return HEADING_PHRASES[phrase]
    letters = [c for c in body if c.isalpha()]
    head, sep, _ = body.partition(":") if ":" in body else body.partition("—")
    if sep and all(c.isupper() for c in letters):
        # ALL-CAPS run-in heading: "INTRODUCTION: IDENTIFICATION OF ..."
        return HEADING_PHRASES.get(_normalise_heading(head))
    words = phrase.split()
    top_level = numbering is not None and numbering.group(1) is not None and not numbering.group(2)
    if not (explicit or top_level) or not words or len(words) > 8:
        return None
    for size in (3, 2):  # "Experimental results on X" is results, not methods
        if " ".join(words[:size]) in HEADING_PHRASES and len(words) > size:
            return HEADING_PHRASES[" ".join(words[:size])]
    return HEADING_KEYWORDS.get(words[0])


def strip_line_numbers(lines: Sequence[str]) -> list[str]:
    """Remove manuscript line numbers ("12 text") when most lines carry increasing ones."""
    numbers = [
        (i, int(m.group(1)))
        for i, line in enumerate(lines)
        if (m := _LINE_NUMBER.match(line.strip()) or _BARE_NUMBER.fullmatch(line.strip()))
    ]
    content = [line for line in lines if line.strip()]
    if len(numbers) < 10 or len(numbers) < 0.6 * len(content):
        return list(lines)
    rising = sum(1 for (_, a), (_, b) in itertools.pairwise(numbers) if b > a)
    if rising < 0.8 * (len(numbers) - 1):
        return list(lines)
    numbered = {i for i, _ in numbers}
    return [re.sub(r"^\s*\d{1,5}(\s+|$)", "", line, count=1) if i in numbered else line for i, line in enumerate(lines)]


def pdf_lines(page_texts: Sequence[str]) -> list[SourceLine]:
    """Turn per-page PDF text into lines, dropping running headers, line numbers and stamps.

    PDF text has no blank lines, so a paragraph break is inferred after a line that ends a
    sentence and is clearly shorter than the page's typical line.
    """
    pages = [strip_line_numbers([ln.strip() for ln in clean_text(t).split("\n")]) for t in page_texts]
    repeated: set[str] = set()
    if len(pages) >= 3:
        counts = Counter(key for page in pages for key in {_running_key(ln) for ln in page if ln})
        repeated = {key for key, n in counts.items() if n >= max(3, 0.6 * len(pages))}
    out: list[SourceLine] = []
    for page_no, page in enumerate(pages, start=1):
        kept = [ln for ln in page if ln and _running_key(ln) not in repeated and not _ARXIV_STAMP.match(ln)]
        long_lines = [len(ln) for ln in kept if len(ln) >= 20]
        typical = statistics.quantiles(long_lines, n=4)[2] if len(long_lines) >= 4 else 60.0
        for line in kept:
            out.append(SourceLine(line, page_no))
            if line.endswith(_TERMINAL) and len(line) < 0.8 * typical:
                out.append(SourceLine("", page_no, "break"))
        out.append(SourceLine("", page_no, "break"))
    return out


def _running_key(line: str) -> str:
    return re.sub(r"\d+", "#", " ".join(line.split()).lower())


def text_lines(text: str) -> list[SourceLine]:
    """Lines of a plain-text document; blank lines are paragraph breaks, form feeds new pages."""
    out: list[SourceLine] = []
    for page_no, page in enumerate(text.split("\f"), start=1):
        for line in clean_text(page).split("\n"):
            stripped = line.strip()
            out.append(SourceLine(stripped, page_no, "text" if stripped else "break"))
    return out


@dataclass(slots=True)
class _Paragraph:
    lines: list[tuple[int, str]]  # (page, text)


class _Splitter:
    """Accumulates lines into runs of one section each."""

    def __init__(self) -> None:
        self.runs: list[tuple[str, list[_Paragraph]]] = [("other", [])]
        self.paragraph: list[tuple[int, str]] = []
        self.seen_abstract = False
        self.abstract_page = 0

    @property
    def current(self) -> str:
        return self.runs[-1][0]

    def end_paragraph(self) -> None:
        if self.paragraph:
            self.runs[-1][1].append(_Paragraph(self.paragraph))
            self.paragraph = []

    def add(self, text: str, page: int) -> None:
        self.paragraph.append((page, text))

    def switch(self, name: str, page: int) -> None:
        self.end_paragraph()
        if name == "abstract":
            self.seen_abstract = True
            self.abstract_page = page
        self.runs.append((name, []))


def split_sections(lines: Iterable[SourceLine], *, detect_headings: bool = True) -> list[Section]:
    """Group lines into Sections named by the paper headings they fall under.

    Explicit headings (Markdown, HTML) always count; with detect_headings, short text lines
    that match a known heading ("2. Methods", "REFERENCES") or run-in prefixes such as
    "Abstract—" also start sections. Unrecognised explicit headings keep the current section.
    Paragraphs are separated by a blank line and every page turn inside a section is marked
    by a form feed, so `text.count("\\f") == page_end - page_start`.
    """
    state = _Splitter()
    for line in lines:
        if line.kind == "break":
            state.end_paragraph()
            continue
        if state.current == "abstract" and line.page > state.abstract_page + 1:
            state.switch("other", line.page)  # an unterminated abstract never runs for pages
        name = _line_section(line, state, detect_headings)
        if name is None and line.kind == "heading":
            # Unrecognised heading: the section goes on, the heading stays as its own paragraph.
            state.end_paragraph()
            state.add(line.text, line.page)
            state.end_paragraph()
            continue
        if name is None:
            state.add(line.text, line.page)
            continue
        section, remainder = name
        if section != state.current or line.kind == "heading" or remainder:
            state.switch(section, line.page)
        if remainder:
            state.add(remainder, line.page)
    state.end_paragraph()
    return _merge_runs(state.runs)


def _line_section(line: SourceLine, state: _Splitter, detect: bool) -> tuple[str, str] | None:
    """The (section, leftover text) a line starts, or None for ordinary text."""
    text = line.text.strip()
    early = line.page <= 3 and state.current in ("other", "abstract")
    if line.kind == "heading":
        found = heading_section(text, explicit=True)
        return None if found is None else (_summary_rule(text, found, state), "")
    if not detect:
        inline = _INLINE_ABSTRACT.match(text)
        if inline and early and not state.seen_abstract:
            return "abstract", inline.group(2)
        return None
    if early and not state.seen_abstract:
        inline = _INLINE_ABSTRACT.match(text) or _CAPS_ABSTRACT.match(text)
        if inline:
            return "abstract", inline.group(inline.lastindex or 1)
    if early and state.current == "abstract" and _KEYWORDS_LINE.match(text):
        return "other", text
    found = heading_section(text)
    if found is None:
        if state.current == "references" and _is_appendix_heading(text):
            return "other", text
        return None
    found = _summary_rule(text, found, state)
    if found == "abstract" and (state.seen_abstract or line.page > 3):
        return None
    return found, ""


def _is_appendix_heading(text: str) -> bool:
    """A lettered heading after the references ("A Implementation Details"), in Title Case."""
    if not _APPENDIX.match(text) or len(text.split()) > 10:
        return False
    words = text.split()[1:]
    return all(w[:1].isupper() or w.lower() in _MINOR_WORDS for w in words)


def _summary_rule(text: str, found: str, state: _Splitter) -> str:
    """ "Summary" before the body is an abstract, later it is a conclusion."""
    if _normalise_heading(_NUMBERING.sub("", text)) == "summary":
        return "abstract" if state.current in ("other", "abstract") else "conclusion"
    return found


def _merge_runs(runs: list[tuple[str, list[_Paragraph]]]) -> list[Section]:
    merged: list[tuple[str, list[_Paragraph]]] = []
    for name, paragraphs in runs:
        if not paragraphs:
            continue
        if merged and merged[-1][0] == name:
            merged[-1][1].extend(paragraphs)
        else:
            merged.append((name, list(paragraphs)))
    sections: list[Section] = []
    for name, paragraphs in merged:
        text, first, last = _section_text(paragraphs)
        if text:
            sections.append(Section(name, text, first, last))
    return sections


def _section_text(paragraphs: list[_Paragraph]) -> tuple[str, int, int]:
    """Paragraphs joined by blank lines, with one form feed per page turned (for the chunker)."""
    parts: list[str] = []
    first = last = 0
    for paragraph in paragraphs:
        new_paragraph = True
        for page, group in itertools.groupby(paragraph.lines, key=lambda item: item[0]):
            text = join_lines(line for _, line in group)
            if not text:
                continue
            if not parts:
                first = page
            turn = "\f" * max(0, page - last) if parts else ""
            if parts and new_paragraph:
                parts.append(f"\n\n{turn}")
            elif parts:
                parts[-1], text = _dehyphenate(parts[-1], text)  # a word split at a page end
                parts.append(turn)
            parts.append(text)
            last, new_paragraph = max(last, page), False
    return "".join(parts), first, last


def without_page_breaks(text: str) -> str:
    """Section text with its form-feed page markers removed, for display."""
    return re.sub(r"(\n\n)?\f+", lambda m: m.group(1) or " ", text)


# --- Identifiers and metadata strings ---------------------------------------------------


def find_doi(text: str) -> str | None:
    """The first DOI in the text, without trailing punctuation or unbalanced brackets."""
    match = _DOI.search(text)
    if not match:
        return None
    doi = match.group(1)
    while doi and doi[-1] in ".,;:'\"”’)]}>":
        closer = doi[-1]
        opener = {")": "(", "]": "[", "}": "{", ">": "<"}.get(closer)
        if opener and doi.count(opener) >= doi.count(closer):
            break
        doi = doi[:-1]
    return doi if "/" in doi and len(doi.split("/", 1)[1]) >= 2 else None


def find_arxiv_id(text: str) -> str | None:
    """The arXiv identifier of the paper itself: the margin stamp, else an early "arXiv:" id."""
    match = _ARXIV_MARGIN.search(text) or _ARXIV_ANY.search(text[:1500])
    return match.group(1) if match else None


def plausible_year(text: str | None) -> int | None:
    """A 4-digit year between 1900 and next year found in a date string, else None."""
    if not text:
        return None
    match = re.match(r"^(?:D:)?(\d{4})", text.strip()) or _YEAR.search(text)
    year = int(match.group(1)) if match else 0
    return year if 1900 <= year <= date.today().year + 1 else None


def max_year(text: str) -> int | None:
    """The latest plausible year mentioned in the text, else None."""
    years = [y for y in (plausible_year(m) for m in _YEAR.findall(text)) if y]
    return max(years) if years else None


def arxiv_year(arxiv_id: str | None) -> int | None:
    """The submission year encoded in an arXiv id ("2407.01603" is 2024)."""
    if not arxiv_id:
        return None
    digits = re.search(r"(\d{2})(\d{2})[.\d]", arxiv_id.split("/")[-1])
    if not digits:
        return None
    yy = int(digits.group(1))
    return (1900 if yy >= 91 else 2000) + yy


def biorxiv_year(doi: str | None) -> int | None:
    """The posting year encoded in a bioRxiv/medRxiv DOI ("10.1101/2024.05.13...")."""
    match = re.match(r"10\.1101/(\d{4})\.\d{2}\.\d{2}\.", doi or "")
    return plausible_year(match.group(1)) if match else None


def split_authors(raw: str) -> tuple[str, ...]:
    """Author names from a metadata string: "A B; C D", "A B and C D", "Last, First and ..."."""
    raw = " ".join(raw.split())
    if not raw or not any(c.isalpha() for c in raw):
        return ()
    if ";" in raw:
        parts = raw.split(";")
    else:
        parts = re.split(r"\s+(?:and|&)\s+", raw)
        if not all(p.count(",") == 1 for p in parts):
            parts = [q for p in parts for q in p.split(",")]
    names: list[str] = []
    for part in (p.strip() for p in parts):
        if part.count(",") == 1:
            last, first = (s.strip() for s in part.split(","))
            part = f"{first} {last}".strip()
        if part and part not in names:
            names.append(part)
    usernames = all(" " not in n and (n.islower() or n.lower() in ("admin", "user")) for n in names)
    return () if usernames else tuple(names)
