"""The layout of a PDF page as PDFium sees it: lines with their font size, position and weight.

Title and author detection needs more than the text stream: the title is the largest text in
the upper part of the first page, authors follow it, and superscript markers ("Bender^a,*")
are smaller than the name they follow. For each line PDFium reports (its own reading order)
this module keeps the text, the median effective font size of its letters (the font size
times the text matrix scale, or the glyph height where a broken font reports no size), the
bounding box in page coordinates (y grows upwards), whether most letters are bold, and the
same text with superscripts removed and wide gaps marked with a tab (names set side by side).

It also judges whether extracted text is gibberish: a text layer with a broken font encoding
extracts as control characters and symbol soup, which is no more usable than no text at all.
"""

from __future__ import annotations

import itertools
import re
import statistics
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from workbench.ingest.pdf_breaks import turned, word_goes_on
from workbench.ingest.source_lines import clean_text
from workbench.ingest.word_spaces import Glyph, accent_spaces, marks_joined, overlaid_marks, spurious_spaces
from workbench.text.ligatures import LOST_GLYPH, LOST_RETURN, common_word

MAX_LAYOUT_CHARS = 5_000  # the title, authors and abstract come well within this ...
_LATE_LAYOUT_CHARS = 12_000  # ... unless the page draws its title after its body: past the first
_LATE_DISPLAY = 1.2  # 5,000 characters only lines this share of the earlier lines' usual size are kept
_BOLD_WEIGHT = 600
_SUPERSCRIPT = 0.75  # raised letters smaller than this share of the line's size are markers ...
_WORD_END_SUPERSCRIPT = 0.85  # ... and up to this share after a word (8 pt over 10: "Van Calster^a,b")
_WIDE_GAP = 1.5  # a gap wider than this many font sizes separates two names on one line ...
_NAME_GAP = 1.0  # ... and so does one this wide that is `_GAP_RATIO` times the line's usual word space
_GAP_RATIO = 2.5
_SPACE_GAP = 0.25  # in a line without spaces, a gap wider than this many font sizes is a word space
_UNSPACED_LETTERS = 12  # ... in a run of at least this many characters without a space
# A broken font's size is read from its glyphs' height (1.4 times a capital's). A line's letters
# differ in height, so its size is that of its tallest letters (this quantile of their heights),
# and where it has only letters of the x-height, about two thirds of a capital's (the 2004 bitmap
# fonts of `tests/data/acl2_papers.json` measure 0.64 to 0.68), 1.5 times theirs: "Recursive
# Functions" is as large as "Contributions to the Theory of Tail" above it.
_GLYPH_HEIGHT_QUANTILE = 0.85
_X_HEIGHT_LETTERS = frozenset("acemnorsuvwxz")
_X_HEIGHT_SCALE = 1.5
_OVERPRINT = 0.1  # a letter drawn again within this share of its size of itself is drawn once
# A letter whose baseline lies more than this many font sizes from the previous letter's starts a
# line of its own, though PDFium marked no break: a running head and a title's first row drawn as
# one line ("Published as a conference paper at ICLR 2015 VERY DEEP CONVOLUTIONAL"). Raised and
# lowered marks, rotated text and drop caps move their letters less.
_LINE_JUMP = 2.0
_RUN_ON_GAP = 0.4  # a letter after a break, this many sizes from the last one and level with it, goes on its line ...
WORD_SPACE = 0.15  # ... with a space before it where the gap is this many sizes or more (a word space)
_TOUCHING = 0.08  # a space PDFium wrote between letters this many sizes apart, or closer, is none
_LONGEST_PIECE = 12  # the most letters before such a space tried as a word's start
_EDGE_MARKS = ".,;:!?()[]'\"‘’“”"
_ORDINAL_ENDINGS = frozenset({"st", "nd", "rd", "th", "e", "er", "re", "ème", "eme"})
_FOOTNOTE_MARK = re.compile(r"[\d*∗†‡§¶⋆★]")  # marks set after a word, never inside one


