"""The help screen: every key, generated from the bindings (and the user's keymap)."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from workbench.tui.keys import (
    APP_BINDINGS,
    BUILT_IN_KEYS,
    LIST_BINDINGS,
    MAIN_BINDINGS,
    QUEUE_BINDINGS,
    SCROLL_BINDINGS,
    TRIAGE_BINDINGS,
    key_rows,
)

if TYPE_CHECKING:
    from textual.app import App

INTRO = """\
# workbench keys

Search with **/**, move with **j k** or the arrows, switch panes with **h l** (or Tab),
triage with single keys, and press **Ctrl+P** to run any action by name.
Remap keys in the config under `[keys]`, e.g. `ask = "ctrl+a"` (ids are in the last column).

Query bar: a query searches; `filter:year>=2020` adds a filter chip. Filter keys: source,
folder, type, section, doc, citekey, year, tag, collection, author; triage, priority,
starred, label (workbench labels).
"""

INTRO_MARKUP = (
    "[b]workbench keys[/b]  (Esc closes)\n"
    "Search with [b]/[/b], move with [b]j k[/b] or the arrows, switch panes with [b]h l[/b] or Tab, triage with "
    "single keys, run any action by name with [b]Ctrl+P[/b]. Remap keys in the config under [b]\\[keys][/b], "
    'e.g. ask = "ctrl+a" (ids in the last column).\n'
    "In the query bar, [b]filter:year>=2020[/b] adds a filter chip. Filter keys: source folder type section doc "
    "citekey year tag collection author; triage priority starred label."
)

SCOPES: list[tuple[str, list[Binding]]] = [
    ("Anywhere", APP_BINDINGS),
    ("Main screen", [b for b in MAIN_BINDINGS if b not in TRIAGE_BINDINGS]),
    ("Triage (main screen and queue)", TRIAGE_BINDINGS),
    ("Results, graph and cost lists", LIST_BINDINGS),
    ("Preview", SCROLL_BINDINGS),
    ("Triage queue", [b for b in QUEUE_BINDINGS if b not in TRIAGE_BINDINGS]),
]


def help_markdown(app: App[object], keymap: dict[str, str]) -> str:
    """The help as Markdown (for the README): one table per scope, then the built-in keys."""
    parts = [INTRO]
    rows = key_rows(app, SCOPES, keymap)
    for scope, _ in SCOPES:
        lines = [f"## {scope}", "", "| key | action | id |", "|---|---|---|"]
        for row in rows:
            if row.scope == scope:
                keys = " ".join(f"`{k}`" for k in row.keys.split(" ") if k)
                lines.append(f"| {keys} | {row.description} | {row.binding_id} |")
        parts.append("\n".join(lines))
    built_in = ["## Built in", "", "| key | action |", "|---|---|"]
    built_in += [f"| `{key}` | {text} |" for key, text in BUILT_IN_KEYS]
    parts.append("\n".join(built_in))
    return "\n\n".join(parts)


def help_renderable(app: App[object], keymap: dict[str, str]) -> Group:
    """The help for the screen: compact tables, one per scope."""
    rows = key_rows(app, SCOPES, keymap)
    parts: list[RenderableType] = [Text.from_markup(INTRO_MARKUP)]
    for scope, _ in SCOPES:
        table = Table(box=None, show_header=False, padding=(0, 1), expand=True, title_justify="left")
        table.title = Text(scope, style="bold underline")
        table.add_column("keys", style="bold", width=14, no_wrap=True)
        table.add_column("action", ratio=1)
        table.add_column("id", style="dim", width=16, no_wrap=True)
        for row in rows:
            if row.scope == scope:
                table.add_row(row.keys, row.description, row.binding_id)
        parts += [Text(""), table]
    built_in = Table(box=None, show_header=False, padding=(0, 1), expand=True, title_justify="left")
    built_in.title = Text("Built in", style="bold underline")
    built_in.add_column("keys", style="bold", width=24, no_wrap=True)
    built_in.add_column("action", ratio=1)
    for key, text in BUILT_IN_KEYS:
        built_in.add_row(key, text)
    parts += [Text(""), built_in]
    return Group(*parts)


class HelpScreen(ModalScreen[None]):
    """Every key; Esc, q or ? closes."""

    CSS_PATH = "help.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,question_mark", "close", "Close", id="close"),
        Binding("j", "scroll('down')", show=False),
        Binding("k", "scroll('up')", show=False),
    ]

    def compose(self) -> ComposeResult:
        keymap = getattr(self.app, "user_keymap", {})
        with VerticalScroll(id="help-body"):
            yield Static(help_renderable(self.app, keymap), id="help-text")

    def on_mount(self) -> None:
        self.query_one("#help-body").focus()

    def action_scroll(self, direction: str) -> None:
        """Scroll the help text."""
        body = self.query_one("#help-body", VerticalScroll)
        body.scroll_relative(y=1 if direction == "down" else -1, animate=False)

    def action_close(self) -> None:
        """Close the help."""
        self.dismiss(None)
