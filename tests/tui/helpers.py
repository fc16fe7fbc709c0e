"""Small helpers for driving the app with Pilot: wait for a condition, run a search."""

from __future__ import annotations

import time
from collections.abc import Callable

from textual.pilot import Pilot

from workbench.tui.app import WorkbenchApp
from workbench.tui.screens.main import MainScreen
from workbench.tui.widgets.results import ResultsTable


async def wait_for(pilot: Pilot[None], condition: Callable[[], object], timeout: float = 30.0) -> None:
    """Let the app run until `condition()` is true; fail after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {getattr(condition, '__name__', condition)}")
        await pilot.pause(0.05)


def main_screen(app: WorkbenchApp) -> MainScreen:
    """The main screen."""
    return app.main_screen


async def wait_ready(pilot: Pilot[None]) -> None:
    """Wait until the engine is up and the library listing is shown."""
    app = pilot.app
    assert isinstance(app, WorkbenchApp)
    await wait_for(pilot, lambda: app.status.index.startswith("index:") and app.status.index != "index: idle")
    await wait_for(pilot, lambda: main_screen(app).query_one(ResultsTable).row_count > 0)
    await pilot.pause(0.2)


async def search(pilot: Pilot[None], query: str) -> ResultsTable:
    """Type a query in the query bar, press Enter, and wait for the table to show the results."""
    app = pilot.app
    assert isinstance(app, WorkbenchApp)
    screen = main_screen(app)
    table = screen.query_one(ResultsTable)
    before = table.rows_shown
    await pilot.press("slash")
    query_input = screen.query_one("#query")
    query_input.value = ""  # type: ignore[attr-defined]
    await pilot.press(*query, "enter")
    await wait_for(pilot, lambda: table.rows_shown is not before)
    await wait_for(pilot, lambda: screen.current_doc in screen.details or not table.rows_shown)
    return table