@dataclass(frozen=True, slots=True)
class LayoutLine:
    """One line of a page: its text, size and box (PDF points, y grows upwards)."""

    text: str  # as extracted, whitespace collapsed
    clean: str  # superscript markers dropped, wide gaps as "\t"
    size: float  # median effective font size of its letters
    top: float
    bottom: float
    left: float
    right: float
    bold: bool = False
    gap: float = 0.0  # the widest space between two of its letters, in points
    upright: bool = False  # set along the page's height (a margin's stamp, a landscape page's text)

    @property
    def letters(self) -> int:
        """How many letters the line holds."""
        return sum(c.isalpha() for c in self.text)


@dataclass(frozen=True)
class PageLayout:
    """The lines of one page with its size."""

    lines: tuple[LayoutLine, ...]
    width: float
    height: float


@dataclass
class _Char:
    ch: str
    size: float
    left: float
    bottom: float
    right: float
    top: float
    weight: int
    measured: bool = False  # the size is the glyph's height: the font reported none
    advance: tuple[float, float] = (0.0, 0.0)  # left and right of its advance box (`word_spaces`)


def page_layout(
    page: Any, textpage: Any, repair: Callable[[str], str] = str, remap: Callable[[int, int], int] | None = None
) -> PageLayout:
    """Lines of one page with sizes and boxes, read character by character from PDFium.

    `repair` mends each line's raw text (lost glyphs: `workbench.text.ligatures`) before it is
    cleaned, as the page's text was; `remap` reads a character's code as another (numbered glyph
    names: `glyph_names`).
    """
    import ctypes

    import pypdfium2.raw as pdfium_c

    width, height = (float(v) for v in page.get_size())
    turn = turned(page)
    matrix = pdfium_c.FS_MATRIX()
    left, bottom, right, top = (ctypes.c_double() for _ in range(4))
    loose = pdfium_c.FS_RECTF()
    lines: list[LayoutLine] = []
    chars: list[_Char] = []
    count = min(int(textpage.count_chars()), _LATE_LAYOUT_CHARS)
    early = 0  # how many lines were read within the first MAX_LAYOUT_CHARS characters
    raw = textpage.raw
    get_unicode, get_box = pdfium_c.FPDFText_GetUnicode, pdfium_c.FPDFText_GetCharBox
    get_size, get_matrix = pdfium_c.FPDFText_GetFontSize, pdfium_c.FPDFText_GetMatrix
    # A break PDFium wrote is closed once the next letter shows it ends a line: PDFium also breaks
    # around a letter raised or lowered in a word ("I\r\n2\r\nC-Master", "2\r\nnd edition").
    pending = -1
    for index in range(count):
        code = int(get_unicode(raw, index))
        code = remap(index, code) if remap is not None else code
        if code == 10:
            pending = index if pending < 0 else pending
            continue
        if code == 13 and _lost_as_return(chars if pending < 0 else [], index, count, raw):
            code = ord(LOST_GLYPH)  # a glyph the font maps to a carriage return: "Re\rursive"
        if code == 13 or not 0 < code < 0x110000 or 0xD800 <= code <= 0xDFFF:
            continue
        ch = chr(code)
        if ch.isspace() and (ch == "\t" or code >= 0x20):  # U+001C-U+001F and VT, FF stand for lost glyphs
            chars.append(_Char(" ", 0.0, 0.0, 0.0, 0.0, 0.0, 0))
            continue
        get_box(raw, index, left, right, bottom, top)
        x0, x1, y0, y1 = turn((left.value, right.value, bottom.value, top.value))
        size = float(get_size(raw, index))
        if get_matrix(raw, index, matrix):
            size *= abs(matrix.a * matrix.d - matrix.b * matrix.c) ** 0.5
        measured = size < 3.0  # a broken (e.g. Type 3 bitmap) font: fall back on the glyph height
        if measured:
            size = (y1 - y0) * 1.4
        # The weight only breaks ties between title candidates: sample a line's first letters.
        weight = int(pdfium_c.FPDFText_GetFontWeight(raw, index)) if len(chars) < 4 else -1
        pdfium_c.FPDFText_GetLooseCharBox(raw, index, loose)
        advance = turn((float(loose.left), float(loose.right), float(loose.bottom), float(loose.top)))[:2]
        char = _Char(ch, size, x0, y0, x1, y1, weight, measured, advance)
        broken = pending >= 0 and not (_runs_on(chars, char) and word_goes_on(raw, index, count))
        if broken or _new_line(chars, char):
            _close_line(chars, lines, repair)
            chars = []
            early = len(lines) if 0 <= pending < MAX_LAYOUT_CHARS else early
        elif pending >= 0 and chars[-1].ch != " " and _spaced(chars[-1], char):
            chars.append(_Char(" ", 0.0, 0.0, 0.0, 0.0, 0.0, 0))  # "specimen 𝑎𝑏" / "title": the break was a space
        pending = -1
        chars.append(char)
    _close_line(chars, lines, repair)
    early = len(lines) if count <= MAX_LAYOUT_CHARS else early
    return PageLayout(tuple(_display_after(upright_dropped(lines), early)), width, height)


