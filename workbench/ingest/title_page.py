"""Title and authors of a paper, read from the layout of its title page.

Consecutive rows of one size (see `title_rows`) form blocks; a block is a candidate title once
banners (journal names, "Research Article", conference lines), running heads, dates, notices,
addresses, sentences and lone words are set aside. The rules rank the candidates (the upper
part of the page first, then larger, then bold or capitals, then higher), and the learned
ranker (`title_ranker`) chooses among them with that ranking as one of its features. A
slightly smaller line right below the chosen block continues it as a subtitle. The authors are
the name lists right below the title (side-by-side names are told apart by wide gaps), skipping
affiliation and e-mail lines, up to the abstract; when none follow, the name lists just above
the title (`title_authors`). `title_text` joins the rows into the title and says when a PDF's Title
metadata is a placeholder (`cover_pages` tells a repository's cover sheet from the paper's own
title page).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from workbench.ingest.name_lists import AFFILIATION, is_name_list, is_role_field, row_names
from workbench.ingest.pdf_layout import PageLayout
from workbench.ingest.title_authors import authors_near, names_beside, reads_as_byline
from workbench.ingest.title_bylined import bylined_over, bylined_title, without_section_number
from workbench.ingest.title_casing import in_capitals
from workbench.ingest.title_classes import (
    BANNER,
    BYLINE,
    DOCUMENT_KIND,
    DOCUMENT_NUMBER,
    NOISE,
    VERSION,
    VERSION_ROW,
    cjk_chars,
    full_line,
    is_furniture,
    letter_words,
)
from workbench.ingest.title_extent import MAX_TITLE_ROWS, is_cover, with_subtitle
from workbench.ingest.title_lines import (
    TITLE_CONNECTORS,
    complete_cut_word,
    is_banner,
    is_notice,
    is_section_heading,
    reads_as_prose,
    unspaced,
)
from workbench.ingest.title_one_word import DISPLAY_SHARE, one_word_title
from workbench.ingest.title_ranker import shipped_ranker
from workbench.ingest.title_rows import (
    Row,
    body_size,
    bridged,
    byline_under,
    column_after,
    joined_on,
    next_in_column,
    page_rows,
    plain,
    same_block,
    spaced_on,
)
from workbench.ingest.title_text import TITLE_FIELD, join_title, labelled_as_title, parallel_block
from workbench.ingest.title_venues import VENUE_LINE, cites_itself, masthead, names_company, names_institution
from workbench.text.dates import is_date_line

_DISPLAY_LABEL = 1.3  # a "Name:⇥…" row this share of the body's size or larger is a title's, no form's
_OUTRANKING_SHARE = 1.5  # a block this many times larger outranks one in the top third
_MATH_LETTER, _MATH_LETTER_END = "\U0001d400", "\U0001d7ff"  # Mathematical Alphanumeric Symbols: a formula's
_BETWEEN_WORDS = 2  # a row this short between two rows of a title goes on with it
_SAME_SIZE = 0.97  # a row this share of another's size or more is set in its size
_COVER_TITLE_SHARE = 1.2  # a cover's title this many times the size of the rest of its letters stands out
_COLUMN_GAP = 4.0  # a space this many times a row's size parts two columns (a word space is under one)

# A table of contents' entry set without leader dots: a wide gap, then its page number ("2 Usage\t2").
_CONTENTS_ENTRY = re.compile(r"\t\s*\d{1,4}$")
# A form's field: its label, a colon and a wide gap before the value ("Bearbeitungszeitraum:\t01.01.17"),
# or a label of at most four words without digits, not in lower case, before a value of numbers and
# codes ("Matrikelnummer, Kurs: 12345, MM-MMA"; "Chernobyl: 30 years after" is a title, and so is a
# title's wrapped row "and adults in the United States: 1999-2010.").
_FORM_FIELD = re.compile(
    r"^[^\t:：]{2,40}[:：]\s*\t|^(?![a-z])[^\d\t:：\s]+(\s[^\d\t:：\s]+){0,3}\s*[:：]\s*\d[^a-z]*$"
)


@dataclass(frozen=True)
class TitleCandidate:
    """A block that could hold the title: the title it would give and its features for the ranker."""

    title: str
    features: tuple[float, ...]


@dataclass(frozen=True)
class TitlePage:
    """What the title page says: the title (empty when none was found) and the authors."""

    title: str
    authors: tuple[str, ...]
    distinct_size: bool  # the title's font is larger than the body text's
    parallel_title: str = ""  # the same title printed in another script ("基于…" and "Perspective …")
    in_capitals: str = ""  # the title as printed, where that is in capitals (`title_casing` cases it)
    by_byline_only: bool = False  # no candidate block: found by the byline under it (`title_bylined`)


def read_title_page(layout: PageLayout, running: frozenset[str] = frozenset()) -> TitlePage:
    """The title and authors printed on a title page (see the module docstring)."""
    page = _candidate_blocks(layout, running)
    if page is None:
        return TitlePage("", (), False)
    if not page.plausible:
        return _bylined_page(page.rows, page.body, layout)
    rows, body, plausible = page.rows, page.body, page.plausible
    ranker = shipped_ranker()
    chosen = plausible[ranker.choose(page.features)] if ranker is not None else plausible[0]
    bylined = bylined_over(rows, chosen, layout.height, body)
    chosen = bylined or chosen
    cited = [b for b in page.blocks if rows[b[0]].size >= body and cites_itself(rows, _words_of(rows, b))]
    if cited and chosen not in cited:  # the page says how to cite it: that is its title, whatever it looks like
        chosen = max(cited, key=lambda b: len(_words_of(rows, b)))
    # A form's title field, its label before it on its row ("Title: Host Software", "TITLE:⇥The
    # JPEG-2000 …") or alone above it (a memo's "Onderwerp" over its subject), names the title,
    # unless the rules' choice is display type on a page of another size or set far larger.
    labelled = [b for b in page.blocks if TITLE_FIELD.match(plain(rows[b[0]]))]
    labelled += [b for b in plausible if labelled_as_title(rows, b)]
    if labelled and chosen not in labelled:
        size, value = rows[chosen[0]].size, labelled[0]
        if size <= DISPLAY_SHARE * body or size < _OUTRANKING_SHARE * rows[value[0]].size:
            chosen = value
    block, following = with_subtitle(rows, chosen, body)
    rows, beside = names_beside(rows, block[-1])
    title = TITLE_FIELD.sub("", _title_text(rows, block, layout), count=1)
    title = without_section_number(title) if chosen is bylined else title
    printed = TITLE_FIELD.sub("", _title_text(rows, block, layout, title_cased=False), count=1)
    authors = beside + authors_near(rows, block, following)
    parallel = parallel_block(rows, block, [b for b in plausible if b is not chosen], body)
    if parallel:  # the names under a title in another script, where those under the title lost some
        others = authors_near(rows, parallel, column_after(rows, parallel))
        authors = others if len(others) > len(authors) else authors
    parallel_title = join_title([rows[i] for i in parallel]) if parallel else ""
    capitals = printed if in_capitals(printed) else ""
    return TitlePage(title, authors, rows[block[0]].size > 1.1 * body, parallel_title, capitals)


def title_candidates(layout: PageLayout, running: frozenset[str] = frozenset()) -> list[TitleCandidate]:
    """The blocks of a title page that the rules find plausible as its title, the rules' choice
    first, each with the title it would give and its features for the ranker (what
    `bench metadata --fit` fits the ranker on)."""
    page = _candidate_blocks(layout, running)
    if page is None or not page.plausible:
        return []
    return [
        TitleCandidate(_title_text(page.rows, with_subtitle(page.rows, b, page.body)[0], layout), tuple(f))
        for b, f in zip(page.plausible, page.features, strict=True)
    ]


@dataclass(frozen=True)
class _Candidates:
    """A title page's rows, body size, its candidate blocks, and those the rules find plausible
    (best first) with each one's features for the ranker."""

    rows: list[Row]
    body: float
    blocks: list[list[int]]
    plausible: list[list[int]]
    features: list[list[float]]


