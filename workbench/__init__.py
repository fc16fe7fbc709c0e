"""workbench: a terminal knowledge workbench for researchers (headless core + TUI)."""

from __future__ import annotations

__version__ = "0.1.0"