def _new_line(chars: list[_Char], char: _Char) -> bool:
    """Whether `char` begins a new line the text layer did not break (`_LINE_JUMP`)."""
    previous = next((c for c in reversed(chars) if c.ch != " "), None)
    return previous is not None and abs(char.bottom - previous.bottom) > _LINE_JUMP * max(char.size, previous.size)


def _runs_on(chars: list[_Char], char: _Char) -> bool:
    """Whether `char`, after a break PDFium wrote, goes on the line before it: it stands right
    after that line's last letter (within `_RUN_ON_GAP` sizes, a word space) and level with it."""
    previous = next((c for c in reversed(chars) if c.ch != " "), None)
    if previous is None:
        return False
    size = max(char.size, previous.size)
    level = min(char.top, previous.top) > max(char.bottom, previous.bottom)
    return level and -_RUN_ON_GAP * size <= char.left - previous.right <= _RUN_ON_GAP * size


def _spaced(before: _Char, after: _Char) -> bool:
    """Whether two letters of a line stand a word space apart (`WORD_SPACE`)."""
    return after.left - before.right >= WORD_SPACE * max(before.size, after.size)


def upright_dropped(lines: list[LayoutLine]) -> list[LayoutLine]:
    """The page's lines without those set upright in its margin, where most of its text runs
    across: arXiv's stamp, a publisher's "© 2012 Landes Bioscience." set at 45 points. A page
    turned to landscape sets all its text upright, and keeps it."""
    upright = sum(line.letters for line in lines if line.upright)
    if not upright or 2 * upright >= sum(line.letters for line in lines):
        return lines
    return [line for line in lines if not line.upright]


def _spread(letters: list[_Char]) -> tuple[float, float]:
    """How far a line's letters climb the page (their baselines) and run across it (their left edges)."""
    rise = max(c.bottom for c in letters) - min(c.bottom for c in letters)
    return rise, max(c.left for c in letters) - min(c.left for c in letters)


def _line_size(letters: list[_Char]) -> float:
    """A line's font size: the median of its letters' sizes, or, where most were measured by their
    glyphs' height, that of its tallest letters (`_GLYPH_HEIGHT_QUANTILE`)."""
    measured = sorted(c.size for c in letters if c.measured)
    if 2 * len(measured) <= len(letters):
        return statistics.median(c.size for c in letters)
    tallest = measured[int(_GLYPH_HEIGHT_QUANTILE * (len(measured) - 1))]
    short = all(c.ch in _X_HEIGHT_LETTERS for c in letters if c.measured)
    return tallest * (_X_HEIGHT_SCALE if short else 1.0)


def _overprint_dropped(chars: list[_Char]) -> list[_Char]:
    """A line less the letters drawn again over themselves, a fraction of a point aside, as a
    word processor makes text look bold or shadowed ("DDL generator DDL generator" for one
    "DDL generator"): the same character within `_OVERPRINT` of its size of one already read."""
    placed: dict[str, list[_Char]] = {}
    out: list[_Char] = []
    for char in chars:
        if char.ch != " ":
            same = placed.setdefault(char.ch, [])
            if _drawn_again(char, same, out[-1] if out else None):
                continue
            same.append(char)
        out.append(char)
    return out


