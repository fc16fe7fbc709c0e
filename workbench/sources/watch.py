"""Watching sources for changes: a loop over `watchfiles` that survives roots vanishing and returning.

A `SourceWatcher` runs one `watchfiles.watch` loop (the Rust `notify` backend: inotify,
FSEvents, kqueue; never polling) over the roots that exist right now, in its own thread, and
hands each debounced batch of changes to a sink. The loop wakes once per `poll_s` without
any change to check that every root is still there and on the same device; when the set of
present roots changes (a folder deleted, unmounted, renamed away, or back again) it says so
and starts a fresh `watch` over the new set, because an OS watch on a deleted folder is gone
for good. Recursive watching never loops on symlinks: `notify` walks with loop detection.

Folders are watched recursively; a Zotero data dir is watched flat (its `storage/` can hold
thousands of folders that would only spend OS watches), filtered to the database and its WAL.

`PendingChanges` decides when changes are ready to index: every changed path must keep its
size and mtime for `settle_s` (a file still being written is not read half-way), or the
source has waited `max_settle_s`; past `max_tracked` paths a source only waits for quiet.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import watchfiles

from workbench.sources.folder import is_ignored

CHANGE_NAMES: dict[watchfiles.Change, str] = {
    watchfiles.Change.added: "added",
    watchfiles.Change.modified: "modified",
    watchfiles.Change.deleted: "deleted",
}


@dataclass(frozen=True)
class SourceChange:
    """One file-system change under a watched root: 'added', 'modified' or 'deleted'."""

    root: str
    path: str
    change: str


@dataclass(frozen=True)
class ChangeBatch:
    """The changes one debounced `watchfiles` step reported, already filtered."""

    watcher: str
    changes: tuple[SourceChange, ...]


@dataclass(frozen=True)
class RootPresence:
    """A watched root seen present or gone (deleted, unmounted, renamed away); `device` is its st_dev."""

    watcher: str
    root: str
    present: bool
    device: int | None


@dataclass(frozen=True)
class WatcherReady:
    """The OS watches are in place: changes from now on are reported (a catch-up scan may start)."""

    watcher: str
    roots: tuple[str, ...]


@dataclass(frozen=True)
class WatcherFailed:
    """Watching failed for a moment (a root vanished while attaching, a watch limit); it retries."""

    watcher: str
    error: str


WatcherMessage = ChangeBatch | RootPresence | WatcherReady | WatcherFailed
Accept = Callable[[str, str, str], bool]  # (root, path, change) -> keep this change?


def owning_root(path: str, roots: Sequence[str]) -> str | None:
    """The longest watched root that contains `path` (roots and path absolute), or None."""
    best: str | None = None
    for root in roots:
        if (path == root or path.startswith(root.rstrip(os.sep) + os.sep)) and (best is None or len(root) > len(best)):
            best = root
    return best


def root_device(root: str) -> int | None:
    """The st_dev of a folder that exists, else None (missing, not a folder, or unreadable)."""
    try:
        stat = os.stat(root)
    except OSError:
        return None
    return stat.st_dev if os.path.isdir(root) else None


def folder_filter(suffixes: frozenset[str], ignore: Sequence[str] = ()) -> Accept:
    """Keep changes to supported files and to folders; drop temp, swap, partial and hidden files."""

    def accept(root: str, path: str, change: str) -> bool:
        relative = Path(os.path.relpath(path, root))
        if relative == Path(".") or any(is_ignored(part, ignore) for part in relative.parts):
            return False
        if relative.suffix.lower() in suffixes:
            return True
        return change == "deleted" or os.path.isdir(path)  # a folder moved in or out (or gone)

    return accept


@dataclass(frozen=True)
class WatchTiming:
    """How the `watchfiles` loop batches changes and how often it looks at the roots themselves."""

    debounce_ms: int = 800  # longest a burst of changes is collected before it is reported
    step_ms: int = 100  # a burst ends after this long without a new change
    poll_s: float = 1.0  # wake-up interval for the presence check and stop requests


class SourceWatcher:
    """Watches a fixed list of roots in a background thread and reports to a sink."""

    def __init__(
        self,
        name: str,
        roots: Sequence[Path],
        *,
        recursive: bool,
        accept: Accept,
        sink: Callable[[WatcherMessage], None],
        stop: threading.Event,
        timing: WatchTiming | None = None,
    ) -> None:
        self.name = name
        self.roots: tuple[str, ...] = tuple(dict.fromkeys(str(Path(r).expanduser().resolve()) for r in roots))
        self.recursive = recursive
        self.accept = accept
        self.sink = sink
        self.stop = stop
        self.timing = timing or WatchTiming()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        """Start the watching thread (a daemon: it never keeps the process alive)."""
        self._thread = threading.Thread(target=self.run, name=f"workbench-watch-{self.name}", daemon=True)
        self._thread.start()

    def join(self, timeout: float | None = None) -> None:
        """Wait for the thread to end after `stop` is set."""
        if self._thread is not None:
            self._thread.join(timeout)

    def presence(self) -> dict[str, int | None]:
        """Each root's device number, None where the root is missing."""
        return {root: root_device(root) for root in self.roots}

    def run(self) -> None:
        """The loop: watch the present roots until the set changes or `stop` is set, then again."""
        present = self.presence()
        for root, device in present.items():
            self.sink(RootPresence(self.name, root, device is not None, device))
        while not self.stop.is_set():
            live = [root for root, device in present.items() if device is not None]
            if not live:
                self.sink(WatcherReady(self.name, ()))
                while not self.stop.wait(self.timing.poll_s):
                    if self.presence() != present:
                        break
            else:
                try:
                    self._watch(live, present)
                except Exception as exc:  # a root vanished while attaching, a watch limit, ...: retry
                    self.sink(WatcherFailed(self.name, f"{type(exc).__name__}: {exc}"))
                    self.stop.wait(self.timing.poll_s)
            now = self.presence()
            for root, device in now.items():
                if device != present.get(root):
                    self.sink(RootPresence(self.name, root, device is not None, device))
            present = now

    def _watch(self, live: list[str], present: dict[str, int | None]) -> None:
        """One `watchfiles.watch` session over `live`; returns when the roots change or on stop."""
        timing = self.timing

        def keep(change: watchfiles.Change, path: str) -> bool:
            root = owning_root(path, live)
            return root is not None and self.accept(root, path, CHANGE_NAMES.get(change, "modified"))

        announced = False
        for raw in watchfiles.watch(
            *live,
            watch_filter=keep,
            debounce=timing.debounce_ms,
            step=timing.step_ms,
            stop_event=self.stop,
            rust_timeout=max(1, int(timing.poll_s * 1000)),
            yield_on_timeout=True,
            recursive=self.recursive,
            raise_interrupt=False,
            ignore_permission_denied=True,
        ):
            if not announced:
                announced = True
                self.sink(WatcherReady(self.name, tuple(live)))
            changes = []
            for change, path in raw:
                root = owning_root(path, live)
                if root is not None:
                    changes.append(SourceChange(root, path, CHANGE_NAMES.get(change, "modified")))
            if changes:
                self.sink(ChangeBatch(self.name, tuple(sorted(changes, key=lambda c: c.path))))
            if self.presence() != present:
                return


