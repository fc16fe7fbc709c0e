"""The query bar (input plus detected intent and depth) and the removable filter chips."""

from __future__ import annotations

import re
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.message import Message
from textual.widgets import Input, Static

FILTER_TOKEN_RE = re.compile(r"(?:^|\s)filter:(\S+)")


def split_filters(text: str) -> tuple[str, list[str]]:
    """Pull `filter:EXPR` tokens out of a query: (the query without them, the expressions)."""
    filters = FILTER_TOKEN_RE.findall(text)
    query = " ".join(FILTER_TOKEN_RE.sub(" ", text).split())
    return query, filters


class QueryBar(Horizontal):
    """Where queries are typed; shows what the rules think the query asks for."""

    DEFAULT_CSS = """
    QueryBar { height: 1; background: $boost; }
    QueryBar #query-label { width: auto; padding: 0 1; color: $accent; text-style: bold; }
    QueryBar Input { width: 1fr; border: none; height: 1; padding: 0; background: $boost; }
    QueryBar Input:focus { background: $boost; }
    QueryBar #intent { width: auto; max-width: 50%; padding: 0 1; color: $text-muted; }
    """

    def compose(self) -> ComposeResult:
        yield Static("/", id="query-label")
        yield Input(
            placeholder="search your papers…  (filter:year>=2020 adds a chip)",
            id="query",
            compact=True,
        )
        yield Static("depth: auto", id="intent")

    def set_intent(self, kind: str | None, confidence: float, depth: str, chosen: str) -> None:
        """Show the detected intent and the depth an answer would use."""
        depth_text = f"depth: {chosen}" if chosen != "auto" else f"depth: auto→{depth or '?'}"
        text = f"{kind} {confidence:.2f} · {depth_text}" if kind else depth_text
        self.query_one("#intent", Static).update(text)


class Chip(Static, can_focus=True):
    """One active filter; click it, or focus it and press Enter or Delete, to remove it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,delete,x", "remove", "Remove filter", show=False),
    ]
    DEFAULT_CSS = """
    Chip { width: auto; height: 1; margin: 0 1 0 0; padding: 0 1; background: $primary 40%; }
    Chip:focus { background: $accent; text-style: bold; }
    Chip:hover { background: $primary 70%; }
    """

    class Removed(Message):
        """A chip asked to be removed."""

        def __init__(self, expression: str) -> None:
            super().__init__()
            self.expression = expression

    def __init__(self, expression: str) -> None:
        super().__init__(Text(f"{expression} ×"))  # as typed: "tag=[/draft]" is no markup
        self.expression = expression

    def action_remove(self) -> None:
        """Remove this filter."""
        self.post_message(self.Removed(self.expression))

    def on_click(self) -> None:
        self.action_remove()


class FilterChips(Horizontal):
    """The active filters as removable tokens (hidden when there are none)."""

    DEFAULT_CSS = """
    FilterChips { height: 1; display: none; padding: 0 1; }
    FilterChips.-shown { display: block; }
    FilterChips #chips-label { width: auto; color: $text-muted; margin: 0 1 0 0; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.expressions: list[str] = []

    def compose(self) -> ComposeResult:
        yield Static("filters:", id="chips-label")

    def set_filters(self, expressions: list[str]) -> None:
        """Show exactly these filters."""
        self.expressions = list(expressions)
        for chip in self.query(Chip):
            chip.remove()
        self.mount_all([Chip(e) for e in self.expressions])
        self.set_class(bool(self.expressions), "-shown")