def _drawn_again(char: _Char, earlier: list[_Char], previous: _Char | None) -> bool:
    """Whether a letter stands where the same letter was drawn already. The letters of a
    ligature ("ff") share one glyph's box, one right after the other, and are no overprint."""
    near = _OVERPRINT * char.size
    return any(
        c is not previous and abs(c.left - char.left) < near and abs(c.bottom - char.bottom) < near for c in earlier
    )


def _lost_as_return(chars: list[_Char], index: int, count: int, raw: Any) -> bool:
    """Whether the carriage return at `index` of a text page stands for a glyph the font maps to
    it, as `LOST_RETURN` tells in the page's text ("Re\rursive", not the "\r\n" ending a line)."""
    import pypdfium2.raw as pdfium_c

    following = (int(pdfium_c.FPDFText_GetUnicode(raw, i)) for i in range(index + 1, min(index + 3, count)))
    after = "".join(chr(c) if 0 < c < 0x110000 else " " for c in following)
    return LOST_RETURN.match(f"{chars[-1].ch if chars else chr(10)}\r{after}", 1) is not None


def _display_after(lines: list[LayoutLine], early: int) -> list[LayoutLine]:
    """The lines read first, and of those after them only display type: a journal page that draws
    its two columns before its title ("Ephaptic coupling of cortical neurons" after 5,000
    characters of body text) has its title read, not a page of body text more."""
    if early >= len(lines) or not early:
        return lines  # a page of fewer characters, or one long line
    usual = statistics.median(line.size for line in lines[:early])
    return lines[:early] + [line for line in lines[early:] if line.size >= _LATE_DISPLAY * usual]


def _spaces_put_back(chars: list[_Char]) -> list[_Char]:
    """Word spaces a text layer left out ("ＰｅｒｓｐｅｃｔｉｖｅＩｍａｇｅ", full-width Latin set by CJK
    typesetting): in a run of at least `_UNSPACED_LETTERS` characters without a space, a gap
    between two letters or digits of a spaced script wider than a share of the font size and
    than three times the run's usual gap between letters is a space."""
    out: list[_Char] = []
    start = 0
    for end in range(len(chars) + 1):
        if end < len(chars) and chars[end].ch != " ":
            continue
        run = chars[start:end]
        out.extend(_spaced_run(run) if len(run) >= _UNSPACED_LETTERS else run)
        if end < len(chars):
            out.append(chars[end])
        start = end + 1
    return out


def _touching_spaces_dropped(chars: list[_Char]) -> list[_Char]:
    """The line without the spaces PDFium wrote inside a word: between two letters that touch, no
    further apart than `_TOUCHING` sizes, where the word after the space is no word and ends one
    with the letters before it ("SoftwareDev elopment", whose real word space `_spaces_put_back`
    then finds in the run it leaves). A scan's text layer sets its letters touching throughout,
    so the touch alone does not tell ("SCRIPT OF", "KONRAD TUCHSCHERER")."""
    out: list[_Char] = []
    for index, char in enumerate(chars):
        if char.ch == " " and out and out[-1].ch.isalpha():
            rest = [c for c in chars[index + 1 :] if c.ch != " "]
            if rest and rest[0].ch.isalpha() and _touch(out[-1], rest[0]) and _splits_a_word(out, chars[index + 1 :]):
                continue
        out.append(char)
    return out


def _splits_a_word(before: list[_Char], after: list[_Char]) -> bool:
    """Whether the letters after a space are no word but end one with those before it ("Dev" +
    "elopment")."""
    head = "".join(c.ch for c in before).rsplit(" ", 1)[-1].strip(_EDGE_MARKS)
    tail = "".join(c.ch for c in after).lstrip(" ").split(" ", 1)[0].strip(_EDGE_MARKS)
    if not tail.isalpha() or common_word(tail):
        return False
    return any(common_word(head[-cut:] + tail) for cut in range(1, min(len(head), _LONGEST_PIECE) + 1))


