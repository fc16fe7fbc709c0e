"""Live watching: folders and a Zotero library feed the one ingest queue, headless or in the TUI.

`run_watch` (the `workbench watch` verb, and the TUI's watcher worker) first catches up (an
index run of every source, so changes made while nothing was watching are applied), then
turns file-system changes into index runs through `Engine.index_folders` / `index_zotero`:

* Changes arrive from `workbench.sources.watch` (watchfiles, debounced). Each changed path is
  tracked until its size and mtime have held still for `settle_s` (a file still being copied
  or downloaded is not indexed half-written); a folder whose changes have all settled is
  indexed, every settled folder in one run so that a move between folders is seen as a move.
  Past `max_tracked` paths a folder only waits for `settle_s` of quiet (bounded memory).
* A run stops after `batch_files` files and the next run goes on from there, so thousands of
  files dropped at once are indexed in batches with a log line and a report after each.
* Editor temp and swap files, partial downloads and hidden files are ignored by name.
* A folder that vanishes (deleted, renamed away, unmounted) keeps its documents; the watcher
  re-attaches when it comes back and rescans it. A folder that is present but completely
  empty while the catalog holds files from it is treated as an unmounted mount point and
  skipped (`workbench index` is the way to drop its documents on purpose).
* A Zotero library is re-synced when `zotero.sqlite` or its `-wal` changes; a read that
  fails (a copy racing a checkpoint) is retried a few times, then on the next change.

Lock design: the single-writer lock is taken per batch (inside each `Engine.index_*` call),
never for the watcher's lifetime. While a batch runs, `workbench index` fails at once with
"another workbench process (pid N) is writing the index"; between batches it runs normally
and the watcher then finds nothing left to do. When another process holds the lock, the
watcher logs that once, keeps its changes and retries every `busy_retry_s`. This also lets
the TUI run its own index jobs beside its watcher worker.
"""

from __future__ import annotations

import contextlib
import os
import queue
import signal
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from workbench.ingest.parse import SUPPORTED_SUFFIXES
from workbench.ingest.pipeline import IndexReport, Progress, WriterBusyError
from workbench.sources.watch import (
    Accept,
    ChangeBatch,
    Pending,
    PendingChanges,
    RootPresence,
    SourceWatcher,
    WatcherFailed,
    WatcherMessage,
    WatcherReady,
    WatchTiming,
    folder_filter,
    root_device,
)
from workbench.sources.zotero import ZOTERO_DATABASE, watched_paths
from workbench.sources.zotero_schema import ZoteroError
from workbench.stores.catalog import CatalogBusyError

if TYPE_CHECKING:
    from workbench.engine import Engine

ZOTERO = "zotero"  # the source key (and WatchEvent.source) of the Zotero library
FOLDERS = "folders"  # WatchEvent.source of folder runs
INBOX_SIZE = 256  # change batches queued between the watcher threads and the service loop
EVENT_KINDS = (
    "watching",  # watchers attached; `status` says what is watched
    "caught-up",  # the start-up pass is done
    "changed",  # changes noticed and waiting to settle (`total` = paths waiting)
    "indexing",  # a run started
    "progress",  # `done`/`total` files (or Zotero items) of the current run, coalesced
    "indexed",  # a run finished; `report` says what it did
    "busy",  # another process holds the writer lock; changes are kept and retried
    "missing",  # a folder or the Zotero data dir is gone; its documents are kept
    "back",  # it is there again and is rescanned
    "error",  # a run or the watcher failed; it is retried
    "stopped",  # the service ended
)


@dataclass(frozen=True)
class WatchSources:
    """What to watch: folders (recursively) and optionally a Zotero data dir."""

    folders: tuple[Path, ...] = ()
    zotero: Path | None = None

    @classmethod
    def configured(cls, engine: Engine) -> WatchSources:
        """The folders and Zotero dir from the engine's settings."""
        folders = tuple(Path(f).expanduser() for f in engine.settings.sources.folders)
        return cls(folders, engine.zotero_dir())

    @property
    def empty(self) -> bool:
        """True when there is nothing to watch."""
        return not self.folders and self.zotero is None


