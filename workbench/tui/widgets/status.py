"""The status bar: indexing progress, watcher, model state, triage counts, session tokens, task."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from workbench.library.triage import STATE_SYMBOLS, STATES
from workbench.tui.state import StatusState as StatusState  # the bar shows it; the app owns one


class StatusBar(Static):
    """One line at the bottom of the main screen."""

    DEFAULT_CSS = """
    StatusBar { height: 1; background: $panel; color: $text-muted; padding: 0 1; }
    """

    def show(self, state: StatusState) -> None:
        """Redraw from the app's state."""
        text = Text(no_wrap=True, overflow="ellipsis")
        if state.task:
            text.append(f"{state.task} ", style="bold")
            text.append("· ")
        text.append(state.index)
        text.append(f" · watch: {state.watcher}")
        model_style = "green" if state.model == "ready" else ("red" if state.model.startswith("error") else "")
        text.append(" · model: ")
        text.append(state.model, style=model_style)
        if state.counts:
            counts = " ".join(f"{STATE_SYMBOLS[s]}{state.counts.get(s, 0)}" for s in STATES)
            text.append(f" · {counts} ★{state.counts.get('starred', 0)}")
        text.append(f" · tokens: {state.session_tokens:,}")
        self.update(text)
