"""SVG snapshots of the main screens at fixed sizes with fixed data (pytest-textual-snapshot).

Update after an intended change with `pytest tests/tui/test_snapshots.py --snapshot-update`
and look at the report before committing.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Input

from tests.tui.fakes import SnapshotEngine
from tests.tui.helpers import main_screen, search, wait_for, wait_ready
from workbench.settings.config import Settings
from workbench.tui import create_app
from workbench.tui.app import WorkbenchApp
from workbench.tui.screens.first_run import FirstRunScreen
from workbench.tui.screens.help import HelpScreen

pytestmark = pytest.mark.integration
Compare = Callable[..., bool]


async def _settle(pilot: Pilot[None]) -> None:
    """Let timers and workers finish, and stop every cursor from blinking."""
    for widget in pilot.app.screen.query(Input):
        widget.cursor_blink = False
    await pilot.pause(0.3)
    await pilot.wait_for_scheduled_animations()


def test_first_run_empty(snap_compare: Compare, empty_home: Path) -> None:
    app = create_app(Settings())

    async def run_before(pilot: Pilot[None]) -> None:
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, FirstRunScreen))
        await _settle(pilot)
        # Focus and cursor settle at their own pace on a busy machine: pin both before the picture.
        first = pilot.app.screen.query(Input).first()
        pilot.app.screen.set_focus(first)
        first.cursor_position = len(first.value)
        await _settle(pilot)

    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)


def test_results(snap_compare: Compare, home: Path) -> None:
    app = WorkbenchApp(SnapshotEngine(Settings()))

    async def run_before(pilot: Pilot[None]) -> None:
        await wait_ready(pilot)
        await search(pilot, "electron mobility")
        screen = main_screen(app)
        await wait_for(pilot, lambda: screen.current_doc in screen.details)
        await _settle(pilot)

    assert snap_compare(app, terminal_size=(100, 30), run_before=run_before)


def test_results_80x24(snap_compare: Compare, home: Path) -> None:
    app = WorkbenchApp(SnapshotEngine(Settings()))

    async def run_before(pilot: Pilot[None]) -> None:
        await wait_ready(pilot)
        await search(pilot, "fin regeneration")
        screen = main_screen(app)
        await wait_for(pilot, lambda: screen.current_doc in screen.details)
        await _settle(pilot)

    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)


def test_help(snap_compare: Compare, home: Path) -> None:
    app = WorkbenchApp(SnapshotEngine(Settings()))

    async def run_before(pilot: Pilot[None]) -> None:
        await wait_ready(pilot)
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, HelpScreen))
        await _settle(pilot)

    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)
