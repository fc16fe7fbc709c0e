"""The rows of a title page: its lines top-down, in reading order, with the lines set side by side
at one height and size joined into one row (names printed in a row), running heads marked.

`title_page` reads a title and authors from these rows; this module only arranges them.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from workbench.ingest.name_lists import AFFILIATION, is_name_list, row_names
from workbench.ingest.pdf_layout import WORD_SPACE, LayoutLine, PageLayout
from workbench.ingest.prose_names import is_distinct_name_word, is_ordinary_word
from workbench.ingest.title_lines import TITLE_CONNECTORS
from workbench.text.authors import NAME_PARTICLES

_SHORT = 40  # lines at one height merge into a row only when short (names side by side, not columns)

_LINE_NUMBER = re.compile(r"^\d{1,4}[\t ]+(?=\S)")
_MARK_LINE = re.compile(r"[\d\s\[\](),*∗†‡§¶−–-]+")  # digits, brackets and marks only
_MARK_SHARE = 0.8  # a mark is set smaller than this share of the text beside it
_TWO_LINES = 1.6  # a line box taller than this many times its size holds the end of one row and the start of the next
# a draft's stamp before the words of its row: "DRAFT: The Hierarchical Module Namespace Extension,"
_STAMPED = re.compile(
    r"^\s*((preliminary|working|public|review|final)\s+)?(draft|preprint)(\s+(version|copy))?\s*[:–—-]\s+(?=(\S+\s+){2}\S)",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Row:
    """Lines at one height and size, joined (names side by side become one row)."""

    text: str
    size: float
    top: float
    bottom: float
    bold: bool
    running: bool
    left: float = 0.0
    right: float = 0.0
    gap: float = 0.0  # the widest space between two of its lines, in points

    def overlaps(self, other: Row) -> bool:
        """Whether the two rows share some horizontal extent (the same column)."""
        return self.left < other.right and other.left < self.right


def running_key(text: str) -> str:
    """A line's identity for spotting running heads: lower case, digits as "#"."""
    return re.sub(r"\d+", "#", " ".join(text.split()).lower())


def letters_only(text: str) -> str:
    """Letters and digits only, in lower case, in any script: "Future Internet" and "futureinternet" alike."""
    return "".join(re.findall(r"[^\W_]+", text.casefold()))


def page_rows(layout: PageLayout, running: frozenset[str]) -> list[Row]:
    """Lines top-down, with lines at one height and size merged into one row."""
    lines = _rejoin(_markers_dropped(_reading_order(layout.lines)))
    rows: list[Row] = []
    group: list[LayoutLine] = []
    for line in lines:
        if group and (
            abs(_placed_top(group[0]) - _placed_top(line)) > 0.35 * max(line.size, 1.0)
            or abs(group[0].size - line.size) > 0.12 * group[0].size
            or max(len(ln.text) for ln in group) > _SHORT
            or len(line.text) > _SHORT
        ):
            rows.append(_make_row(group, running))
            group = []
        group.append(line)
    if group:
        rows.append(_make_row(group, running))
    numbered = [r for r in rows if _LINE_NUMBER.match(r.text)]
    if len(numbered) >= 5 and len(numbered) >= 0.3 * len(rows):  # a manuscript with line numbers
        rows = [replace(r, text=_LINE_NUMBER.sub("", r.text)) for r in rows if not r.text.strip().isdigit()]
    return [replace(r, text=_STAMPED.sub("", r.text)) if _STAMPED.match(r.text) else r for r in rows]


def _reading_order(lines: Sequence[LayoutLine]) -> list[LayoutLine]:
    """Lines top-down and, within one band of height, left to right: names set side by side whose
    tops differ by a point or two (a bold first name, superscripts) stay in the order printed."""
    ordered = sorted(lines, key=lambda ln: -_placed_top(ln))
    bands: list[int] = []
    band_top = float("inf")
    for line in ordered:
        if band_top - _placed_top(line) > 0.35 * max(line.size, 1.0):
            band_top = _placed_top(line)
            bands.append(len(bands))
        else:
            bands.append(bands[-1])
    return [line for _, line in sorted(zip(bands, ordered, strict=True), key=lambda pair: (pair[0], pair[1].left))]


def _placed_top(line: LayoutLine) -> float:
    """Where a line stands: its top, or, for a box two lines tall, the top of its last line. PDFium
    gives a comma that ends one row with the name that starts the next as one line (", Hugo
    Salazar-Lozas" from the right end of the first row of names to the left end of the second),
    which by its top would come first of all. A box taller than it is wide is a line set
    vertically (a landscape page), placed by its top as every other."""
    height = line.top - line.bottom
    tall = _TWO_LINES * line.size < height < line.right - line.left
    return line.bottom + line.size if tall else line.top