@dataclass(frozen=True)
class WatchOptions:
    """Timings and limits of the watch service (defaults suit a laptop or a home server)."""

    settle_s: float = 1.0  # a changed file must keep its size and mtime this long before indexing
    max_settle_s: float = 60.0  # index anyway after this long (a file that never stops growing)
    debounce_ms: int = 800  # watchfiles: longest burst collected into one batch of changes
    step_ms: int = 100  # watchfiles: a burst ends after this long without a change
    poll_s: float = 1.0  # how often roots are checked for vanishing/returning (and stop requests)
    batch_files: int = 200  # files per index run (and per writer-lock hold)
    max_tracked: int = 1000  # changed paths tracked one by one per folder before just waiting for quiet
    busy_retry_s: float = 5.0  # retry interval while another process holds the writer lock
    zotero_attempts: int = 4  # reads of a Zotero database mid-write before waiting for the next change
    zotero_retry_s: float = 0.5  # pause before the 2nd read (doubling after)
    progress_log_s: float = 10.0  # a progress log line at most this often during long runs


@dataclass(frozen=True)
class WatchEvent:
    """What the service did or saw (kinds in EVENT_KINDS), with the status-bar text at that moment."""

    kind: str
    source: str = ""  # "folders", "zotero" or "" (the service itself)
    path: str = ""  # the folder, Zotero dir or file concerned
    report: IndexReport | None = None
    message: str = ""  # the log line, "" for events that are not logged
    status: str = ""  # e.g. "watching 3 folders + Zotero", "indexing 2/5 files"
    done: int = 0
    total: int = 0


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def report_line(source: str, report: IndexReport) -> str:
    """One line for a run: what was added, updated, removed, moved, failed, and how long it took."""
    parts = [
        f"added {report.added}",
        f"updated {report.updated}",
        f"removed {report.removed}",
        f"moved {report.moved}",
        f"failed {report.failed}",
    ]
    extra = [
        f"{name} {value}" for name, value in (("duplicate", report.duplicate), ("no text", report.no_text)) if value
    ]
    return f"{source}: {', '.join(parts + extra)}; {_plural(report.chunks, 'chunk')} in {report.seconds:.2f} s"


