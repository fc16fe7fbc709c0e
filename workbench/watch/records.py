"""What the watch service is given and what it reports: sources, options and events.

Front ends (`workbench watch`, the TUI's watcher worker, the watch benchmark) build
`WatchSources` and `WatchOptions` for `workbench.watch.run_watch` and receive `WatchEvent`s
from it; `report_line` is the log line the service writes after each index run.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from workbench.ingest.index_report import IndexReport
from workbench.ingest.pipeline import Progress
from workbench.settings.config import Settings


class WatchEngine(Protocol):
    """What the watch service needs of the engine (its settings, index runs, two reads)."""

    @property
    def settings(self) -> Settings:
        """The settings (sources, ignore patterns)."""
        ...

    def zotero_dir(self) -> Path | None:
        """The configured Zotero data dir, or None."""
        ...

    def index_folders(
        self,
        folders: Sequence[Path],
        progress: Callable[[Progress], None] | None = None,
        cancelled: Callable[[], bool] | None = None,
    ) -> IndexReport:
        """Index folders under the writer lock."""
        ...

    def index_zotero(
        self,
        data_dir: Path,
        progress: Callable[[Progress], None] | None = None,
        cancelled: Callable[[], bool] | None = None,
    ) -> IndexReport:
        """Sync a Zotero library under the writer lock."""
        ...

    def indexed_file_count(self, root: str) -> int:
        """Files the catalog holds under one watched root."""
        ...

    def refresh_index(self) -> None:
        """See writes another process made to the chunk table."""
        ...


ZOTERO = "zotero"  # the source key (and WatchEvent.source) of the Zotero library
FOLDERS = "folders"  # WatchEvent.source of folder runs
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
    def configured(cls, engine: WatchEngine) -> WatchSources:
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


def plural(count: int, word: str) -> str:
    """`count` and `word`, with an "s" unless the count is one ("1 file", "3 folders")."""
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
    return f"{source}: {', '.join(parts + extra)}; {plural(report.chunks, 'chunk')} in {report.seconds:.2f} s"
