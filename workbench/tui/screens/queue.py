"""The triage queue: the inbox by priority then date, worked through one paper at a time.

A state key (reading, read, skip) takes the paper out of the inbox and moves on to the next
one; priority, star, labels and note change it in place. Enter opens it in the main view.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Horizontal
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Static
from textual.worker import get_current_worker

from workbench.tui.errors import NotifyWorkerErrors
from workbench.tui.host import host
from workbench.tui.keys import QUEUE_BINDINGS
from workbench.tui.messages import DetailLoaded, DocumentOpened, QueueLoaded, TaskFailed, TriageChanged
from workbench.tui.screens.triage_actions import TriageActions
from workbench.tui.widgets.costs import CostTable
from workbench.tui.widgets.preview import Preview
from workbench.tui.widgets.status import StatusBar

if TYPE_CHECKING:
    from workbench.library.triage import QueueItem


class QueueTable(CostTable):
    """The inbox, one row per paper (vim keys like every list)."""


class QueueScreen(NotifyWorkerErrors, TriageActions, Screen[None]):
    """Work through new papers one by one."""

    CSS_PATH = "queue.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [*QUEUE_BINDINGS]
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (100, "-wide")]  # noqa: RUF012 (declared by Screen)

    def __init__(self) -> None:
        super().__init__(id="queue")
        self.items: list[QueueItem] = []
        self.current: str | None = None

    def compose(self) -> ComposeResult:
        yield Static("Triage queue: inbox by priority, then last indexed", id="queue-title")
        with Horizontal(id="queue-body"):
            yield QueueTable(cursor_type="row", zebra_stripes=True, id="queue-table")
            yield Preview(id="queue-preview")
        yield Static(
            "r reading · m read · x skip · 0-3 priority · * star · t label · n note · Enter open · Esc back",
            id="queue-help",
        )
        yield StatusBar(id="queue-status")
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one(QueueTable)
        table.border_title = "Inbox"
        for label, key in (("", "mark"), ("P", "priority"), ("Title", "title"), ("Author", "author"), ("Year", "year")):
            table.add_column(label, key=key)
        self.query_one(StatusBar).show(host(self).status)
        self.query_one(Preview).show_message("Loading the inbox…")
        table.focus()
        self.reload()

    def reload(self) -> None:
        """Read the queue again."""
        self._load_queue()

    @work(thread=True, exclusive=True, exit_on_error=False, group="queue")
    def _load_queue(self) -> None:
        try:
            items = host(self).wait_engine().queue()
        except Exception as exc:
            self.post_message(TaskFailed.from_error("queue", exc))
            return
        self.post_message(QueueLoaded(items))

    @on(QueueLoaded)
    def _queue_loaded(self, message: QueueLoaded) -> None:
        message.stop()
        self.items = message.items
        self._draw(keep_index=0)

    def _draw(self, keep_index: int) -> None:
        table = self.query_one(QueueTable)
        table.clear()
        for item in self.items:
            author = item.authors[0].split(",")[0] if item.authors else ""
            star = Text("★" if item.starred else " ", style="bold yellow")
            table.add_row(
                star, str(item.priority or ""), Text(item.title), Text(author), str(item.year or ""), key=item.doc_id
            )
        table.border_title = f"Inbox {len(self.items)}"
        if not self.items:
            self.current = None
            self.query_one(Preview).show_message("# Inbox empty\n\nEvery paper has been triaged. Esc goes back.")
            return
        index = min(keep_index, len(self.items) - 1)
        table.move_cursor(row=index)
        self._show(self.items[index].doc_id)

    def _show(self, doc_id: str) -> None:
        if doc_id == self.current:
            return
        self.current = doc_id
        self._load_detail(doc_id)

    @work(thread=True, exclusive=True, exit_on_error=False, group="queue-detail")
    def _load_detail(self, doc_id: str) -> None:
        from workbench.tui.search import fetch_detail

        message = fetch_detail(host(self), doc_id)
        if not get_current_worker().is_cancelled:
            self.post_message(message)

    @on(DetailLoaded)
    def _detail_loaded(self, message: DetailLoaded) -> None:
        if message.doc_id != self.current or message.detail is None:
            return
        if message.triage is not None:
            host(self).triage_cache[message.doc_id] = message.triage
        self.query_one(Preview).show_document(message.detail, message.triage, None)

    @on(DataTable.RowHighlighted, "#queue-table")
    def _highlighted(self, event: DataTable.RowHighlighted) -> None:
        if event.row_key is not None and event.row_key.value:
            self._show(str(event.row_key.value))

    @on(DataTable.RowSelected, "#queue-table")
    def _selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.action_open()

    def triage_target(self) -> str | None:
        return self.current

    @on(TriageChanged)
    def _triage_changed(self, message: TriageChanged) -> None:
        record = message.record
        index = next((i for i, item in enumerate(self.items) if item.doc_id == record.doc_id), None)
        if index is None:
            return
        if record.state != "inbox":
            del self.items[index]
            self.current = None
            self._draw(keep_index=index)
            return
        old = self.items[index]
        self.items[index] = type(old)(**{**old.__dict__, "priority": record.priority, "starred": record.starred})
        self.current = None
        self._draw(keep_index=index)

    def action_open(self) -> None:
        """Open the current paper in the main view."""
        if self.current is None:
            return
        doc_id = self.current
        self.app.pop_screen()
        self.app.screen.post_message(DocumentOpened(doc_id, "queue"))

    def action_close(self) -> None:
        """Back to the main view."""
        self.app.pop_screen()