class WatchService:
    """Catch-up, then watch and index; one instance per `run`."""

    def __init__(
        self,
        engine: Engine,
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

    # -- the loop ---------------------------------------------------------------------------------

    def run(self, stop: threading.Event | None = None) -> None:
        """Catch up, then watch until `stop` is set (or forever)."""
        self._stop = stop or threading.Event()
        if self.sources.empty:
            self._emit("stopped", message="nothing to watch: set sources.folders or sources.zotero_dir")
            return
        # Bounded: while a long run blocks the loop, further changes pile up deduplicated inside
        # watchfiles (one entry per path), not here.
        inbox: queue.Queue[WatcherMessage] = queue.Queue(maxsize=INBOX_SIZE)

        def sink(message: WatcherMessage) -> None:
            while not self._halt.is_set():
                with contextlib.suppress(queue.Full):
                    inbox.put(message, timeout=0.5)
                    return

        watchers = self._watchers(sink)
        started = time.monotonic()
        for watcher in watchers:
            watcher.start()
        try:
            self._emit("watching", message=f"starting: catching up {self._describe()}")
            deadline = time.monotonic() + 3 * self.options.poll_s + 2.0
            while len(self._ready) < len(watchers) and time.monotonic() < deadline and not self._stopping():
                self._drain(inbox, 0.1)
            now = time.monotonic()
            for key in (*self.folders, *([ZOTERO] if self.zotero_dir else [])):
                self._pending.mark(key, now, at_once=True)
                self._catch_up.add(key)
            while not self._stopping():
                self._run_ready()
                if not self._caught_up and not self._catch_up:
                    self._caught_up = True
                    seconds = time.monotonic() - started
                    self._emit("caught-up", message=f"caught up in {seconds:.1f} s; watching {self._describe()}")
                self._drain(inbox, self._pending.wait_time(time.monotonic(), self.options.poll_s))
        finally:
            self._halt.set()
            for watcher in watchers:
                watcher.join(timeout=5.0)
            self._emit("stopped", message="stopped")

    def _stopping(self) -> bool:
        if self._stop.is_set():
            self._halt.set()
            return True
        return False

    def _watchers(self, sink: Callable[[WatcherMessage], None]) -> list[SourceWatcher]:
        o = self.options
        timing = WatchTiming(debounce_ms=o.debounce_ms, step_ms=o.step_ms, poll_s=o.poll_s)
        specs: list[tuple[str, list[Path], bool, Accept]] = []
        if self.folders:
            accept = folder_filter(SUPPORTED_SUFFIXES, self.engine.settings.sources.ignore)
            specs.append((FOLDERS, [Path(f) for f in self.folders], True, accept))
        if self.zotero_dir is not None:
            names = {p.name for p in watched_paths(self.zotero_dir)}  # the database and its WAL
            specs.append((ZOTERO, [self.zotero_dir], False, lambda _root, path, _change: Path(path).name in names))
        return [
            SourceWatcher(name, roots, recursive=recursive, accept=accept, sink=sink, stop=self._halt, timing=timing)
            for name, roots, recursive, accept in specs
        ]

    def _drain(self, inbox: queue.Queue[WatcherMessage], timeout: float) -> None:
        try:
            message = inbox.get(timeout=timeout) if timeout > 0 else inbox.get_nowait()
        except queue.Empty:
            return
        changed = False
        while True:
            changed = self._handle(message) or changed
            try:
                message = inbox.get_nowait()
            except queue.Empty:
                break
        if changed:
            self._emit("changed", total=self._pending.waiting())

    def _handle(self, message: WatcherMessage) -> bool:
        now = time.monotonic()
        if isinstance(message, ChangeBatch):
            for change in message.changes:
                self._pending.note(ZOTERO if message.watcher == ZOTERO else change.root, change.path, now)
            return bool(message.changes)
        if isinstance(message, WatcherReady):
            self._ready.add(message.watcher)
            return False
        if isinstance(message, WatcherFailed):
            self._note_once(f"{message.watcher} watcher: {message.error}; retrying", kind="error")
            return False
        self._presence(message, now)
        return False

    def _presence(self, message: RootPresence, now: float) -> None:
        key = ZOTERO if message.watcher == ZOTERO else message.root
        label = "Zotero data dir" if key == ZOTERO else "folder"
        first = message.root not in self._present
        before = self._present.get(message.root)
        self._present[message.root] = message.device
        if not message.present:
            self._pending.drop(key)
            self._catch_up.discard(key)
            if first or before is not None:
                text = f"{label} {message.root} is missing (deleted or unmounted): keeping its documents"
                self._emit("missing", source=key, path=message.root, message=text)
        elif not first:
            self._emit("back", source=key, path=message.root, message=f"{label} {message.root} is back: rescanning")
            self._pending.mark(key, now)

    def _run_ready(self) -> None:
        ready = self._pending.ready(time.monotonic())
        folders = [key for key in ready if key != ZOTERO]
        if folders:
            self._index_folders(folders)
        if ZOTERO in ready and not self._stopping():
            self._index_zotero()

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
            with self.engine.catalog.read() as con:
                if con is None:
                    return False
                row = con.execute("SELECT count(*) FROM files WHERE root = ?", [root]).fetchone()
        except (CatalogBusyError, OSError, RuntimeError):
            return True  # cannot tell: do nothing this time
        return bool(row and row[0])

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
            self.engine.chunks.refresh()

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
            parts.append(_plural(count, "folder") if present == count else f"{present} of {_plural(count, 'folder')}")
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
        return text + (f" · {_plural(waiting, 'change')} settling" if waiting else "")

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
        if message:
            self.log(f"{time.strftime('%H:%M:%S')} {message}")
        if self.on_event is not None:
            event = WatchEvent(kind, source, path, report, message, self.status(), done, total)
            try:
                self.on_event(event)
            except Exception as exc:  # a front end's bug must not stop the watcher
                self.log(f"{time.strftime('%H:%M:%S')} event handler failed: {type(exc).__name__}: {exc}")


@contextlib.contextmanager
def _stop_on_signals(stop: threading.Event) -> Iterator[None]:
    """Ctrl+C and SIGTERM set `stop` (a second Ctrl+C interrupts at once); main thread only."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def handler(signum: int, frame: object) -> None:
        if stop.is_set() and signum == signal.SIGINT:
            raise KeyboardInterrupt
        stop.set()

    previous = {sig: signal.signal(sig, handler) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for sig, old in previous.items():
            signal.signal(sig, old)


def run_watch(
    engine: Engine,
    log: Callable[[str], None],
    stop: threading.Event | None = None,
    *,
    sources: WatchSources | None = None,
    on_event: Callable[[WatchEvent], None] | None = None,
    options: WatchOptions | None = None,
) -> None:
    """Catch up, then keep the index in step with the configured folders and Zotero until stopped.

    Without `stop` (the headless `workbench watch`), Ctrl+C and SIGTERM stop it cleanly; with
    one (the TUI's worker), setting it does. `log` gets one line per batch and per problem;
    `on_event` gets every `WatchEvent`, for a front end's results and status bar.
    """
    service = WatchService(engine, log, sources, on_event, options)
    if stop is not None:
        service.run(stop)
        return
    own = threading.Event()
    with _stop_on_signals(own):
        service.run(own)
