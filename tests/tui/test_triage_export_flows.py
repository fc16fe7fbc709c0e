"""Triage keys, the triage queue, copy and export, driven through the real app."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.tui.fakes import TestEngine
from tests.tui.helpers import main_screen, search, wait_for, wait_ready
from workbench.stores.triage import TriageStore
from workbench.tui.app import WorkbenchApp
from workbench.tui.screens.prompt import PromptScreen
from workbench.tui.screens.queue import QueueScreen
from workbench.tui.widgets.results import ResultsTable

pytestmark = [pytest.mark.integration, pytest.mark.anyio]


async def test_triage_keys_change_the_catalog_and_the_table(engine: TestEngine) -> None:
    app = WorkbenchApp(engine)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot)
        table = await search(pilot, "electron mobility graphene")
        doc = main_screen(app).current_doc
        assert doc == "file:1/graphene.md"
        store = TriageStore(engine.internals().catalog)

        await pilot.press("r")
        await wait_for(
            pilot, lambda: app.triage_cache.get(doc) is not None and app.triage_cache[doc].state == "reading"
        )
        await pilot.press("2")
        await wait_for(pilot, lambda: app.triage_cache[doc].priority == 2)
        await pilot.press("asterisk")
        await wait_for(pilot, lambda: app.triage_cache[doc].starred)
        assert str(table.get_cell(doc, "mark")) == "★◐2"

        await pilot.press("t")
        await wait_for(pilot, lambda: isinstance(app.screen, PromptScreen))
        await pilot.press(*"todo", "enter")
        await wait_for(pilot, lambda: app.triage_cache[doc].tags == ("todo",))
        await pilot.press("n")
        await wait_for(pilot, lambda: isinstance(app.screen, PromptScreen))
        await pilot.press(*"check the baselines", "enter")
        await wait_for(pilot, lambda: app.triage_cache[doc].note == "check the baselines")
        await pilot.press("T")
        await wait_for(pilot, lambda: isinstance(app.screen, PromptScreen))
        await pilot.press("enter")  # the prompt offers the last label
        await wait_for(pilot, lambda: app.triage_cache[doc].tags == ())

        record = store.get(doc)
        assert (record.state, record.priority, record.starred, record.note) == (
            "reading",
            2,
            True,
            "check the baselines",
        )
        await wait_for(pilot, lambda: app.status.counts.get("reading") == 1 and app.status.counts.get("inbox") == 4)
        # the preview shows the triage line
        source = main_screen(app).query_one("#preview-md").source  # type: ignore[attr-defined]
        assert "reading · priority 2 · starred" in source


async def test_triage_queue_works_through_the_inbox(engine: TestEngine) -> None:
    store = TriageStore(engine.internals().catalog)
    store.set_priority("file:1/yeast.md", 3)
    store.set_state("file:1/lattice.md", "read")
    app = WorkbenchApp(engine)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_ready(pilot)
        await pilot.press("I")
        await wait_for(pilot, lambda: isinstance(app.screen, QueueScreen) and app.screen.items)
        queue = app.screen
        assert isinstance(queue, QueueScreen)
        assert len(queue.items) == 4
        assert queue.items[0].doc_id == "file:1/yeast.md"  # highest priority first
        assert queue.current == "file:1/yeast.md"
        await pilot.press("m")  # read: leaves the inbox, the next paper comes up
        await wait_for(pilot, lambda: len(queue.items) == 3)
        second = queue.items[0].doc_id
        await wait_for(pilot, lambda: queue.current == second)
        await pilot.press("3")  # priority changes in place
        await wait_for(pilot, lambda: queue.items[0].priority == 3)
        await pilot.press("x")  # skip
        await wait_for(pilot, lambda: len(queue.items) == 2)
        assert store.get(second).state == "skipped" and store.get(second).priority == 3
        assert store.counts()["read"] == 2
        current = queue.current
        await pilot.press("enter")  # open in the main view
        await wait_for(pilot, lambda: not isinstance(app.screen, QueueScreen))
        await wait_for(pilot, lambda: main_screen(app).current_doc == current)


async def test_copy_and_export(engine: TestEngine, tmp_path: Path) -> None:
    app = WorkbenchApp(engine)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot)
        await search(pilot, "electron mobility graphene")
        await pilot.press("y")
        assert app.clipboard.startswith("Novoselov & Geim (2004). Electron mobility in graphene.")
        assert app.clipboard.endswith("[@novoselov2004electron]")

        await pilot.press("b")
        bib = tmp_path / "novoselov2004electron.bib"
        await wait_for(pilot, lambda: bib.exists() and app.clipboard.startswith("@misc{"))
        assert "author = {Konstantin Novoselov and Andre Geim}" in bib.read_text(encoding="utf-8")
        assert any(str(bib) in n.message for n in app._notifications)

        await pilot.press("B")  # nothing starred yet
        await wait_for(pilot, lambda: any("no starred papers" in n.message for n in app._notifications))
        await pilot.press("asterisk")
        await wait_for(pilot, lambda: app.triage_cache.get("file:1/graphene.md") is not None)
        await pilot.press("B")
        starred = tmp_path / "novoselov2004electron-2.bib"
        await wait_for(pilot, starred.exists)

        await pilot.press("n")
        await pilot.press(*"compare with hall data", "enter")
        await wait_for(pilot, lambda: app.triage_cache["file:1/graphene.md"].note == "compare with hall data")
        await pilot.press("e")
        note = tmp_path / "novoselov2004electron.md"
        await wait_for(pilot, note.exists)
        text = note.read_text(encoding="utf-8")
        assert text.startswith("# Electron mobility in graphene")
        assert "## Note\n\ncompare with hall data" in text
        assert app.clipboard == text


async def test_table_marks_follow_triage(engine: TestEngine) -> None:
    TriageStore(engine.internals().catalog).set_state("file:1/zebrafish.md", "skipped")
    app = WorkbenchApp(engine)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot)
        table = main_screen(app).query_one(ResultsTable)
        assert str(table.get_cell("file:1/zebrafish.md", "mark")).strip() == "⊘"
        await wait_for(pilot, lambda: app.status.counts.get("skipped") == 1)


async def test_a_prompt_shows_labels_that_look_like_markup_as_typed(engine: TestEngine) -> None:
    # the "Remove labels" prompt lists the paper's labels in its hint: "[/draft]" was a closing tag
    app = WorkbenchApp(engine)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot)
        app.push_screen(PromptScreen("Remove labels", value="[/draft]", hint="Labels: [b]x[/b], [/draft]"))
        await wait_for(pilot, lambda: isinstance(app.screen, PromptScreen))
        await pilot.pause(0.2)
        hint = app.screen.query_one("#prompt-hint")
        assert app.is_running and str(hint.render()) == "Labels: [b]x[/b], [/draft]"
