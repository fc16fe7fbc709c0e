"""The TUI's library listing on a large library: its first frame, and scrolling it key by key.

Two measures, both without the language model, both headless (Textual's headless driver):
* listing frame: wall time from spawning `python` to the first frame (`Ready`) and to the
  library listing drawn (`ResultsShown`, posted after the refresh that drew the rows), in
  fresh processes on the library of $WORKBENCH_HOME (the engine loads as a user's TUI does);
* scrolling: one app driven by Pilot over that library's listing; each keystroke (down,
  page down; up and page up once the cursor reaches an end) is timed from the key event to
  the first frame the compositor paints with the cursor on its new row. Frames are caught
  in `App._display`, where Textual hands each screen update to the terminal; headless, it
  writes nothing, so the update is rendered to terminal bytes here as a terminal's would be.
  "step": a pause after each key (the preview of the highlighted paper loads in it, as when a
  reader stops on a row); "held": keys back to back, as when a key is held down.

Nothing here imports textual at module level: the core must import without it.
"""

from __future__ import annotations

import asyncio
import os
import statistics
import time
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from workbench.errors import WorkbenchError
from workbench.settings.config import Settings

LISTING_FRAME_SCRIPT = """
import sys, time
started = float(sys.argv[1])
from workbench.settings.config import load_settings
from workbench.tui.app import WorkbenchApp

class TimedApp(WorkbenchApp):
    def on_ready(self) -> None:
        print(f"ready {time.time() - started:.4f}", flush=True)
        super().on_ready()

    def on_results_shown(self, message) -> None:
        print(f"listing {time.time() - started:.4f} {message.count}", flush=True)
        self.exit()

TimedApp(settings=load_settings()).run(headless=True, size=(100, 30))
"""


def listing_frame_seconds(runs: int = 3, env: dict[str, str] | None = None) -> list[tuple[float, float, int]]:
    """(seconds to the first frame, seconds to the library listing drawn, rows listed), per fresh process."""
    from workbench.bench.startup import timed_script_lines

    times: list[tuple[float, float, int]] = []
    for _ in range(runs):
        lines = timed_script_lines(LISTING_FRAME_SCRIPT, env, 600, "the TUI did not list the library")
        fields = {line.split()[0]: line.split()[1:] for line in lines}
        if "listing" not in fields or "ready" not in fields:
            raise WorkbenchError(f"the TUI did not list the library: {lines[-1][-500:]}")
        times.append((float(fields["ready"][0]), float(fields["listing"][0]), int(fields["listing"][1])))
    return times


def next_scroll_key(row: int, rows: int, going_down: bool, down: str, up: str) -> tuple[str, bool]:
    """The key that moves the cursor from `row` (bouncing between the ends of `rows`), and the new direction."""
    if going_down and row >= rows - 1:
        going_down = False
    elif not going_down and row <= 0:
        going_down = True
    return (down if going_down else up), going_down


def keystroke_latencies_ms(
    presses: Sequence[tuple[float, int]], frames: Sequence[tuple[float, int]]
) -> list[float | None]:
    """For each press (time, cursor row before it): milliseconds to the first later frame that shows another row.

    None when no frame showed the cursor moved before the next press (the key was lost or
    did not move it). Times are seconds on one clock; both lists are in time order.
    """
    latencies: list[float | None] = []
    for index, (pressed, row_before) in enumerate(presses):
        until = presses[index + 1][0] if index + 1 < len(presses) else float("inf")
        shown = next((t for t, row in frames if pressed <= t < until and row != row_before), None)
        latencies.append(None if shown is None else round((shown - pressed) * 1000, 2))
    return latencies


def summarise_ms(latencies: Sequence[float | None]) -> dict[str, Any]:
    """p50/p95/max/mean of the measured latencies, and how many keys showed no move."""
    from workbench.bench.startup import percentile

    measured = [x for x in latencies if x is not None]
    if not measured:
        return {"n": 0, "missed": len(latencies)}
    return {
        "n": len(measured),
        "p50": round(percentile(measured, 0.50), 1),
        "p95": round(percentile(measured, 0.95), 1),
        "max": round(max(measured), 1),
        "mean": round(statistics.fmean(measured), 1),
        "missed": len(latencies) - len(measured),
    }


