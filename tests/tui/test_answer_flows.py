"""Depth and cost, answers and summaries with verdicts, citations, cancelling, errors."""

from __future__ import annotations

import pytest

from tests.tui.fakes import FailingSearchEngine, SlowStandInModel, TestEngine
from tests.tui.helpers import main_screen, search, wait_for, wait_ready
from workbench.llm.stand_in import StandInModel
from workbench.records import DEPTHS
from workbench.settings.config import Settings
from workbench.tui.app import WorkbenchApp
from workbench.tui.messages import AnswerFinished
from workbench.tui.widgets.costs import CostPane
from workbench.tui.widgets.preview import Preview, linked_markers

pytestmark = [pytest.mark.integration, pytest.mark.anyio]


def test_citation_markers_become_links() -> None:
    assert linked_markers("A [1] and B [2, 3].", current="2") == (
        "A [\\[1\\]](cite:1) and B **[\\[2\\]](cite:2)**[\\[3\\]](cite:3)."
    )
    assert linked_markers("[x](http://a) [1](already)") == "[x](http://a) [1](already)"


async def test_depth_change_updates_the_cost_pane(engine: TestEngine) -> None:
    app = WorkbenchApp(engine)
    async with app.run_test(size=(160, 45)) as pilot:
        await wait_ready(pilot)
        screen = main_screen(app)
        costs = screen.query_one(CostPane)
        await search(pilot, "what is the electron mobility of graphene")
        await wait_for(pilot, lambda: [e.depth for e in costs.estimates] == list(DEPTHS))
        assert all(e.prompt_tokens > 0 for e in costs.estimates)
        assert costs.target == "query “what is the electron mobility of graphene”"
        await wait_for(pilot, lambda: screen.intent_depth == "targeted")
        assert costs.depth == "targeted"  # auto follows the intent
        await pilot.press("d")
        assert screen.depth == "quick" and costs.depth == "quick"
        assert str(costs.query_one("#cost-table").get_cell("quick", "mark")) == "▶"  # type: ignore[attr-defined]
        await pilot.press("d", "d")
        assert screen.depth == "comprehensive"
        assert "depth: comprehensive" in str(screen.query_one("#intent").render())
        await pilot.press("D")
        assert screen.depth == "targeted"
        # an answer records its actual cost and the session total
        await pilot.press("a")
        await wait_for(pilot, lambda: costs.session_runs == 1)
        assert costs.last_run.startswith("last: targeted")
        assert app.status.session_tokens == costs.session_tokens > 0


async def test_summary_shows_aspects_verdict_and_navigable_citations(engine: TestEngine) -> None:
    app = WorkbenchApp(engine)
    finished: list[AnswerFinished] = []

    def hook(message: object) -> None:
        if isinstance(message, AnswerFinished) and message not in finished:
            finished.append(message)

    async with app.run_test(size=(120, 40), message_hook=hook) as pilot:
        await wait_ready(pilot)
        screen = main_screen(app)
        await search(pilot, "zebrafish fin regeneration")
        assert screen.current_doc == "file:1/zebrafish.md"
        await pilot.press("s")
        preview = screen.query_one(Preview)
        await wait_for(pilot, lambda: preview.answer is not None and not preview.running)
        answer = preview.answer
        assert answer is not None
        assert answer.depth == "comprehensive" and answer.verdict is not None
        badge = preview.query_one("#verdict")
        assert badge.has_class("-shown") and badge.has_class(f"-{answer.verdict.decision.lower()}")
        assert answer.verdict.decision in str(badge.render())
        source = preview.query_one("#preview-md").source  # type: ignore[attr-defined]
        assert "(cite:1)" in source
        # four aspects, in order, each with the paper's own sentences quoted and cited to the page
        headings = ["### Research question", "### Methodology", "### Findings", "### Conclusions"]
        assert [source.index(h) for h in headings] == sorted(source.index(h) for h in headings)
        assert all(answer.aspects[a].strip() for a in answer.aspects) and len(answer.aspects) == 4
        assert f"“{answer.evidence[0].sentence}”" in source and "p. 1" in source
        await wait_for(pilot, lambda: "file:1/zebrafish.md" in screen.summaries)
        assert screen.summaries["file:1/zebrafish.md"] is answer
        # citations: ] and [ move, Enter opens the cited paper, backspace comes back to the summary
        assert answer.citations and preview.citation_index == 0
        await pilot.press("right_square_bracket")
        assert preview.citation_index == (1 if len(answer.citations) > 1 else 0)
        await pilot.press("left_square_bracket")
        assert preview.citation_index == 0
        cited = answer.citations[0].doc_id
        await pilot.press("l")  # focus the preview
        await wait_for(pilot, lambda: screen.focused is preview.query_one("#preview-body"))
        await pilot.press("enter")
        await wait_for(pilot, lambda: screen.current_doc == cited and preview.answer is None)
        await pilot.press("backspace")
        await wait_for(pilot, lambda: preview.answer is answer)
        # the summary goes to the clipboard as Markdown
        await pilot.press("Y")
        assert "### Research question" in app.clipboard and f"“{answer.evidence[0].sentence}”" in app.clipboard


async def test_answer_streams_and_escape_cancels(home: object) -> None:
    app = WorkbenchApp(TestEngine(Settings(), model=SlowStandInModel(delay=0.2)))
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot)
        screen = main_screen(app)
        preview = screen.query_one(Preview)
        await search(pilot, "how does proof of work prevent double spending")
        await pilot.press("a")
        # the evidence shows while the model is still writing (the slow model has not finished)
        await wait_for(pilot, lambda: preview.running and "**Evidence**" in preview._buffer)
        assert "the model is writing" in preview._buffer and preview.answer is None
        await wait_for(pilot, lambda: "“" in preview.query_one("#preview-md").source)  # type: ignore[attr-defined]
        await wait_for(pilot, lambda: preview.running and len(preview._buffer.split("the model is writing")[1]) > 40)
        assert "Esc cancels" in app.status.task
        await pilot.press("escape")
        await wait_for(pilot, lambda: not preview.running)
        assert preview.border_title == "Answer · cancelled"
        assert app.status.task == ""
        assert any(n.message == "Cancelled." for n in app._notifications)


async def test_ask_without_a_query_and_errors_become_notifications(home: object) -> None:
    app = WorkbenchApp(FailingSearchEngine(Settings()))
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: app.status.index.startswith("index: 5"))
        await pilot.press("a")
        assert any("Type a question" in n.message for n in app._notifications)
        await pilot.press("slash", *"anything", "enter")
        await wait_for(pilot, lambda: any("chunk store is unreadable" in n.message for n in app._notifications))
        assert app.is_running  # no traceback, the app goes on


async def test_a_revision_is_shown_apart_from_the_estimate(home: object) -> None:
    # The estimate counts the draft; the critic's revision is a second call whose tokens came on top.
    first = "Graphene shows very high electron mobility at room temperature [1]. It was measured at 77 K [1]."
    second = "Graphene shows very high electron mobility at room temperature [1]."
    model = StandInModel([first, second])
    app = WorkbenchApp(TestEngine(Settings(), model=model))
    async with app.run_test(size=(160, 45)) as pilot:
        await wait_ready(pilot)
        costs = main_screen(app).query_one(CostPane)
        await search(pilot, "what is the electron mobility of graphene")
        await pilot.press("a")
        await wait_for(pilot, lambda: costs.session_runs == 1)
        assert len(model.calls) == 2
        revision = model.prompt_tokens(model.calls[1])
        assert f"; revision {revision:,})" in costs.last_run, costs.last_run
