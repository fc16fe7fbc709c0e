"""Quotes cited to their own page, and the one line that says when an index cannot do it yet.

A quote's page comes from its chunk's page offsets (`workbench.text.pages`). An index made
before page offsets were stored knows them for chunks on one page only (`stores.chunk_columns`);
a quote from a chunk across pages is then cited to the chunk's page span, and the answer says
so in one line, naming the fix.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from workbench.records import Answer, Evidence, Hit
from workbench.text.pages import quote_page

REBUILD = "run `workbench index --rebuild` to cite each quote to its own page"


def hit_quote_page(hit: Hit, quote: str) -> int | None:
    """The page a quote of this passage begins on (None: offsets unknown, or the quote is not in it)."""
    return quote_page(hit.text, quote, hit.page_start, hit.page_end, hit.page_offsets or None)


def unpaged(evidence: Sequence[Evidence]) -> list[Evidence]:
    """Quotes cited to their passage's page span because their own page is unknown."""
    return [e for e in evidence if e.page is None and e.page_start != e.page_end]


def with_page_note(answer: Answer) -> Answer:
    """The answer with one warning when some quotes could only be cited to their passage's pages."""
    missing = unpaged(answer.evidence)
    if not missing:
        return answer
    markers = ", ".join(f"[{e.marker}]" for e in missing)
    note = (
        f"{'quote' if len(missing) == 1 else 'quotes'} {markers} cite their passage's pages, not their own: "
        f"this index was made before page offsets were stored; {REBUILD}"
    )
    return replace(answer, warnings=(*answer.warnings, note))


def index_note(rows_without_offsets: int) -> str:
    """The line an index run (and `doctor`) prints while chunks across pages lack page offsets ('' when none)."""
    if rows_without_offsets <= 0:
        return ""
    one = rows_without_offsets == 1
    return (
        f"{rows_without_offsets} {'passage' if one else 'passages'} across pages {'has' if one else 'have'} no "
        f"page offsets (indexed before they were stored): their quotes cite the passage's pages; {REBUILD}"
    )
