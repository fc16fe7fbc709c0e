"""The `workbench` console script: the TUI for a bare `workbench` on a terminal, else the CLI.

Kept tiny on purpose: deciding which front end to start imports nothing heavy, so the TUI
paints its first frame before DuckDB, LanceDB or any model is loaded.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence


def _tui_config(argv: Sequence[str]) -> tuple[bool, str | None]:
    """Whether argv asks for the TUI (no verb, only --config), and the config path if any."""
    config: str | None = None
    rest = list(argv)
    while rest:
        arg = rest.pop(0)
        if arg == "--config" and rest:
            config = rest.pop(0)
        elif arg.startswith("--config="):
            config = arg.split("=", 1)[1]
        else:
            return False, None
    return True, config


def main(argv: Sequence[str] | None = None) -> int:
    """Start the TUI (bare command on a terminal) or run a CLI verb."""
    args = sys.argv[1:] if argv is None else list(argv)
    wants_tui, config = _tui_config(args)
    if wants_tui and sys.stdin.isatty() and sys.stdout.isatty():
        from workbench.settings.config import ConfigError, load_settings

        try:
            settings = load_settings(config)
        except ConfigError as exc:
            print(f"workbench: {exc}", file=sys.stderr)
            return 2
        from workbench.tui import run_tui

        return run_tui(settings)
    from workbench.cli.main import main as cli_main

    return cli_main(args)


if __name__ == "__main__":
    raise SystemExit(main())