def _candidate_blocks(layout: PageLayout, running: frozenset[str]) -> _Candidates | None:
    """The page's candidate title blocks (none, where the rules find none), or None for a page
    without rows."""
    rows = _labelled_kept(page_rows(layout, running))
    if not rows:
        return None
    body = _body_size(rows)
    blocks, plausible = _title_blocks(rows, layout.height, body)
    features = [_features(rows, blocks, b, layout, body, b is plausible[0]) for b in plausible]
    return _Candidates(rows, body, blocks, plausible, features)


def _bylined_page(rows: list[Row], body: float, layout: PageLayout) -> TitlePage:
    """Where the rules find no candidate: a block with a byline right under it (`title_bylined`)."""
    block = bylined_title(rows, layout.height, body)
    if block is None:
        return TitlePage("", (), False)
    title = without_section_number(_title_text(rows, block, layout))
    return TitlePage(title, authors_near(rows, block, column_after(rows, block)), False, by_byline_only=True)


def _body_size(rows: Sequence[Row]) -> float:
    """The body text's size; on a cover whose title has most of its letters (a title over four
    rows above one author and a date), the size most of the other letters are set in, where the
    title stands out from it (`_COVER_TITLE_SHARE`; a form's rows of nearly one size do not) and
    is a title's few rows, none of them a running head."""
    body = body_size(rows)
    largest = max(row.size for row in rows)
    smaller = [row for row in rows if row.size < _SAME_SIZE * largest]
    title = [row for row in rows if row.size >= _SAME_SIZE * largest]
    if body < _SAME_SIZE * largest or not smaller or not is_cover(rows):
        return body
    if len(title) > MAX_TITLE_ROWS or any(row.running for row in title):
        return body  # a chess board's eight rows, or a running head as large: no title of a cover
    rest = body_size(smaller)
    return rest if largest >= _COVER_TITLE_SHARE * rest else body


