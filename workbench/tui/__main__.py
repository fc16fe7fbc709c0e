"""`python -m workbench.tui [--config FILE]`: start the TUI (the same as bare `workbench`)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    """Load settings (fast: no engine yet) and run the TUI."""
    parser = argparse.ArgumentParser(prog="python -m workbench.tui", description="The workbench TUI.")
    parser.add_argument("--config", help="config file (default: $WORKBENCH_CONFIG, then the user config dir)")
    args = parser.parse_args(argv)
    from workbench.settings.config import ConfigError, load_settings

    try:
        settings = load_settings(args.config)
    except ConfigError as exc:
        print(f"workbench: {exc}", file=sys.stderr)
        return 2
    from workbench.tui import run_tui

    return run_tui(settings)


if __name__ == "__main__":
    raise SystemExit(main())
