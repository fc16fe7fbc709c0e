"""`bench_startup`: how fast the TUI paints its first frame and answers a search keystroke.

Two numbers, both without the language model:
* first frame: wall time from spawning `python` to the app's `Ready` event (sent after the
  first frame is composited), median of N fresh processes, running headless at 100×30;
* keystroke to results: in one app driven by Pilot, the time from pressing Enter in the
  query bar to the results table showing the new rows (the `ResultsShown` message, posted
  after the refresh that drew them); p50/p95 over M searches on an indexed library (the
  one in $WORKBENCH_HOME, else a tiny one built in a temporary home).

`bench scale` also takes the library listing's first frame and scrolling from `tui_scroll`.

Nothing here imports textual at module level: the core must import without it.
"""

from __future__ import annotations

import asyncio
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from workbench.errors import WorkbenchError
from workbench.settings.config import Settings, load_settings

FIRST_FRAME_SCRIPT = """
import resource, sys, time
started = float(sys.argv[1])
from workbench.settings.config import load_settings
from workbench.tui.app import WorkbenchApp

class TimedApp(WorkbenchApp):
    def on_ready(self) -> None:
        usage = resource.getrusage(resource.RUSAGE_SELF)
        print(f"{time.time() - started:.4f} {usage.ru_utime + usage.ru_stime:.4f}", flush=True)
        self.exit()

TimedApp(settings=load_settings()).run(headless=True, size=(100, 30))
"""
TINY_TOPICS = (
    ("Graphene electron mobility", "Suspended graphene sheets show very high electron mobility."),
    ("Yeast caloric restriction", "Caloric restriction extends the replicative lifespan of yeast."),
    ("Bitcoin proof of work", "Proof-of-work timestamps prevent double spending without a bank."),
    ("Zebrafish fin regeneration", "Blastema cells proliferate after fin amputation."),
    ("Lattice QCD fermions", "Wilson fermions remove doublers in quenched lattice simulations."),
    ("Protein folding with deep learning", "Attention networks predict structures from sequences."),
    ("Ocean acidification and corals", "Lower pH reduces calcification rates of reef-building corals."),
    ("Transformer language models", "Self-attention scales to long contexts with sparse patterns."),
    ("CRISPR off-target effects", "Guide RNA mismatches cause cleavage at unintended sites."),
    ("Soil carbon sequestration", "Cover crops increase soil organic carbon over a decade."),
    ("Dark matter direct detection", "Xenon detectors set limits on WIMP-nucleon cross sections."),
    ("Urban heat islands", "Green roofs lower surface temperatures in dense city blocks."),
)