def _labelled_kept(rows: list[Row]) -> list[Row]:
    """The rows, those under a form's title label (and the rows they wrap onto) no running head
    even where they recur: a memo repeats its subject under "Onderwerp" on every page."""
    kept: list[Row] = []
    value = False  # the row above is a labelled value kept
    for index, row in enumerate(rows):
        value = row.running and (labelled_as_title(rows, [index]) or (value and same_block(rows[index - 1], row)))
        kept.append(replace(row, running=False) if value else row)
    return kept


def _words_of(rows: Sequence[Row], block: list[int]) -> str:
    return " ".join(plain(rows[i]) for i in block)


def _title_text(rows: Sequence[Row], block: list[int], layout: PageLayout, title_cased: bool = True) -> str:
    """The title a block's rows give, a word the text layer cut short completed from the page."""
    return complete_cut_word(join_title([rows[i] for i in block], title_cased), [line.text for line in layout.lines])


def _is_candidate(row: Row, floor: float, body: float) -> bool:
    text = plain(row)
    letters = sum(c.isalpha() and not _MATH_LETTER <= c <= _MATH_LETTER_END for c in text)  # "𝑠 Γ𝑎1 𝑅" is a formula
    if letters < 3 or letters < 0.5 * len(text.replace(" ", "")):
        return False
    if row.top < floor or (row.running and row.size <= 1.1 * body):
        return False
    if is_furniture(text):
        return False
    version = VERSION.match(text)
    if version and (version.end() == len(text) or is_date_line(text[version.end() :])):
        return False  # "Version 2.5", "Version 1.0 — October 27, 2009": a version and its date
    closed = unspaced(row.text)  # a letter-spaced Chinese label: "类\t型：\t论文"
    if _CONTENTS_ENTRY.search(row.text) or (
        _FORM_FIELD.match(closed) and not TITLE_FIELD.match(text) and not _display_label(row, body)
    ):
        return False
    return not (is_section_heading(text) or is_role_field(text))


