"""A title of one word ("Concordance", "FFTW", "Visitors"), told from a lone word that is a label,
a logo, a brand or a journal's name by what stands below it: its authors' names, right below it,
below its version, or at the cover's foot (Texinfo's title page), or, for an acronym, the words
it stands for, set smaller right below it ("AEOS" / "Agent Economic Operating System")."""

from __future__ import annotations

import re
from collections.abc import Sequence

from workbench.ingest.name_lists import row_names
from workbench.ingest.title_classes import BYLINE, DOCUMENT_KIND, VERSION_ROW
from workbench.ingest.title_extent import is_cover, what_it_names
from workbench.ingest.title_rows import Row, letters_only, next_in_column, plain

ONE_WORD_SIZE = 1.5  # a one-word title is set at least this many times the body size ...
DISPLAY_SHARE = 1.1  # ... or this share (a block this share of the body's size or larger is set for display)
# The name in a web address ("altermundus" in "http://altermundus.fr", "www.example.org/x")
_SITE = re.compile(r"(?:https?://|www\.)(?:www\.)?([^\W_][\w-]*)\.[a-z]{2,}", re.IGNORECASE)


def one_word_title(rows: Sequence[Row], block: list[int], body: float) -> bool:
    """A one-word title ("Concordance") is set well above the body size with its authors' names
    right below it, or below its version, or at the foot of a cover where it is the largest word;
    a lone word elsewhere is a label, a logo or a journal's name, and one that names the page's
    web address is a brand."""
    if _names_the_site(rows, block):
        return False  # "AlterMundus" over "http://altermundus.fr": the publisher's brand
    nxt = next_in_column(rows, block[-1])
    if nxt is not None and rows[nxt].size < rows[block[0]].size and _spelled_out(rows[block[0]].text, plain(rows[nxt])):
        return True  # an acronym over what it stands for: "AEOS" / "Agent Economic Operating System"
    if what_it_names(rows, block, body) is not None:
        return True  # a name over what it is: "Cadabra" / "A field-theory motivated approach to …"
    if nxt is not None and VERSION_ROW.search(plain(rows[nxt])):
        reach = 2.6 * rows[block[0]].size / max(rows[nxt].size, 1.0)  # as far as from the title
        nxt = next_in_column(rows, nxt, reach)  # "Visitors" / "version (unreleased)" / "François Pottier"
    foot = nxt is None
    if foot:
        nxt = _first_below_versions(rows, block)  # a cover's foot: "FFTW" / "for version 3.3.8" ... "Matteo Frigo"
    if nxt is None or rows[nxt].size >= rows[block[0]].size or not row_names(rows[nxt].text):
        return False
    # "by" names the author of the work above it, so a display-size word over "by …" is a title; so
    # is the largest word on the page over its authors' names, at the cover's foot or right below
    # it on a cover (a page of a few rows, no paragraph: its names and affiliation are much of its
    # text, "Visitors" at 1.4 times their size), unless it names a kind of document ("Thesis")
    byline = bool(BYLINE.match(plain(rows[nxt])))
    size = rows[block[0]].size
    largest = all(r.size < size for i, r in enumerate(rows) if i not in block) and (foot or is_cover(rows))
    largest = largest and not DOCUMENT_KIND.match(" ".join(plain(rows[i]) for i in block))
    return size >= (DISPLAY_SHARE if byline or largest else ONE_WORD_SIZE) * body


def _spelled_out(word: str, row: str) -> bool:
    """Whether a row spells out a word in capitals by its words' initials, with or without its
    small joining words ("AEOS" by "Agent Economic Operating System", "RDF" by "Resource
    Description Framework")."""
    letters = word.strip()
    if not (2 <= len(letters) <= 8 and letters.isalpha() and letters.isupper()):
        return False
    words = re.findall(r"[^\W\d_][\w'’-]*", row)
    initials = "".join(w[0] for w in words).upper()
    capitalised = "".join(w[0] for w in words if w[0].isupper())
    return letters in (initials, capitalised) and len(words) >= len(letters)


def _names_the_site(rows: Sequence[Row], block: list[int]) -> bool:
    """Whether a one-word block is the name of a web address the page prints: a brand or a logo."""
    word = letters_only(" ".join(plain(rows[i]) for i in block))
    return bool(word) and any(word == letters_only(site) for row in rows for site in _SITE.findall(row.text))


def _first_below_versions(rows: Sequence[Row], block: list[int]) -> int | None:
    """The first row below a block, however far, when it is in the block's column and only version
    rows stand between them: a cover that sets its authors at its foot (Texinfo's title page)."""
    last = rows[block[-1]]
    for index in range(block[-1] + 1, len(rows)):
        row = rows[index]
        if row.top >= last.top or VERSION_ROW.search(plain(row)):
            continue
        return index if row.overlaps(last) else None
    return None
