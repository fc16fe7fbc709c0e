"""A book's excerpt: the book's front matter, then pages from deep inside it, and the chapter they hold.

Library scans of one chapter often keep the book's front matter (series page, title page,
copyright page, table of contents) before the chapter's pages, which carry the book's own page
numbers (390, 392, ... in a 15-page file). The first page then prints the book's title, but the
document is the chapter. It is recognised where three things agree:

- a table of contents among the first pages (a column of page numbers that mostly rise);
- body pages after it whose printed page numbers rise as pages do and start beyond what the
  file could hold, counted from the first page the contents list (a whole book's folios stay
  within its page count, so it keeps its title page's title; an article that prints its own
  contents before pages 902-946 lists pages from 901 on, which the file holds);
- a heading on the first body pages that the contents list (the chapter opens there).

Running heads are not headings (a part's name over every page is listed in the contents too).
When more than one listed heading opens on those pages, the first in reading order wins: the
excerpt starts where its first listed section does. A journal issue's contents followed by one
article reads the same way, and the article's title is the contents' entry for it.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from itertools import pairwise

from workbench.ingest.title_rows import running_key
from workbench.text.authors import fold_accents

_FRONT_PAGES = 12  # pages searched for a table of contents
_BODY_PAGES = 4  # body pages read for folios and running heads
_OPENING_PAGES = 2  # body pages on which the chapter must open
_MIN_REFS = 6  # page numbers a contents page lists at least
_RISING = 0.8  # share of successive page numbers that must not fall
_MAX_SPREAD = 2  # book pages one scanned page may hold (a two-page spread)
_MAX_HEADING_WORDS = 16
_SAME_HEADING = 0.8  # share of words a heading and its contents entry have in common (an OCR slip in five)

_BARE_NUMBER = re.compile(r"^\s*(\d{1,4})\s*$")
_TRAILING_REF = re.compile(r"[\w).:;,'’\"-](?:\s*\.(?:\s*\.)+\s*|\s+)(\d{1,4})\s*$")
_LEADING_FOLIO = re.compile(r"^(\d{1,4})\s+\S")
_TRAILING_FOLIO = re.compile(r"\S\s+(\d{1,4})$")
_NUMBERING = re.compile(  # "23.", "§ 4", "Chapter 5", "IV." before a heading
    r"^(?:§\s*)?(?:(?:chapter|kapitel|chapitre|capítulo|capitolo)\s+)?(\d+(?:\s?\.\s?\d+)*\.?|[IVXLC]+\.)\s+", re.I
)
_WORD = re.compile(r"\w+")


@dataclass(frozen=True)
class Excerpt:
    """Where a book's excerpt opens: the chapter's heading and the page (0-based) it opens on."""

    title: str
    heading: str  # as printed, with its number ("23. The Metaphor in Language")
    page: int
    first_folio: int


def excerpt_chapter(page_texts: list[str]) -> Excerpt | None:
    """The chapter a book's excerpt holds, or None when the file is not one (see the module docstring)."""
    lines = {n: _lines(page_texts[n]) for n in range(min(_FRONT_PAGES, len(page_texts)))}
    contents = [n for n in sorted(lines) if _is_contents_page(lines[n])]
    if not contents:
        return None
    body: list[int] = []
    for n in range(contents[-1] + 1, len(page_texts)):  # the first body pages with text, no further
        lines[n] = lines.get(n) or _lines(page_texts[n])
        if lines[n]:
            body.append(n)
        if len(body) == _BODY_PAGES:
            break
    running = _running(lines, body)
    folios = {n: folio for n in body if (folio := _folio(lines[n], running)) is not None}
    first = _first_folio(folios, body)
    listed = [ref for n in contents for ref in _page_refs(lines[n])]
    if first is None or not min(listed) < first - len(page_texts) or max(listed) < first:
        return None  # the contents must list pages the file lacks, before the body and up to it
    if _numbered_on(lines, running, range(contents[0]), first - body[0]):
        return None  # the pages before the "contents" run on the body's folios: one article's own pages
    entries = [h for n in contents for text in _with_next(lines[n], _strip_ref) if (h := _heading(text))]
    for n in body[:_OPENING_PAGES]:
        page_lines = [line for line in lines[n] if running_key(line) not in running]
        for index, line in enumerate(page_lines):
            joined = f"{line} {page_lines[index + 1]}" if index + 1 < len(page_lines) else ""
            best = max((line, joined), key=lambda text: _match(_heading(text), entries))  # a tie keeps the line
            if _match(_heading(best), entries) >= _SAME_HEADING:
                return Excerpt(_NUMBERING.sub("", best).strip(" .:"), best, n, first)
    return None