def _display_label(row: Row, body: float) -> bool:
    """Whether a row that reads as a form's label and value is a title's name and colon set in
    display type ("GAMEARENA:⇥EVALUATING LLM REASONING": the line stretched the space after its
    colon): one word of letters before the gap and words after it, no date or names, at
    `_DISPLAY_LABEL` times the body's size or more."""
    label, _, value = row.text.partition("\t")
    label = label.strip().rstrip(":：")
    return (
        row.size >= _DISPLAY_LABEL * body
        and label.replace("-", "").isalpha()  # a word, not "OT1/antp/sb/it/9"
        and letter_words(value) >= 2
        and not is_date_line(value)  # "Bearbeitungszeitraum:⇥01.01.17 – 31.01.17"
        and not is_name_list(value)  # "Betreuer:⇥Prof. Gott"
    )


def _footer_line(rows: Sequence[Row], height: float, body: float) -> float:
    """The height under which rows are a page's foot (notes, imprint, page number): its lowest
    fifth, unless all of the page's text lies there (a cover whose title is set at its foot,
    below a picture), when nothing is; or down to a row set for display over a byline there (a
    magazine's cover: the issue's title and author under the magazine's name)."""
    floor = 0.2 * height
    if not any(row.top >= floor and not row.running for row in rows):
        return 0.0
    for index, row in enumerate(rows):
        nxt = next_in_column(rows, index) if row.top < floor and row.size > DISPLAY_SHARE * body else None
        if nxt is not None and is_name_list(plain(rows[nxt])) and rows[nxt].size <= row.size:
            return min(floor, row.top)
    return floor


def _title_blocks(rows: Sequence[Row], height: float, body: float) -> tuple[list[list[int]], list[list[int]]]:
    """Blocks of rows that could hold the title, top-down (rows of another column in between are
    skipped), and those the rules find plausible, best first (the rules' choice first)."""
    blocks: list[list[int]] = []
    used = masthead(rows)  # the journal's name in a masthead is no title
    floor = _footer_line(rows, height, body)
    for index, row in enumerate(rows):
        if index in used or not _is_candidate(row, floor, body):
            continue
        block = [index]
        while len(block) < MAX_TITLE_ROWS:
            nxt = next_in_column(rows, block[-1])
            bridge = bridged(rows, block[-1], nxt)
            if bridge is not None and not _is_candidate(rows[bridge[1]], floor, body):
                bridge = None  # the row after the joining word is no title's (a banner, a date)
            if bridge is not None:
                block.extend(bridge)  # "Tips for Computer Scientists" / "on" / "Standard ML (Revised)"
                continue
            if nxt is None or not (
                same_block(rows[block[-1]], rows[nxt])
                or spaced_on(rows[block[-1]], rows[nxt])
                or joined_on(rows[block[-1]], rows[nxt])
            ):
                break
            if not (
                _is_candidate(rows[nxt], floor, body)
                or _continues(plain(rows[block[-1]]), plain(rows[nxt]))
                or _between_rows(rows, nxt, floor, body)
            ):
                break
            if byline_under(plain(rows[block[-1]]), plain(rows[nxt])):
                break
            block.append(nxt)
        used.update(block)
        blocks.append(block)
    good = [b for b in blocks if _plausible_title(rows, b, body)]
    display = max((rows[b[0]].size for b in good if len(_words_of(rows, b).split()) >= 3), default=0.0)
    good.sort(key=lambda b: _block_rank(rows, b, height, body, display), reverse=True)
    return blocks, good


def _continues(last: str, nxt: str) -> bool:
    """Whether a row that could not begin a title goes on with the one above, which cannot end
    one: "… underweight in" / "1990 and 2015."; "Lei Nº 95," / "de 26 de fevereiro de 1998"."""
    if last.endswith(",") and is_date_line(nxt):
        return True
    if NOISE.search(nxt) or is_notice(nxt) or is_banner(nxt) or not re.search(r"[^\W\d_]", nxt):
        return False
    return last.endswith(("-", "–", "—", ":", "&")) or last.rsplit(" ", 1)[-1].lower() in TITLE_CONNECTORS


