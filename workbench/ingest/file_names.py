"""Title, first author and year from a file name that a reference manager wrote.

Zotero names stored files "{firstCreator} - {year} - {title}" (the title cut at 100
characters; "Smith et al.", "Smith and Jones", "宋珣和马智博", "Dai Qin 等"), and people
often use "Author (Year) Title" or "Author_Year_Title". When a PDF's pages give no title (a
scan, or no title found), these names say more than the bare file name; any other name is
returned as it is.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from workbench.ingest.metadata import plausible_year

_YEAR = r"(?P<year>(1[5-9]|20)\d\d)[a-z]?"
_PATTERNS = (
    re.compile(rf"^(?P<author>[^\s].{{0,80}}?)\s+-\s+{_YEAR}\s+-\s+(?P<title>.+)$"),  # Zotero's default
    re.compile(rf"^(?P<author>[^\s].{{0,80}}?)\s*\({_YEAR}\)\s*[-–:]?\s*(?P<title>.+)$"),  # Author (2017) Title
    re.compile(rf"^(?P<author>[^\W\d_][^_]{{0,40}}?)_{_YEAR}_(?P<title>[^_].+)$"),  # Author_2017_Title
)
_MORE_AUTHORS = re.compile(r"\s*(\bet al\.?|等|\band\b|\bund\b|\bet\b|\be\b|&|,|;|和|与).*$", re.IGNORECASE)


@dataclass(frozen=True)
class FileNameMetadata:
    """What a file name says: a title (the name itself when it has no known pattern)."""

    title: str
    first_author: str | None = None
    year: int | None = None


def read_file_name(stem: str) -> FileNameMetadata:
    """Title, first author and year from a file name's stem (see the module docstring)."""
    stem = " ".join(stem.split())
    for pattern in _PATTERNS:
        match = pattern.match(stem)
        if match:
            title = match.group("title").replace("_", " ").strip(" -–")
            author = _MORE_AUTHORS.sub("", match.group("author").replace("_", " ")).strip(" ,;-")
            if len(title) >= 3 and any(c.isalpha() for c in title):
                return FileNameMetadata(title, author or None, plausible_year(match.group("year")))
    return FileNameMetadata(stem)
