"""Where the libraries' own log records go: one line each on a terminal, never a traceback.

DuckDB, LanceDB, pypdf, readability and the rest log through `logging`. With no handler set,
Python prints a record of WARNING or above to stderr with its whole traceback (the "last
resort" handler): a CLI run would show a library's stack for a failure the workbench had
already caught and reported in its own words, and in the TUI the text would land on the screen.
"""

from __future__ import annotations

import logging


class _OneLine(logging.Formatter):
    """A record as `workbench: LOGGER: MESSAGE`, its traceback left out."""

    def format(self, record: logging.LogRecord) -> str:
        message = " ".join(record.getMessage().split()).rstrip(":") or record.levelname.lower()
        return f"workbench: {record.name}: {message}"


def route_library_logs(*, terminal: bool) -> None:
    """Give the root logger a handler, unless the program embedding the workbench set one.

    On a terminal (`terminal`: the CLI) errors print as one line each; otherwise (the TUI, whose
    screen must not be written over) library records are dropped.
    """
    root = logging.getLogger()
    if root.handlers:
        return
    handler: logging.Handler = logging.StreamHandler() if terminal else logging.NullHandler()
    handler.setLevel(logging.ERROR)
    handler.setFormatter(_OneLine())
    root.addHandler(handler)