def _between_rows(rows: Sequence[Row], index: int, floor: float, body: float) -> bool:
    """Whether a short row that could not begin a title (a word or two: "on", "Manuscript:")
    stands between two rows of the title's block, set like them: a centred title wrapped with a
    word alone on its row goes on past it. A version or a date there is the document's state."""
    after = next_in_column(rows, index)
    text = plain(rows[index])
    return (
        len(text.split()) <= _BETWEEN_WORDS
        and not NOISE.search(rows[index].text)
        and not (VERSION.match(text) or VERSION_ROW.search(text) or is_date_line(text))  # "Version 26": its state
        and text.lower() != "by"
        and not BYLINE.match(text)  # "by" / "April Rider": the byline under the title
        and after is not None
        and same_block(rows[index], rows[after])
        and _is_candidate(rows[after], floor, body)
    )


def _features(
    rows: Sequence[Row], blocks: list[list[int]], block: list[int], layout: PageLayout, body: float, proposed: bool
) -> list[float]:
    """One candidate block's features, in `title_ranker.FEATURES` order (whether it is a sentence,
    a venue line or too long is not among them: such a block is no candidate)."""
    first = rows[block[0]]
    text = " ".join(plain(rows[i]) for i in block)
    words = text.split()
    letters = sum(c.isalpha() for c in text)
    sizes = sorted({round(rows[b[0]].size, 1) for b in blocks}, reverse=True)
    place = sizes.index(round(first.size, 1))
    nxt = next_in_column(rows, block[-1])
    names_below = nxt is not None and rows[nxt].size < 1.02 * first.size and bool(row_names(rows[nxt].text))
    return [
        math.log(max(first.size, 1.0) / max(body, 1.0)),
        first.size / max(rows[b[0]].size for b in blocks),
        float(place == 0),
        float(place == 1),
        first.top / max(layout.height, 1.0),
        float(first.top >= 0.65 * layout.height),
        float(first.bold),
        float(text.upper() == text and letters >= 8),
        float(is_name_list(text)),
        math.log1p(len(words)),
        float(len(words) < 2 and letters < 12 and cjk_chars(text) < 4),
        float(block is blocks[0]),
        float(names_below),
        abs((first.left + first.right) / 2 - layout.width / 2) / max(layout.width, 1.0),
        float(":" in text),
        sum(c.isdigit() for c in text) / max(len(text), 1),
        float(text.rstrip().endswith(".")),
        float(len(block)),
        float(bool(AFFILIATION.search(text))),
        float(first.size > 1.1 * body),
        float(proposed),
    ]


def _plausible_title(rows: Sequence[Row], block: list[int], body: float) -> bool:
    text = " ".join(plain(rows[i]) for i in block)
    words = text.split()
    if len(words) < 2 and sum(c.isalpha() for c in text) < 12 and cjk_chars(text) < 4:
        return one_word_title(rows, block, body)
    display = rows[block[0]].size > DISPLAY_SHARE * body
    if len(words) > 40 or rows[block[0]].size < 0.95 * body or reads_as_prose(text, display):
        return False
    if not display and _headed_above(rows, block, body):
        return False  # a paragraph under a page's "Introduction" set larger: its title is elsewhere, or none
    if BYLINE.match(text) and row_names(text):
        return False  # "by David A. Freedman": the byline of the title above
    if len(block) > 1 and BANNER.match(text):
        return False  # a banner set over two rows: "Late Breaking Demo" / "Paper"
    if DOCUMENT_NUMBER.match(text):
        return False  # a standard's number over its title: "ECMA TR/104"
    if DOCUMENT_KIND.match(text) and _numbered_below(rows, block):
        return False  # the document's kind over its number ("Recommendation" / "ITU-T P.58"): its title is elsewhere
    if len(block) > 1 and all(rows[i].gap > _COLUMN_GAP * rows[i].size for i in block):
        return False  # two columns side by side, row by row: an RFC's header ("Network Working Group⇥R. Woodburn")
    if labelled_as_title(rows, block):
        return True  # a form's value under "Thema" or "Title": whatever it looks like, it is the title
    if _opens_paragraph(rows, block, body, text):
        return False
    if len(words) <= 10 and (VENUE_LINE.search(text) or names_institution(text)) and not _has_title_shape(text):
        return False
    if names_company(text) and not _has_title_shape(text):
        return False  # a letterhead's company ("Lime Microsystems Limited"), set over its address
    if len(block) > 1 and _institution_rows(rows, block):
        return False  # a cover's head: "Fundação Universidade Federal …" / "Núcleo de …" / "Departamento …"
    if len(block) == 1 and reads_as_byline(rows, block[0]):
        return False  # a thesis cover's author set larger than its title, or a heading's byline
    return not (is_name_list(text) and len(block) == 1 and _has_bigger_or_equal_other(rows, block))