async def scroll_latencies_ms(
    settings: Settings,
    keys: int = 60,
    pages: int = 20,
    size: tuple[int, int] = (100, 30),
    result_limit: int | None = None,
    settle_s: float = 0.3,
) -> dict[str, Any]:
    """Drive the TUI over the library listing: down, page down and held-down keystrokes to the frame that shows them."""
    from rich.console import RenderableType
    from textual._compositor import CompositorUpdate
    from textual.screen import Screen

    from workbench.engine.engine import Engine
    from workbench.tui.app import WorkbenchApp
    from workbench.tui.messages import ResultsShown
    from workbench.tui.settings import tui_settings
    from workbench.tui.widgets.results import ResultsTable

    frames: list[tuple[float, int]] = []

    class FramedApp(WorkbenchApp):
        def _display(self, screen: Screen[Any], renderable: RenderableType | None) -> None:
            if renderable is not None and screen is self.screen:
                if self.is_headless and isinstance(renderable, CompositorUpdate):
                    renderable.render_segments(self.console)  # the bytes a terminal would be sent
                table = self.main_screen.query_one(ResultsTable)
                frames.append((time.perf_counter(), table.cursor_row))
            super()._display(screen, renderable)

    engine = Engine(settings)
    tui = replace(tui_settings(settings), watch=False, index_on_start=False, warm_up_embedder=False,
                  warm_up_model=False)  # fmt: skip
    if result_limit is not None:
        tui = replace(tui, result_limit=result_limit)
    shown = asyncio.Event()

    def hook(message: object) -> None:
        if isinstance(message, ResultsShown):
            shown.set()

    app = FramedApp(engine, tui=tui)
    started = time.perf_counter()
    results: dict[str, Any] = {}
    async with app.run_test(size=size, message_hook=hook) as pilot:
        await asyncio.wait_for(shown.wait(), 600)
        results["listing_shown_s"] = round(time.perf_counter() - started, 3)
        table = app.main_screen.query_one(ResultsTable)
        table.focus()
        await pilot.pause(1.0)  # the first row's preview and graph load
        results["rows_listed"] = table.row_count
        for name, down, up, count, settle in (
            ("down_step", "down", "up", keys, settle_s),
            ("page_down_step", "pagedown", "pageup", pages, settle_s),
            ("down_held", "down", "up", keys, 0.0),
        ):
            presses: list[tuple[float, int]] = []
            going_down = True
            for _ in range(count):
                row = table.cursor_row
                key, going_down = next_scroll_key(row, table.row_count, going_down, down, up)
                presses.append((time.perf_counter(), row))
                await pilot.press(key)
                if settle:
                    await pilot.pause(settle)
            await pilot.pause(settle_s)
            results[f"{name}_ms"] = summarise_ms(keystroke_latencies_ms(presses, list(frames)))
    results["terminal"] = f"{size[0]}x{size[1]}"
    results["result_limit"] = tui.result_limit
    results["settle_s"] = settle_s
    return results


def bench_listing(settings: Settings, env: dict[str, str], runs: int = 3) -> dict[str, Any]:
    """The listing's first frame (fresh processes) and scroll latency at the default and the largest listing."""
    frames = listing_frame_seconds(runs, env=env)
    scroll = {
        "default_limit": asyncio.run(scroll_latencies_ms(settings)),
        "limit_1000": asyncio.run(scroll_latencies_ms(settings, result_limit=1000)),
    }
    return {
        "first_frame_s": {
            "median": round(statistics.median(f for f, _, _ in frames), 3),
            "runs": [round(f, 3) for f, _, _ in frames],
        },
        "listing_frame_s": {
            "median": round(statistics.median(s for _, s, _ in frames), 3),
            "runs": [round(s, 3) for _, s, _ in frames],
            "rows": frames[0][2],
        },
        "scroll": scroll,
        "load_average": [round(x, 2) for x in os.getloadavg()],
    }
