"""The results table: one row per paper, sortable, with a triage mark; columns fit the width."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.binding import Binding, BindingType
from textual.coordinate import Coordinate
from textual.widgets import DataTable
from textual.widgets.data_table import RowDoesNotExist

from workbench.library.listing import SORTS, sort_rows
from workbench.library.triage import TriageRecord
from workbench.tui.keys import LIST_BINDINGS
from workbench.tui.messages import ResultRow

BACKEND_LABELS = {"both": "dense+fts", "dense": "dense", "fts": "fts", "catalog": "library", "graph": "graph"}


class ResultsTable(DataTable[Text | str]):
    """Papers found by a search (or the library when there is no query)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        *LIST_BINDINGS,
        Binding("enter", "select_cursor", "Open", id="open", show=False),
    ]
    DEFAULT_CSS = """
    ResultsTable {
        height: 1fr;
        border: round $panel-lighten-2;
        border-title-color: $text-muted;
        &:focus { border: round $accent; }
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(cursor_type="row", zebra_stripes=True, id=id)
        self.rows_shown: list[ResultRow] = []
        self.triage: dict[str, TriageRecord] = {}
        self.result_order = SORTS[0]
        self.note = ""
        self._layout_width = 0
        self.border_title = "Results"

    # -- content ----------------------------------------------------------------------------
    def show(self, rows: list[ResultRow], triage: dict[str, TriageRecord], note: str = "") -> None:
        """Replace the rows (keeps the sort order the user chose)."""
        self.rows_shown = rows
        self.triage = dict(triage)
        self.note = note
        self._render_rows(keep=None)

    def sorted_rows(self) -> list[ResultRow]:
        """The rows in the current sort order (relevance = the order they came in)."""
        return sort_rows(self.rows_shown, self.triage, self.result_order)

    def cycle_sort(self) -> str:
        """Switch to the next sort order, keeping the selected paper selected."""
        self.result_order = SORTS[(SORTS.index(self.result_order) + 1) % len(SORTS)]
        self._render_rows(keep=self.selected_doc_id)
        return self.result_order

    def update_triage(self, record: TriageRecord) -> None:
        """Show a paper's new triage mark (and re-sort when sorting by triage)."""
        if record.doc_id not in {r.doc_id for r in self.rows_shown}:
            return
        self.triage[record.doc_id] = record
        if self.result_order == "triage":
            self._render_rows(keep=self.selected_doc_id)
            return
        try:
            self.update_cell(record.doc_id, "mark", self._mark(record.doc_id))
        except Exception:  # the column set changed under us: redraw everything
            self._render_rows(keep=self.selected_doc_id)

    @property
    def selected_doc_id(self) -> str | None:
        """The paper under the cursor, if any."""
        if not self.row_count:
            return None
        try:
            row_key = self.coordinate_to_cell_key(Coordinate(self.cursor_row, 0)).row_key
        except Exception:
            return None
        return str(row_key.value) if row_key.value is not None else None

    def row_for(self, doc_id: str) -> ResultRow | None:
        """The row shown for a paper."""
        return next((r for r in self.rows_shown if r.doc_id == doc_id), None)

    def select_doc(self, doc_id: str) -> bool:
        """Move the cursor to a paper; False when it is not in the table."""
        try:
            index = self.get_row_index(doc_id)
        except RowDoesNotExist:
            return False
        self.move_cursor(row=index)
        return True

    # -- drawing ----------------------------------------------------------------------------
    def _mark(self, doc_id: str) -> Text:
        record = self.triage.get(doc_id, TriageRecord(doc_id))
        style = "bold yellow" if record.starred else ("dim" if record.state in ("read", "skipped") else "")
        return Text(record.mark, style=style)

    def _columns(self, width: int) -> list[tuple[str, str, int]]:
        columns = [("", "mark", 3), ("Title", "title", 0)]
        if width >= 46:
            columns.append(("Author", "author", 12))
        columns.append(("Year", "year", 4))
        if width >= 75:
            columns += [("Source", "source", 6), ("Score", "score", 5)]
        if width >= 90:
            columns.append(("Found by", "backend", 9))
        fixed = sum(w for _, _, w in columns) + 2 * len(columns) + 1
        return [(label, key, w or max(16, width - fixed)) for label, key, w in columns]

    def _render_rows(self, keep: str | None) -> None:
        width = self.scrollable_content_region.width or self.size.width or 80
        self._layout_width = width
        self.clear(columns=True)
        columns = self._columns(width)
        for label, key, column_width in columns:
            self.add_column(label, key=key, width=column_width)
        keys = [key for _, key, _ in columns]
        for row in self.sorted_rows():
            cells: dict[str, Text | str] = {
                "mark": self._mark(row.doc_id),
                "title": Text(row.title or row.doc_id),  # a paper's own text: never markup
                "author": Text(row.first_author),
                "year": str(row.year or ""),
                "source": "Zotero" if row.source == "zotero" else (row.source or ""),
                "score": f"{row.score:.2f}" if row.score is not None else "",
                "backend": BACKEND_LABELS.get(row.backend, row.backend),
            }
            self.add_row(*(cells[k] for k in keys), key=row.doc_id)
        self.border_title = f"Results {len(self.rows_shown)}" if self.rows_shown else "Results"
        subtitle = [f"sort: {self.result_order}"]
        if self.note and self.result_order == "relevance" and all(r.score is None for r in self.rows_shown):
            subtitle = [self.note]  # the library listing: its own order is the note
        elif self.note:
            subtitle.insert(0, self.note)
        self.border_subtitle = " · ".join(subtitle)
        if keep is not None:
            self.select_doc(keep)

    def on_data_table_header_selected(self, event: DataTable.HeaderSelected) -> None:
        """Clicking a column header sorts by it (the mouse twin of `o`)."""
        by_column = {"mark": "triage", "title": "title", "author": "author", "year": "year", "score": "relevance"}
        order = by_column.get(str(event.column_key.value))
        if order is not None and order != self.result_order:
            self.result_order = order
            self._render_rows(keep=self.selected_doc_id)

    def on_resize(self) -> None:
        width = self.scrollable_content_region.width
        if self.rows_shown and abs(width - self._layout_width) >= 2:
            self._render_rows(keep=self.selected_doc_id)

    def action_first(self) -> None:
        """Go to the first row."""
        self.action_scroll_top()

    def action_last(self) -> None:
        """Go to the last row."""
        self.action_scroll_bottom()
