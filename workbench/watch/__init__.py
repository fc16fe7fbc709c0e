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

This module is the service loop and `run_watch`; `workbench.watch.runs` does the index runs and
`workbench.watch.records` holds the sources, options and events that front ends use.
"""

from __future__ import annotations

import contextlib
import queue
import signal
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from workbench.ingest.parse import SUPPORTED_SUFFIXES
from workbench.sources.watch import (
    Accept,
    ChangeBatch,
    RootPresence,
    SourceWatcher,
    WatcherFailed,
    WatcherMessage,
    WatcherReady,
    WatchTiming,
    folder_filter,
)
from workbench.sources.zotero import watched_paths
from workbench.watch.records import FOLDERS, ZOTERO, WatchEngine, WatchEvent, WatchOptions, WatchSources
from workbench.watch.runs import WatchRuns

INBOX_SIZE = 256  # change batches queued between the watcher threads and the service loop


class WatchService(WatchRuns):
    """Catch-up, then watch and index; one instance per `run`."""

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
    engine: WatchEngine,
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
