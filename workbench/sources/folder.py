"""Scanning watched folders: every supported file, with size and mtime, never following loops."""

from __future__ import annotations

import fnmatch
import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

# Editor temp files, swap files and partial downloads are never documents.
DEFAULT_IGNORE: tuple[str, ...] = (
    ".*",
    "~$*",
    "*.part",
    "*.crdownload",
    "*.download",
    "*.tmp",
    "*.swp",
    "*.swx",
    "*~",
    "#*#",
)


@dataclass(frozen=True)
class FileEntry:
    """A candidate file found in a watched root."""

    root: str
    path: str
    size: int
    mtime: float

    @property
    def relative(self) -> str:
        """The path relative to its root, with forward slashes (the stable document id part)."""
        return Path(self.path).relative_to(self.root).as_posix()


@dataclass(frozen=True)
class ScanProblem:
    """A path that could not be scanned, with the reason."""

    path: str
    reason: str


def is_ignored(name: str, extra: Sequence[str] = ()) -> bool:
    """True for hidden, temporary and partial files (and any extra glob patterns)."""
    return any(fnmatch.fnmatch(name, pattern) for pattern in (*DEFAULT_IGNORE, *extra))


def scan_folder(
    root: Path, suffixes: frozenset[str], ignore: Sequence[str] = (), problems: list[ScanProblem] | None = None
) -> Iterator[FileEntry]:
    """Yield supported files under `root`, recursively; symlinked dirs are not followed."""
    root_str = str(root)

    def on_error(error: OSError) -> None:
        if problems is not None:
            problems.append(ScanProblem(str(error.filename), error.strerror or str(error)))

    for dirpath, dirnames, filenames in os.walk(root, onerror=on_error, followlinks=False):
        dirnames[:] = sorted(d for d in dirnames if not is_ignored(d, ignore))
        for name in sorted(filenames):
            if is_ignored(name, ignore) or Path(name).suffix.lower() not in suffixes:
                continue
            full = os.path.join(dirpath, name)
            try:
                stat = os.stat(full)
            except OSError as exc:
                on_error(exc)
                continue
            if not os.path.isfile(full):
                continue
            yield FileEntry(root_str, full, stat.st_size, stat.st_mtime)
