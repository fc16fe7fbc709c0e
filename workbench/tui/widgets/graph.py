"""The graph pane: the selected paper's neighbours grouped by edge type; Enter opens one."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import on, work
from textual.binding import BindingType
from textual.widgets import OptionList
from textual.widgets.option_list import Option
from textual.worker import get_current_worker

from workbench.errors import GraphNotBuiltError, WorkbenchError
from workbench.tui.errors import NotifyWorkerErrors
from workbench.tui.host import host
from workbench.tui.keys import LIST_BINDINGS
from workbench.tui.messages import DocumentOpened, NeighboursFetched

EDGE_LABELS = {
    "cites": "cites",
    "cited_by": "cited by",
    "similar": "similar",
    "author": "same authors",
    "tag": "same tags",
    "collection": "same collection",
    "venue": "same venue",
    "concept": "shared concepts",
}
EDGE_ORDER = ("cites", "cited_by", "similar", "author", "concept", "tag", "collection", "venue")


def _edge_rank(edge: str) -> tuple[int, str]:
    key = edge.lower()
    return (EDGE_ORDER.index(key) if key in EDGE_ORDER else len(EDGE_ORDER), key)


class GraphPane(NotifyWorkerErrors, OptionList):
    """Neighbours of one paper from the graph backend."""

    BINDINGS: ClassVar[list[BindingType]] = [*LIST_BINDINGS]
    DEFAULT_CSS = """
    GraphPane {
        height: 1fr;
        text-wrap: nowrap;
        text-overflow: ellipsis;
        border: round $panel-lighten-2;
        border-title-color: $text-muted;
        &:focus { border: round $accent; }
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.border_title = "Graph"
        self.doc_id: str | None = None
        self._targets: dict[str, str] = {}

    def on_mount(self) -> None:
        self.show_problem("select a paper to see its neighbours")

    def show_problem(self, text: str) -> None:
        """Show one line instead of neighbours."""
        self._targets = {}
        self.clear_options()
        self.add_option(Option(Text(text, style="dim"), disabled=True))

    def load(self, doc_id: str) -> None:
        """Fetch a paper's neighbours in the background."""
        if doc_id == self.doc_id:
            return
        self.doc_id = doc_id
        self.border_title = "Graph · loading"
        self._fetch(doc_id)

    @work(thread=True, exclusive=True, exit_on_error=False, group="graph")
    def _fetch(self, doc_id: str) -> None:
        worker = get_current_worker()
        try:
            engine = host(self).wait_engine()
            message = NeighboursFetched(doc_id, engine.neighbours(doc_id))
        except GraphNotBuiltError:
            message = NeighboursFetched(doc_id, {}, "graph not built")
        except WorkbenchError as exc:  # the graph store is busy or refused
            message = NeighboursFetched(doc_id, {}, str(exc))
        except AttributeError:
            message = NeighboursFetched(doc_id, {}, "graph not available in this version")
        except Exception as exc:
            message = NeighboursFetched(doc_id, {}, f"graph error: {exc}")
        if not worker.is_cancelled:
            self.post_message(message)

    @on(NeighboursFetched)
    def _fetched(self, message: NeighboursFetched) -> None:
        message.stop()
        if message.doc_id != self.doc_id:
            return
        total = sum(len(items) for items in message.groups.values())
        self.border_title = f"Graph {total}" if total else "Graph"
        if message.problem:
            self.show_problem(message.problem)
            return
        if not total:
            self.show_problem("no neighbours")
            return
        self._targets = {}
        self.clear_options()
        options: list[Option] = []
        for edge, items in sorted(message.groups.items(), key=lambda pair: _edge_rank(pair[0])):
            if not items:
                continue
            label = EDGE_LABELS.get(edge.lower(), edge.lower().replace("_", " "))
            options.append(Option(Text(f"{label} ({len(items)})", style="bold"), disabled=True))
            for index, item in enumerate(items):
                option_id = f"{edge}:{index}:{item.doc_id}"
                self._targets[option_id] = item.doc_id
                via = f" · {', '.join(item.via[:3])}" if item.via else ""
                options.append(Option(Text(f"  {item.weight:.2f} {item.title or item.doc_id}{via}"), id=option_id))
        self.add_options(options)
        self.highlighted = next((i for i, o in enumerate(options) if not o.disabled), None)

    @on(OptionList.OptionSelected)
    def _selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        target = self._targets.get(event.option.id or "")
        if target:
            self.post_message(DocumentOpened(target, "graph"))
