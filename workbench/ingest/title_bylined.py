"""A title that looks like the text around it, found by the byline under it.

Where the rules find no candidate block on a title page, the title may still be there, set
like the body: on an old journal page read by OCR, whose sizes are measured from the scan, the
title ("The primary structure of the Saccharomyces cerevisiae gene for …") comes out at the
abstract's size; a chapter of a book or of the International Tables is numbered as a section
is ("4.6. imgCIF draft version 1.4"). What still tells it apart is what follows it: the
authors' names right below ("Ronald A. Hitzeman, Frank E. Hagie, …", "BY A. P. HAMMERSLEY,
…"). A body paragraph, a section's heading or a running head has no byline under it. So there
the first block in the upper half of the page with a byline right below it is the title, its
section number dropped; a numbered section the body opens with ("1. Introduction to …") is
none, whatever name stands under it. Where the rules do choose a block but it is set no larger
than the body, a block with a byline under it above that choice is the title too. A title found
where no block was a candidate is weaker evidence than a plausible title in the PDF's metadata
that says something else, which then outranks it with its names (`pdf_metadata`): a page of
conference abstracts, one title and byline after another, names the document's own in its info
dictionary. Where the two agree, the page's names stand.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from workbench.ingest.name_lists import AFFILIATION, is_byline, is_name_list, row_names
from workbench.ingest.title_classes import VERSION, cjk_chars, is_furniture, letter_words
from workbench.ingest.title_lines import is_section_heading, reads_as_prose
from workbench.ingest.title_rows import Row, next_in_column, plain, same_block
from workbench.ingest.title_venues import VENUE_LINE, names_institution
from workbench.text.ligatures import common_word

_UPPER_PART = 0.5  # the title stands in this upper share of the page
_BODY_SHARE = 0.85  # ... set at this share of the body's size or larger (OCR's sizes wander)
_ROWS = 3  # ... on at most this many rows
_BYLINE_REACH = 6.0  # ... and its byline at most this many of its sizes below it
_DISTINCT_SHARE = 1.1  # a choice set larger than this share of the body's size stands as it is
_NAME_LETTERS = 4  # a lone word this long or longer may name the document
_SECTION_NUMBER = re.compile(r"^\d{1,2}(\.\d{1,2})*\.?\s+(?=[^\W\d_])")  # "4.6. ", "2 "


def bylined_title(rows: Sequence[Row], height: float, body: float) -> list[int] | None:
    """The rows of the first block in the page's upper part that reads as a title and has a
    byline right below it, or None."""
    for index, row in enumerate(rows):
        if row.top < (1 - _UPPER_PART) * height:
            break
        if not _could_be_title(row, body):
            continue
        block = [index]
        nxt = next_in_column(rows, index)
        while nxt is not None and len(block) < _ROWS and same_block(rows[block[-1]], rows[nxt]):
            if _byline(plain(rows[nxt])) or not _could_be_title(rows[nxt], body):
                break
            block.append(nxt)
            nxt = next_in_column(rows, nxt)
        nxt = next_in_column(rows, block[-1], _BYLINE_REACH)
        text = " ".join(plain(rows[i]) for i in block)
        if nxt is not None and _byline(plain(rows[nxt])) and not reads_as_prose(text):
            return block
    return None


def bylined_over(rows: Sequence[Row], chosen: list[int], height: float, body: float) -> list[int] | None:
    """A block with a byline under it above the rules' choice where that is set no larger than the
    body: a journal's title set in the body's size ("METATEX" over "Ramón Casares") over a
    sentence of the body the rules took."""
    if rows[chosen[0]].size > _DISTINCT_SHARE * body:
        return None
    block = bylined_title(rows, height, body)
    return block if block is not None and rows[block[0]].top > rows[chosen[0]].top else None


def without_section_number(title: str) -> str:
    """A title without the section number it was set under ("4.6. imgCIF …" gives "imgCIF …")."""
    return _SECTION_NUMBER.sub("", title, count=1)


def _could_be_title(row: Row, body: float) -> bool:
    text = plain(row)
    letters = sum(c.isalpha() for c in text)
    if row.running or row.size < _BODY_SHARE * body or letters < 0.5 * len(text.replace(" ", "")):
        return False
    if letter_words(text) < 2 and cjk_chars(text) < 4 and not _a_name(text):
        return False
    if is_furniture(text) or VERSION.match(text) or VENUE_LINE.search(text) or names_institution(text):
        return False
    rest = without_section_number(text)
    if rest != text and is_section_heading(rest.split()[0]):
        return False  # "1. Introduction to VariantAnnotation" over its author: the body's first section
    return not (_byline(text) or AFFILIATION.search(text))


def _a_name(word: str) -> bool:
    """A lone word that names something ("METATEX" over "Ramón Casares"), no common word
    ("Editorial", "Memorandum") or section ("Abstract")."""
    return len(word) >= _NAME_LETTERS and word.isalpha() and not common_word(word) and not is_section_heading(word)


def _byline(text: str) -> bool:
    """A row of authors' names: a byline, or a list of two names or more."""
    return is_byline(text) or is_name_list(text) or len(row_names(text)) >= 2
