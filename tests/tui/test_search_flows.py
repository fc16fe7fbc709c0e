"""Search, filters, sorting, opening papers and the graph, driven through the real app."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from textual import events
from textual.widgets import Input

from tests.tui.fakes import TestEngine
from tests.tui.helpers import main_screen, search, wait_for, wait_ready
from workbench.ingest.text_sketch import SKETCH_VERSION
from workbench.settings.config import Settings
from workbench.stores.graph_db import remove_graph_files
from workbench.tui.app import WorkbenchApp
from workbench.tui.messages import IntentDetected, ResultsShown
from workbench.tui.widgets.graph import GraphPane
from workbench.tui.widgets.preview import Preview
from workbench.tui.widgets.query_bar import Chip, FilterChips

pytestmark = [pytest.mark.integration, pytest.mark.anyio]


async def test_search_shows_results_intent_and_preview(engine: TestEngine) -> None:
    app = WorkbenchApp(engine)
    seen: list[object] = []
    async with app.run_test(size=(120, 40), message_hook=seen.append) as pilot:
        await wait_ready(pilot)
        table = await search(pilot, "electron mobility in graphene")
        assert table.rows_shown[0].title == "Electron mobility in graphene"
        assert table.rows_shown[0].first_author == "Novoselov"
        assert table.rows_shown[0].backend in ("both", "dense", "fts")
        assert any(isinstance(m, ResultsShown) for m in seen)
        screen = main_screen(app)
        assert screen.current_doc == "file:1/graphene.md"
        intent = str(screen.query_one("#intent").render())
        assert "depth: auto→" in intent
        preview = screen.query_one(Preview)
        markdown = preview.query_one("#preview-md").source  # type: ignore[attr-defined]
        assert "Electron mobility in graphene" in markdown and "Abstract" in markdown
        # moving down opens the next paper after a short pause
        await pilot.press("j")
        await wait_for(pilot, lambda: screen.current_doc == table.rows_shown[1].doc_id)
        await wait_for(pilot, lambda: screen.current_doc in screen.details)


async def test_keys_in_one_burst_after_slash_all_land_in_the_query(engine: TestEngine) -> None:
    # Over SSH a quickly typed "/query" arrives as one burst: no letter may run as a command.
    app = WorkbenchApp(engine)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot)
        screen = main_screen(app)
        burst = "/electron mobility/tcp"  # e, l, t, b… are commands on the results table
        for char in burst:
            key = {"/": "slash", " ": "space"}.get(char, char)
            app.post_message(events.Key(key, char))  # raw terminal keys, not waited on one by one
        await wait_for(pilot, lambda: screen.query_one("#query", Input).value == burst[1:])
        await pilot.pause(0.2)
        assert app.screen is screen  # "t" opened no label prompt, "?" no help
        assert screen.focused is screen.query_one("#query", Input)
        assert not list(Path.cwd().glob("*.md"))  # "e" exported no note
        await pilot.press("enter")
        await wait_for(pilot, lambda: screen.query_text == burst[1:])


async def test_keys_in_one_burst_after_a_prompt_key_are_the_prompt_text(engine: TestEngine) -> None:
    app = WorkbenchApp(engine)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot)
        screen = main_screen(app)
        await search(pilot, "electron mobility graphene")
        doc = screen.current_doc
        assert doc is not None
        for key, char in [("t", "t"), ("m", "m"), ("l", "l"), ("enter", "\r")]:  # "m" would mark it read
            app.post_message(events.Key(key, char))
        await wait_for(pilot, lambda: app.triage_cache.get(doc) is not None and app.triage_cache[doc].tags == ("ml",))
        assert app.triage_cache[doc].state == "inbox" and app.screen is screen
        # typing in the query bar: "t", "n" and "f" are letters there, not commands
        await pilot.press("slash", *"tnf")
        assert screen.query_one("#query", Input).value.endswith("tnf") and app.screen is screen


async def test_filter_chips_add_remove_and_reject(engine: TestEngine) -> None:
    app = WorkbenchApp(engine)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot)
        screen = main_screen(app)
        table = await search(pilot, "mobility filter:year>=2005")
        assert screen.filters == ["year>=2005"]
        assert str(screen.query_one("#query").value) == "mobility"  # type: ignore[attr-defined]
        assert {r.year for r in table.rows_shown} <= {2007, 2008}
        assert [c.expression for c in screen.query_one(FilterChips).query(Chip)] == ["year>=2005"]
        # remove the chip with the keyboard
        chip = screen.query_one(Chip)
        chip.focus()
        before = table.rows_shown
        await pilot.press("enter")
        await wait_for(pilot, lambda: table.rows_shown is not before)
        assert screen.filters == [] and len(table.rows_shown) == 5
        # a bad filter becomes a notification and its chip goes away
        await search(pilot, "mobility filter:colour=red")
        await wait_for(pilot, lambda: screen.filters == [])
        assert any("unknown filter key" in n.message for n in app._notifications)
        # triage filters apply too
        await search(pilot, "filter:triage=reading")
        assert table.rows_shown == []
        # a chip shows its filter as typed ("[/draft]" was a closing tag to the markup)
        await search(pilot, "mobility filter:tag=[/draft]")
        chips = [c for c in screen.query_one(FilterChips).query(Chip) if c.expression == "tag=[/draft]"]
        await pilot.pause(0.2)
        assert app.is_running and chips and str(chips[0].render()) == "tag=[/draft] ×"


async def test_sort_cycles_and_keeps_selection(engine: TestEngine) -> None:
    app = WorkbenchApp(engine)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot)
        table = await search(pilot, "electron mobility")
        selected = table.selected_doc_id
        await pilot.press("o")
        assert table.result_order == "year"
        assert [r.year for r in table.sorted_rows()] == sorted((r.year for r in table.rows_shown), reverse=True)
        assert table.selected_doc_id == selected
        await pilot.press("o")
        assert table.result_order == "title"


async def test_graph_neighbours_open_and_back(engine: TestEngine) -> None:
    app = WorkbenchApp(engine)
    async with app.run_test(size=(160, 45)) as pilot:
        await wait_ready(pilot)
        await search(pilot, "electron mobility")
        screen = main_screen(app)
        graph = screen.query_one(GraphPane)
        await wait_for(pilot, lambda: graph.border_title.startswith("Graph ") and graph.option_count > 2)
        shown = [str(graph.get_option_at_index(i).prompt) for i in range(graph.option_count)]
        assert not any("graph error" in line for line in shown), shown
        await pilot.press("l")  # results -> preview
        await pilot.press("l")  # preview -> graph
        await wait_for(pilot, lambda: screen.focused is graph)
        target = graph._targets[graph.get_option_at_index(graph.highlighted or 0).id or ""]
        await pilot.press("enter")
        await wait_for(pilot, lambda: screen.current_doc == target)
        await wait_for(pilot, lambda: target in screen.details)
        assert screen.query_one("#results").selected_doc_id == target  # type: ignore[attr-defined]
        await pilot.press("backspace")
        await wait_for(pilot, lambda: screen.current_doc == "file:1/graphene.md")


async def test_graph_not_built_is_said_in_the_pane(home: object) -> None:
    remove_graph_files(Settings().paths().graph_path)  # an index made before the graph existed
    app = WorkbenchApp(TestEngine(Settings()))
    async with app.run_test(size=(160, 45)) as pilot:
        await wait_ready(pilot)
        graph = main_screen(app).query_one(GraphPane)
        await wait_for(
            pilot, lambda: graph.option_count == 1 and "graph not built" in str(graph.get_option_at_index(0).prompt)
        )


async def test_narrow_layout_80x24_collapses_panes(engine: TestEngine) -> None:
    app = WorkbenchApp(engine)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_ready(pilot)
        screen = main_screen(app)
        assert screen.has_class("-collapsed") and screen.has_class("-stacked")
        assert not screen.query_one("#drawer").display or screen.query_one("#drawer").region.height == 0
        assert screen.query_one("#results").region.width == 80
        await search(pilot, "zebrafish")
        await pilot.press("l", "l")  # results -> preview -> graph
        await wait_for(pilot, lambda: screen.focused is screen.query_one(GraphPane))
        assert screen.query_one(GraphPane).region.height > 3
        assert screen.query_one(Preview).region.height == 0
        await pilot.press("l")  # graph -> cost
        await wait_for(pilot, lambda: screen.focused is screen.query_one("#cost-table"))
        assert screen.query_one("#costs").region.height > 3
        await pilot.press("h", "h")  # back to the preview
        await wait_for(pilot, lambda: screen.query_one(Preview).region.height > 3)
    async with WorkbenchApp(TestEngine(Settings())).run_test(size=(200, 60)) as pilot:
        await wait_ready(pilot)
        screen = main_screen(pilot.app)  # type: ignore[arg-type]
        assert not screen.has_class("-collapsed")
        assert screen.query_one(GraphPane).region.height > 3 and screen.query_one(Preview).region.height > 10


async def test_intent_depth_follows_the_configured_default(home: Path) -> None:
    settings = Settings()
    configured = replace(settings, answer=replace(settings.answer, default_depth="comprehensive"))
    engine = TestEngine(configured)
    app = WorkbenchApp(engine)
    seen: list[object] = []
    async with app.run_test(size=(120, 40), message_hook=seen.append) as pilot:
        await wait_ready(pilot)
        await pilot.press("/")
        for key in "what mobility does graphene reach":
            await pilot.press("space" if key == " " else key)
        await wait_for(pilot, lambda: any(isinstance(m, IntentDetected) for m in seen))
        detected = [m for m in seen if isinstance(m, IntentDetected)][-1]
        assert detected.depth == engine.default_depth(engine.detect_intent(detected.query)) == "comprehensive"
        assert main_screen(app).effective_depth() == "comprehensive"


async def test_a_title_that_looks_like_markup_is_shown_as_printed(engine: TestEngine, tmp_path: Path) -> None:
    # "[/etc/hosts]" is a closing tag to Rich: as a plain string cell it raised MarkupError mid-draw,
    # and "[b]…[/b]" vanished into bold
    papers = tmp_path / "odd"
    papers.mkdir()
    title = "Resolving [/etc/hosts] with [b]bold[/b] claims"
    (papers / "odd.md").write_text(
        f"---\ntitle: {title}\nauthors:\n  - Lee, [Ann]\nyear: 2020\n---\n\n# {title}\n\n## Abstract\n\n"
        "The hosts file maps names to addresses before any resolver is asked.\n",
        encoding="utf-8",
    )
    assert engine.index_folders([papers]).added == 1
    app = WorkbenchApp(engine)
    async with app.run_test(size=(140, 40)) as pilot:  # wide enough for the cost pane
        await wait_ready(pilot)
        table = await search(pilot, "hosts file resolver [/etc/hosts]")  # the cost pane names the query
        assert table.rows_shown[0].title == title
        cell = table.get_row_at(0)[1]
        assert getattr(cell, "plain", cell) == title
        notes = main_screen(app).query_one("#cost-notes")
        await wait_for(pilot, lambda: "query “" in str(notes.render()))
        assert app.is_running and "[/etc/hosts]”" in str(notes.render())
        markdown = main_screen(app).query_one(Preview).query_one("#preview-md").source  # type: ignore[attr-defined]
        assert "## Resolving \\[/etc/hosts\\] with \\[b\\]bold\\[/b\\] claims" in markdown


async def test_a_paper_held_by_two_documents_is_one_result_naming_the_other(engine: TestEngine) -> None:
    # Two Zotero items of one paper hold one text (their sketches are equal): the results list it once,
    # and its preview names the other item. The fixture's notes are too short to sketch, so the one
    # sketch both documents hold is set here, as an index run sets it for two items with one text.
    sketch = np.random.default_rng(3).integers(0, 2**32, 128, dtype=np.uint32).astype("<u4").tobytes()
    engine.internals().catalog.set_sketches(
        [("file:1/graphene.md", sketch), ("file:1/lattice.md", sketch)], SKETCH_VERSION
    )
    app = WorkbenchApp(engine)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot)
        table = await search(pilot, "electron mobility graphene quenched lattice Wilson fermions")
        shown = [row.doc_id for row in table.rows_shown]
        assert ("file:1/graphene.md" in shown) != ("file:1/lattice.md" in shown)
        kept = next(row for row in table.rows_shown if row.doc_id in ("file:1/graphene.md", "file:1/lattice.md"))
        other = "file:1/lattice.md" if kept.doc_id == "file:1/graphene.md" else "file:1/graphene.md"
        assert kept.same_text == (other,)
        screen = main_screen(app)
        await pilot.press(*["j"] * shown.index(kept.doc_id))
        await wait_for(pilot, lambda: screen.current_doc == kept.doc_id and kept.doc_id in screen.details)
        preview = screen.query_one(Preview)
        await wait_for(pilot, lambda: "Same text as" in preview.query_one("#preview-md").source)  # type: ignore[attr-defined]
        markdown = preview.query_one("#preview-md").source  # type: ignore[attr-defined]
        assert f"Same text as `{other}`" in markdown and "(resemblance 1.00)" in markdown
