"""Screens of the workbench TUI (each with its own .tcss)."""
