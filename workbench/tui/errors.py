"""A failed worker becomes a notification wherever it ran (its messages do not bubble)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual.worker import Worker, WorkerState

if TYPE_CHECKING:
    from textual.app import App


class NotifyWorkerErrors:
    """Mix into any widget, screen or app that runs workers."""

    app: App[Any]

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """Workers catch their own errors and post `TaskFailed`; anything else still gets a line."""
        error = event.worker.error
        if event.state == WorkerState.ERROR and error is not None:
            self.app.notify(f"{type(error).__name__}: {error}", title="Background task failed", severity="error")
