"""The errors a user can see: one hierarchy, each carrying its exit code.

Front ends catch `WorkbenchError` and show `str(exc)` as one line (the CLI exits with
`exit_code`, the TUI notifies); nothing matches on message text. Each class also keeps the
builtin base its callers caught before (`ValueError`, `RuntimeError`) so old handlers still work.
"""

from __future__ import annotations


class WorkbenchError(Exception):
    """Anything the workbench reports to a user as one line."""

    exit_code = 1


class UsageError(WorkbenchError, ValueError):
    """Bad input from the user: an argument, a filter, a triage value."""

    exit_code = 2


class FilterError(UsageError):
    """A `--filter` expression (or filter chip) that cannot be applied; `expression` is the one at fault."""

    def __init__(self, message: str, expression: str = "") -> None:
        super().__init__(message)
        self.expression = expression


class ConfigError(WorkbenchError, ValueError):
    """A configuration problem, phrased as one line naming the file and key."""

    exit_code = 2


class StoreError(WorkbenchError, RuntimeError):
    """A store (catalog, chunks, graph) cannot do what was asked."""


class StoreBusyError(StoreError):
    """Another process holds a store for longer than we wait."""


class GraphError(StoreError):
    """The graph store cannot do what was asked; the message is one line for the user."""


class GraphNotBuiltError(GraphError):
    """The knowledge graph has not been built yet (run `workbench index`)."""


class IndexMismatchError(StoreError):
    """The index on disk was built with other settings (embedder, vector size, chunking, FTS)."""

    exit_code = 2


class ModelError(WorkbenchError, RuntimeError):
    """The model is missing, corrupt, unreachable, or its output was unusable."""


class SourceError(WorkbenchError):
    """A source (folder, Zotero library) that cannot be read."""


def one_line(exc: BaseException, limit: int = 300) -> str:
    """An exception's message as one printable line: its first non-blank line, shortened.

    Store libraries (DuckDB, LanceDB, Kùzu) put context on later lines and can echo whole
    queries; users get the first line. An empty message falls back to the exception's type.
    """
    from workbench.text.safe import printable

    lines = str(exc).splitlines()
    text = next((line.strip() for line in lines if line.strip()), "") or type(exc).__name__
    return printable(text, limit)


def error_line(exc: BaseException) -> str:
    """The line a front end shows for an error: `workbench: <message>` (the CLI's stderr, the MCP tool error)."""
    return f"workbench: {one_line(exc, 500)}"


def is_store_failure(exc: BaseException) -> bool:
    """True for an exception raised inside a store library, or an OS error such as a full disk.

    Matched by the exception's module, so this module imports none of the (heavy) libraries.
    """
    if isinstance(exc, OSError):
        return True
    module = type(exc).__module__.split(".")[0].lstrip("_")
    return module in {"duckdb", "lancedb", "lance", "kuzu", "pyarrow", "sqlite3"}
