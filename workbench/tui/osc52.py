"""Copy to the clipboard of the terminal the user sits at, over SSH too (OSC 52).

Textual's `App.copy_to_clipboard` writes the OSC 52 escape through the app's driver, so it
needs no local clipboard tool or GUI. Terminals cap the payload (often ~100 kB); longer text
is refused with a message rather than silently cut. Inside tmux, OSC 52 needs
`set -g set-clipboard on` (the default `external` also works in recent tmux).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from textual.app import App

MAX_BYTES = 74_994  # xterm's default limit for the base64 payload is 100 000 bytes; 3/4 of it raw


def copy_to_clipboard(app: App[Any], text: str) -> tuple[bool, str]:
    """Send `text` to the terminal's clipboard; returns (sent, a line for the notification)."""
    size = len(text.encode("utf-8"))
    if size > MAX_BYTES:
        return False, f"too long to copy over OSC 52 ({size:,} bytes; limit {MAX_BYTES:,})"
    app.copy_to_clipboard(text)
    return True, f"copied {size:,} bytes (OSC 52)"
