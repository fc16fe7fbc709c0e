"""Durable marker files that say a multi-store write is under way (or was cut short).

Writes reach three stores that cannot share a transaction: LanceDB, then the catalog, then the
graph. Two markers make the unfinished state visible to readers in any process, at the cost
of one `stat`:

* `writes.pending` (next to the catalog) exists from the first chunk write of an index run
  until its last catalog commit. While it exists, chunks may belong to documents the catalog
  has not committed (orphans), and search hides them (see `consistency.OrphanFilter`). A run
  killed in between leaves it behind; the next run, or `doctor --repair`, reconciles and
  removes it.
* `<graph>.incomplete` exists while the graph sync writes the graph; left behind, it says the
  graph is partial, and `graph`, `related` and `doctor` say so.

Markers are created and removed with an fsync of the file and its folder, so a crash never
loses one that the stores' data already depends on.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path


def writes_pending_path(catalog_path: Path) -> Path:
    """The marker of an index run's unfinished writes."""
    return catalog_path.with_name("writes.pending")


def graph_incomplete_path(graph_path: Path) -> Path:
    """The marker of an unfinished graph sync."""
    return graph_path.with_name(graph_path.name + ".incomplete")


def _sync_dir(folder: Path) -> None:
    with contextlib.suppress(OSError):  # some file systems cannot fsync a folder
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def set_marker(path: Path) -> None:
    """Create the marker (holding this process's pid) durably; a no-op when it exists."""
    if path.exists():
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8") as handle:
        handle.write(str(os.getpid()))
        handle.flush()
        os.fsync(handle.fileno())
    _sync_dir(path.parent)


def clear_marker(path: Path) -> None:
    """Remove the marker durably; a no-op when it is not there."""
    try:
        path.unlink()
    except FileNotFoundError:
        return
    _sync_dir(path.parent)


def has_marker(path: Path) -> bool:
    """True when the marker exists."""
    return path.exists()
