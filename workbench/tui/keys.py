"""Every key binding, with an id for remapping (`[keys]` in the config, `App.set_keymap`).

Classes take their `BINDINGS` from here, and the help screen and the command palette are
generated from these same lists, so the documentation of a key cannot go stale.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from textual.binding import Binding

from workbench.tui.settings import KeySettings

if TYPE_CHECKING:
    from textual.app import App

APP_BINDINGS: list[Binding] = [
    Binding("question_mark", "help", "Help", id="help"),
    Binding("q", "quit", "Quit", id="quit"),
    Binding("I", "queue", "Queue", id="queue"),
    Binding("plus", "sources", "Add sources", id="sources", show=False),
    Binding("R", "reindex", "Re-index sources", id="reindex", show=False),
    Binding("M", "load_model", "Load language model", id="load_model", show=False),
    Binding("B", "export_starred", "BibTeX of starred papers", id="export_starred", show=False),
]

TRIAGE_BINDINGS: list[Binding] = [
    Binding("i", "triage('inbox')", "Inbox", id="mark_inbox", show=False),
    Binding("r", "triage('reading')", "Reading", id="mark_reading", show=False),
    Binding("m", "triage('read')", "Read", id="mark_read", show=False),
    Binding("x", "triage('skipped')", "Skip", id="mark_skipped", show=False),
    Binding("0", "priority(0)", "Priority 0", id="priority_0", show=False),
    Binding("1", "priority(1)", "Priority 1", id="priority_1", show=False),
    Binding("2", "priority(2)", "Priority 2", id="priority_2", show=False),
    Binding("3", "priority(3)", "Priority 3", id="priority_3", show=False),
    Binding("asterisk", "star", "Star", id="star", show=False),
    # Keys that open a prompt are priority bindings, like "/": the letters typed right behind
    # them must reach the prompt, not run as commands (see `PromptScreen.on_key`).
    Binding("t", "add_tag", "Add label", id="tag_add", show=False, priority=True),
    Binding("T", "remove_tag", "Remove label", id="tag_remove", show=False, priority=True),
    Binding("n", "edit_note", "Note", id="note", show=False, priority=True),
]

MAIN_BINDINGS: list[Binding] = [
    # A priority binding runs as the key arrives, before the keys behind it are routed: over
    # SSH a typed "/query" can land in one burst, and the query must get every letter of it.
    Binding("slash", "focus_search", "Search", id="search", priority=True),
    Binding("a", "ask", "Ask", id="ask"),
    Binding("s", "summarize", "Summary", id="summarize"),
    Binding("d", "depth(1)", "Depth", id="depth_next"),
    Binding("D", "depth(-1)", "Depth back", id="depth_prev", show=False),
    Binding("escape", "cancel", "Cancel", id="cancel", show=False),
    Binding("f", "add_filter", "Filter", id="add_filter", priority=True),
    Binding("F", "clear_filters", "Clear filters", id="clear_filters", show=False),
    Binding("o", "cycle_sort", "Sort", id="sort"),
    Binding("right_square_bracket", "citation(1)", "Next citation", id="citation_next", show=False),
    Binding("left_square_bracket", "citation(-1)", "Previous citation", id="citation_prev", show=False),
    Binding("l", "pane(1)", "Next pane", id="pane_next", show=False),
    Binding("h", "pane(-1)", "Previous pane", id="pane_prev", show=False),
    Binding("backspace", "back", "Back", id="back", show=False),
    *TRIAGE_BINDINGS,
    Binding("y", "copy_reference", "Copy citation", id="copy_reference", show=False),
    Binding("Y", "copy_answer", "Copy answer", id="copy_answer", show=False),
    Binding("b", "export_bibtex", "BibTeX", id="export_bibtex", show=False),
    Binding("e", "export_note", "Export note", id="export_note", show=False),
]

# Actions of the main screen's priority bindings: they run as the key arrives, so the main
# screen turns them off while its query bar (an Input) has the focus.
PRIORITY_ACTIONS = frozenset(b.action for b in [*TRIAGE_BINDINGS, *MAIN_BINDINGS] if b.priority)

LIST_BINDINGS: list[Binding] = [
    Binding("j", "cursor_down", "Down", id="down", show=False),
    Binding("k", "cursor_up", "Up", id="up", show=False),
    Binding("g", "first", "Top", id="top", show=False),
    Binding("G", "last", "Bottom", id="bottom", show=False),
]

SCROLL_BINDINGS: list[Binding] = [
    Binding("j", "scroll_down", "Scroll down", id="down", show=False),
    Binding("k", "scroll_up", "Scroll up", id="up", show=False),
    Binding("g", "scroll_home", "Top", id="top", show=False),
    Binding("G", "scroll_end", "Bottom", id="bottom", show=False),
    Binding("enter", "open_citation", "Open cited paper", id="open", show=False),
]

QUEUE_BINDINGS: list[Binding] = [
    Binding("escape", "close", "Back", id="close"),
    Binding("enter", "open", "Open in main view", id="open"),
    *TRIAGE_BINDINGS,
]

BUILT_IN_KEYS: list[tuple[str, str]] = [
    ("ctrl+p", "Command palette: every action by name"),
    ("ctrl+q", "Quit"),
    ("tab / shift+tab", "Focus the next / previous widget"),
    ("enter", "Run the query (query bar), open the selected row (lists)"),
    ("↑ ↓ pgup pgdn home end", "Move in lists and scroll the preview"),
]


@dataclass(frozen=True)
class KeyRow:
    """One line of the generated help: where the key works, the keys, what they do, the id."""

    scope: str
    keys: str
    description: str
    binding_id: str


def binding_help(binding: Binding) -> str:
    """The long description of a binding (the `[keys]` setting's doc), else its footer label."""
    field = KeySettings.__dataclass_fields__.get(binding.id or "")
    if field is not None and field.metadata.get("doc"):
        return str(field.metadata["doc"]).rstrip(".")
    return binding.description or binding.action


def effective_key(binding: Binding, keymap: dict[str, str]) -> str:
    """The key(s) a binding answers to after the user's keymap is applied."""
    if binding.id and binding.id in keymap:
        return keymap[binding.id]
    return binding.key


def key_rows(app: App[object], scopes: list[tuple[str, list[Binding]]], keymap: dict[str, str]) -> list[KeyRow]:
    """Help rows for every binding in these scopes, keys shown as the terminal displays them."""
    rows: list[KeyRow] = []
    for scope, bindings in scopes:
        seen: set[str] = set()
        for binding in bindings:
            if binding.id in seen:
                continue
            seen.add(binding.id or binding.action)
            keys = effective_key(binding, keymap)
            shown = " ".join(
                app.get_key_display(Binding(k.strip(), binding.action)) for k in keys.split(",") if k.strip()
            )
            description = binding.description if scope == "Preview" and binding.id != "open" else binding_help(binding)
            rows.append(KeyRow(scope, shown, description, binding.id or ""))
    return rows


def all_binding_ids() -> set[str]:
    """Every binding id defined here (each must be a `KeySettings` field)."""
    lists = (APP_BINDINGS, MAIN_BINDINGS, LIST_BINDINGS, SCROLL_BINDINGS, QUEUE_BINDINGS)
    return {b.id for bindings in lists for b in bindings if b.id}