def _headed_above(rows: Sequence[Row], block: list[int], body: float) -> bool:
    """Whether a section heading set for display stands above a block set at the body's size."""
    return any(rows[i].size > DISPLAY_SHARE * body and is_section_heading(plain(rows[i])) for i in range(block[0]))


def _institution_rows(rows: Sequence[Row], block: list[int]) -> bool:
    """Whether a block's rows name an institution and its parts, as a thesis cover's head does:
    its first row and at least half of them name one, each alone."""
    named = [names_institution(plain(rows[i])) and len(plain(rows[i]).split()) <= 10 for i in block]
    return named[0] and 2 * sum(named) >= len(named)


def _numbered_below(rows: Sequence[Row], block: list[int]) -> bool:
    """Whether the row right below a block is a document's number ("ITU-T P.58 (03/2023)")."""
    nxt = next_in_column(rows, block[-1])
    return nxt is not None and bool(DOCUMENT_NUMBER.match(plain(rows[nxt])))


def _opens_paragraph(rows: Sequence[Row], block: list[int], body: float, text: str) -> bool:
    """Whether a block at the body's size is a paragraph's first lines: a full line (eight words
    or more), and the row right below it, set alike and as long, goes on with the sentence (in
    lower case, or reading as prose with it). A short heading or title over a paragraph, or a
    byline ("by") under a title, is not."""
    if rows[block[0]].size > 1.05 * body or not full_line(text):
        return False
    nxt = next_in_column(rows, block[-1])
    if nxt is None or not same_block(rows[block[-1]], rows[nxt]):
        return False
    following = plain(rows[nxt])
    if not full_line(following, words=6):
        return False
    return following[:1].islower() or reads_as_prose(f"{text} {following}")


def _has_title_shape(text: str) -> bool:
    """A colon or dash before a subtitle: "X: a Y for Z", "semproc — LaTeX class for seminar
    proceedings" read as titles, not venues."""
    return bool(re.search(r":|\s[—–-]\s", text)) and not re.search(r"\d", text)


def _has_bigger_or_equal_other(rows: Sequence[Row], block: list[int]) -> bool:
    """Whether other words are set as large (a lone "?" or chapter number in a figure is not words,
    nor is arXiv's stamp in the margin, nor a section's heading: "Table of Contents")."""
    size = rows[block[0]].size
    return any(
        r.size >= 0.95 * size
        and sum(c.isalpha() for c in r.text) >= 3
        and not NOISE.search(r.text)
        and not is_section_heading(plain(r))
        for i, r in enumerate(rows)
        if i not in block
    )


def _block_rank(
    rows: Sequence[Row], block: list[int], height: float, body: float, display: float
) -> tuple[bool, float, int, float]:
    """Larger first, but a distinct block in the top third beats anything below (figure labels),
    unless a block of three words or more is set in display type (`display`, its size) half as
    large again: a cover's title below its agency's name ("NASA Office of Inspector General" at 20 pt
    over "KEY CHALLENGES FACING / NASA'S ARTEMIS CAMPAIGN" at 32)."""
    first = rows[block[0]]
    text = " ".join(plain(rows[i]) for i in block)
    caps = text.upper() == text and sum(c.isalpha() for c in text) >= 8
    emphasis = int(first.bold) + int(caps)
    not_names = int(not is_name_list(text))
    upper = first.top >= 0.65 * height and first.size > 1.1 * body and display < _OUTRANKING_SHARE * first.size
    return (upper, round(first.size), emphasis + not_names, first.top)