def percentile(values: list[float], fraction: float) -> float:
    """Nearest-rank percentile (`fraction` in 0..1) of a non-empty list."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(fraction * len(ordered)) - 1)]


def timed_script_lines(script: str, env: dict[str, str] | None, timeout: float, failure: str) -> list[str]:
    """Run `script` in a fresh `python -c`, given the spawn time as its argument; its non-empty output
    lines (WorkbenchError `failure: stderr` when it fails or prints nothing)."""
    started = time.time()
    result = subprocess.run(
        [sys.executable, "-c", script, repr(started)], capture_output=True, text=True, env=env, timeout=timeout
    )
    lines = [line for line in result.stdout.splitlines() if line.strip()]
    if result.returncode != 0 or not lines:
        raise WorkbenchError(f"{failure}: {result.stderr.strip()[-500:]}")
    return lines


def first_frame_seconds(runs: int = 5, env: dict[str, str] | None = None) -> list[tuple[float, float]]:
    """(wall seconds from spawn to the first frame, CPU seconds the process used), per fresh process.

    The CPU time is what the start costs on an idle core; on a busy machine wall time is longer.
    """
    times: list[tuple[float, float]] = []
    for _ in range(runs):
        wall, cpu = timed_script_lines(FIRST_FRAME_SCRIPT, env, 120, "the TUI did not start")[0].split()
        times.append((float(wall), float(cpu)))
    return times


def build_tiny_library(home: Path) -> Path:
    """Index a few Markdown notes into a fresh home (real embedder); returns the notes folder."""
    from workbench.engine.engine import Engine

    notes = home.parent / "tiny-library"
    notes.mkdir(parents=True, exist_ok=True)
    for number, (title, text) in enumerate(TINY_TOPICS, start=1):
        body = f"---\ntitle: {title}\nyear: {2000 + number}\n---\n\n# {title}\n\n## Abstract\n\n{text}\n"
        (notes / f"note{number:02d}.md").write_text(body, encoding="utf-8")
    Engine(Settings()).index_folders([notes])
    return notes


def library_queries(titles: list[str], count: int) -> list[str]:
    """`count` queries drawn from the library's titles (two or three words each)."""
    words = [t.split() for t in titles if t.split()] or [["research"]]
    queries = []
    for index in range(count):
        title = words[index % len(words)]
        span = 2 + index % 2
        start = (index // len(words)) % max(1, len(title) - span + 1)
        queries.append(" ".join(title[start : start + span]).lower())
    return queries


async def search_latencies_ms(settings: Settings, searches: int, size: tuple[int, int]) -> dict[str, Any]:
    """Drive the app with Pilot: type each query, press Enter, time until the table shows it."""
    from workbench.engine.engine import Engine
    from workbench.tui.app import WorkbenchApp
    from workbench.tui.messages import ResultsShown

    engine = Engine(settings)
    titles = sorted((d.doc_id, d.title) for d in engine.internals().catalog.all_documents())
    queries = library_queries([title for _, title in titles], searches)
    shown = asyncio.Event()
    shown_at: list[float] = []

    def hook(message: object) -> None:
        # called as the message is posted, i.e. right after the refresh that drew the rows;
        # Pilot.press itself returns only once the app is idle, too late to time anything
        if isinstance(message, ResultsShown) and not shown.is_set():
            shown_at.append(time.perf_counter())
            shown.set()

    app = WorkbenchApp(engine)
    times: list[float] = []
    async with app.run_test(size=size, message_hook=hook) as pilot:
        await asyncio.wait_for(shown.wait(), 120)  # the library listing after start
        query_bar = app.main_screen.query_one("#query")
        for index, query in enumerate(["warm up the embedder", "second warm up", *queries]):
            await pilot.press("slash")
            query_bar.value = ""  # type: ignore[attr-defined]
            await pilot.press(*query)
            await pilot.pause(0.2)  # let the last keystroke's intent detection finish, as a typist would
            shown.clear()
            started = time.perf_counter()
            await pilot.press("enter")
            await asyncio.wait_for(shown.wait(), 60)
            if index >= 2:
                times.append((shown_at[-1] - started) * 1000)
            await pilot.pause(0.3)  # the preview and graph of the first hit load after the results
    return {
        "n": len(times),
        "p50": round(percentile(times, 0.50), 1),
        "p95": round(percentile(times, 0.95), 1),
        "max": round(max(times), 1),
        "mean": round(statistics.fmean(times), 1),
        "queries": queries[:5],
    }


def bench_startup(
    settings: Settings | None = None, runs: int = 5, searches: int = 30, size: tuple[int, int] = (100, 30)
) -> dict[str, Any]:
    """First-frame time (median of `runs`) and keystroke-to-results latency (p50/p95 of `searches`)."""
    settings = settings or load_settings()
    frames = first_frame_seconds(runs)
    from workbench.engine.engine import Engine

    documents = Engine(settings).status().documents
    built = ""
    old_home = os.environ.get("WORKBENCH_HOME")
    with tempfile.TemporaryDirectory(prefix="workbench-bench-") as tmp:
        try:
            if documents == 0:
                home = Path(tmp) / "home"
                os.environ["WORKBENCH_HOME"] = str(home)
                settings = Settings()
                built = str(build_tiny_library(home))
                documents = Engine(settings).status().documents
            latency = asyncio.run(search_latencies_ms(settings, searches, size))
        finally:
            if old_home is None:
                os.environ.pop("WORKBENCH_HOME", None)
            else:
                os.environ["WORKBENCH_HOME"] = old_home
    return {
        "first_frame_s": {
            "median": round(statistics.median(wall for wall, _ in frames), 3),
            "runs": [round(wall, 3) for wall, _ in frames],
            "cpu_median": round(statistics.median(cpu for _, cpu in frames), 3),
            "target": 1.0,
            "load_average": round(os.getloadavg()[0], 2),
        },
        "keystroke_to_results_ms": {**latency, "target_p95": 150.0},
        "library": {"documents": documents, "built_tiny_library": built or None},
        "terminal": f"{size[0]}x{size[1]}",
        "cpus": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count(),
        "model": "not used (search only; the cost pane is hidden at this size, so nothing loads the LLM)",
    }


if __name__ == "__main__":
    print(json.dumps(bench_startup(), indent=2))
