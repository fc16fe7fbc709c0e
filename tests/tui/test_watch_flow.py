"""The TUI runs the same watcher as `workbench watch`: live status, and new files become searchable."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from tests.tui.helpers import search, wait_for, wait_ready
from workbench.engine.engine import Engine
from workbench.settings.config import Settings
from workbench.tui.app import WorkbenchApp

pytestmark = [pytest.mark.integration, pytest.mark.anyio]

SECOND = "file:2/second.md"  # the home's indexed library is root 1, the watched folder root 2


async def test_watcher_runs_in_the_tui_and_refreshes(home: Path, tmp_path: Path) -> None:
    folder = tmp_path / "watched"
    folder.mkdir()
    (folder / "first.md").write_text("# Ocean acidification\n\nCorals calcify less at low pH.\n", encoding="utf-8")
    base = Settings()
    settings = replace(base, sources=replace(base.sources, folders=[str(folder)]))
    app = WorkbenchApp(Engine(settings))
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot)
        await wait_for(pilot, lambda: "watching" in app.status.watcher, timeout=180)
        (folder / "second.md").write_text(
            "# Permafrost carbon feedback\n\nThawing permafrost releases methane and carbon dioxide.\n",
            encoding="utf-8",
        )
        engine = app.wait_engine()
        await wait_for(pilot, lambda: any(h.doc_id == SECOND for h in engine.search("permafrost methane").hits), 180)
        table = await search(pilot, "thawing permafrost methane")
        assert table.rows_shown[0].doc_id == SECOND
