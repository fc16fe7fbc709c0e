"""Spaces PDFium wrote inside words, found by the glyphs' boxes and taken out.

PDFium writes a space wherever two glyphs stand apart, which splits words in two layouts:

- **Letter-spaced text.** Code listings are often set with their letters spread apart (LaTeX's
  listings package, a word processor's tracking): "s w i t c h c o n t r o l" for "switch
  control". Such a page reads as lone letters and would be dropped as garbled ("letters without
  words") with the prose around it. In a letter-spaced line the gaps PDFium filled fall in two
  groups, the tracking between letters (a tenth or a fifth of the font size) and the word spaces
  (several times wider). `spurious_spaces` finds that split within one line and drops the
  spaces of the narrow group; a line whose gaps are all alike (a spaced heading, a formula's
  variables, music glyphs) is left as it is, as is a line of ordinary words.
- **Accents TeX drew apart.** A font without "ą", "ű" or "ů" (TeX's OT1) draws the letter and
  its accent as two glyphs, and the accent's box stands out from the letter before it, so
  Polish, Hungarian and Czech words come out as "najcz ˛e´sciej", "gy ˝ujtemény", "uživatel ˚u".
  `accent_spaces` drops a space before such a mark where the letter under the mark abuts the
  letter before the space (`MAX_ACCENT_GAP`); a word that begins with an accented letter stands
  a word space away and keeps it (Portuguese "à", set "`a"). The mark itself is then put on its
  letter with the rest of the page's accents (`workbench.text.accents`), except a mark that
  opens a word: text alone cannot tell TeX's "`a" from an opening quote ("`all'"), so
  `overlaid_marks` joins a mark to the letter it is drawn over.

`drop_spaces_inside_words` applies these to a page whose text shows any of the patterns, reading
the glyph boxes from PDFium only there.
"""

from __future__ import annotations

import ctypes
import statistics
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, replace
from itertools import pairwise
from typing import TYPE_CHECKING, Any, TypeVar

import regex

from workbench.text.accents import SPACING_ACCENTS

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

# A run of four or more lone letters ("s w i t c h"); a page needs MIN_SPACED_RUNS of them to be read
# glyph by glyph.
_SPACED_RUN = regex.compile(r"(?<!\S)\p{L}(?: \p{L}){3,}(?!\S)")
MIN_SPACED_RUNS = 1
# A space, then a spacing accent and a letter: TeX's accent drawn apart from its letter.
_SPACED_ACCENT = regex.compile("(?<=\\S) [" + "".join(SPACING_ACCENTS) + "](?=\\S)")
# A spacing accent that begins a word, before a letter: TeX's "\\`a", or an opening quote ("`all'").
_LEADING_MARK = regex.compile("(?<!\\S)[" + "".join(SPACING_ACCENTS) + "](?=\\p{L})")
# A mark drawn over its letter covers at least this share of its own width of the letter (TeX sets the
# accent, then the letter from the accent's left edge: about all of it); an opening quote stands
# before its letter and covers none.
MIN_MARK_OVERLAP = 0.5
# The letter under such a mark starts within this many font sizes of the letter before the space
# (0.0-0.02 in Polish, Hungarian and Czech text), or it begins a word (0.2 and more).
MAX_ACCENT_GAP = 0.1
# Gaps up to this, in font sizes, may be tracking; a line's tracking is their median, which is at
# most MAX_TRACKING (listings' is 0.1-0.25; a word space is at least 0.22).
MAX_LETTER_GAP = 0.45
MAX_TRACKING = 0.26
# A gap wider than the tracking by this much, in font sizes, is a word space (the space's own
# advance is a quarter of the size or more), and a line's word spaces are at least this many
# times its tracking.
MIN_WORD_GAP_EXCESS = 0.25
MIN_WORD_GAP_RATIO = 2.0
MIN_TRACKED_GAPS = 3  # fewer spaced letters than this make no letter-spaced line
_NEAR_ZERO = 0.05  # tracking this small, in font sizes, counts as this for the ratio
_MIN_KERN = -0.3  # glyphs overlapping more than this (in font sizes) are not neighbours in a word


_Item = TypeVar("_Item", bound="DataclassInstance")


@dataclass(frozen=True)
class Glyph:
    """One character of a text line with its advance box and font size (points)."""

    ch: str
    left: float
    right: float
    bottom: float
    size: float


