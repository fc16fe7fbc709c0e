"""Index runs of the watch service: folder and Zotero runs, retries, progress and status text.

`WatchRuns` holds the state of one watch service and does its runs; `WatchService` (in
`workbench.watch`) adds the loop that feeds it settled changes. A run indexes at most
`batch_files` files, then leaves the rest marked for the next run. A busy writer lock puts the
changes back for `busy_retry_s`; any other failure puts them back with a doubling delay (up
to a minute), so the watcher outlives a failed run. A Zotero read that fails mid-write is
retried `zotero_attempts` times first.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path

from workbench.errors import StoreError
from workbench.ingest.index_report import IndexReport
from workbench.ingest.pipeline import Progress
from workbench.ingest.writer_lock import WriterBusyError
from workbench.sources.watch import Pending, PendingChanges, root_device
from workbench.sources.zotero import ZOTERO_DATABASE
from workbench.sources.zotero_schema import ZoteroError
from workbench.text.safe import printable
from workbench.watch.records import (
    FOLDERS,
    ZOTERO,
    WatchEngine,
    WatchEvent,
    WatchOptions,
    WatchSources,
    plural,
    report_line,
)


class WatchRuns:
    """The state of one watch service, and its index runs, status text and events."""

    def __init__(
        self,
        engine: WatchEngine,
        log: Callable[[str], None],
        sources: WatchSources | None = None,
        on_event: Callable[[WatchEvent], None] | None = None,
        options: WatchOptions | None = None,
    ) -> None:
        self.engine = engine
        self.log = log
        self.sources = sources or WatchSources.configured(engine)
        self.on_event = on_event
        self.options = options or WatchOptions()
        self.folders = tuple(dict.fromkeys(str(f.expanduser().resolve()) for f in self.sources.folders))
        self.zotero_dir = self.sources.zotero.expanduser().resolve() if self.sources.zotero else None
        self._stop = threading.Event()
        self._halt = threading.Event()  # stops the watcher threads
        o = self.options
        self._pending = PendingChanges(o.settle_s, o.max_settle_s, o.max_tracked)
        self._present: dict[str, int | None] = {}
        self._catch_up: set[str] = set()  # sources whose start-up run has not completed
        self._caught_up = False
        self._ready: set[str] = set()
        self._noted: set[str] = set()  # one-time log lines already written
        self._busy = False
        self._active: tuple[str, int, int] | None = None
        self._run_offset = 0
        self._last_progress = (0.0, 0.0)  # (event, log) times
        self._outcomes: list[str] = []

    def _stopping(self) -> bool:
        if self._stop.is_set():
            self._halt.set()
            return True
        return False

    # -- folder runs ------------------------------------------------------------------------------

    def _index_folders(self, roots: list[str]) -> None:
        runnable = []
        for root in roots:
            if root_device(root) is None:  # vanished since: its presence message says so
                self._pending.drop(root)
                self._catch_up.discard(root)
            elif self._looks_unmounted(root):
                self._pending.drop(root)
                self._catch_up.discard(root)
                self._note_once(
                    f"folder {root} is empty but the index holds files from it: treating it as unmounted "
                    "and keeping its documents (run `workbench index` to drop them)",
                    kind="missing",
                )
            else:
                runnable.append(root)
        if not runnable:
            return
        taken = self._pending.take(runnable)
        catch_up = any(root in self._catch_up for root in runnable)
        processed = 0

        def progress(event: Progress) -> None:
            nonlocal processed
            processed += 1
            self._progress(FOLDERS, event)

        def cancelled() -> bool:
            return self._stopping() or processed >= self.options.batch_files

        report = self._guarded(FOLDERS, taken, lambda: self.engine.index_folders(
            [Path(r) for r in runnable], progress, cancelled
        ))  # fmt: skip
        if report is None:
            return
        more = report.cancelled and not self._stopping()
        if more:  # the batch limit, not a stop: go on with the rest at once
            now = time.monotonic()
            self._run_offset += processed
            for root in runnable:
                self._pending.mark(root, now, at_once=True)
        else:
            self._run_offset = 0
            self._catch_up.difference_update(runnable)
        self._finish(FOLDERS, report, taken, catch_up, more)

    def _looks_unmounted(self, root: str) -> bool:
        """An empty folder that the catalog holds files from: an unmounted mount point, not a deletion."""
        try:
            with os.scandir(root) as entries:
                if any(True for _ in entries):
                    return False
        except OSError:
            return False
        try:
            return self.engine.indexed_file_count(root) > 0
        except (StoreError, OSError):
            return True  # cannot tell: do nothing this time

    # -- Zotero runs ------------------------------------------------------------------------------

    def _index_zotero(self) -> None:
        data_dir = self.zotero_dir
        if data_dir is None:
            return
        if not (data_dir / ZOTERO_DATABASE).is_file():
            self._pending.drop(ZOTERO)
            self._catch_up.discard(ZOTERO)
            self._note_once(f"Zotero: no {ZOTERO_DATABASE} in {data_dir} yet; waiting for it", kind="missing")
            return
        taken = self._pending.take([ZOTERO])
        catch_up = ZOTERO in self._catch_up

        def progress(event: Progress) -> None:
            self._progress(ZOTERO, event)

        def sync() -> IndexReport:
            pause, attempt = self.options.zotero_retry_s, 1
            while True:
                try:
                    return self.engine.index_zotero(data_dir, progress, self._stopping)
                except (ZoteroError, sqlite3.Error, OSError):  # a copy racing Zotero's own writes
                    if attempt >= self.options.zotero_attempts or self._stop.wait(pause):
                        raise
                pause, attempt = pause * 2, attempt + 1

        report = self._guarded(ZOTERO, taken, sync)
        if report is None:
            return
        self._catch_up.discard(ZOTERO)
        self._finish(ZOTERO, report, taken, catch_up, False)

    # -- shared -----------------------------------------------------------------------------------

    def _guarded(self, source: str, taken: dict[str, Pending], run: Callable[[], IndexReport]) -> IndexReport | None:
        """Run one index call; on a busy lock or an error put the changes back for a retry."""
        self._active = (source, self._run_offset, 0)
        self._outcomes = []
        self._last_progress = (0.0, time.monotonic())
        self._emit("indexing", source=source)
        self._refresh_chunks()
        try:
            report = run()
        except WriterBusyError as exc:
            self._pending.put_back(taken, self.options.busy_retry_s, time.monotonic())
            if not self._busy:
                self._busy = True
                every = self.options.busy_retry_s
                self._emit("busy", source=source, message=f"{source}: {exc}; retrying every {every:g} s")
            return None
        except Exception as exc:  # the watcher must outlive any one failed run
            failures = max(d.failures for d in taken.values()) + 1
            delay = min(60.0, self.options.busy_retry_s * 2 ** (failures - 1))
            self._pending.put_back(taken, delay, time.monotonic(), failures)
            text = f"{source}: run failed: {type(exc).__name__}: {exc}; retrying in {delay:g} s"
            self._emit("error", source=source, message=text)
            return None
        finally:
            self._active = None
        if self._busy:
            self._busy = False
            self._emit("watching", message="writer lock is free again")
        return report

    def _refresh_chunks(self) -> None:
        """See the index as another process may have left it before writing to it."""
        with contextlib.suppress(Exception):
            self.engine.refresh_index()

    def _progress(self, source: str, event: Progress) -> None:
        done, total = self._run_offset + event.done, self._run_offset + event.total
        self._active = (source, done, total)
        if event.status not in ("unchanged",) and len(self._outcomes) < 4:
            self._outcomes.append(Path(event.path).name if source == FOLDERS else event.path)
        now = time.monotonic()
        last_event, last_log = self._last_progress
        if event.done == event.total or now - last_event >= 0.25:
            last_event = now
            message = ""
            if now - last_log >= self.options.progress_log_s and event.done < event.total:
                last_log = now
                message = f"{source}: {done}/{total} {'files' if source == FOLDERS else 'items'} indexed so far"
            self._emit("progress", source=source, path=event.path, message=message, done=done, total=total)
        self._last_progress = (last_event, last_log)

    def _finish(self, source: str, report: IndexReport, taken: dict[str, Pending], catch_up: bool, more: bool) -> None:
        noticed = min(d.since for d in taken.values())
        line = report_line(f"catch-up {source}" if catch_up else source, report)
        if not catch_up:
            line += f" ({time.monotonic() - noticed:.1f} s after the change)"
        names = list(self._outcomes[:3]) + [
            f"{Path(m['from']).name} → {os.path.relpath(m['to'], Path(m['from']).parent)}" for m in report.moves[:3]
        ]
        if names:
            line += " · " + ", ".join(names) + (" …" if len(self._outcomes) > 3 or len(report.moves) > 3 else "")
        if more:
            line += " · more to go"
        changed = report.added + report.updated + report.removed + report.moved + report.failed + report.duplicate
        self._emit("indexed", source=source, report=report, message=line if changed or catch_up else "")
        for failure in report.failures:
            self._note_once(f"{source}: {failure['path']}: {failure['error']}", kind="error")

    def _note_once(self, text: str, kind: str) -> None:
        """Log a problem the first time it is seen (a denied folder is reported once, not per run)."""
        if text not in self._noted:
            self._noted.add(text)
            self._emit(kind, message=text)

    def _describe(self) -> str:
        count = len(self.folders)
        present = sum(1 for f in self.folders if self._present.get(f, root_device(f)) is not None)
        parts = []
        if count:
            parts.append(plural(count, "folder") if present == count else f"{present} of {plural(count, 'folder')}")
        if self.zotero_dir is not None:
            parts.append("Zotero")
        return " + ".join(parts) or "nothing"

    def status(self) -> str:
        """The status-bar text: what is watched, or what is being indexed right now."""
        if self._active is not None:
            source, done, total = self._active
            if source == ZOTERO:
                return f"syncing Zotero {done}/{total} items" if total else "syncing Zotero"
            return f"indexing {done}/{total} files" if total else "indexing"
        text = f"watching {self._describe()}"
        if self._busy:
            return text + " · waiting for another writer"
        waiting = self._pending.waiting()
        return text + (f" · {plural(waiting, 'change')} settling" if waiting else "")

    def _emit(
        self,
        kind: str,
        *,
        source: str = "",
        path: str = "",
        report: IndexReport | None = None,
        message: str = "",
        done: int = 0,
        total: int = 0,
    ) -> None:
        if message:  # names in it may hold control characters: one escaped line per message
            self.log(f"{time.strftime('%H:%M:%S')} {printable(message)}")
        if self.on_event is not None:
            event = WatchEvent(kind, source, path, report, message, self.status(), done, total)
            try:
                self.on_event(event)
            except Exception as exc:  # a front end's bug must not stop the watcher
                self.log(f"{time.strftime('%H:%M:%S')} event handler failed: {type(exc).__name__}: {exc}")
