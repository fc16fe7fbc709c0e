"""The command palette (Ctrl+P): every action of the current screen and the app, by name.

Built from the same binding lists as the keys and the help, plus a few actions that have no
key of their own (showing a pane). Each entry shows its key, so the palette teaches the keys.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from textual.binding import Binding
from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.dom import DOMNode

from workbench.tui.keys import APP_BINDINGS, binding_help, effective_key

EXTRA_MAIN_COMMANDS: list[tuple[str, str, str]] = [
    ("Show preview pane", "show_pane('preview')", "bring up and focus the preview"),
    ("Show graph pane", "show_pane('graph')", "bring up and focus the graph neighbours"),
    ("Show cost pane", "show_pane('costs')", "bring up and focus the token costs"),
    ("Focus results", "show_pane('results')", "move to the results table"),
]


class WorkbenchCommands(Provider):
    """Commands for the screen the palette was opened from, then the app's."""

    def _commands(self) -> list[tuple[str, str, Callable[[], Any]]]:
        screen = self.screen
        app = self.app
        keymap: dict[str, str] = getattr(app, "user_keymap", {})
        commands: list[tuple[str, str, Callable[[], Any]]] = []
        seen: set[str] = set()

        def add(bindings: list[Binding], namespace: DOMNode) -> None:
            for binding in bindings:
                if not binding.description or binding.action in seen:
                    continue
                seen.add(binding.action)
                keys = ", ".join(
                    app.get_key_display(Binding(k.strip(), binding.action))
                    for k in effective_key(binding, keymap).split(",")
                )
                title = binding_help(binding)
                commands.append((title, f"key: {keys}", partial(app.run_action, binding.action, namespace)))

        screen_bindings = [b for b in getattr(type(screen), "BINDINGS", []) if isinstance(b, Binding)]
        add(screen_bindings, screen)
        if type(screen).__name__ == "MainScreen":
            for title, action, help_text in EXTRA_MAIN_COMMANDS:
                commands.append((title, help_text, partial(app.run_action, action, screen)))
        add(APP_BINDINGS, app)
        return commands

    async def discover(self) -> Hits:
        for title, help_text, callback in self._commands():
            yield DiscoveryHit(title, callback, help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for title, help_text, callback in self._commands():
            score = matcher.match(title)
            if score > 0:
                yield Hit(score, matcher.highlight(title), callback, text=title, help=help_text)
