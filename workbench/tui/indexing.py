"""The app's sources: first run and `+`, background index runs, the watcher worker.

Sources chosen in the TUI are indexed at once and remembered in the config file
(`workbench.settings.edit`), so the next start, `workbench watch` and this session's watcher
all follow them. The watcher is the same service as `workbench watch`, run in a worker;
it is restarted when the sources change.

Handlers here are named `on_<message>` because Textual's `@on` only registers handlers
declared on the message pump class itself, not on a mixin.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual import work
from textual.worker import get_current_worker

from workbench.tui.messages import IndexFinished, IndexProgressed, SourcesRemembered, TaskFailed, WatchUpdated

if TYPE_CHECKING:
    from textual.app import App

    from workbench.engine.engine import Engine
    from workbench.settings.config import Settings
    from workbench.tui.screens.first_run import SourcesChosen
    from workbench.tui.screens.main import MainScreen
    from workbench.tui.settings import TuiSettings

    _AppBase = App[None]
else:
    _AppBase = object


class IndexingMixin(_AppBase):
    """Index runs, remembered sources and the watcher, mixed into `WorkbenchApp` (which provides the rest)."""

    settings: Settings
    tui: TuiSettings
    _engine: Engine | None
    _watch_stop: threading.Event

    if TYPE_CHECKING:  # provided by WorkbenchApp

        def wait_engine(self, timeout: float = ...) -> Engine: ...

        def update_status(self, **changes: Any) -> None: ...

        def _check_library(self) -> object: ...

        @property
        def main_screen(self) -> MainScreen: ...

    @property
    def _app(self) -> IndexingMixin:
        return self

    def offer_sources(self, zotero_dir: Path | None, first_run: bool) -> None:
        """Ask for folders and/or the Zotero library, then index and remember them."""
        from workbench.tui.screens.first_run import FirstRunScreen

        app = self._app

        def chosen(choice: SourcesChosen | None) -> None:
            if choice is not None:
                app.start_index(list(choice.folders), choice.zotero_dir)
                app._remember_sources(list(choice.folders), choice.zotero_dir)

        app.push_screen(FirstRunScreen(zotero_dir, first_run=first_run), chosen)

    def start_index(self, folders: list[Path], zotero_dir: Path | None) -> None:
        """Index folders and a Zotero library in the background."""
        app = self._app
        app.update_status(index="index: starting…")
        app._index(folders, zotero_dir)

    @work(thread=True, exclusive=True, exit_on_error=False, group="index")
    def _index(self, folders: list[Path], zotero_dir: Path | None) -> None:
        app = self._app
        worker = get_current_worker()
        try:
            engine = app.wait_engine()
            runs: list[tuple[str, Any]] = []
            if folders:
                runs.append(("folders", lambda p, c: engine.index_folders(folders, p, c)))
            if zotero_dir is not None:
                runs.append(("zotero", lambda p, c: engine.index_zotero(zotero_dir, p, c)))
            for label, run in runs:
                report = run(
                    lambda event, label=label: app.post_message(
                        IndexProgressed(label, event.done, event.total, event.path)
                    ),
                    lambda: worker.is_cancelled,
                )
                summary = (
                    f"{label}: added {report.added}, updated {report.updated}, removed {report.removed}, "
                    f"unchanged {report.unchanged}, failed {report.failed}"
                )
                app.post_message(IndexFinished(label, summary, report.failed))
                if worker.is_cancelled:
                    return
        except Exception as exc:
            app.post_message(TaskFailed.from_error("index", exc))
            app.post_message(IndexFinished("index", "", 0))

    @work(thread=True, exit_on_error=False, group="config")
    def _remember_sources(self, folders: list[Path], zotero_dir: Path | None) -> None:
        from workbench.settings.config import ConfigError

        app = self._app
        try:
            added = app.wait_engine().add_sources(folders, zotero_dir)
        except (ConfigError, OSError) as exc:
            app.post_message(TaskFailed("config", f"sources not saved: {exc}"))
            return
        except Exception as exc:
            app.post_message(TaskFailed.from_error("config", exc))
            return
        app.post_message(SourcesRemembered(str(added.path), added.folders, added.zotero_dir))

    def on_sources_remembered(self, message: SourcesRemembered) -> None:
        """Follow the new sources from now on: the engine already does; the app's settings and the watcher too."""
        app = self._app
        if not message.folders and message.zotero_dir is None:
            return  # listed already
        if app._engine is not None:
            app.settings = app._engine.settings
        app.notify(f"Sources saved to {message.path}; they are watched from now on.", timeout=6, markup=False)
        if app.tui.watch:
            app.restart_watch()

    def restart_watch(self) -> None:
        """Stop the watcher (if one runs) and start one over the current sources."""
        app = self._app
        app._watch_stop.set()
        app._watch_stop = threading.Event()
        app._watch(app._watch_stop)

    @work(thread=True, exclusive=True, exit_on_error=False, group="watch")
    def _watch(self, stop: threading.Event) -> None:
        """Run the same watch service as `workbench watch` until `stop` is set."""
        app = self._app
        engine = app.wait_engine()
        folders, zotero = engine.configured_sources()
        if not folders and zotero is None:
            return

        def forward(event: Any) -> None:
            report = event.report
            changed = report is not None and bool(report.added or report.updated or report.removed or report.moved)
            app.post_message(WatchUpdated(event.kind, event.status, changed))

        engine.watch(lambda _line: None, stop=stop, folders=folders, zotero=zotero, on_event=forward)

    def on_watch_updated(self, message: WatchUpdated) -> None:
        app = self._app
        app.update_status(watcher=message.status or message.kind)
        if message.changed:
            app.main_screen.library_changed()

    def on_index_progressed(self, message: IndexProgressed) -> None:
        app = self._app
        name = Path(message.path).name[:30]
        app.update_status(index=f"index {message.label}: {message.done}/{message.total} {name}")

    def on_index_finished(self, message: IndexFinished) -> None:
        app = self._app
        if message.summary:
            app.notify(
                message.summary, title="Indexed", severity="warning" if message.failed else "information", markup=False
            )
            app.main_screen.library_changed()
        app._check_library()

    def action_reindex(self) -> None:
        """Index the configured sources now (incremental: unchanged files are skipped)."""
        self._app._reindex_configured()

    @work(thread=True, exclusive=True, exit_on_error=False, group="reindex")
    def _reindex_configured(self) -> None:
        app = self._app
        try:
            folders, zotero = app.wait_engine().configured_sources()
        except Exception as exc:
            app.post_message(TaskFailed.from_error("index", exc))
            return
        if not folders and zotero is None:
            app.call_from_thread(app.notify, "No sources configured: press + to add folders.", severity="warning")
            return
        app.call_from_thread(app.start_index, folders, zotero)

    def action_sources(self) -> None:
        """Add folders or the Zotero library."""
        self._app._offer_more_sources()

    @work(thread=True, exclusive=True, exit_on_error=False, group="sources")
    def _offer_more_sources(self) -> None:
        app = self._app
        try:
            found = app.wait_engine().detect_zotero()
        except Exception as exc:
            app.post_message(TaskFailed.from_error("sources", exc))
            return
        app.call_from_thread(app.offer_sources, found, False)
