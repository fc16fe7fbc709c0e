"""Write `assets/screenshot.svg` (for the README): the main screen with results, at 150×40.

Run: `.venv/bin/python -m tests.tui.make_screenshot [OUT.svg]`. It indexes the test papers
with the real embedder into a temporary home, searches, waits for every pane, and saves
Textual's SVG screenshot, so the picture always shows the current code.
"""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
from pathlib import Path

from tests.tui.fakes import PAPERS, SnapshotEngine
from tests.tui.helpers import main_screen, search, wait_for, wait_ready
from workbench.engine.engine import Engine
from workbench.settings.config import Settings
from workbench.tui.app import WorkbenchApp
from workbench.tui.widgets.costs import CostPane
from workbench.tui.widgets.graph import GraphPane

ROOT = Path(__file__).resolve().parents[2]
SIZE = (150, 40)


async def _shoot(out: Path) -> None:
    app = WorkbenchApp(SnapshotEngine(Settings()))
    async with app.run_test(size=SIZE) as pilot:
        await wait_ready(pilot)
        await search(pilot, "electron mobility in graphene")
        screen = main_screen(app)
        await wait_for(pilot, lambda: screen.current_doc in screen.details)
        await wait_for(pilot, lambda: screen.query_one(GraphPane).option_count > 1)
        await wait_for(pilot, lambda: bool(screen.query_one(CostPane).estimates), timeout=120)
        await pilot.press("asterisk", "2")  # starred, priority 2: shows the triage mark
        await wait_for(pilot, lambda: app.triage_cache.get("file:1/graphene.md") is not None)
        await wait_for(pilot, lambda: app.triage_cache["file:1/graphene.md"].priority == 2)
        app.clear_notifications()
        await pilot.pause(0.5)
        out.write_text(app.export_screenshot(title="workbench"), encoding="utf-8")


def main(argv: list[str]) -> int:
    """Build the library, take the screenshot, print where it went."""
    out = Path(argv[0]) if argv else ROOT / "assets" / "screenshot.svg"
    with tempfile.TemporaryDirectory(prefix="workbench-screenshot-") as tmp:
        papers = Path(tmp) / "papers"
        papers.mkdir()
        for name, text in PAPERS.items():
            (papers / name).write_text(text, encoding="utf-8")
        os.environ["WORKBENCH_HOME"] = str(Path(tmp) / "home")
        os.environ["ZOTERO_DATA_DIR"] = str(Path(tmp) / "no-zotero")
        Engine(Settings()).index_folders([papers])
        asyncio.run(_shoot(out))
    print(out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
