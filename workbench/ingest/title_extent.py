"""Where a title begins and ends on its page: the article it opens with, set alone above it
("The" over "Modern Mail Handler"), and the subtitle below it: a slightly smaller line that is
no name list, a line at an author's size where the authors' names follow it, a subtitle opened
by a dash, and on a cover (a page of a few rows and no paragraph) the row right below the title
whatever its size.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from dataclasses import replace

from workbench.ingest.name_lists import AFFILIATION, is_byline, is_name_list, row_names
from workbench.ingest.prose_names import is_group_name
from workbench.ingest.title_classes import (
    BANNER,
    BYLINE,
    DOCUMENT_KIND,
    EDITION,
    NOISE,
    VERSION,
    VERSION_IN,
    VERSION_ROW,
    full_line,
    is_furniture,
    letter_words,
)
from workbench.ingest.title_lines import is_section_heading, reads_as_prose
from workbench.ingest.title_rows import Row, column_after, next_in_column, plain, row_above, same_block
from workbench.ingest.title_text import DASHED
from workbench.ingest.title_venues import names_institution
from workbench.text.dates import is_date_line
from workbench.text.fts_text import word_count
from workbench.text.ligatures import language_of

MAX_TITLE_ROWS = 5
_SUBTITLE_SHARE = 0.7  # a line at least this share of the title's size may continue it
_BYLINED_SUBTITLE_SHARE = 0.6  # ... and a smaller one, where the authors' names follow it
_OPENING_WORDS = frozenset(["a", "an", "the", "on", "of", "towards", "toward"])  # words a title may open with
_APART_SIZES = 8.0  # a subtitle set apart may stand this many of the title's sizes below it ...
_APART_SUBTITLE_ROWS = 2  # ... on at most this many rows
_COVER_ROWS = 15  # a page of at most this many rows, none of them a paragraph's, is a cover
_COVER_SUBTITLE_ROWS = 3  # a cover's subtitle wraps over at most this many rows
_TRANSLATED_WORDS = 4  # a title and its translation below it: each of at least this many words ...
_LANGUAGE_SHARE = 0.6  # ... this share of them common words of its language, the translation set
_TRANSLATION_SHARE = 0.95  # smaller than the title
_FINITE_VERB = re.compile(r"\b(is|are|was|were|has|have|had|can|will|does|do)\b", re.IGNORECASE)
_PRODUCT_WORDS = 4  # a manual's product named over its kind: at most this many words ...
_KIND_REACH = 4.0  # ... at most this many of its sizes above the kind's row
_NAME_SIZE = 1.5  # a name of one word over what it names: set this many times the body's size or larger ...
_NAME_REACH = 3.0  # ... with what it names at most this many of its sizes below it ...
_BODY_SIZED = 1.05  # ... set no larger than this share of the body's size


def with_subtitle(rows: Sequence[Row], block: list[int], body: float) -> tuple[list[int], list[int]]:
    """The title's rows with the word that opens it set alone above it and the subtitle right
    below it, if any, and the rows of its column below those; a manual's product and its kind
    set on rows of their own are one title (`_with_kind`)."""
    title, following = _with_subtitle(rows, block, body)
    return _with_kind(rows, title, following)


def _with_kind(rows: Sequence[Row], title: list[int], following: list[int]) -> tuple[list[int], list[int]]:
    """A manual's cover names its product and its kind on rows of their own, often a version
    between them ("EusLisp" / "version 9.31" / "Reference Manual"; "GNU Scientific Library" /
    "Reference Manual"; "The OCaml system" / "release 4.02" / "Documentation and user's
    manual"): the title is both, without the version. The kind's row is `DOCUMENT_KIND` alone;
    the product's is a short name (`_PRODUCT_WORDS`), no kind itself, as large as the kind or
    larger, each within `_KIND_REACH` of the product's size of the other. A title that is its kind
    alone ("User's Guide") names no document, so there the product above it is taken however far
    above it stands ("CUPTI" 6 sizes above, a document number between)."""
    text = _text(rows, title)
    if DOCUMENT_KIND.match(text):
        product = _kind_neighbour(rows, title[0], -1)
        if product is not None and _product(rows[product], rows[title[0]], reach=None):
            return [product, *title], following
        return title, following
    kind = _kind_neighbour(rows, title[-1], 1)
    if kind is None or not DOCUMENT_KIND.match(plain(rows[kind])) or not _product(rows[title[0]], rows[kind]):
        return title, following
    if letter_words(text) > _PRODUCT_WORDS:
        return title, following
    return [*title, kind], [i for i in following if i != kind]


def _kind_neighbour(rows: Sequence[Row], index: int, step: int) -> int | None:
    """The row next to `index` (above for -1, below for 1), past one row of its version or date."""
    nxt = index + step
    if 0 <= nxt < len(rows) and _state_row(plain(rows[nxt])):
        nxt += step
    return nxt if 0 <= nxt < len(rows) else None


def _state_row(text: str) -> bool:
    """A row that gives the document's version or date ("version 9.31", "DA-05679-001 _v10.1 |
    July 2019")."""
    return bool(VERSION.match(text) or EDITION.search(text) or is_date_line(text) or VERSION_ROW.search(text))


def _product(product: Row, kind: Row, reach: float | None = _KIND_REACH) -> bool:
    text = plain(product)
    return (
        1 <= letter_words(text) <= _PRODUCT_WORDS
        and not DOCUMENT_KIND.match(text)
        and not VERSION.match(text)
        and product.size >= kind.size
        and (reach is None or product.top - kind.top <= reach * product.size)
        and not is_name_list(text)
        and not BANNER.match(text)
    )


def what_it_names(rows: Sequence[Row], block: list[int], body: float) -> int | None:
    """The row right below a name of one word set for display that says what the name is, set
    smaller ("Cadabra" / "A field-theory motivated approach to symbolic computer algebra",
    "HDB++" / "Design and implementation"), or None: a phrase of two words or more in its
    column, capitalised, that is no name, sentence, label ("Software developed by:"), version,
    date, address or page furniture, set no larger than the body. A phrase set for display is a
    title of its own, and the word over it a logo or a journal's name ("PALMA", "materials")."""
    word = rows[block[-1]]
    if len(block) != 1 or letter_words(plain(word)) != 1 or word.size < _NAME_SIZE * body:
        return None
    nxt = next_in_column(rows, block[-1], _NAME_REACH)
    if nxt is None or rows[nxt].size > _BODY_SIZED * body:
        return None
    phrase = plain(rows[nxt])
    if not phrase[:1].isupper() or letter_words(phrase) < 2 or phrase.rstrip().endswith((".", ":")):
        return None
    if is_name_list(phrase) or row_names(phrase) or reads_as_prose(phrase) or is_furniture(phrase):
        return None
    return None if VERSION_ROW.search(phrase) or AFFILIATION.search(phrase) or is_date_line(phrase) else nxt


def _with_subtitle(rows: Sequence[Row], block: list[int], body: float) -> tuple[list[int], list[int]]:
    following = column_after(rows, block)
    named = what_it_names(rows, block, body)
    if following and named == following[0]:
        return [*block, named], following[1:]
    block = _opening_row(rows, block, body) + list(block)
    if (
        following
        and rows[following[0]].size < _TRANSLATION_SHARE * rows[block[-1]].size
        and _translated(_text(rows, block), _text(rows, _set_alike(rows, following)))
    ):
        return list(block), following  # the title again in another language, no subtitle
    covering = _cover_subtitle(rows, block, following)
    if covering:
        return [*block, *following[:covering]], following[covering:]
    apart = _set_apart(rows, block, following, body) if following else 0
    if apart:
        return [*block, *following[:apart]], following[apart:]
    if not following or not _is_subtitle(rows[block[-1]], rows[following[0]], body, _BYLINED_SUBTITLE_SHARE):
        return list(block), following
    if (
        not _is_subtitle(rows[block[-1]], rows[following[0]], body)
        and not DASHED.match(plain(rows[following[0]]))  # "——从呼和浩特白塔回鹘文题记谈起": a subtitle by its dash
        and not _bylined(rows, following)
    ):
        return list(block), following  # set as an author's line is, it is one unless the authors follow
    taken = 1  # a subtitle wrapped over rows set alike: "Does the collision … observable" / "quantum signature …?"
    while (
        taken < min(len(following), MAX_TITLE_ROWS)
        and same_block(rows[following[taken - 1]], rows[following[taken]])
        and not plain(rows[following[taken - 1]]).endswith((".", "?", "!"))
        and _is_subtitle(rows[following[taken - 1]], rows[following[taken]], body)
        and rows[following[taken - 1]].top - rows[following[taken]].top <= 1.6 * rows[following[taken]].size
    ):
        taken += 1
    return [*block, *following[:taken]], following[taken:]


def _text(rows: Sequence[Row], block: Sequence[int]) -> str:
    return " ".join(plain(rows[i]) for i in block)


def _set_alike(rows: Sequence[Row], following: list[int]) -> list[int]:
    """The first rows below a title set alike, one block (up to `MAX_TITLE_ROWS`)."""
    taken = 1
    while taken < min(len(following), MAX_TITLE_ROWS) and same_block(
        rows[following[taken - 1]], rows[following[taken]]
    ):
        taken += 1
    return following[:taken]


def _translated(title: str, below: str) -> bool:
    """Whether the rows below a title are the title in another language, as a cover sets its
    translation under it ("Information technology — Specification methods for cultural
    conventions" over "Technologies de l'information — Méthodes de modélisation …"): both of
    `_TRANSLATED_WORDS` words or more, each mostly (`_LANGUAGE_SHARE`) common words of its
    language, and the two languages differ. The caller asks it only of rows set smaller than
    the title (a German title's second row, "Springer Vieweg Verlag mit LaTeX", reads as English)."""
    if letter_words(title) < _TRANSLATED_WORDS or letter_words(below) < _TRANSLATED_WORDS:
        return False
    (first, share), (second, other) = language_of(title), language_of(below)
    return first != second and min(share, other) >= _LANGUAGE_SHARE


def _bylined(rows: Sequence[Row], following: list[int]) -> bool:
    """Whether the row below a title, set at the size of an author's line, is a subtitle: no byline
    itself ("by …", "Author: …", a name), and the authors' names right below it."""
    text = plain(rows[following[0]])
    return (
        len(following) > 1
        and text[:1].isalnum()
        and not VERSION_IN.search(text)  # "stanli User Guide, Version 3.0": the document's state
        and not is_byline(text)
        and is_byline(plain(rows[following[1]]))
    )


def _set_apart(rows: Sequence[Row], block: list[int], following: list[int], body: float) -> int:
    """How many rows below a title, further down than its rows are leaded, are its subtitle (0
    where none are): set in its very size and weight, or smaller (down to
    `_BYLINED_SUBTITLE_SHARE` of it, whatever the body's size), lined up with it, a row or two
    set alike, and the byline right below them ("Building a Better Demodulator …" / "Part 1,
    1200 Baud AFSK" / "John Langner"; LAMMPS's "A guide to the SPH-USER package." six sizes below
    its title; a student report's "Report Exercise 3, group C" at 16 pt, 4.5 sizes under its
    title at 20, over the students' names). A smaller row that gives a version or an edition, or
    is set in capitals under a title that is not, is none. A row that passes as a subtitle anyway
    is left to the rules below."""
    last, nxt = rows[block[-1]], rows[following[0]]
    size = max(last.size, 1.0)
    same = abs(nxt.size - last.size) <= 0.03 * size and nxt.bold == last.bold
    if len(following) < 2 or not (same or _BYLINED_SUBTITLE_SHARE * size <= nxt.size < last.size):
        return 0
    if not 2.6 * size < last.top - nxt.top <= _APART_SIZES * size or not _lined_up(last, nxt):
        return 0
    taken = len(_set_alike(rows, following[:_APART_SUBTITLE_ROWS]))
    texts = [plain(rows[i]) for i in following[:taken]]
    if taken == len(following) or any(is_byline(t) for t in texts) or not is_byline(plain(rows[following[taken]])):
        return 0
    text, title = " ".join(texts), _text(rows, block)
    if not same and (VERSION_IN.search(text) or EDITION.search(text) or text.isupper() != title.isupper()):
        return 0  # "LIBINT Version 1.2": the document's state; a heading in capitals under a title that is not
    if not _is_subtitle(replace(last, top=nxt.top + 2.0 * size), nxt, body if same else 0.0, 0.0):
        return 0
    return taken


def _is_subtitle(last: Row, nxt: Row, body: float, share: float = _SUBTITLE_SHARE) -> bool:
    text = plain(nxt)
    if not text or last.top - nxt.top > 2.6 * last.size or nxt.size < share * last.size:
        return False
    if nxt.size <= 1.05 * body or nxt.size > last.size:
        return False
    if "\t" in nxt.text or re.search(r"[∗*†‡§¶]", text) or BANNER.match(text) or NOISE.search(text):
        return False
    if VERSION.match(text) or VERSION_ROW.search(text) or is_date_line(text):
        return False  # "Revision 2025.8.0", "Version 2 — May 2001", "version (unreleased)"
    if BYLINE.match(text):
        return False  # "by David Troidl": the authors of the title above
    if text.endswith(".") and full_line(text) and _FINITE_VERB.search(text):
        return False  # a sentence that says what the page is: "This benchmark test is to calculate …."
    if is_section_heading(text) and not text[:1].isdigit():
        return False  # "Status of this Memo": no subtitle
    unmarked = " ".join(t for t in text.replace(",", " , ").split() if not re.fullmatch(r"[a-z]", t))
    if is_name_list(text) or is_name_list(unmarked) or AFFILIATION.search(text) or names_institution(text):
        return False
    return word_count(text) >= 2  # "——以抖音平台为例" is words written without spaces


def _opening_row(rows: Sequence[Row], block: list[int], body: float) -> list[int]:
    """The row right above a title that holds only the article or preposition it opens with, set
    smaller and apart ("The" over "Modern Mail Handler", "On the" over "Electrodynamics of …")."""
    first = rows[block[0]]
    above = row_above(rows, block[0])
    if above is None:
        return []
    row = rows[above]
    words = plain(row).lower().split()
    if not 1 <= len(words) <= 2 or not all(w in _OPENING_WORDS for w in words):
        return []
    if not body <= row.size <= first.size or row.top - first.top > 2.6 * first.size:
        return []
    return [above] if _lined_up(first, row) else []


def is_cover(rows: Sequence[Row]) -> bool:
    """Whether a page is a cover: a few rows (`_COVER_ROWS`), none of them a paragraph's."""
    return len(rows) <= _COVER_ROWS and not _has_paragraph(rows)


def _cover_subtitle(rows: Sequence[Row], block: list[int], following: list[int]) -> int:
    """How many rows right below a cover's title continue it as its subtitle, whatever their size
    ("Latin Modern Family of Fonts" / "THE TECHNICAL DOCUMENTATION"; "Uniswap v4 Core" /
    "Security Assessment"): on a cover, a page of a few rows and no paragraph, the body's size
    says nothing. The subtitle is centred or aligned with the title, set smaller, one row or a
    few set alike; names, groups, dates, versions, banners, sentences and the like are none there
    either."""
    if not following or not is_cover(rows):
        return 0
    taken = 1
    while taken < len(following) and same_block(rows[following[taken - 1]], rows[following[taken]]):
        taken += 1
    if taken > _COVER_SUBTITLE_ROWS:
        return 0  # a paragraph of its own under the title: a description
    last, below = rows[block[-1]], rows[following[0]]
    if not _lined_up(last, below) or below.size >= last.size:
        return 0
    texts = [plain(rows[i]) for i in following[:taken]]
    text = " ".join(texts)
    if any(is_byline(t) or is_group_name(t) for t in texts) or EDITION.search(text):
        return 0  # "Author: Richard Herveille", "The MiniZinc Team", "…, Version 1.0", "SECOND EDITION"
    if not text[:1].isalnum() or ". " in text or text.endswith(".") or letter_words(text) < 2 or "\ufffd" in text:
        return 0  # "[English summary available]", sentences, lone letters, glyphs the font lost
    return taken if _is_subtitle(last, below, 0.0, 0.0) else 0


def _lined_up(title: Row, other: Row) -> bool:
    """Whether a row is centred on a title row's axis or starts where it starts (within 3% of its
    width, and at least 6 points)."""
    reach = max(6.0, 0.03 * (title.right - title.left))
    centred = abs((title.left + title.right) - (other.left + other.right)) / 2 <= reach
    return centred or abs(title.left - other.left) <= reach


def _has_paragraph(rows: Sequence[Row]) -> bool:
    """Whether a full line runs on into the next row of its block, as a paragraph's lines do (a
    byline over two rows does not: "Prepared by: Alexander Remie, …," / "Guillermo Larregay, …")."""
    return any(
        full_line(plain(row))
        and not is_byline(plain(row))
        and same_block(row, below)
        and full_line(plain(below), words=6)
        for row, below in itertools.pairwise(rows)
    )
