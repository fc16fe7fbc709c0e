"""Reusable widgets of the workbench TUI (each with its own DEFAULT_CSS)."""