def _lines(text: str) -> list[str]:
    return [" ".join(line.split()) for line in text.splitlines() if line.strip()]


def _page_refs(lines: list[str]) -> list[int]:
    """The page numbers a contents page lists: bare number lines or numbers ending an entry."""
    refs = []
    for line in lines:
        found = _BARE_NUMBER.match(line) or _TRAILING_REF.search(line)
        if found:
            refs.append(int(found.group(1)))
    return refs


def _is_contents_page(lines: list[str]) -> bool:
    """Whether a page lists page numbers as a table of contents does: several, mostly rising."""
    refs = _page_refs(lines)
    if len(refs) < _MIN_REFS:
        return False
    rising = sum(1 for a, b in pairwise(refs) if b >= a)
    return rising >= _RISING * (len(refs) - 1)


def _strip_ref(line: str) -> str:
    """A contents entry without its page number and dot leaders."""
    found = _TRAILING_REF.search(line)
    return line[: found.start(1)].rstrip(" .") if found else line


def _running(lines: dict[int, list[str]], body: list[int]) -> frozenset[str]:
    """Lines that recur on two or more body pages (running heads), page numbers folded."""
    counts: Counter[str] = Counter()
    for n in body:
        counts.update({running_key(line) for line in lines[n][:2] + lines[n][-2:]})
    return frozenset(key for key, seen in counts.items() if seen >= 2)


def _folio(lines: list[str], running: frozenset[str]) -> int | None:
    """A body page's printed page number: at an end of its first or last two lines, never in
    brackets (a reprint's "[349]" gives the original edition's page)."""
    for line in lines[:2] + lines[-2:][::-1]:
        if _BARE_NUMBER.match(line):
            return int(line)
        if running_key(line) not in running:
            continue
        found = _LEADING_FOLIO.match(line) or _TRAILING_FOLIO.search(line)
        if found:
            return int(found.group(1))
    return None


def _numbered_on(lines: dict[int, list[str]], running: frozenset[str], pages: range, offset: int) -> bool:
    """Whether two or more of these pages print the folio the body's numbering gives them (page n
    is folio n + `offset`): an article whose figures' axis ticks read as a contents page ("0",
    "30", "60", …, on pages 10 to 12 of "Earth Syst. Dynam., 4, 11–29") is numbered so from its
    first page, where a book's front matter is not."""
    return sum(1 for n in pages if n in lines and _folio(lines[n], running) == n + offset) >= 2


def _first_folio(folios: dict[int, int], body: list[int]) -> int | None:
    """The first body page's folio, when two or more pages' folios rise as the pages do."""
    pages = sorted(folios)
    if len(pages) < 2:
        return None
    for a, b in pairwise(pages):
        step = folios[b] - folios[a]
        if not 0 < step <= _MAX_SPREAD * (b - a):
            return None
    return folios[pages[0]] - (pages[0] - body[0])


@dataclass(frozen=True)
class _Heading:
    number: str  # "23", "23.0", "iv", or "" when unnumbered
    words: tuple[str, ...]


def _heading(line: str) -> _Heading | None:
    """A line as a heading: its number and its words, folded; None when it cannot be one (one
    unnumbered word, or a sentence's run of words)."""
    numbered = _NUMBERING.match(line)
    number = re.sub(r"\s", "", numbered.group(1)).rstrip(".").lower() if numbered else ""
    found = tuple(_WORD.findall(fold_accents(line[numbered.end() :] if numbered else line).lower()))
    letters = [w for w in found if not w.isdigit()]
    if not letters or len(found) > _MAX_HEADING_WORDS or (len(letters) < 2 and not number):
        return None
    return _Heading(number, found)


def _match(heading: _Heading | None, entries: list[_Heading]) -> float:
    """How well a heading matches its best contents entry: the share of words they have in common
    (0 where both are numbered and the numbers differ)."""
    if heading is None:
        return 0.0
    best = 0.0
    for entry in entries:
        if heading.number and entry.number and heading.number != entry.number:
            continue
        shared = sum((Counter(heading.words) & Counter(entry.words)).values())
        best = max(best, shared / max(len(heading.words), len(entry.words)))
    return best


def _with_next(lines: list[str], clean: Callable[[str], str] = str.strip) -> list[str]:
    """Each line, then each line joined with the one after it (a heading or entry that wraps)."""
    cleaned = [clean(line) for line in lines]
    return cleaned + [f"{a} {b}" for a, b in pairwise(cleaned)]
