"""What screens and widgets use of the app, as a small protocol (`WorkbenchApp` implements it).

Screens and widgets depend on this, not on `WorkbenchApp`, so no TUI module imports the app
back: they reach the engine (in workers), the triage cache and the app's few shared actions
through `host(self)`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol, cast

if TYPE_CHECKING:
    from textual.app import App

    from workbench.engine.engine import Engine
    from workbench.library.triage import TriageRecord
    from workbench.records import Answer
    from workbench.tui.settings import TuiSettings
    from workbench.tui.state import StatusState


class WorkbenchHost(Protocol):
    """The workbench side of the app: the engine, shared state and actions that outlive a screen."""

    status: StatusState
    tui: TuiSettings
    triage_cache: dict[str, TriageRecord]
    triage_complete: bool

    def wait_engine(self, timeout: float = ...) -> Engine:
        """The engine, waiting for it to load (workers only)."""
        ...

    def change_triage(self, doc_id: str, change: str, value: Any) -> None:
        """Write one triage change in the background."""
        ...

    def export(
        self, kind: str, doc_ids: list[str] | None, summary: Answer | None = None, answer: Answer | None = None
    ) -> None:
        """Write BibTeX or a Markdown note in the background."""
        ...

    def copy_text(self, text: str, what: str) -> None:
        """Copy to the terminal's clipboard and say so."""
        ...

    def set_task(self, task: str) -> None:
        """The running foreground task ('' when none)."""
        ...

    def add_tokens(self, tokens: int) -> None:
        """Add a run's tokens to the session total."""
        ...


class InApp(Protocol):
    """Anything that runs in an app: a screen, a widget, or a mixin of theirs."""

    @property
    def app(self) -> App[Any]:
        """The running app."""
        ...


def host(node: InApp) -> WorkbenchHost:
    """The app a screen or widget runs in, as the workbench host."""
    return cast("WorkbenchHost", node.app)