def spurious_spaces(line: Sequence[Glyph], limit: float | None = None) -> set[int]:
    """Indices into `line` of the spaces that stand between the letters of one word.

    A line qualifies when most of its tokens are lone characters. Its spaced gaps up to
    `limit` (font sizes) are tracking, where `limit` is the line's own (`tracking_limit`) or,
    for a line too short to show both tracking and word spaces, the one measured on its page.
    """
    spaced = _spaced_gaps(line) if _mostly_lone(line) else []
    own = tracking_limit([gap for gap, _ in spaced])
    threshold = own if own is not None else limit
    if threshold is None:
        return set()
    found = {i for gap, spaces in spaced if _MIN_KERN < gap <= threshold for i in spaces}
    return found if _reads_as_words(line, found) else set()


def line_limit(line: Sequence[Glyph]) -> float | None:
    """The widest gap that is tracking on a letter-spaced line (None on any other line)."""
    return tracking_limit([gap for gap, _ in _spaced_gaps(line)]) if _mostly_lone(line) else None


def _mostly_lone(line: Sequence[Glyph]) -> bool:
    tokens = "".join(g.ch for g in line).split()
    return len(tokens) > MIN_TRACKED_GAPS and 2 * sum(1 for t in tokens if len(t) == 1) >= len(tokens)


def _spaced_gaps(line: Sequence[Glyph]) -> list[tuple[float, list[int]]]:
    """Each gap with spaces in it beside a lone character, between two glyphs of one baseline:
    its width in font sizes and the indices of its spaces. A space between two longer tokens
    separates words whatever its width ("capital phi" in a glyph table's row of lone "Φ")."""
    tokens = "".join(g.ch for g in line).split()
    lone = [len(token) == 1 for token in tokens]
    out: list[tuple[float, list[int]]] = []
    previous: Glyph | None = None
    spaces: list[int] = []
    token = -1
    for index, glyph in enumerate(line):
        if glyph.ch.isspace():
            spaces.append(index)
            continue
        if previous is None or spaces:
            token += 1
        if previous is not None and spaces and (lone[token - 1] or lone[token]):
            size = max(previous.size, glyph.size, 1.0)
            if abs(glyph.bottom - previous.bottom) <= 0.5 * size:
                out.append(((glyph.left - previous.right) / size, spaces))
        previous, spaces = glyph, []
    return out


def tracking_limit(gaps: Sequence[float]) -> float | None:
    """The widest gap that is tracking, where a line's spaced `gaps` (font sizes) fall into
    tracking and word spaces; None when they do not (all alike, or too wide to be tracking)."""
    tracking = [g for g in gaps if g <= MAX_LETTER_GAP]
    if len(tracking) < MIN_TRACKED_GAPS:
        return None
    typical = statistics.median(tracking)
    if typical > MAX_TRACKING:
        return None
    limit = typical + MIN_WORD_GAP_EXCESS
    words = [g for g in gaps if g > limit]
    return limit if words and min(words) >= MIN_WORD_GAP_RATIO * max(typical, _NEAR_ZERO) else None


def _reads_as_words(line: Sequence[Glyph], dropped: set[int]) -> bool:
    """Whether the words the dropped spaces make are more than one glyph repeated ("œœœ" is
    a row of music notes, not a word)."""
    words = "".join(g.ch for i, g in enumerate(line) if i not in dropped).split()
    joined = [w for w in words if len(w) >= 3]
    repeated = sum(1 for w in joined if len(set(w)) == 1)
    return bool(joined) and 2 * repeated < len(joined)


def drop_spaces_inside_words(textpage: Any, text: str) -> str:
    """The page's text (`text`, as PDFium's bounded text gave it) without the spaces inside
    letter-spaced words and before accents drawn apart from their letters, and with the accents
    drawn over a word's first letter put on it; unchanged on a page without any of these, or where
    PDFium's characters do not spell `text`."""
    spaced = len(_SPACED_RUN.findall(text)) >= MIN_SPACED_RUNS
    if not spaced and not _SPACED_ACCENT.search(text) and not _LEADING_MARK.search(text):
        return text
    chars = _glyphs(textpage)
    if "".join(g.ch for g in chars) != text:
        return text
    dropped = accent_spaces(chars)
    if spaced:
        breaks = [i for i, g in enumerate(chars) if g.ch in "\r\n"]
        lines = [chars[start + 1 : end] for start, end in zip([-1, *breaks], [*breaks, len(chars)], strict=True)]
        limits = [limit for line in lines if (limit := line_limit(line)) is not None]
        page_limit = statistics.median(limits) if limits else None
        offset = 0
        for line in lines:
            dropped.update(offset + i for i in spurious_spaces(line, page_limit))
            offset += len(line) + 1
    kept = [g for i, g in enumerate(chars) if i not in dropped]
    return "".join(g.ch for g in marks_joined(kept, overlaid_marks(kept)))