def _touch(before: _Char, after: _Char) -> bool:
    """Whether a letter stands against the one before it on the same baseline (`_TOUCHING`)."""
    size = max(before.size, after.size)
    level = abs(after.bottom - before.bottom) <= _TOUCHING * size
    return level and before.left < after.left and after.left - before.right < _TOUCHING * size


def _word_spaces_dropped(chars: list[_Char]) -> list[_Char]:
    """The line without the spaces PDFium wrote inside words (`word_spaces`): before accents TeX
    drew apart from their letters ("gy ˝ujtemény"), and between the letters of a letter-spaced
    line whose tracking and word spaces the line itself tells apart ("P a R T I G R a P H I C a L").
    A line of lone letters with no wider gap stays as it is: its gaps may be word spaces between
    initials ("C L Farrow"), which a title page's author line is full of."""
    glyphs = [Glyph(c.ch, *c.advance, c.bottom, c.size) for c in chars]
    dropped = accent_spaces(glyphs) | spurious_spaces(glyphs)
    kept = [c for i, c in enumerate(chars) if i not in dropped]
    # then a mark drawn over its letter ("`a" for "à" at a word's start) is put on it
    return marks_joined(kept, overlaid_marks([g for i, g in enumerate(glyphs) if i not in dropped]))


def _spaced_run(run: list[_Char]) -> list[_Char]:
    pairs = [(a, b) for a, b in itertools.pairwise(run) if _spaced_script(a.ch) and _spaced_script(b.ch)]
    if len(pairs) < _UNSPACED_LETTERS - 1:
        return run
    usual = statistics.median(b.left - a.right for a, b in pairs)
    wide = {id(b) for a, b in pairs if b.left - a.right > max(_SPACE_GAP * max(a.size, b.size), 3 * usual)}
    out: list[_Char] = []
    for char in run:
        if id(char) in wide:
            out.append(_Char(" ", 0.0, 0.0, 0.0, 0.0, 0.0, 0))
        out.append(char)
    return out


def _inside_word(chars: list[_Char], index: int, size: float) -> bool:
    """Whether a letter set small stands inside a word: a letter of the line's size follows it
    (the raised "A" of the LaTeX logo, a small capital), as a superscript marker after a word
    ("Calster^a,b", "Weston^*") is not followed."""
    nxt = chars[index + 1] if index + 1 < len(chars) else None
    return nxt is not None and nxt.ch.isalpha() and nxt.size >= _WORD_END_SUPERSCRIPT * size


def _exponent(chars: list[_Char], index: int) -> bool:
    """Whether a raised digit is an exponent of a lone letter, as a title writes continuity
    classes, spaces and names ("Agnostic G¹ Gregory Surfaces", "L² Estimates", "g²o", "I²C"), not
    a footnote mark after a word ("Koller²Tom", even glued to the next name)."""
    start = index
    while start > 0 and chars[start - 1].ch.isdigit():
        start -= 1  # the exponent's earlier digits ("w¹¹¹⁸", a fly strain)
    before = chars[start - 2].ch if start >= 2 else " "
    return chars[index].ch.isdigit() and start >= 1 and chars[start - 1].ch.isalpha() and before == " "


def _ordinal_ending(chars: list[_Char], index: int) -> bool:
    """Whether a raised letter belongs to an ordinal's ending set after its number ("2^nd edition",
    "21^st Century", "3^e édition"), not an affiliation or footnote mark after a word."""
    start = end = index
    while start > 0 and chars[start - 1].ch.isalpha():
        start -= 1
    while end + 1 < len(chars) and chars[end + 1].ch.isalpha():
        end += 1
    ending = "".join(c.ch for c in chars[start : end + 1]).lower()
    if start == 0 or ending not in _ORDINAL_ENDINGS or not chars[start - 1].ch.isdigit():
        return False
    number = chars[start - 1]  # set on the line, not raised with its ending (a mark "2nd" after a name)
    return number.bottom < chars[start].bottom - 0.25 * number.size


