"""The workbench app: engine lifecycle, background tasks, status, triage writes and exports.

Nothing heavy is imported before the first frame: the engine (DuckDB, LanceDB, NumPy,
the embedder) is built in a worker when the app is given settings rather than an engine,
and models warm up in the background. Every slow call runs in a worker; workers post
messages and the handlers here (or on the screens) own the state.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from textual import on, work
from textual.app import App
from textual.binding import BindingType

from workbench.errors import UsageError, WorkbenchError
from workbench.tui.commands import WorkbenchCommands
from workbench.tui.errors import NotifyWorkerErrors, Severity
from workbench.tui.indexing import IndexingMixin
from workbench.tui.keys import APP_BINDINGS
from workbench.tui.messages import (
    CountsRefreshed,
    EngineLoaded,
    ExportWritten,
    LibraryChecked,
    ResultsShown,
    TaskFailed,
    TriageChanged,
)
from workbench.tui.osc52 import copy_to_clipboard
from workbench.tui.screens.main import MainScreen
from workbench.tui.settings import TuiSettings, keymap, tui_settings
from workbench.tui.widgets.preview import Preview
from workbench.tui.widgets.status import StatusBar, StatusState

if TYPE_CHECKING:
    from workbench.engine.engine import Engine
    from workbench.library.triage import TriageRecord
    from workbench.records import Answer
    from workbench.settings.config import Settings

ENGINE_WAIT_S = 600.0


class WorkbenchApp(IndexingMixin, NotifyWorkerErrors, App[None]):
    """A full-screen workbench over the engine the CLI uses."""

    TITLE = "workbench"
    BINDINGS: ClassVar[list[BindingType]] = [*APP_BINDINGS]
    COMMANDS = App.COMMANDS | {WorkbenchCommands}
    # The main screen is the default screen, whose own CSS_PATH Textual does not load; its
    # stylesheet is registered here instead. (MODES would load it, but crash on Python 3.12
    # when the first screen focuses an Input.)
    CSS_PATH = str(Path(__file__).parent / "screens" / "main.tcss")  # absolute: subclasses live elsewhere

    def __init__(
        self,
        engine: Engine | None = None,
        *,
        settings: Settings | None = None,
        tui: TuiSettings | None = None,
        keys: dict[str, str] | None = None,
    ) -> None:
        if settings is None:
            if engine is None:
                raise ValueError("give an engine or settings")
            settings = engine.settings
        super().__init__()
        self.settings: Settings = settings
        self.tui = tui if tui is not None else tui_settings(self.settings)
        self.user_keymap: dict[str, str] = dict(keys) if keys is not None else keymap(self.settings)
        self.status = StatusState()
        self.triage_cache: dict[str, TriageRecord] = {}
        self.triage_complete = False  # True once triage_cache holds every stored record
        self._engine = engine
        self._engine_error = ""
        self._engine_ready = threading.Event()
        self._watch_stop = threading.Event()
        self._started = False  # first run / index on start are decided once, at the first check
        self._background_started = False  # watcher and warm-ups: once the first listing is on screen
        if engine is not None:
            self._engine_ready.set()

    def get_default_screen(self) -> MainScreen:
        return MainScreen()

    def on_mount(self) -> None:
        if self.user_keymap:
            self.set_keymap(self.user_keymap)
        if self.tui.theme in self.available_themes:
            self.theme = self.tui.theme
        self.set_interval(1.0, self._poll_model)

    def on_ready(self) -> None:
        # After the first frame: the engine's imports (DuckDB, LanceDB, NumPy) would hold
        # the GIL while the first screen is composed and painted.
        for preview in self.main_screen.query(Preview):
            preview.install_markdown()
        if self._engine is None:
            self._load_engine()
        else:
            self.post_message(EngineLoaded(self._engine))

    # -- the engine -------------------------------------------------------------------------------
    def wait_engine(self, timeout: float = ENGINE_WAIT_S) -> Engine:
        """The engine, waiting for it to load (call from workers only)."""
        if not self._engine_ready.wait(timeout):
            raise WorkbenchError("the engine did not load in time")
        if self._engine is None:
            raise WorkbenchError(f"the engine failed to load: {self._engine_error}")
        return self._engine

    @work(thread=True, exclusive=True, exit_on_error=False, group="engine")
    def _load_engine(self) -> None:
        try:
            from workbench.engine.engine import Engine

            engine = Engine(self.settings)
        except Exception as exc:
            self._engine_error = f"{type(exc).__name__}: {exc}"
            self._engine_ready.set()
            self.post_message(TaskFailed("engine", self._engine_error))
            return
        self._engine = engine
        self._engine_ready.set()
        self.post_message(EngineLoaded(engine))

    @on(EngineLoaded)
    def _engine_loaded(self) -> None:
        self._check_library()

    def _start_background(self) -> None:
        """The watcher and the warm-ups, once: after the first listing is drawn (or a task failed),
        so their imports (LanceDB, onnxruntime) do not hold the GIL while the library is listed."""
        if self._background_started:
            return
        self._background_started = True
        if self.tui.watch:
            self._watch(self._watch_stop)
        if self.tui.warm_up_embedder:
            self._warm_embedder()
        if self.tui.warm_up_model:
            self._warm_model()

    @on(ResultsShown)
    def _first_results_shown(self) -> None:
        self._start_background()

    @work(thread=True, exclusive=True, exit_on_error=False, group="library")
    def _check_library(self) -> None:
        try:
            engine = self.wait_engine()
            documents = engine.document_count()  # the catalog alone: no LanceDB import before the listing
            sources = self.settings.sources
            configured = bool(sources.folders) or bool(sources.zotero_dir)
            zotero_dir = None if configured else engine.detect_zotero()
        except Exception as exc:
            self.post_message(TaskFailed.from_error("catalog", exc))
            return
        self.post_message(LibraryChecked(documents, configured, zotero_dir))

    @on(LibraryChecked)
    def _library_checked(self, message: LibraryChecked) -> None:
        papers = "paper" if message.documents == 1 else "papers"
        self.update_status(index=f"index: {message.documents} {papers}")
        self.refresh_counts()
        self.main_screen.run_query()
        if self._started:
            return
        self._started = True
        if message.documents == 0 and not message.configured:
            self.offer_sources(message.zotero_dir, first_run=True)
        elif message.configured and self.tui.index_on_start:
            self.action_reindex()

    @property
    def main_screen(self) -> MainScreen:
        """The main screen (the bottom of the screen stack)."""
        screen = self.screen_stack[0]
        assert isinstance(screen, MainScreen)
        return screen

    def on_unmount(self) -> None:
        self._watch_stop.set()

    # -- models --------------------------------------------------------------------------------
    @work(thread=True, exclusive=True, exit_on_error=False, group="warm-embedder")
    def _warm_embedder(self) -> None:
        try:
            self.wait_engine().warm_up_embedder()
        except Exception as exc:
            self.post_message(TaskFailed.from_error("embedding model", exc))

    @work(thread=True, exclusive=True, exit_on_error=False, group="warm-model")
    def _warm_model(self) -> None:
        try:
            self.wait_engine().warm_up_model()
        except Exception as exc:
            self.post_message(TaskFailed.from_error("language model", exc))

    def action_load_model(self) -> None:
        """Load the language model in the background."""
        self.update_status(model="loading")
        self._warm_model()

    def _poll_model(self) -> None:
        if self._engine is None:
            return
        try:
            state = str(self._engine.model_state())
        except Exception as exc:
            state = f"error: {exc}"
        if state != self.status.model:
            self.update_status(model=state)

    # -- triage -----------------------------------------------------------------------------------
    def change_triage(self, doc_id: str, change: str, value: Any) -> None:
        """Write one triage change in the background."""
        self._write_triage(doc_id, change, value)

    @work(thread=True, exit_on_error=False, group="triage")
    def _write_triage(self, doc_id: str, change: str, value: Any) -> None:
        try:
            engine = self.wait_engine()
            record = engine.change_triage(doc_id, change, value)
            counts = engine.triage_counts()
        except Exception as exc:
            self.post_message(TaskFailed.from_error("triage", exc))
            return
        self.post_message(TriageChanged(record, counts, change))

    @on(TriageChanged)
    def _triage_changed(self, message: TriageChanged) -> None:
        if message.relayed:
            return
        self.triage_cache[message.record.doc_id] = message.record
        self.update_status(counts=message.counts)
        self.notify(message.record.describe(), title="Triage", timeout=2, markup=False)
        for screen in self.screen_stack:
            forwarded = TriageChanged(message.record, message.counts, message.change)
            forwarded.relayed = True
            screen.post_message(forwarded)

    def refresh_counts(self) -> None:
        """Read the triage counts for the status bar."""
        self._read_counts()

    @work(thread=True, exclusive=True, exit_on_error=False, group="counts")
    def _read_counts(self) -> None:
        try:
            engine = self.wait_engine()
            counts = engine.triage_counts()
            records = engine.triage_records()
        except Exception as exc:
            self.post_message(TaskFailed.from_error("triage counts", exc))
            return
        self.post_message(CountsRefreshed(counts, records))

    @on(CountsRefreshed)
    def _counts_refreshed(self, message: CountsRefreshed) -> None:
        self.update_status(counts=message.counts)
        self.triage_cache.update(message.records)
        self.triage_complete = True

    # -- copy and export ---------------------------------------------------------------------------
    def copy_text(self, text: str, what: str) -> None:
        """Copy to the terminal's clipboard (OSC 52) and say so."""
        sent, line = copy_to_clipboard(self, text)
        self.notify(f"{what}: {line}", severity="information" if sent else "warning", timeout=3, markup=False)

    def export(
        self, kind: str, doc_ids: list[str] | None, summary: Answer | None = None, answer: Answer | None = None
    ) -> None:
        """Write BibTeX (`kind='bibtex'`) or a Markdown note (`'note'`) in the background."""
        self._export(kind, doc_ids, summary, answer)

    def export_dir(self) -> Path:
        """Where exports go: `tui.export_dir`, else the current directory."""
        return Path(self.tui.export_dir).expanduser() if self.tui.export_dir else Path.cwd()

    @work(thread=True, exit_on_error=False, group="export")
    def _export(self, kind: str, doc_ids: list[str] | None, summary: Answer | None, answer: Answer | None) -> None:
        try:
            engine = self.wait_engine()
            if doc_ids is None and not engine.starred():
                raise UsageError("no starred papers (press * on a paper to star it)")
            if kind == "bibtex":
                export = engine.export_bibtex(doc_ids or (), starred=doc_ids is None)
            else:
                export = engine.export_markdown((doc_ids or [])[:1], summary=summary, answer=answer)
            path = engine.write_export(export, self.export_dir())
        except Exception as exc:
            self.post_message(TaskFailed.from_error("export", exc))
            return
        self.post_message(ExportWritten(kind, path, export.text))

    @on(ExportWritten)
    def _export_written(self, message: ExportWritten) -> None:
        _, line = copy_to_clipboard(self, message.text)
        what = "BibTeX" if message.what == "bibtex" else "Note"
        self.notify(f"{what} written to {message.path}; {line}", title="Exported", timeout=6, markup=False)

    def action_export_starred(self) -> None:
        """Export BibTeX for every starred paper."""
        self.export("bibtex", None)

    # -- screens ---------------------------------------------------------------------------------
    def action_help(self) -> None:
        """Show every key."""
        from workbench.tui.screens.help import HelpScreen

        if not any(type(s).__name__ == "HelpScreen" for s in self.screen_stack):
            self.push_screen(HelpScreen())

    def action_queue(self) -> None:
        """Open the triage queue."""
        from workbench.tui.screens.queue import QueueScreen

        if not isinstance(self.screen, QueueScreen):
            self.push_screen(QueueScreen())

    # -- status and errors -----------------------------------------------------------------------
    def update_status(self, **changes: Any) -> None:
        """Change what the status bar shows and redraw every status bar."""
        for key, value in changes.items():
            setattr(self.status, key, value)
        for screen in self.screen_stack:
            for bar in screen.query(StatusBar):
                bar.show(self.status)

    def set_task(self, task: str) -> None:
        """The running foreground task ('' when none)."""
        self.update_status(task=task)

    def add_tokens(self, tokens: int) -> None:
        """Add a run's tokens to the session total."""
        self.update_status(session_tokens=self.status.session_tokens + tokens)

    @on(TaskFailed)
    def _task_failed(self, message: TaskFailed) -> None:
        if self._engine is not None:  # the first listing failed: the background work still starts
            self._start_background()
        severity: Severity = "warning" if message.severity == "warning" else "error"
        self.notify(
            message.error, title=f"{message.task.capitalize()} failed", severity=severity, timeout=8, markup=False
        )