def overlaid_marks(chars: Sequence[Glyph]) -> dict[int, str]:
    """For each spacing accent drawn over the letter after it (covering at least `MIN_MARK_OVERLAP`
    of its own width of that letter, which must carry it in Unicode), its index and the accented
    letter that the two glyphs make: TeX's "`a" for "à" at a word's start, which text alone cannot
    tell from an opening quote ("`all'")."""
    found: dict[int, str] = {}
    for index, (mark, letter) in enumerate(pairwise(chars)):
        width = mark.right - mark.left
        if mark.ch not in SPACING_ACCENTS or not letter.ch.isalpha() or width <= 0:
            continue
        if mark.right - max(letter.left, mark.left) < MIN_MARK_OVERLAP * width:
            continue
        joined = unicodedata.normalize("NFC", letter.ch + SPACING_ACCENTS[mark.ch])
        if len(joined) == 1:
            found[index] = joined
    return found


def marks_joined(chars: list[_Item], joined: dict[int, str]) -> list[_Item]:
    """`chars` (glyphs, or any dataclass with a `ch`) with each mark in `joined` (`overlaid_marks`)
    dropped and the letter after it made the accented letter."""
    if not joined:
        return chars
    return [replace(c, ch=joined[i - 1]) if i - 1 in joined else c for i, c in enumerate(chars) if i not in joined]


def accent_spaces(chars: Sequence[Glyph]) -> set[int]:
    """Indices of the spaces before a spacing accent whose letter abuts the letter before the
    space ("najcz ˛e´sciej"), on one baseline, in a line set straight (the letters of the word
    before abut: text set along a curve puts every glyph at odd gaps)."""
    found: set[int] = set()
    for index in range(1, len(chars) - 2):
        before, space, mark, letter = chars[index - 1 : index + 3]
        if space.ch != " " or mark.ch not in SPACING_ACCENTS or not before.ch.strip() or not letter.ch.strip():
            continue
        size = max(before.size, letter.size, 1.0)
        gap = (letter.left - before.right) / size
        on_baseline = abs(letter.bottom - before.bottom) <= 0.5 * size
        if on_baseline and _MIN_KERN < gap <= MAX_ACCENT_GAP and _set_straight(chars, index - 1):
            found.add(index)
    return found


def _set_straight(chars: Sequence[Glyph], end: int) -> bool:
    """Whether the letters of the word that ends at `end` abut one another (the median gap between
    them, in font sizes, within `MAX_ACCENT_GAP`); a one-letter word shows nothing against."""
    start = end
    while start > 0 and chars[start - 1].ch.strip() and chars[start - 1].ch not in SPACING_ACCENTS:
        start -= 1
    gaps = [abs(b.left - a.right) / max(a.size, b.size, 1.0) for a, b in pairwise(chars[start : end + 1])]
    return not gaps or statistics.median(gaps) <= MAX_ACCENT_GAP


def _glyphs(textpage: Any) -> list[Glyph]:
    """Every character of the page with its loose (advance) box and its size as drawn."""
    import pypdfium2.raw as pdfium_c

    raw = textpage.raw
    rect = pdfium_c.FS_RECTF()
    matrix = pdfium_c.FS_MATRIX()
    out: list[Glyph] = []
    for index in range(int(textpage.count_chars())):
        code = int(pdfium_c.FPDFText_GetUnicode(raw, index))
        ch = chr(code) if 0 <= code < 0x110000 else "\ufffd"
        if ch in "\r\n":
            out.append(Glyph(ch, 0.0, 0.0, 0.0, 0.0))
            continue
        pdfium_c.FPDFText_GetLooseCharBox(raw, index, ctypes.byref(rect))
        size = float(pdfium_c.FPDFText_GetFontSize(raw, index))
        if pdfium_c.FPDFText_GetMatrix(raw, index, matrix):
            size *= abs(matrix.a * matrix.d - matrix.b * matrix.c) ** 0.5
        out.append(Glyph(ch, rect.left, rect.right, rect.bottom, size))
    return out