def _spaced_script(ch: str) -> bool:
    """A letter or digit of a script that separates words by spaces (not CJK ideographs, kana, hangul)."""
    return ch.isalnum() and not ("\u2e80" <= ch <= "\ud7ff" or "\uf900" <= ch <= "\ufaff")


def _wide_gap(chars: list[_Char], size: float) -> float:
    """How wide a space between two letters of a line marks a gap between names set side by side
    ("Simone Ferrari   Luca Di Giammarino   Leonardo Brizi", spaced 1.4 sizes apart and words 0.4):
    `_WIDE_GAP` sizes, or less where the line's usual word space is far narrower."""
    spaces: list[float] = []
    previous: _Char | None = None
    spaced = False
    for char in chars:
        if char.ch == " ":
            spaced = previous is not None
            continue
        if spaced and previous is not None:
            spaces.append(char.left - previous.right)
        previous, spaced = char, False
    if len(spaces) < 3:
        return _WIDE_GAP * size
    return min(_WIDE_GAP * size, max(_NAME_GAP * size, _GAP_RATIO * statistics.median(spaces)))


def _close_line(chars: list[_Char], lines: list[LayoutLine], repair: Callable[[str], str]) -> None:
    chars = _word_spaces_dropped(_spaces_put_back(_touching_spaces_dropped(_overprint_dropped(chars))))
    inked = [c for c in chars if c.ch != " "]
    if not inked:
        return
    letters = [c for c in inked if c.ch.isalpha()] or inked
    size = round(_line_size(letters), 2)
    text = " ".join(clean_text(repair("".join(c.ch for c in chars))).split())
    if not text:
        return
    # Letters that climb more than `_LINE_JUMP` sizes: at a slant where they also run that far (a
    # watermark set across the page, "Unpublished working draft": no line of its text), upright
    # where they climb more than they run (arXiv's stamp, a landscape page's text).
    rise, run = _spread(letters)
    if min(rise, run) > _LINE_JUMP * size:
        return
    baseline = statistics.median(c.bottom for c in letters)
    clean: list[str] = []
    previous: _Char | None = None
    after_mark = False
    widest = 0.0
    wide_gap = _wide_gap(chars, size)
    left = min(c.left for c in inked)
    for index, char in enumerate(chars):
        if char.ch == " ":
            if clean and clean[-1] not in (" ", "\t"):
                clean.append(" ")
            elif not clean and index > 0:
                # Marks PDFium set at the start of a line of their own, a space after them ("1 and
                # Ryan Nash" after "O'Shea"): the line begins at its text, after the word they marked.
                left = min((c.left for c in chars[index + 1 :] if c.ch != " "), default=left)
            continue
        raised = char.bottom > baseline + 0.25 * size
        share = _SUPERSCRIPT if _inside_word(chars, index, size) else _WORD_END_SUPERSCRIPT
        marker = raised and char.size < share * size and len(letters) >= 2
        if marker and not _exponent(chars, index) and not _ordinal_ending(chars, index):
            # A superscript marker: affiliation letter, footnote number, asterisk. A footnote mark
            # stands where the space after its word would be ("Weston*and", "GS1∗package").
            after_mark = after_mark or _FOOTNOTE_MARK.match(char.ch) is not None
            continue
        if after_mark and char.ch.isalpha() and clean and clean[-1].isalnum():
            clean.append(" ")
        after_mark = False
        if previous is not None:
            widest = max(widest, char.left - previous.right)
        if previous is not None and char.left - previous.right > wide_gap:
            while clean and clean[-1] == " ":
                clean.pop()
            clean.append("\t")
        clean.append(char.ch)
        previous = char
    weights = [c.weight for c in letters if c.weight >= 0] or [0]
    lines.append(
        LayoutLine(
            text=text,
            clean=clean_text(repair("".join(clean))).strip(),
            size=size,
            top=max(c.top for c in inked),
            bottom=min(c.bottom for c in inked),
            left=left,
            right=max(c.right for c in inked),
            bold=sum(w >= _BOLD_WEIGHT for w in weights) > len(weights) / 2,
            gap=widest,
            upright=rise > _LINE_JUMP * size and rise > run,
        )
    )