def _markers_dropped(lines: list[LayoutLine]) -> list[LayoutLine]:
    """The lines less those that are only a mark set small beside a line of text at its height,
    which PDFium gives as lines of their own: an ORCID ("Christoph Auer[" "−0001 −5761"
    "], Ahmed Nassar[" in Springer's LNCS), affiliation numbers, footnote marks. Without them
    the names on either side join into one row."""
    marks = [_MARK_LINE.fullmatch(line.text) is not None for line in lines]
    text = [line for line, mark in zip(lines, marks, strict=True) if not mark]
    return [
        line
        for line, mark in zip(lines, marks, strict=True)
        if not mark
        or not any(
            line.size < _MARK_SHARE * other.size and abs(other.top - line.top) <= 0.5 * other.size for other in text
        )
    ]


def _rejoin(lines: list[LayoutLine]) -> list[LayoutLine]:
    """One printed line that PDFium gave as two (a font change inside a word: "...the Mar" +
    "ket for ..."): same height and size, the second starting where the first ends."""
    out: list[LayoutLine] = []
    for line in lines:
        last = out[-1] if out else None
        if last is not None and _continues(last, line):
            gap = line.left - last.right
            space = "" if gap < WORD_SPACE * line.size else " "
            out[-1] = replace(
                last,
                text=last.text + space + line.text,
                clean=last.clean + space + line.clean,
                right=line.right,
                top=max(last.top, line.top),
                bottom=min(last.bottom, line.bottom),
            )
            continue
        out.append(line)
    return out


def _continues(left: LayoutLine, right: LayoutLine) -> bool:
    size = max(left.size, 1.0)
    return (
        abs(left.top - right.top) <= 0.2 * size
        and abs(left.size - right.size) <= 0.12 * size
        and -0.1 * size <= right.left - left.right <= 0.6 * size
    )


def _make_row(group: list[LayoutLine], running: frozenset[str]) -> Row:
    group = sorted(group, key=lambda ln: ln.left)
    text = "\t".join(ln.clean for ln in group)
    letters = sum(ln.letters for ln in group) or 1
    bold = sum(ln.letters for ln in group if ln.bold) > letters / 2
    is_running = any(running_key(ln.text) in running for ln in group)
    size = max(ln.size for ln in group)
    return Row(
        text,
        size,
        max(ln.top for ln in group),
        min(ln.bottom for ln in group),
        bold,
        is_running,
        min(ln.left for ln in group),
        max(ln.right for ln in group),
        max([ln.gap for ln in group] + [b.left - a.right for a, b in itertools.pairwise(group)]),
    )


def body_size(rows: Sequence[Row]) -> float:
    """The size most letters on the page are set in (the body text)."""
    weight: dict[float, int] = {}
    for row in rows:
        key = round(row.size * 2) / 2
        weight[key] = weight.get(key, 0) + sum(c.isalpha() for c in row.text)
    return max(weight, key=lambda k: (weight[k], -k)) if weight else 0.0


def plain(row: Row) -> str:
    return " ".join(row.text.replace("\t", " ").split())


def next_in_column(rows: Sequence[Row], index: int, reach: float = 2.6) -> int | None:
    """The next row below `index` in the same column, within `reach` font sizes."""
    here = rows[index]
    for nxt in range(index + 1, len(rows)):
        row = rows[nxt]
        if here.top - row.top > reach * max(here.size, 1.0):
            return None
        if row.overlaps(here):
            return nxt
    return None


def row_above(rows: Sequence[Row], index: int) -> int | None:
    """The nearest row above `index` in the same column, however far."""
    return next((i for i in range(index - 1, -1, -1) if rows[i].overlaps(rows[index])), None)


def column_after(rows: Sequence[Row], block: list[int]) -> list[int]:
    """Rows below the title block that share its column, top-down."""
    last = rows[block[-1]]
    span = Row("", 0, 0, 0, False, False, min(rows[i].left for i in block), max(rows[i].right for i in block))
    return [i for i in range(block[-1] + 1, len(rows)) if rows[i].top < last.top and rows[i].overlaps(span)]


def same_block(above: Row, below: Row) -> bool:
    """Whether a row goes on the block of the row above: the same size, at most two sizes down
    (2.4 between rows of Chinese, Japanese or Korean, which are set with wider leading)."""
    size = max(above.size, 1.0)
    reach = 2.0
    if _CJK_EDGE.search(above.text[-1:]) and _CJK_EDGE.search(below.text[:1]):
        reach = 2.4  # Chinese, Japanese and Korean are set with wider leading
    return abs(above.size - below.size) <= 0.08 * size and above.top - below.top <= reach * size


_LONE_DASH = re.compile(r"[-–—:]")
_CJK_EDGE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")


def spaced_on(above: Row, below: Row) -> bool:
    """A title set with wide leading: a row of the same size further down that opens with a
    bracket, so cannot begin a title ("Predicting Gene Ontology" / "(GO) terms on protein
    sequences", 2.3 sizes apart)."""
    size = max(above.size, 1.0)
    text = plain(below)
    return abs(above.size - below.size) <= 0.08 * size and above.top - below.top <= 2.8 * size and text.startswith("(")


