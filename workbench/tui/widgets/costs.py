"""The token-cost pane: the estimate for each depth, the last run's actual cost, the session total."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Vertical
from textual.widgets import DataTable, Static
from textual.worker import get_current_worker

from workbench.records import DEPTHS
from workbench.tui.errors import NotifyWorkerErrors
from workbench.tui.host import host
from workbench.tui.keys import LIST_BINDINGS
from workbench.tui.messages import CostsEstimated

if TYPE_CHECKING:
    from workbench.records import Answer, CostEstimate


class CostTable(DataTable[Text | str]):
    """One row per depth."""

    BINDINGS: ClassVar[list[BindingType]] = [*LIST_BINDINGS]

    def action_first(self) -> None:
        """Go to the first row."""
        self.action_scroll_top()

    def action_last(self) -> None:
        """Go to the last row."""
        self.action_scroll_bottom()


class CostPane(NotifyWorkerErrors, Vertical):
    """What each answer depth would send to the model, and what runs actually cost."""

    DEFAULT_CSS = """
    CostPane {
        height: 1fr;
        border: round $panel-lighten-2;
        border-title-color: $text-muted;
        &:focus-within { border: round $accent; }
    }
    CostPane CostTable { height: auto; max-height: 6; }
    CostPane #cost-notes { height: auto; color: $text-muted; padding: 0 1; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.border_title = "Cost"
        self.target = ""
        self.depth = "auto"
        self.estimates: list[CostEstimate] = []
        self.problem = ""
        self.last_run = ""
        self.session_tokens = 0
        self.session_runs = 0

    def compose(self) -> ComposeResult:
        table = CostTable(cursor_type="row", show_cursor=False, id="cost-table")
        yield table
        yield Static(id="cost-notes")

    def on_mount(self) -> None:
        table = self.query_one(CostTable)
        for label, key in (("", "mark"), ("depth", "depth"), ("prompt", "prompt"), ("out", "out"), ("calls", "calls")):
            table.add_column(label, key=key)
        self._draw()

    def load(self, target: str, query: str, doc_id: str | None) -> None:
        """Estimate every depth for a query (or, with an empty query, a paper's summary)."""
        if target == self.target and self.estimates:
            return
        self.target = target
        self.estimates = []
        self.problem = "estimating…"
        self._draw()
        self._estimate(target, query, doc_id)

    @work(thread=True, exclusive=True, exit_on_error=False, group="costs")
    def _estimate(self, target: str, query: str, doc_id: str | None) -> None:
        worker = get_current_worker()
        try:
            engine = host(self).wait_engine()
            estimates = list(engine.estimate_costs(query, doc_id))
            message = CostsEstimated(target, estimates)
        except Exception as exc:
            message = CostsEstimated(target, [], f"no estimate: {exc}")
        if not worker.is_cancelled:
            self.post_message(message)

    @on(CostsEstimated)
    def _estimated(self, message: CostsEstimated) -> None:
        message.stop()
        if message.target != self.target:
            return
        self.estimates = message.estimates
        self.problem = message.problem
        self._draw()

    def set_depth(self, depth: str) -> None:
        """Mark the depth the next answer will use."""
        self.depth = depth
        self._draw()

    def record(self, answer: Answer) -> None:
        """Add a finished run to the session total and show its actual cost."""
        used = answer.prompt_tokens + answer.completion_tokens
        self.session_tokens += used
        self.session_runs += 1
        notes = [f"est. {answer.estimate.prompt_tokens:,}"] if answer.estimate else []
        if answer.revised:  # the estimate counts the drafts; the critic's revision came on top
            notes.append(f"revision {answer.revision_prompt_tokens:,}")
        estimate = f" ({'; '.join(notes)})" if notes else ""
        evidence = f"evidence {answer.evidence_seconds:.1f} s · " if answer.evidence_seconds is not None else ""
        self.last_run = (
            f"last: {answer.depth} {evidence}synthesis {answer.prompt_tokens:,} in{estimate} + "
            f"{answer.completion_tokens:,} out · {answer.seconds:.1f} s"
        )
        self._draw()

    def _draw(self) -> None:
        table = self.query_one(CostTable)
        table.clear()
        by_depth = {e.depth: e for e in self.estimates}
        for depth in DEPTHS:
            estimate = by_depth.get(depth)
            chosen = depth == self.depth
            mark = Text("▶" if chosen else " ", style="bold")
            name = Text(depth, style="bold" if chosen else "")
            if estimate is None:
                table.add_row(mark, name, "", "", "", key=depth)
                continue
            prompt = Text(f"{estimate.prompt_tokens:,}", style="" if estimate.fits_context else "red")
            table.add_row(mark, name, prompt, f"{estimate.completion_tokens:,}", str(estimate.model_calls), key=depth)
        lines = ["evidence: 0 tokens (quoted from your papers); rows: the synthesis from it"]
        if self.target:
            lines.append(f"for {self.target}")
        if self.problem:
            lines.append(self.problem)
        if self.depth == "auto":
            lines.append("depth: auto (from the query)")
        if self.last_run:
            lines.append(self.last_run)
        lines.append(f"session: {self.session_tokens:,} tokens in {self.session_runs} runs")
        self.query_one("#cost-notes", Static).update(Text("\n".join(lines)))  # titles are no markup
