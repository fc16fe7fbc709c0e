"""The engine: the one door every front end (CLI, TUI, MCP) goes through."""
