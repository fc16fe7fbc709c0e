"""The listing-scroll benchmark drives the real app: every key it presses is seen to move the cursor."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.tui.fakes import PAPERS
from workbench.bench.tui_scroll import scroll_latencies_ms
from workbench.settings.config import Settings

pytestmark = [pytest.mark.integration, pytest.mark.anyio]


async def test_scroll_benchmark_times_every_keystroke_to_a_frame(home: Path) -> None:
    result = await scroll_latencies_ms(Settings(), keys=8, pages=3, size=(100, 30), settle_s=0.05)
    assert result["rows_listed"] == len(PAPERS)
    for name, pressed in (("down_step_ms", 8), ("page_down_step_ms", 3), ("down_held_ms", 8)):
        summary = result[name]
        assert summary["n"] + summary["missed"] == pressed
        assert summary["missed"] == 0, (name, summary)
        assert summary["p50"] <= summary["p95"] <= summary["max"]