@dataclass
class Pending:
    """One source's changes waiting to be indexed (mutable bookkeeping of `PendingChanges`)."""

    since: float
    last_event: float
    files: dict[str, tuple[tuple[int, int] | None, float]] = field(default_factory=dict)  # path -> (sig, since)
    overflow: bool = False
    not_before: float = 0.0
    failures: int = 0


def file_signature(path: str) -> tuple[int, int] | None:
    """(size, mtime in ns) of a path, or None when it does not exist."""
    try:
        stat = os.stat(path)
    except OSError:
        return None
    return stat.st_size, stat.st_mtime_ns


class PendingChanges:
    """Changed paths per source (a folder root, or 'zotero') until they have settled."""

    def __init__(self, settle_s: float, max_settle_s: float, max_tracked: int) -> None:
        self.settle_s = settle_s
        self.max_settle_s = max_settle_s
        self.max_tracked = max_tracked
        self._sources: dict[str, Pending] = {}

    def __contains__(self, key: object) -> bool:
        return key in self._sources

    def __bool__(self) -> bool:
        return bool(self._sources)

    def waiting(self) -> int:
        """Paths tracked across sources (for the status bar)."""
        return sum(len(p.files) for p in self._sources.values())

    def mark(self, key: str, now: float, *, at_once: bool = False) -> None:
        """A whole source needs a run (start-up, a root back): at once, or after `settle_s` of quiet."""
        if key not in self._sources:
            self._sources[key] = Pending(since=now, last_event=now - self.settle_s if at_once else now)

    def note(self, key: str, path: str, now: float) -> None:
        """A path under a source changed: (re)start its settle clock."""
        pending = self._sources.get(key)
        if pending is None:
            pending = self._sources[key] = Pending(since=now, last_event=now)
        pending.last_event = now
        if pending.overflow:
            return
        if len(pending.files) >= self.max_tracked and path not in pending.files:
            pending.overflow = True  # bounded memory: from here on, wait for quiet instead
            pending.files.clear()
            return
        pending.files[path] = (file_signature(path), now)

    def drop(self, key: str) -> None:
        """Forget a source's changes (its root vanished)."""
        self._sources.pop(key, None)

    def take(self, keys: list[str]) -> dict[str, Pending]:
        """Remove and return these sources' changes (a run is about to handle them)."""
        return {key: self._sources.pop(key) for key in keys if key in self._sources}

    def put_back(self, taken: dict[str, Pending], delay: float, now: float, failures: int = 0) -> None:
        """Return changes after a busy or failed run, to be retried no sooner than `delay` from now."""
        for key, pending in taken.items():
            pending.not_before = now + delay
            pending.failures = failures
            newer = self._sources.get(key)
            if newer is not None:
                pending.files.update(newer.files)
                pending.overflow = pending.overflow or newer.overflow
                pending.last_event = max(pending.last_event, newer.last_event)
            self._sources[key] = pending

    def ready(self, now: float) -> list[str]:
        """Sources whose every change has held still for `settle_s` (or that waited `max_settle_s`)."""
        return [key for key, pending in self._sources.items() if self._settled(pending, now)]

    def _settled(self, pending: Pending, now: float) -> bool:
        if now < pending.not_before:
            return False
        if now - pending.since >= self.max_settle_s:
            return True
        if pending.overflow or not pending.files:
            return now - pending.last_event >= self.settle_s
        settled = True
        for path, (signature, since) in list(pending.files.items()):
            current = file_signature(path)
            if current != signature:
                pending.files[path] = (current, now)
                settled = False
            elif now - since < self.settle_s:
                settled = False
        return settled

    def wait_time(self, now: float, idle: float) -> float:
        """How long the service may sleep before something could become ready."""
        if not self._sources:
            return idle
        delays = [p.not_before - now for p in self._sources.values()]
        if all(d > 0 for d in delays):
            return max(0.05, min(min(delays), idle))
        return min(0.25, self.settle_s / 4)
