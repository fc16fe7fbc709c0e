"""A failed worker becomes a notification wherever it ran (its messages do not bubble)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from textual.worker import Worker, WorkerState

from workbench.errors import GraphNotBuiltError, StoreBusyError, UsageError, WorkbenchError

if TYPE_CHECKING:
    from textual.app import App


def error_line(exc: BaseException) -> str:
    """What a notification says: a WorkbenchError is already one line for the user; others name their type."""
    if isinstance(exc, WorkbenchError):
        return str(exc)
    return f"{type(exc).__name__}: {exc}"


Severity = Literal["warning", "error"]


def error_severity(exc: BaseException) -> Severity:
    """'warning' for what passes or the user can fix (busy store, no graph yet, bad input); else 'error'."""
    return "warning" if isinstance(exc, StoreBusyError | GraphNotBuiltError | UsageError) else "error"


class NotifyWorkerErrors:
    """Mix into any widget, screen or app that runs workers."""

    app: App[Any]

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """Workers catch their own errors and post `TaskFailed`; anything else still gets a line."""
        error = event.worker.error
        if event.state == WorkerState.ERROR and error is not None:
            self.app.notify(
                error_line(error), title="Background task failed", severity=error_severity(error), markup=False
            )
