"""First run (and `+` later): choose folders and/or the Zotero library to index.

Indexing then runs in the background; the main screen stays usable and the status bar
shows progress.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Checkbox, Input, Label, Static


@dataclass(frozen=True)
class SourcesChosen:
    """What to index: folders and, optionally, a Zotero data dir."""

    folders: tuple[Path, ...]
    zotero_dir: Path | None


def parse_folders(text: str) -> tuple[list[Path], list[str]]:
    """Folders from `a; b` or one per `;`: (existing directories, problems)."""
    folders: list[Path] = []
    problems: list[str] = []
    for raw in (part.strip() for part in text.replace("\n", ";").split(";")):
        if not raw:
            continue
        path = Path(raw).expanduser()
        if not path.is_dir():
            problems.append(f"not a folder: {raw}")
        elif path not in folders:
            folders.append(path)
    return folders, problems


class FirstRunScreen(ModalScreen[SourcesChosen | None]):
    """Offer to add folders and the Zotero library; index them in the background."""

    CSS_PATH = "first_run.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "skip", "Skip", id="close")]

    def __init__(self, zotero_dir: Path | None, first_run: bool = True) -> None:
        super().__init__()
        self.zotero_dir = zotero_dir
        self.first_run = first_run

    def compose(self) -> ComposeResult:
        with Vertical(id="first-run"):
            yield Label("Welcome to workbench" if self.first_run else "Add sources", id="first-run-title")
            if self.first_run:
                yield Static(
                    "Nothing is indexed yet. Add folders of papers (PDF, Markdown, text, HTML) "
                    "and/or your Zotero library."
                )
            yield Label("Folders (separate several with ;)")
            yield Input(placeholder="~/papers; ~/notes", id="folders")
            if self.zotero_dir is not None:
                yield Checkbox(Text(f"Index the Zotero library in {self.zotero_dir} (read-only)"), True, id="zotero")
            else:
                yield Static("No Zotero library found (set sources.zotero_dir to use one).", classes="muted")
            yield Static("", id="first-run-error")
            with Horizontal(id="first-run-buttons"):
                yield Button("Index", variant="primary", id="index")
                yield Button("Skip", id="skip")
            yield Static(
                "Indexing runs in the background. The sources are saved to your config file "
                "(sources.folders, sources.zotero_dir) and watched from now on.",
                classes="muted",
            )

    def on_mount(self) -> None:
        self.query_one("#folders", Input).focus()

    def _choose(self) -> None:
        folders, problems = parse_folders(self.query_one("#folders", Input).value)
        error = self.query_one("#first-run-error", Static)
        if problems:
            error.update(Text("; ".join(problems)))  # the paths as typed, no markup
            return
        zotero = None
        if self.zotero_dir is not None and self.query_one("#zotero", Checkbox).value:
            zotero = self.zotero_dir
        if not folders and zotero is None:
            error.update("Give at least one folder, or tick the Zotero library (Esc skips).")
            return
        self.dismiss(SourcesChosen(tuple(folders), zotero))

    @on(Input.Submitted, "#folders")
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self._choose()

    @on(Button.Pressed, "#index")
    def _index(self) -> None:
        self._choose()

    @on(Button.Pressed, "#skip")
    def _skip(self) -> None:
        self.dismiss(None)

    def action_skip(self) -> None:
        """Close without indexing."""
        self.dismiss(None)
