"""Live-watch latency and idle cost: from a file landing (or a Zotero item added) to it being found.

Everything runs against a private temp store with the real embedder and the real watcher
(watchfiles' Rust notify backend, no polling). Each folder trial writes a real PDF under a new
name, with a trailing PDF comment that makes its bytes unique (so it is a new document, not a
duplicate, and every trial parses the same pages); each Zotero trial adds an item to a fixture
library through a connection that keeps it in the WAL, as a running Zotero does. Latency is
measured from just before the write to the first `engine.search` that returns the document
(polled every 50 ms); the watcher's own "indexed" event time is reported alongside. Idle CPU is
this process's CPU time over wall time while the watcher waits with nothing to do.
"""

from __future__ import annotations

import importlib
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any

from workbench.engine.engine import Engine
from workbench.errors import WorkbenchError
from workbench.query.filters import parse_filter
from workbench.records import folder_doc_id
from workbench.watch import run_watch
from workbench.watch.records import WatchEvent, WatchOptions, WatchSources

REPO_ROOT = Path(__file__).resolve().parents[2]
POLL_S = 0.05


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return 0.0
    index = min(len(ordered) - 1, max(0, round(share * (len(ordered) - 1))))
    return round(ordered[index], 3)


def _summary(latencies: list[float]) -> dict[str, float]:
    return {
        "p50_s": _percentile(latencies, 0.5),
        "p95_s": _percentile(latencies, 0.95),
        "mean_s": round(statistics.fmean(latencies), 3) if latencies else 0.0,
    }


def _zotero_fixture() -> Any | None:
    """`tests.zotero_fixture` from the checkout (benchmarks run from a source tree), or None."""
    try:
        return importlib.import_module("tests.zotero_fixture")
    except ImportError:
        if not (REPO_ROOT / "tests" / "zotero_fixture.py").is_file():
            return None
        sys.path.insert(0, str(REPO_ROOT))
        return importlib.import_module("tests.zotero_fixture")


def _found(engine: Engine, doc_id: str) -> bool:
    result = engine.search("paper", filters=[parse_filter(f"doc={doc_id}")], limit=1)
    return bool(result.hits)


def _time_until_found(engine: Engine, doc_id: str, started: float, timeout: float) -> float | None:
    """Seconds from `started` until search returns `doc_id`, polling; None on timeout."""
    while time.perf_counter() - started < timeout:
        if _found(engine, doc_id):
            return time.perf_counter() - started
        time.sleep(POLL_S)
    return None


def _wait_event(
    events: list[WatchEvent], kind: str, after: int, timeout: float, added: bool = False
) -> WatchEvent | None:
    """The first event of `kind` after index `after` (with a report that added a document, if `added`)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = next(
            (e for e in events[after:] if e.kind == kind and (not added or (e.report and e.report.added))), None
        )
        if found is not None:
            return found
        time.sleep(POLL_S)
    return None


def _trial(engine: Engine, events: list[WatchEvent], times: dict[int, float], act: Callable[[], str]) -> dict[str, Any]:
    """Run `act` (a write that returns the new document's id), then time each step until its run is done.

    Steps: the watcher noticed the change, its index run started, search returned the document,
    the run finished (after the index maintenance that follows the write). The next trial starts
    only then, so trials never overlap.
    """
    seen = len(events)
    started = time.perf_counter()
    doc_id = act()
    searchable = _time_until_found(engine, doc_id, started, timeout=300.0)
    done = _wait_event(events, "indexed", seen, timeout=300.0, added=True)

    def first(kind: str) -> float | None:
        index = next((i for i in range(seen, len(events)) if events[i].kind == kind), None)
        return None if index is None else round(times[index] - started, 3)

    return {
        "doc_id": doc_id,
        "noticed_s": first("changed"),
        "run_started_s": first("indexing"),
        "searchable_s": round(searchable, 3) if searchable is not None else None,
        "run_done_s": round(times[events.index(done)] - started, 3) if done is not None else None,
    }


def bench_watch(
    engine: Engine,
    pdf: Path,
    trials: int = 5,
    idle_seconds: float = 10.0,
    zotero: bool = True,
    options: WatchOptions | None = None,
) -> dict[str, Any]:
    """p50/p95 seconds from a PDF landing / a Zotero item added to a search hit; idle CPU share."""
    fixture = _zotero_fixture() if zotero else None
    with tempfile.TemporaryDirectory(prefix="workbench-bench-watch-") as tmp:
        root = Path(tmp)
        folder = root / "papers"
        folder.mkdir()
        library = fixture.build_zotero_library(root / "Zotero", schema=129, wal=True) if fixture else None
        s = engine.settings
        sources = replace(s.sources, zotero_linked_base=str(library.linked_base) if library else "")
        settings = replace(s, sources=sources, storage=replace(s.storage, data_dir=str(root / "data"), lancedb_uri=""))
        bench = Engine(settings)
        bench.warm_up_embedder()
        events: list[WatchEvent] = []
        times: dict[int, float] = {}
        lines: list[str] = []

        def record(event: WatchEvent) -> None:
            times[len(events)] = time.perf_counter()
            events.append(event)

        stop = threading.Event()
        watched = WatchSources((folder,), library.data_dir if library else None)
        thread = threading.Thread(
            target=run_watch,
            args=(bench, lines.append, stop),
            kwargs={"sources": watched, "on_event": record, "options": options or WatchOptions()},
            daemon=True,
        )
        started = time.perf_counter()
        thread.start()
        try:
            if _wait_event(events, "caught-up", 0, timeout=1800.0) is None:
                raise WorkbenchError(f"the watcher did not finish its catch-up: {lines[-3:]}")
            catch_up_s = time.perf_counter() - started

            cpu, wall = time.process_time(), time.perf_counter()
            time.sleep(idle_seconds)
            idle_share = (time.process_time() - cpu) / (time.perf_counter() - wall)

            payload = pdf.read_bytes()

            def land(number: int) -> str:
                target = folder / f"watch-bench-{number}-{pdf.name}"
                target.write_bytes(payload + f"\n% workbench watch benchmark {number}\n".encode())
                return folder_doc_id(1, target.name)  # the benchmark's fresh home watches one root

            def add_item(number: int) -> str:
                assert library is not None
                return f"zotero:1:{library.add_item(f'Watch benchmark item {number}: sparrow telemetry')}"

            folder_trials = [_trial(bench, events, times, partial(land, n)) for n in range(trials)]
            zotero_trials = []
            if library is not None:
                zotero_trials = [_trial(bench, events, times, partial(add_item, n)) for n in range(trials)]
        finally:
            stop.set()
            thread.join(120)
            if library is not None:
                library.close()
    folder_latency = [t["searchable_s"] for t in folder_trials if t["searchable_s"] is not None]
    zotero_latency = [t["searchable_s"] for t in zotero_trials if t["searchable_s"] is not None]
    return {
        "pdf": pdf.name,
        "pdf_bytes": len(payload),
        "trials": trials,
        "settle_s": (options or WatchOptions()).settle_s,
        "catch_up_seconds": round(catch_up_s, 2),
        "folder": {**_summary(folder_latency), "timeouts": trials - len(folder_latency), "trials": folder_trials},
        "zotero": (
            {**_summary(zotero_latency), "timeouts": trials - len(zotero_latency), "trials": zotero_trials}
            if library is not None
            else {"skipped": "tests/zotero_fixture.py not found (run from a source checkout)"}
        ),
        "idle_seconds": idle_seconds,
        "idle_cpu_percent_of_one_core": round(100 * idle_share, 3),
        "backend": "watchfiles (Rust notify, no polling)",
    }
