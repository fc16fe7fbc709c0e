"""A title's text from its rows: rows joined (a smaller row opens a subtitle after a colon, Chinese
and Japanese run on without a space), numbering and footnote marks dropped, capitals set in title
case; whether a PDF's Title metadata is a placeholder (`is_junk_title`); a form's title label
("Title:", "Thema", "题目"), above its value or before it on its row; and the title printed
again in another script further down the page (`parallel_block`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from workbench.ingest.name_lists import is_name_list
from workbench.ingest.source_lines import join_lines
from workbench.ingest.title_classes import AUDIT_KIND, DOCUMENT_KIND
from workbench.ingest.title_lines import (
    SHORT_TITLE_WORDS,
    TITLE_CONNECTORS,
    dominant_script,
    script_shares,
    strip_numbering,
    title_case,
    unspaced,
)
from workbench.ingest.title_rows import Row, plain, row_above, same_block, spells_out

MAX_TITLE_CHARS = 300
_PARALLEL_SHARE = 0.6  # a title in another script is set at least this share of the title's size
DASHED = re.compile(r"^\s*(——|[—–]{2,}|--)\s*(?=\w)")  # a subtitle's opening dash, as Chinese titles set it
TITLE_FIELD = re.compile(  # a form's title label with the title after it on its row: "Title: Host Software"
    r"^(title|titel|t[íi]tulo|titre|titolo|论文题目|题目|題目|标题|標題)\s*[:：]\s*(?=\w)", re.IGNORECASE
)
_TITLE_LABEL = re.compile(  # the label alone on its row, the title under it
    r"^(thema|titel|title|topic|t[íi]tulo|titre|tema|sujet|subject|titolo|onderwerp|temat|"
    r"论文题目|题目|題目|标题|標題)\s*[:：]?$",
    re.IGNORECASE,
)
_HAN = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff]")  # Han and kana: no spaces between words
_JUNK_TITLE = re.compile(
    r"^(microsoft (word|powerpoint|excel)\b|untitled\b|document\d*$|title$|no title$|none$|"
    r"unknown$|paper$|manuscript$|draft$|slide \d+$|powerpoint presentation$|arxiv:|doi:|https?://|"
    r"www\.|proceedings template|template\b|\S+\s+\d+\s*\.\.\s*\d+$)|"
    r"\.(docx?|pdf|tex|dvi|e?ps|rtf|odt|indd|qxd|txt|wpd|pages|png|jpe?g|html?)$|\btemplate\b",
    re.IGNORECASE,
)


def is_junk_title(title: str) -> bool:
    """Whether a metadata title is a placeholder ("Microsoft Word - draft.docx", "paper.dvi")."""
    title = title.strip()
    if len(title) < 4 or not any(c.isalpha() for c in title) or _JUNK_TITLE.search(title):
        return True
    return " " not in title and ("_" in title or any(c.isdigit() for c in title))


# A section's number set apart from its heading by a gap wider than a word space (a tab in the
# row's text): a document that opens with its first section has its heading as its title.
_SET_APART_NUMBER = re.compile(r"^\d{1,2}(\.\d{1,2})*\.?\t(?=[^\W\d_])")


def join_title(rows: Sequence[Row], title_cased: bool = True) -> str:
    """The title the rows give; one of `SHORT_TITLE_WORDS` words or more printed in capitals is
    set in title case unless `title_cased` is false (`title_casing` cases it by its document)."""
    parts: list[str] = []
    for index, row in enumerate(rows):
        text = plain(row)
        if not index and _SET_APART_NUMBER.match(row.text):
            text = " ".join(_SET_APART_NUMBER.sub("", row.text).split())  # "1⇥NeXus Programmers Reference"
        above = rows[index - 1].size if index else row.size  # a smaller row opens the subtitle, once
        # a joining word set smaller ("… Scientists" / "on" / …), or a row that ends on one ("Security Review of")
        joining = text.lower() in TITLE_CONNECTORS or bool(parts and _last_word(parts[-1]) in TITLE_CONNECTORS)
        # a manual's kind after its product: "GNU Scientific Library" / "Reference Manual"
        joining = joining or bool(DOCUMENT_KIND.match(text) and not AUDIT_KIND.match(text))
        if parts and above - row.size > 0.05 * above and not joining and not parts[-1].endswith((":", "-", "—", "–")):
            parts[-1] += ":"
            text = DASHED.sub("", text, count=1)
        elif parts and len(parts) == 1 and spells_out(parts[0], text):
            parts[-1] += ":"  # an acronym over the words it stands for: "GCTP: General Cartographic …"
        if parts and _HAN.match(parts[-1][-1:]) and _HAN.match(text):
            parts[-1] += text  # Chinese and Japanese run on across a line break without a space
            continue
        parts.append(text)
    title = strip_numbering(join_lines(parts).strip(" .,;")).strip(" .,;")
    # a footnote mark after the last word ("… Generator†", "… Feb. 2005∗"), not a star that names ("A∗")
    title = re.sub(r"(?<=[^\W\d_]{2})\s*[†‡§¶]+$|(?<=[\da-z.])\s*[∗*†‡§¶]+$", "", title)
    title = re.sub(r"\s+([:,;])", r"\1", title).lstrip(" :;,.")  # a name the text layer lost before ": A Protocol …"
    if title_cased and title.upper() == title and len(title.split()) >= SHORT_TITLE_WORDS:
        title = title_case(title)
    return title[:MAX_TITLE_CHARS].strip()


def _last_word(text: str) -> str:
    words = text.lower().split()
    return words[-1] if words else ""


def labelled_as_title(rows: Sequence[Row], block: list[int]) -> bool:
    """Whether the row right above a block, in its column, is a form's title label alone
    ("Thema", "Title:", "Título", "题 目"), as thesis covers set the title under its label."""
    first = rows[block[0]]
    for index in range(block[0] - 1, -1, -1):
        row = rows[index]
        if row.top - first.top > 3.0 * max(row.size, first.size):
            return False
        if row.overlaps(first):
            return bool(_TITLE_LABEL.match(unspaced(plain(row)))) and not _wraps_on(rows, index)
    return False


def _wraps_on(rows: Sequence[Row], index: int) -> bool:
    """Whether a row is the last word of the row above it, wrapped ("… optional foreign" / "title")."""
    above = row_above(rows, index)
    return above is not None and same_block(rows[above], rows[index])


def parallel_block(rows: Sequence[Row], block: list[int], others: list[list[int]], body: float) -> list[int]:
    """The title printed again in another script further down the page, as Chinese, Japanese,
    Korean and Russian journals print an English title block after the abstract: the largest
    other candidate block below the title, all in another script, set larger than the body text
    and not much smaller than the title."""
    script = dominant_script(join_title([rows[i] for i in block]))
    size = rows[block[0]].size
    found: list[tuple[float, float, list[int]]] = []
    for other in others:
        first = rows[other[0]]
        if first.top >= rows[block[-1]].top or first.size < _PARALLEL_SHARE * size or first.size <= 1.1 * body:
            continue
        text = join_title([rows[i] for i in other])
        shares = script_shares(text)
        if shares.get(script, 0.0) <= 0.1 and max(shares.values(), default=0.0) >= 0.9 and not is_name_list(text):
            found.append((first.size, first.top, other))
    return max(found)[2] if found else []
