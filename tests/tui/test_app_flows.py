"""Help, the command palette, remapped keys, first run with background indexing."""

from __future__ import annotations

from dataclasses import fields
from pathlib import Path

import pytest

from tests.tui.fakes import TestEngine
from tests.tui.helpers import main_screen, wait_for, wait_ready
from workbench.settings.config import Settings, SourcesSettings, config_candidates, load_settings
from workbench.tui import create_app
from workbench.tui.app import WorkbenchApp
from workbench.tui.keys import all_binding_ids
from workbench.tui.messages import IndexFinished
from workbench.tui.screens.first_run import FirstRunScreen, parse_folders
from workbench.tui.screens.help import HelpScreen, help_markdown
from workbench.tui.settings import KeySettings, keymap
from workbench.tui.widgets.preview import Preview
from workbench.tui.widgets.results import ResultsTable

pytestmark = [pytest.mark.integration, pytest.mark.anyio]


def test_every_binding_id_is_a_key_setting() -> None:
    assert all_binding_ids() == {f.name for f in fields(KeySettings)}


def test_keymap_reads_only_remapped_keys() -> None:
    class WithKeys:
        keys = KeySettings(ask="ctrl+a", star="s,asterisk")

    assert keymap(WithKeys()) == {"ask": "ctrl+a", "star": "s,asterisk"}
    assert keymap(Settings()) == {}


def test_parse_folders(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    folders, problems = parse_folders(f"{tmp_path / 'a'}; {tmp_path / 'missing'};;")
    assert folders == [tmp_path / "a"] and problems == [f"not a folder: {tmp_path / 'missing'}"]


async def test_help_lists_every_key_and_follows_the_keymap(engine: TestEngine) -> None:
    app = WorkbenchApp(engine, keys={"ask": "ctrl+a"})
    async with app.run_test(size=(100, 40)) as pilot:
        await wait_ready(pilot)
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
        text = help_markdown(app, app.user_keymap)
        for binding_id in all_binding_ids():
            assert f"| {binding_id} |" in text, binding_id
        assert "| `^a` | Answer the query" in text
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, HelpScreen))
        # the remapped key works, the old one no longer asks
        await pilot.press("a")
        assert not main_screen(app).query_one(Preview).running
        await pilot.press("slash", *"graphene mobility", "enter")
        await wait_for(pilot, lambda: main_screen(app).query_one(ResultsTable).rows_shown)
        await pilot.press("ctrl+a")
        await wait_for(pilot, lambda: main_screen(app).query_one(Preview).answer is not None)


async def test_command_palette_runs_actions(engine: TestEngine) -> None:
    app = WorkbenchApp(engine)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_ready(pilot)
        await pilot.press("ctrl+p")
        await pilot.press(*"triage queue")
        await pilot.pause(0.5)
        await pilot.press("enter")
        await wait_for(pilot, lambda: type(app.screen).__name__ == "QueueScreen")
        await pilot.press("escape")
        await pilot.press("ctrl+p")
        await pilot.press(*"show graph")
        await pilot.pause(0.5)
        await pilot.press("enter")
        await wait_for(pilot, lambda: main_screen(app).side == "graph")


async def test_first_run_offers_folders_and_indexes_in_the_background(empty_home: Path, tmp_path: Path) -> None:
    papers = tmp_path / "my-papers"
    papers.mkdir()
    (papers / "yeast.md").write_text(
        "# Yeast ageing\n\n## Abstract\n\nCaloric restriction extends the lifespan of yeast.\n", encoding="utf-8"
    )
    (papers / "fins.md").write_text("# Fin regeneration\n\nBlastema cells regrow zebrafish fins.\n", encoding="utf-8")
    app = create_app(Settings())  # settings, not an engine: the engine loads after the first frame
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, FirstRunScreen))
        await pilot.press(*"/nonexistent/folder", "enter")
        assert isinstance(app.screen, FirstRunScreen)
        assert "not a folder" in str(app.screen.query_one("#first-run-error").render())
        app.screen.query_one("#folders").value = "/nonexistent/[/draft]"  # type: ignore[attr-defined]
        await pilot.press("enter")  # a path as typed, never markup ("[/draft]" closed no tag)
        await wait_for(pilot, lambda: "[/draft]" in str(app.screen.query_one("#first-run-error").render()))
        app.screen.query_one("#folders").value = ""  # type: ignore[attr-defined]
        await pilot.press(*str(papers), "enter")
        await wait_for(pilot, lambda: not isinstance(app.screen, FirstRunScreen))
        # the screen stays usable while indexing: open the help and close it again
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.status.index == "index: 2 papers", timeout=120)
        table = main_screen(app).query_one(ResultsTable)
        await wait_for(pilot, lambda: table.row_count == 2)
        assert any(n.title == "Indexed" and "added 2" in n.message for n in app._notifications)
        # the folder is remembered in the config file, and the watcher now follows it
        config = config_candidates(None)[0]
        await wait_for(pilot, config.is_file)
        assert load_settings().sources.folders == [str(papers)]
        assert app.settings.sources.folders == [str(papers)]
        await wait_for(pilot, lambda: app.status.watcher not in ("", "off"), timeout=60)


async def test_configured_sources_index_once_on_start(empty_home: Path, tmp_path: Path) -> None:
    papers = tmp_path / "configured"
    papers.mkdir()
    (papers / "one.md").write_text("# Coral bleaching\n\nHeat stress bleaches reef corals.\n", encoding="utf-8")
    settings = Settings(sources=SourcesSettings(folders=[str(papers)]))
    finished: list[IndexFinished] = []

    def hook(message: object) -> None:
        if isinstance(message, IndexFinished) and message not in finished:
            finished.append(message)

    app = WorkbenchApp(TestEngine(settings))
    async with app.run_test(size=(100, 30), message_hook=hook) as pilot:
        await wait_for(pilot, lambda: app.status.index == "index: 1 paper", timeout=120)
        await pilot.pause(2.0)
        assert len(finished) == 1  # no re-index loop after the library check
        assert not isinstance(app.screen, FirstRunScreen)
        # the language model loads in the background on request
        await pilot.press("M")
        await wait_for(pilot, lambda: app.status.model == "ready")
