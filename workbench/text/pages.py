"""Which page a quote is printed on: page offsets inside a chunk's text.

A chunk spans pages `page_start..page_end`; its page offsets give, for each of those pages in
order, the character offset in the chunk's text where that page's text begins (the first is 0).
A page with no text inside the chunk (a figure page, a page left out) starts where the next
one does. A quote is cited to the page its first character is on, so a sentence that runs
over a page break is cited to the page where the reader finds its start.

Offsets are unknown (`()`) for a chunk of an index made before they were stored; a chunk on
one page needs none.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence

ELLIPSIS = " …"  # how a quote cut for length ends (`query.sentences.passage_sentences`)


def page_offsets(pieces: Sequence[tuple[int, int]], page_start: int, page_end: int) -> tuple[int, ...]:
    """Offsets of pages `page_start..page_end` from the (character offset, page) of each piece of text, in order.

    A page no piece is on starts where the next page with text does (an empty range).
    """
    offsets: list[int] = []
    position = 0
    pieces = list(pieces)
    for page in range(page_start, page_end + 1):
        while position < len(pieces) and pieces[position][1] < page:
            position += 1
        offsets.append(pieces[position][0] if position < len(pieces) else (pieces[-1][0] if pieces else 0))
    if offsets:
        offsets[0] = 0
    return tuple(offsets)


def offsets_known(page_start: int, page_end: int, offsets: Sequence[int] | None) -> bool:
    """Whether every offset in the chunk maps to one page: a one-page chunk, or offsets for each of its pages."""
    return page_start == page_end or (offsets is not None and len(offsets) == page_end - page_start + 1)


def page_at(offset: int, page_start: int, page_end: int, offsets: Sequence[int] | None) -> int | None:
    """The page a character offset of the chunk's text is on (None when the chunk's offsets are unknown)."""
    if page_start == page_end:
        return page_start
    if not offsets_known(page_start, page_end, offsets):
        return None
    assert offsets is not None
    # The last page that starts at or before the offset (an empty page gives way to the next).
    index = bisect.bisect_right(list(offsets), max(0, offset)) - 1
    return page_start + max(0, index)


def locate(text: str, quote: str) -> int | None:
    """Where a quote begins in the text: verbatim, else with any whitespace between its words; None if absent.

    A quote cut for length (ending " …") is looked up by what it keeps.
    """
    quote = quote.strip()
    if quote.endswith(ELLIPSIS.strip()):
        quote = quote[: -len(ELLIPSIS.strip())].rstrip()
    if not quote:
        return None
    found = text.find(quote)
    if found >= 0:
        return found
    words = quote.split()
    if not words:
        return None
    pattern = r"\s*".join(re.escape(word) for word in words)
    match = re.search(pattern, text)
    return match.start() if match else None


def quote_page(text: str, quote: str, page_start: int, page_end: int, offsets: Sequence[int] | None) -> int | None:
    """The page a quote of the chunk's text begins on; None when unknown (no offsets, or the quote is not there)."""
    if page_start == page_end:
        return page_start
    start = locate(text, quote)
    return None if start is None else page_at(start, page_start, page_end, offsets)


def page_label(page: int | None, page_start: int, page_end: int) -> str:
    """`p. 4` for a known page; the passage's `p. 4` or `pp. 4–5` when the quote's own page is unknown."""
    if page is not None:
        return f"p. {page}"
    if page_start == page_end:
        return f"p. {page_start}"
    return f"pp. {page_start}–{page_end}"
