"""What the screens' workers read off the UI thread: result rows (search or the library
listing, with triage applied) and one paper's detail.

Runs inside workers; it calls the engine and the triage store exactly as the CLI would.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from workbench.tui.messages import DetailLoaded, ResultRow, TaskFailed

if TYPE_CHECKING:
    from workbench.engine import Engine
    from workbench.models import Hit
    from workbench.triage import TriageRecord, TriageStore
    from workbench.tui.app import WorkbenchApp


class BadFilterError(ValueError):
    """A filter chip that cannot be applied."""

    def __init__(self, expression: str, reason: str) -> None:
        super().__init__(reason)
        self.expression = expression


def row_from_hit(hit: Hit) -> ResultRow:
    """A table row for a search hit."""
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
    )


def load_rows(
    engine: Engine,
    store: TriageStore,
    query: str,
    filters: Sequence[str],
    limit: int,
    known: Mapping[str, TriageRecord] | None = None,
) -> tuple[list[ResultRow], dict[str, TriageRecord], str]:
    """Rows for the table: search hits for a query, else the library newest first; triage applied.

    `known` is every stored triage record (the app keeps them); with it, a search needs no
    catalog read at all, which keeps the keystroke-to-results path to the search itself.
    """
    from workbench.stores.chunks import FilterError, filters_to_sql, parse_filter
    from workbench.triage import TriageError, TriageRecord, is_triage_filter, parse_triage_filter

    store_filters = []
    triage_filters = []
    for expression in filters:
        try:
            if is_triage_filter(expression):
                triage_filters.append(parse_triage_filter(expression))
            else:
                store_filters.append(parse_filter(expression))
        except (FilterError, TriageError) as exc:
            raise BadFilterError(expression, str(exc)) from None
    fetch = limit * 4 if triage_filters else limit
    note = ""
    if query.strip():
        result = engine.search(query, filters=store_filters, limit=fetch)
        rows = [row_from_hit(hit) for hit in result.hits]
        note = "; ".join(result.warnings)
    else:
        if any(f.key == "section" for f in store_filters):
            raise BadFilterError("section", "filter 'section' needs a query (it applies to passages)")
        items = store.library(limit=fetch, where_sql=filters_to_sql(store_filters))
        rows = [ResultRow(i.doc_id, i.title, i.authors, i.year, i.source, None, "catalog") for i in items]
        note = "library, newest first"
    if known is not None:
        records = {r.doc_id: known.get(r.doc_id) or TriageRecord(r.doc_id) for r in rows}
    else:
        records = store.get_many(r.doc_id for r in rows)
    kept = set(store.apply_filters([r.doc_id for r in rows], triage_filters, records))
    rows = [r for r in rows if r.doc_id in kept][:limit]
    return rows, {r.doc_id: records[r.doc_id] for r in rows}, note


def fetch_detail(app: WorkbenchApp, doc_id: str) -> DetailLoaded | TaskFailed:
    """One paper's catalog detail and triage record, as the message the screens handle."""
    try:
        detail = app.wait_engine().document_detail(doc_id)
        record = app.triage_store.get(doc_id)
    except Exception as exc:
        return TaskFailed("preview", f"{type(exc).__name__}: {exc}")
    return DetailLoaded(doc_id, detail, record)
