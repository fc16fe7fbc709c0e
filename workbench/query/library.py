"""The library listing both front ends show: search hits for a query, else every paper, last indexed first.

Triage filters (`triage=reading`, `priority>=2`, `starred=yes`, `label=x`) and the sort order
are applied here, so `workbench queue`, `workbench search` and the TUI's results table list
the same papers in the same order.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from workbench.errors import FilterError
from workbench.library.listing import Listing, sort_rows
from workbench.library.triage import TriageRecord
from workbench.query.filters import split_filters
from workbench.records import Filter, Hit, ResultRow, SearchResult
from workbench.stores.triage import TriageStore

Search = Callable[[str, Sequence[Filter], int], SearchResult]


def row_from_hit(hit: Hit) -> ResultRow:
    """A listing row for a search hit."""
    return ResultRow(
        doc_id=hit.doc_id,
        title=hit.title,
        authors=tuple(hit.authors),
        year=hit.year,
        source=hit.source,
        score=hit.score,
        backend=hit.backend,
        section=hit.section,
        page_start=hit.page_start,
        page_end=hit.page_end,
        text=hit.text,
        same_text=hit.same_text,
    )


def list_library(
    search: Search,
    store: TriageStore,
    query: str,
    expressions: Sequence[str],
    limit: int,
    known: Mapping[str, TriageRecord] | None = None,
    sort: str = "relevance",
) -> Listing:
    """Search hits for a query, else the library last indexed first; triage filters and the sort applied.

    `known` is every stored triage record (the TUI keeps them); with it, a search needs no
    catalog read at all, which keeps the keystroke-to-results path to the search itself.
    """
    metadata, triage_filters = split_filters(expressions)
    fetch = limit * 4 if triage_filters else limit
    if query.strip():
        result = search(query, metadata, fetch)
        rows = [row_from_hit(hit) for hit in result.hits]
        note = "; ".join(result.warnings)
    else:
        section = next((f for f in metadata if f.key == "section"), None)
        if section is not None:
            raise FilterError("filter 'section' needs a query (it applies to passages)", str(section))
        items = store.library(limit=fetch, filters=metadata)
        rows = [ResultRow(i.doc_id, i.title, i.authors, i.year, i.source, None, "catalog") for i in items]
        note = "library, last indexed first"
    if known is not None:
        records = {r.doc_id: known.get(r.doc_id) or TriageRecord(r.doc_id) for r in rows}
    else:
        records = store.get_many(r.doc_id for r in rows)
    kept = set(store.apply_filters([r.doc_id for r in rows], triage_filters, records))
    rows = sort_rows([r for r in rows if r.doc_id in kept], records, sort)[:limit]
    return Listing(tuple(rows), {r.doc_id: records[r.doc_id] for r in rows}, note)