def joined_on(above: Row, below: Row) -> bool:
    """A widely leaded title that a joining word shows going on: a row that ends on one, or one
    that opens with one ("PROGRAMMATIC ENVIRONMENTAL ASSESSMENT" / "FOR THE" / "NATIONWIDE
    OPERATION …", 2.3 sizes apart; "Code Assessment" / "of the Permit2"), the same size, at most
    2.8 sizes down. A row that ends on one goes on even in a smaller size ("Security Review of",
    40 pt, over "Conditional Tokens -" at 24), down to `_JOINED_SHARE` of it."""
    size = max(above.size, 1.0)
    if above.top - below.top > 2.8 * size or not _JOINED_SHARE * size <= below.size <= 1.08 * size:
        return False
    upper, lower = plain(above), plain(below)
    if not upper or not lower:
        return False
    last, first = upper.lower().split()[-1], lower.lower().split()[0]
    if last in TITLE_CONNECTORS and last not in _ENDINGS:
        return not row_names(lower)  # a title that ends on "on" over its author's name: "J. R. R. Tolkien"
    if abs(above.size - below.size) > 0.08 * size:
        return False
    capitals = upper.isupper() and lower.isupper()
    return first in TITLE_CONNECTORS and first not in _OPENERS and (capitals or lower[:1].islower())


_OPENERS = frozenset({"a", "an", "the", "by", "per"})  # words that also begin a title or a byline
_JOINED_SHARE = 0.55  # a title's row that ends on a joining word goes on in a size down to this share
_ENDINGS = frozenset({"i", "a"})  # joining words that also end a title: "Part I", "Vitamin A"


def byline_under(above: str, below: str) -> bool:
    """A byline set like the title right under it ("Canonical Rational Function Integration" /
    "Aubrey G. Jaffer", both 10 pt bold): names, each with an initial, alone or before their
    affiliation, after a row that may end a title."""
    words = above.lower().split()
    if not words or words[-1] in TITLE_CONNECTORS or above.endswith((":", "-", "—", "–", ",")):
        return False
    if spells_out(above, below):
        return False  # "GCTP" / "General Cartographic" / "Transformation Package": the acronym's words
    names = row_names(below)
    initialled = bool(names) and all(re.search(r"(?:^|\s)[A-Z]\.(?:\s|$)", n) for n in names)
    # names alone, or with their affiliation after them: "Donald E. Knuth, Stanford University"
    if initialled and (is_name_list(below) or bool(AFFILIATION.search(below))):
        return True
    # names without initials, each with a word that is somebody's name: "Jin-Hwan Cho" (TUGboat)
    return bool(names) and is_name_list(below) and all(_plain_name(name) for name in names)


def spells_out(acronym: str, below: str) -> bool:
    """Whether a row begins to spell out the acronym alone on the row above it: the initials of
    its words (two or more) open the acronym ("GCTP" over "General Cartographic")."""
    if not re.fullmatch(r"[A-Z]{2,8}", acronym.strip()):
        return False
    initials = "".join(word[0] for word in below.split() if word[:1].isupper())
    return len(initials) >= 2 and acronym.strip().startswith(initials)


def _plain_name(name: str) -> bool:
    """A name of given and family names alone, one of which names somebody in some locale: no
    particle, capitals or lower-case word that a title's row has too ("La Gaceta de la RSME"), nor
    a frequent word that is nobody's name ("Smart Contracts")."""
    words = name.split()
    if len(words) < 2 or any(w.lower() in NAME_PARTICLES or w.isupper() or w.islower() for w in words):
        return False
    return any(is_distinct_name_word(w) for w in words) and not any(is_ordinary_word(w) for w in words)


def bridged(rows: Sequence[Row], last: int, nxt: int | None) -> list[int] | None:
    """A title's joining word set alone on a smaller row between two of its rows ("Tips for
    Computer Scientists" / "on" / "Standard ML (Revised)"), or a dash alone on a row of its own
    between them: that row and the one after it."""
    if nxt is None:
        return None
    text = plain(rows[nxt])
    dash = _LONE_DASH.fullmatch(text) is not None  # "a-TDEP" / "Temperature Dependent …" / "–" / "Lattice …"
    if not dash and same_block(rows[last], rows[nxt]):
        return None
    words = text.lower().split()
    if not dash and (not 1 <= len(words) <= 2 or not all(w in TITLE_CONNECTORS and w != "by" for w in words)):
        return None
    after = next_in_column(rows, nxt)
    if after is None:
        return None
    above, below = rows[last], rows[after]
    size = max(above.size, 1.0)
    if abs(above.size - below.size) > 0.08 * size or above.top - below.top > 4.0 * size:
        return None
    return [nxt, after]
