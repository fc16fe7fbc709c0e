"""State the app owns and its widgets show (kept in a leaf module so the host protocol can name it)."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class StatusState:
    """What the status bar shows; the app owns one and updates it from messages."""

    index: str = "index: idle"
    watcher: str = "off"
    model: str = "not loaded"
    counts: dict[str, int] = field(default_factory=dict)
    session_tokens: int = 0
    task: str = ""
