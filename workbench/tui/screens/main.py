"""The main screen: query bar, filter chips, results, preview, graph, cost, status.

Layout adapts to the terminal: wide and tall shows every pane; below 140×34 the graph and
cost panes share the preview's place (h/l or the palette brings them up); below 100 columns
the results sit above the preview instead of beside it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Container, Horizontal, Vertical
from textual.screen import Screen
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import DataTable, Footer, Input
from textual.worker import get_current_worker

from workbench.errors import FilterError
from workbench.records import DEPTHS
from workbench.tui.errors import NotifyWorkerErrors
from workbench.tui.host import host
from workbench.tui.keys import MAIN_BINDINGS, PRIORITY_ACTIONS
from workbench.tui.messages import (
    AnswerFinished,
    DetailLoaded,
    DocumentOpened,
    FilterRejected,
    IntentDetected,
    ResultsFetched,
    ResultsShown,
    TaskFailed,
    TriageChanged,
)
from workbench.tui.screens.main_actions import CopyExportActions
from workbench.tui.screens.prompt import PromptScreen
from workbench.tui.screens.triage_actions import TriageActions
from workbench.tui.widgets.costs import CostPane
from workbench.tui.widgets.graph import GraphPane
from workbench.tui.widgets.preview import Preview
from workbench.tui.widgets.query_bar import Chip, FilterChips, QueryBar, split_filters
from workbench.tui.widgets.results import ResultsTable
from workbench.tui.widgets.status import StatusBar

if TYPE_CHECKING:
    from workbench.engine.records import DocumentDetail
    from workbench.library.triage import TriageRecord
    from workbench.records import Answer

PANES = ("query", "results", "preview", "graph", "costs")
DEPTH_CHOICES = ("auto", *DEPTHS)
WIDE, TALL, STACKED_BELOW = 140, 34, 100
OPEN_DELAY_S = 0.12


class MainScreen(NotifyWorkerErrors, TriageActions, CopyExportActions, Screen[None]):
    """Search, read, triage and ask, all on one screen."""

    # main.tcss is loaded by WorkbenchApp.CSS_PATH (the default screen's CSS_PATH is not read)
    BINDINGS: ClassVar[list[BindingType]] = [*MAIN_BINDINGS]

    def __init__(self) -> None:
        super().__init__(id="main")
        self.query_text = ""
        self.filters: list[str] = []
        self.depth = "auto"
        self.intent_depth = ""
        self.intent: tuple[str | None, float] = (None, 0.0)
        self.current_doc: str | None = None
        self.history: list[str] = []
        self.side = "preview"
        self.details: dict[str, DocumentDetail] = {}
        self.last_answer: tuple[str, Answer, str | None] | None = None
        self.summaries: dict[str, Answer] = {}
        self._open_timer: Timer | None = None
        self._focus_results_when_shown = False

    def compose(self) -> ComposeResult:
        yield QueryBar(id="query-bar")
        yield FilterChips(id="chips")
        with Container(id="body"):
            yield ResultsTable(id="results")
            with Vertical(id="side"):
                yield Preview(id="preview")
                with Horizontal(id="drawer"):
                    yield GraphPane(id="graph")
                    yield CostPane(id="costs")
        yield StatusBar(id="status")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(StatusBar).show(host(self).status)
        self._apply_layout(self.app.size.width, self.app.size.height)
        self.query_one(ResultsTable).focus()  # single keys work at once; / goes to the query bar

    # -- layout ---------------------------------------------------------------------------------
    def on_resize(self, event: events.Resize) -> None:
        self._apply_layout(event.size.width, event.size.height)

    def _apply_layout(self, width: int, height: int) -> None:
        collapsed = width < WIDE or height < TALL
        self.set_class(collapsed, "-collapsed")
        self.set_class(width < STACKED_BELOW, "-stacked")
        hint = "l: graph · cost" if collapsed else ""
        self.query_one(Preview).border_subtitle = hint

    def set_side(self, pane: str) -> None:
        """Which of preview, graph and cost fills the side slot in collapsed layouts."""
        self.side = pane
        self.set_class(pane == "graph", "-side-graph")
        self.set_class(pane == "costs", "-side-costs")
        if pane == "costs":
            self._estimate_costs()

    def _pane_widget(self, pane: str) -> Widget:
        selector = {
            "query": "#query",
            "results": "#results",
            "preview": "#preview-body",
            "graph": "#graph",
            "costs": "#cost-table",
        }[pane]
        return self.query_one(selector)

    def focused_pane(self) -> str:
        """The pane that holds the focus."""
        focused = self.focused
        if focused is None:
            return "results"
        for pane in PANES:
            widget = self._pane_widget(pane)
            if focused is widget or widget in focused.ancestors:
                return pane
        if isinstance(focused, Chip):
            return "query"
        return "results"

    def focus_pane(self, pane: str) -> None:
        """Focus a pane, bringing it up first in collapsed layouts."""
        if pane in ("preview", "graph", "costs"):
            self.set_side(pane)
        widget = self._pane_widget(pane)
        self.call_after_refresh(widget.focus)

    def action_show_pane(self, pane: str) -> None:
        """Bring up and focus one pane by name."""
        self.focus_pane(pane)

    def action_pane(self, step: int) -> None:
        """Focus the next (+1) or previous (-1) pane."""
        index = PANES.index(self.focused_pane())
        self.focus_pane(PANES[(index + step) % len(PANES)])

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in PRIORITY_ACTIONS and isinstance(self.focused, Input):
            return None  # typing: the key is a character of the query, not a command
        return True

    def action_focus_search(self) -> None:
        """Focus the query bar (at once, so the keys typed right behind "/" land in it)."""
        self.set_focus(self.query_one("#query", Input))

    # -- search ---------------------------------------------------------------------------------
    @on(Input.Changed, "#query")
    def _query_changed(self, event: Input.Changed) -> None:
        query, _ = split_filters(event.value)
        if query.strip():
            self._detect_intent(query)
        else:
            self._show_intent(None, 0.0, "")

    @work(thread=True, exclusive=True, exit_on_error=False, group="intent")
    def _detect_intent(self, query: str) -> None:
        worker = get_current_worker()
        try:
            engine = host(self).wait_engine()
            intent = engine.detect_intent(query)
            depth = engine.default_depth(intent)
        except Exception:
            return  # the intent label is a hint; a failure only leaves it unchanged
        if not worker.is_cancelled:
            self.post_message(IntentDetected(query, intent.kind, float(intent.confidence), depth))

    @on(IntentDetected)
    def _intent_detected(self, message: IntentDetected) -> None:
        self._show_intent(message.kind, message.confidence, message.depth)

    def _show_intent(self, kind: str | None, confidence: float, depth: str) -> None:
        self.intent = (kind, confidence)
        self.intent_depth = depth
        self.query_one(QueryBar).set_intent(kind, confidence, depth, self.depth)
        self.query_one(CostPane).set_depth(self.effective_depth())

    def effective_depth(self) -> str:
        """The depth an answer would use now (the intent's when on auto)."""
        return self.depth if self.depth != "auto" else (self.intent_depth or "auto")

    @on(Input.Submitted, "#query")
    def _submitted(self, event: Input.Submitted) -> None:
        query, expressions = split_filters(event.value)
        if expressions:
            self.filters = [*self.filters, *(e for e in expressions if e not in self.filters)]
            self.query_one(FilterChips).set_filters(self.filters)
            with event.input.prevent(Input.Changed):
                event.input.value = query
        self._focus_results_when_shown = True
        self.run_query(query)

    def run_query(self, query: str | None = None) -> None:
        """Search (or list the library when the query is empty) with the current filters."""
        if query is not None:
            self.query_text = query.strip()
        table = self.query_one(ResultsTable)
        table.border_title = "Results · searching…" if self.query_text else "Results · loading…"
        known = dict(host(self).triage_cache) if host(self).triage_complete else None
        self._search(self.query_text, list(self.filters), known)
        if self.query_text:
            self._estimate_costs()

    def library_changed(self) -> None:
        """After indexing: graph and cost estimates are stale, and the results may differ."""
        self.query_one(GraphPane).doc_id = None
        self.query_one(CostPane).target = ""
        self.details.clear()
        self.run_query()

    @work(thread=True, exclusive=True, exit_on_error=False, group="search")
    def _search(self, query: str, filters: list[str], known: dict[str, TriageRecord] | None) -> None:
        worker = get_current_worker()
        try:
            engine = host(self).wait_engine()
            listing = engine.listing(query, filters, host(self).tui.result_limit, known)
        except FilterError as exc:
            self.post_message(FilterRejected(exc.expression, str(exc)))
            return
        except Exception as exc:
            self.post_message(TaskFailed.from_error("search", exc))
            return
        if not worker.is_cancelled:
            self.post_message(ResultsFetched(query, list(listing.rows), listing.triage, listing.note))

    @on(ResultsFetched)
    def _results_fetched(self, message: ResultsFetched) -> None:
        host(self).triage_cache.update(message.triage)
        if message.query != self.query_text:  # a slower, older search (or library listing): stale
            return
        table = self.query_one(ResultsTable)
        table.show(message.rows, message.triage, message.note)
        first = table.selected_doc_id
        if first is not None:
            self.open_doc(first, "results", force=True)
        elif message.query:
            self.query_one(Preview).show_message(f"# No results\n\nNothing matches *{message.query}*.")
        else:
            self.query_one(Preview).show_message("# Nothing indexed yet\n\nPress **+** to add folders or Zotero.")
        self.call_after_refresh(self.post_message, ResultsShown(len(message.rows)))
        if self._focus_results_when_shown:  # after a submitted query: j/k move in the results
            self._focus_results_when_shown = False
            self.call_after_refresh(table.focus)

    @on(FilterRejected)
    def _filter_rejected(self, message: FilterRejected) -> None:
        self.app.notify(message.reason, title="Filter not applied", severity="error", markup=False)
        if message.expression in self.filters:
            self.filters.remove(message.expression)
            self.query_one(FilterChips).set_filters(self.filters)
            self.run_query()  # the search goes on without the filter
        else:
            self.query_one(ResultsTable).border_title = "Results"

    def action_add_filter(self) -> None:
        """Add a filter chip."""

        def done(value: str | None) -> None:
            expressions = [v for v in (value or "").split() if v]
            if expressions:
                self.filters = [*self.filters, *(e for e in expressions if e not in self.filters)]
                self.query_one(FilterChips).set_filters(self.filters)
                self.run_query()

        self.app.push_screen(
            PromptScreen(
                "Add filter",
                placeholder="year>=2020  tag=ml  collection=Thesis  author=smith  triage=reading  starred=yes",
                hint="Keys: source folder type section doc citekey year tag collection author · "
                "triage priority starred label",
            ),
            done,
        )

    def action_clear_filters(self) -> None:
        """Remove every filter chip."""
        if self.filters:
            self.filters = []
            self.query_one(FilterChips).set_filters([])
            self.run_query()

    @on(Chip.Removed)
    def _chip_removed(self, event: Chip.Removed) -> None:
        if event.expression in self.filters:
            self.filters.remove(event.expression)
            self.query_one(FilterChips).set_filters(self.filters)
            self.run_query()
            self.query_one(ResultsTable).focus()

    def action_cycle_sort(self) -> None:
        """Cycle the sort order of the results."""
        self.query_one(ResultsTable).cycle_sort()

    # -- opening papers -------------------------------------------------------------------------
    @on(DataTable.RowHighlighted, "#results")
    def _row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        doc_id = event.row_key.value if event.row_key is not None else None
        if doc_id and doc_id != self.current_doc:
            if self._open_timer is not None:
                self._open_timer.stop()
            self._open_timer = self.set_timer(OPEN_DELAY_S, lambda: self.open_doc(str(doc_id), "results"))

    @on(DataTable.RowSelected, "#results")
    def _row_selected(self, event: DataTable.RowSelected) -> None:
        doc_id = event.row_key.value
        if doc_id:
            self.open_doc(str(doc_id), "results")
            self.focus_pane("preview")

    @on(DocumentOpened)
    def _document_opened(self, message: DocumentOpened) -> None:
        self.open_doc(message.doc_id, message.origin, force=True)
        if message.origin in ("graph", "citation"):
            self.focus_pane("preview")

    def open_doc(self, doc_id: str, origin: str, force: bool = False, remember: bool = True) -> None:
        """Show a paper in the preview, graph and cost panes."""
        if doc_id == self.current_doc and not force:
            return
        preview = self.query_one(Preview)
        if remember and self.current_doc and self.current_doc != doc_id:
            self.history.append(self.current_doc)
            del self.history[:-50]
        if remember and origin in ("graph", "citation") and preview.answer is not None:
            self.history.append("@answer")
        self.current_doc = doc_id
        if origin != "results":
            self.query_one(ResultsTable).select_doc(doc_id)
        self._load_detail(doc_id)
        self.query_one(GraphPane).load(doc_id)

    @work(thread=True, exclusive=True, exit_on_error=False, group="detail")
    def _load_detail(self, doc_id: str) -> None:
        from workbench.tui.search import fetch_detail

        message = fetch_detail(host(self), doc_id)
        if not get_current_worker().is_cancelled:
            self.post_message(message)

    @on(DetailLoaded)
    def _detail_loaded(self, message: DetailLoaded) -> None:
        if message.doc_id != self.current_doc:
            return
        preview = self.query_one(Preview)
        if message.detail is None:
            preview.show_message(f"# Not in the catalog\n\n`{message.doc_id}` is not indexed (any more).")
            return
        self.details[message.doc_id] = message.detail
        if message.triage is not None:
            host(self).triage_cache[message.doc_id] = message.triage
        preview.show_document(message.detail, message.triage, self.query_one(ResultsTable).row_for(message.doc_id))
        if not self.query_text:
            self._estimate_costs()

    def action_back(self) -> None:
        """Go back to the previously opened paper (or answer)."""
        if not self.history:
            self.app.notify("Nothing to go back to.", timeout=2)
            return
        target = self.history.pop()
        if target == "@answer" and self.last_answer is not None:
            kind, answer, _ = self.last_answer
            self.query_one(Preview).show_answer(answer, kind)
            return
        self.open_doc(target, "history", force=True, remember=False)

    def current_title(self) -> str:
        """The selected paper's title (or its id)."""
        if self.current_doc is None:
            return ""
        detail = self.details.get(self.current_doc)
        if detail:
            return detail.document.title or self.current_doc
        row = self.query_one(ResultsTable).row_for(self.current_doc)
        return row.title if row else self.current_doc

    def triage_target(self) -> str | None:
        return self.current_doc

    @on(TriageChanged)
    def _triage_changed(self, message: TriageChanged) -> None:
        record = message.record
        self.query_one(ResultsTable).update_triage(record)
        preview = self.query_one(Preview)
        if record.doc_id == self.current_doc and record.doc_id in self.details and preview.answer is None:
            table = self.query_one(ResultsTable)
            preview.show_document(self.details[record.doc_id], record, table.row_for(record.doc_id))

    # -- costs, answers and summaries --------------------------------------------------------------
    def _estimate_costs(self) -> None:
        """Estimate every depth for the query (or the selected paper's summary) if the pane shows."""
        costs = self.query_one(CostPane)
        if self.has_class("-collapsed") and self.side != "costs":
            return
        if self.query_text:
            costs.load(f"query “{self.query_text}”", self.query_text, None)
        elif self.current_doc:
            title = self.current_title()
            costs.load(f"summary of “{title}”", f"Summarise the paper '{title}'", self.current_doc)

    def action_depth(self, step: int) -> None:
        """Choose the next (+1) or previous (-1) answer depth."""
        self.depth = DEPTH_CHOICES[(DEPTH_CHOICES.index(self.depth) + step) % len(DEPTH_CHOICES)]
        self._show_intent_depth()
        self.app.notify(f"Depth: {self.depth}", timeout=1.5)

    def _show_intent_depth(self) -> None:
        bar = self.query_one(QueryBar)
        bar.set_intent(self.intent[0], self.intent[1], self.intent_depth, self.depth)
        self.query_one(CostPane).set_depth(self.effective_depth())
        self._estimate_costs()

    def action_ask(self) -> None:
        """Answer the query with citations at the chosen depth (streams into the preview)."""
        if not self.query_text:
            self.app.notify("Type a question in the query bar first.", severity="warning", timeout=3)
            return
        depth = None if self.depth == "auto" else self.depth
        self.query_one(Preview).start_answer(self.query_text, depth)
        host(self).set_task("answering… Esc cancels")

    def action_summarize(self) -> None:
        """Summarise the selected paper (four aspects)."""
        if self.current_doc is None:
            self.app.notify("Select a paper first.", severity="warning", timeout=3)
            return
        depth = "comprehensive" if self.depth == "auto" else self.depth
        self.query_one(Preview).start_summary(self.current_doc, depth, self.current_title())
        host(self).set_task("summarising… Esc cancels")

    def action_cancel(self) -> None:
        """Cancel a running answer; otherwise leave the query bar."""
        if self.query_one(Preview).cancel():
            return
        if self.focused is self.query_one("#query", Input):
            self.query_one(ResultsTable).focus()

    @on(AnswerFinished)
    def _answer_finished(self, message: AnswerFinished) -> None:
        host(self).set_task("")
        if message.cancelled:
            self.app.notify("Cancelled.", timeout=2)
            return
        if message.answer is None:
            self.app.notify(message.error, title=f"{message.kind.capitalize()} failed", severity="error", markup=False)
            return
        answer = message.answer
        doc_id = (message.doc_id or self.current_doc) if message.kind == "summary" else None
        self.last_answer = (message.kind, answer, doc_id)
        if message.kind == "summary" and doc_id:
            self.summaries[doc_id] = answer
        self.query_one(CostPane).record(answer)
        host(self).add_tokens(answer.prompt_tokens + answer.completion_tokens)
        if answer.status == "abstained":
            reason = answer.verdict.reasons[0] if answer.verdict and answer.verdict.reasons else answer.text[:200]
            self.app.notify(reason, title="Abstained", severity="warning", markup=False)
        elif answer.status == "error":
            self.app.notify(
                answer.text[:300] or "the model failed", title="Answer failed", severity="error", markup=False
            )

    def action_citation(self, step: int) -> None:
        """Move to the next (+1) or previous (-1) citation in the preview."""
        if self.query_one(Preview).move_citation(step) is None:
            self.app.notify("No citations to move between.", timeout=2)
