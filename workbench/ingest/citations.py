"""Reference lists parsed into entries with DOI, arXiv id and a best-guess title.

A references section arrives as paragraphs whose line breaks are gone and where two entries
are sometimes run together. Entries are split by their numbering when the list is numbered
("[12]", "(12)", "12." or "12 " counting up from the first entry), else at each entry's
"authors, year" opening. Titles are guessed from the entry's shape: a quoted title; the text
after "Authors. 2017." or "Authors (2017)."; else the sentence after the author list. Matching
against the library (`normalise_title`, `title_similarity`) also lives here so the rules for
what counts as "the same title" sit next to the rules that extract titles.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence

from workbench.ingest.metadata import find_doi
from workbench.records import Section
from workbench.text.accents import repair_accents
from workbench.text.citations import (
    MIN_TITLE_CHARS,
    CitationMatcher,
    LibraryPaper,
    Reference,
    arxiv_from_doi,
    normalise_arxiv,
    normalise_doi,
    normalise_title,
    title_similarity,
)

__all__ = [  # the matching half lives in workbench.text.citations; re-exported for callers of this module
    "CitationMatcher",
    "LibraryPaper",
    "Reference",
    "arxiv_from_doi",
    "find_arxiv",
    "guess_title",
    "normalise_arxiv",
    "normalise_doi",
    "normalise_title",
    "parse_reference",
    "parse_references",
    "references_of",
    "split_entries",
    "title_similarity",
]

MAX_ENTRIES = 3000
MAX_ENTRY_CHARS = 1500


_ARXIV = re.compile(
    r"(?:arxiv(?:\.org/(?:abs|pdf)/|\s*(?:preprint|e-?print)?\s*(?:\[[\w.\-]+\])?\s*[:.,]?\s*(?:abs/)?)|"
    r"\babs/)\s?(\d{4}\.\d{4,5}|[a-z][a-z\-]+(?:\.[A-Z]{2})?/\d{7})(?:v\d+)?",
    re.IGNORECASE,
)
_YEAR = r"(?:19|20)\d\d[a-z]?"
_MARKERS = {
    "bracket": re.compile(r"\[(\d{1,4})\]\s*"),
    "paren": re.compile(r"(?:^|(?<=\s))\((\d{1,4})\)\s+"),
    "plain": re.compile(r"(?:^|(?<=[\s.)\]]))(\d{1,4})\.?\s+(?=[^\W\d_]|\")"),
}
# "Authors. 2017. Title" / "Authors (2017). Title" / "Authors, 2005 Title" / "Authors. (2017)"
_AUTHOR_YEAR = re.compile(
    rf"^(?P<authors>[^\d\"“]{{3,700}}?)[.,]?\s+\(?(?P<year>{_YEAR})\)?[.,:]?\s+(?P<rest>\S.*)$", re.DOTALL
)
_YEAR_ANCHOR = re.compile(rf"(?<=[.,])\s+\(?({_YEAR})\)?[.,:]?\s+(?=\S)")
_QUOTED = re.compile(r"[\"“”]([^\"“”]{8,400}?)[,.]?[\"“”]")
_SENTENCE_END = re.compile(r"(?<=[^\s.]{2})[.?!](?=\s+\S|\s*$)")
_INVERTED_NAME = re.compile(r"^[^\W\d_][\w'’\-]*(?:\s[\w'’\-]+){0,2},\s(?:[^\W\d_][a-z]?\.\s?-?)")
_VANCOUVER_NAME = re.compile(r"^[^\W\d_][\w'’\-]+(?:\s[\w'’\-]+)?\s[A-Z]{1,3},")
_INVERTED_END = re.compile(
    r"(?:\b[^\W\d_][a-z]?\.|\bal\.)\s+(?=[^\W\d_\"“(\[])(?!et\s+al\b)(?![^\W\d_][a-z]?\.)(?![\w'’\-]+,)"
)
_NATURAL_END = re.compile(r"(?<=[^\W\d_]{2})\.\s+(?=\S)")
_NOT_NAMES = frozenset(
    {
        "press",
        "university",
        "journal",
        "proceedings",
        "conference",
        "laboratory",
        "publishing",
        "publishers",
        "springer",
        "elsevier",
        "wiley",
        "vol",
        "pp",
        "in",
        "available",
        "url",
        "preprint",
        "arxiv",
        "biorxiv",
        "chemrxiv",
        "doi",
        "isbn",
        "issn",
        "january",
        "february",
        "march",
        "april",
        "may",
        "june",
        "july",
        "august",
        "september",
        "october",
        "november",
        "december",
    }
)
_NAME_WORDS = frozenset({"and", "et", "al", "al.", "&", "van", "von", "de", "der", "den", "da", "di", "du", "la", "le"})


def find_arxiv(text: str) -> str | None:
    """The first arXiv id written in a reference ("arXiv:1706.03762", "arxiv.org/abs/...")."""
    match = _ARXIV.search(text)
    return normalise_arxiv(match.group(1)) if match else None


# --- Splitting into entries ---------------------------------------------------------------


def _numbered_entries(text: str, marker: re.Pattern[str]) -> list[str] | None:
    """Entries of a list numbered 1, 2, 3... (or from any start) with this marker style."""
    found = [(m.start(), m.end(), int(m.group(1))) for m in marker.finditer(text)]
    if len(found) < 3:
        return None
    first = found[0]
    if text[: first[0]].strip() or first[2] > 5:
        return None
    cuts = [first]
    expected = first[2] + 1
    for start, end, number in found[1:]:
        if number == expected and start >= cuts[-1][1]:
            cuts.append((start, end, number))
            expected += 1
    if len(cuts) < 3 or (len(cuts) < 0.5 * len(found) and marker is not _MARKERS["plain"]):
        return None
    bounds = [*(c[0] for c in cuts[1:]), len(text)]
    return [text[c[1] : b] for c, b in zip(cuts, bounds, strict=True)]


def _author_year_entries(paragraph: str) -> list[str]:
    """Split "Authors. Year. Title." entries at each author list (paragraph breaks are unreliable)."""
    anchors = list(_YEAR_ANCHOR.finditer(paragraph))
    if len(anchors) < 2:
        return [paragraph]
    cuts = [0]
    for anchor in anchors[1:]:
        start = _author_list_start(paragraph, cuts[-1], anchor.start())
        if start is not None and start > cuts[-1]:
            cuts.append(start)
    cuts.append(len(paragraph))
    return [paragraph[a:b] for a, b in itertools.pairwise(cuts)]


def _author_list_start(text: str, floor: int, year_at: int) -> int | None:
    """Where the author list ending at `year_at` begins: the earliest cut after which only names remain.

    A cut is whitespace after a sentence end or after a token ending in a digit (page ranges,
    DOIs and URLs end entries without a period).
    """
    for match in re.finditer(r"(?:(?<=[.?!])|(?<=\d))\s+", text[floor:year_at]):
        start = floor + match.end()
        if _looks_like_authors(text[start:year_at]):
            return start
    return None


def _looks_like_authors(segment: str) -> bool:
    """True when a text is a plausible author list: names, initials, commas, "and", "et al"."""
    segment = segment.strip(" ,.")
    if not segment or any(c.isdigit() for c in segment) or len(segment) > 700:
        return False
    for token in re.split(r"[\s,;]+", segment):
        bare = token.strip(".()")
        if not bare or bare.lower() in _NAME_WORDS:
            continue
        if not bare[0].isupper() or bare.lower() in _NOT_NAMES:
            return False
    return True


def split_entries(text: str) -> list[str]:
    """The entries of a references section, each as one line of text."""
    text = repair_accents(text.replace("\f", "\n"))
    flat = " ".join(text.split())
    for name in ("bracket", "paren", "plain"):
        entries = _numbered_entries(flat, _MARKERS[name])
        if entries:
            break
    else:
        entries = _author_year_entries(flat)
    cleaned = [" ".join(e.split()).strip() for e in entries]
    return [e[:MAX_ENTRY_CHARS] for e in cleaned if len(e) >= 15][:MAX_ENTRIES]


# --- Titles -------------------------------------------------------------------------------


def _first_sentence(text: str) -> str:
    match = _SENTENCE_END.search(text)
    return text[: match.start() + 1] if match else text


def _clean_title(title: str) -> str | None:
    title = re.sub(r"^(?:in:?\s+)", "", title.strip(), flags=re.IGNORECASE)
    title = title.strip(" .,;:\"“”'")
    if len(title) < MIN_TITLE_CHARS or len(title.split()) < 2:
        return None
    if re.match(r"^(?:https?:|doi:|arxiv|url\b|pp\.|vol\.|in proceedings)", title, re.IGNORECASE):
        return None
    return title


def guess_title(entry: str) -> str | None:
    """The most likely title inside one reference entry, or None."""
    quoted = _QUOTED.search(entry)
    if quoted:
        return _clean_title(quoted.group(1))
    author_year = _AUTHOR_YEAR.match(entry)
    if author_year and _looks_like_authors(author_year.group("authors")):
        title = _clean_title(_first_sentence(author_year.group("rest")))
        if title:
            return title
    if _INVERTED_NAME.match(entry):
        end = _INVERTED_END.search(entry)
    elif _VANCOUVER_NAME.match(entry):
        end = re.search(r"\.\s+", entry)
    else:
        end = _NATURAL_END.search(entry)
    if end is None:
        return None
    rest = entry[end.end() :]
    year_first = re.match(rf"^\(?{_YEAR}\)?[.,:]?\s+", rest)
    if year_first:
        rest = rest[year_first.end() :]
    return _clean_title(_first_sentence(rest))


def parse_reference(entry: str) -> Reference:
    """One entry's DOI, arXiv id and title guess."""
    raw = " ".join(entry.split())
    joined = re.sub(r"(doi\.org/|doi:)\s+", r"\1", raw, flags=re.IGNORECASE)
    joined = re.sub(r"(\b10\.\d{4,9}/\S*-)\s+(?=\w)", r"\1", joined)  # a DOI broken after a hyphen
    doi = normalise_doi(find_doi(joined))
    arxiv = find_arxiv(joined) or arxiv_from_doi(doi)
    return Reference(doi=doi, arxiv=arxiv, title=guess_title(raw), raw=raw)


def parse_references(text: str) -> list[Reference]:
    """Every entry of a references section, in order."""
    return [parse_reference(entry) for entry in split_entries(text)]


def references_of(sections: Sequence[Section]) -> list[Reference]:
    """Every reference in a parsed document's sections named "references"."""
    found: list[Reference] = []
    for section in sections:
        if section.name == "references" and len(found) < MAX_ENTRIES:
            found.extend(parse_references(section.text))
    return found[:MAX_ENTRIES]
