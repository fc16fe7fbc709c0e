"""The full-screen terminal interface. Importing this package imports no textual.

`run_tui(...)` is what `workbench` (no verb) and `python -m workbench.tui` call;
`create_app(...)` is the one factory the CLI, the snapshot tests and the benchmark share.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from workbench.engine.engine import Engine
    from workbench.settings.config import Settings
    from workbench.tui.app import WorkbenchApp


def create_app(target: Engine | Settings) -> WorkbenchApp:
    """The app for an engine, or for settings (then the engine loads after the first frame)."""
    from workbench.settings.config import Settings
    from workbench.tui.app import WorkbenchApp

    if isinstance(target, Settings):
        return WorkbenchApp(settings=target)
    return WorkbenchApp(target)


def run_tui(target: Engine | Settings) -> int:
    """Run the TUI until the user quits; returns the process exit code."""
    from workbench.logs import route_library_logs

    route_library_logs(terminal=False)  # a library's log must not land on the screen
    app = create_app(target)
    app.run()
    return int(app.return_code or 0)
