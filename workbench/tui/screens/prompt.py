"""A one-line input in a small modal: notes, labels, filters, folder paths."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label, Static


class PromptScreen(ModalScreen[str | None]):
    """Ask for one line of text; Enter accepts, Esc cancels (dismisses with None)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel", id="close")]
    DEFAULT_CSS = """
    PromptScreen { align: center middle; background: $background 60%; }
    PromptScreen > Vertical {
        width: 70; max-width: 95%; height: auto; border: round $accent; padding: 0 1; background: $surface;
    }
    PromptScreen #prompt-title { text-style: bold; margin-bottom: 1; }
    PromptScreen #prompt-hint { color: $text-muted; }
    """

    def __init__(self, title: str, value: str = "", placeholder: str = "", hint: str = "") -> None:
        super().__init__()
        self.title_text = title
        self.value = value
        self.placeholder = placeholder
        self.hint = hint

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(Text(self.title_text), id="prompt-title")  # labels and notes are the user's text, no markup
            yield Input(self.value, placeholder=self.placeholder, id="prompt-input")
            yield Static(Text(self.hint or "Enter to accept · Esc to cancel"), id="prompt-hint")

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    def on_key(self, event: events.Key) -> None:
        # Keys typed right behind the key that opened the prompt (one burst over SSH) can
        # arrive before the input has the focus: they are still the user's text.
        field = self.query_one(Input)
        if field.has_focus:
            return
        if event.is_printable and event.character:
            field.insert_text_at_cursor(event.character)
            field.focus()
            event.stop()
        elif event.key == "enter":
            event.stop()
            self.dismiss(field.value)

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.dismiss(event.value)

    def action_cancel(self) -> None:
        """Close without a value."""
        self.dismiss(None)
