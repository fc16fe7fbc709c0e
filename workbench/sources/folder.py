"""Scanning watched folders: every supported file, with size and mtime, never following loops."""

from __future__ import annotations

import errno
import fnmatch
import os
import stat
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from workbench.records import folder_doc_id
from workbench.text.safe import valid_text

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
    """A candidate file found in a watched root.

    `root` and `path` are the OS's own strings (used to open the file); `key`, `root_key` and
    `relative` are their valid-Unicode forms (see `valid_text`), the forms every store holds.
    """

    root: str
    path: str
    size: int
    mtime: float
    root_number: int = 0  # the root's number in the catalog (see `folder_doc_id`)

    @property
    def relative(self) -> str:
        """The path relative to its root, with forward slashes (the stable document id part)."""
        return valid_text(Path(self.path).relative_to(self.root).as_posix())

    @property
    def key(self) -> str:
        """The path as the catalog stores it."""
        return valid_text(self.path)

    @property
    def root_key(self) -> str:
        """The root as the catalog stores it."""
        return valid_text(self.root)

    @property
    def doc_id(self) -> str:
        """The id of the document this file holds."""
        return folder_doc_id(self.root_number, self.relative)


@dataclass(frozen=True)
class ScanProblem:
    """A path that could not be scanned, with the reason; `root` is set for a file in a root."""

    path: str
    reason: str
    root: str = ""
    root_number: int = 0

    @property
    def entry(self) -> FileEntry | None:
        """The problem as a file entry of its root (to record it in the catalog), if it is a file."""
        return FileEntry(self.root, self.path, 0, 0.0, self.root_number) if self.root else None


def _reason(path: str, error: OSError) -> str:
    if os.path.islink(path):
        if error.errno == errno.ELOOP:
            return "symbolic link loop"
        if error.errno == errno.ENOENT:
            return f"broken symbolic link (target {valid_text(os.readlink(path))} is missing)"
    return error.strerror or str(error)


def is_ignored(name: str, extra: Sequence[str] = ()) -> bool:
    """True for hidden, temporary and partial files (and any extra glob patterns)."""
    return any(fnmatch.fnmatch(name, pattern) for pattern in (*DEFAULT_IGNORE, *extra))


def scan_folder(
    root: Path,
    suffixes: frozenset[str],
    ignore: Sequence[str] = (),
    problems: list[ScanProblem] | None = None,
    root_number: int = 0,
    unread: dict[str, int] | None = None,
    unread_suffixes: frozenset[str] = frozenset(),
) -> Iterator[FileEntry]:
    """Yield supported files under `root`, recursively; symlinked dirs are not followed.

    A file that cannot be stat'ed (a broken or looping link) or is not a regular file is a
    problem of its root, with the reason. Files whose suffix is one of `unread_suffixes` (documents
    of a type not read) are counted by suffix in `unread`.
    """
    root_str = str(root)

    def on_error(error: OSError) -> None:
        if problems is not None:
            problems.append(ScanProblem(str(error.filename), error.strerror or str(error)))

    for dirpath, dirnames, filenames in os.walk(root, onerror=on_error, followlinks=False):
        dirnames[:] = sorted(d for d in dirnames if not is_ignored(d, ignore))
        for name in sorted(filenames):
            suffix = Path(name).suffix.lower()
            if is_ignored(name, ignore) or suffix not in suffixes:
                if unread is not None and suffix in unread_suffixes and not is_ignored(name, ignore):
                    unread[suffix] = unread.get(suffix, 0) + 1
                continue
            full = os.path.join(dirpath, name)
            try:
                info = os.stat(full)
            except OSError as exc:
                if problems is not None:
                    problems.append(ScanProblem(full, _reason(full, exc), root_str, root_number))
                continue
            if not stat.S_ISREG(info.st_mode):
                if problems is not None and not stat.S_ISDIR(info.st_mode):
                    reason = "not a regular file (a FIFO, socket or device)"
                    problems.append(ScanProblem(full, reason, root_str, root_number))
                continue
            yield FileEntry(root_str, full, info.st_size, info.st_mtime, root_number)


@dataclass
class FolderScan:
    """What a scan of watched roots found: the files to read by path, the problems, and documents of
    types not read counted by suffix."""

    entries: dict[str, FileEntry] = field(default_factory=dict)
    problems: list[ScanProblem] = field(default_factory=list)
    unread: dict[str, int] = field(default_factory=dict)


def scan_roots(
    roots: Sequence[Path],
    numbers: Mapping[str, int],
    suffixes: frozenset[str],
    ignore: Sequence[str] = (),
    unread_suffixes: frozenset[str] = frozenset(),
) -> FolderScan:
    """Scan each root (`scan_folder`; `numbers` holds each root's number by its resolved path); a root
    that is not a folder is a problem of its own."""
    scan = FolderScan()
    for root in roots:
        if not root.is_dir():
            scan.problems.append(ScanProblem(valid_text(str(root)), "not a folder (missing or unmounted)"))
            continue
        resolved = root.resolve()
        number = numbers[valid_text(str(resolved))]
        for entry in scan_folder(resolved, suffixes, ignore, scan.problems, number, scan.unread, unread_suffixes):
            scan.entries[entry.key] = entry
    return scan


def entry_at(path: str, roots: Mapping[str, int]) -> FileEntry | None:
    """The entry of one known file under the innermost of these roots (root -> number), or None when
    no root holds it or it is no longer a regular file there."""
    holding = [root for root in roots if path.startswith(root.rstrip(os.sep) + os.sep)]
    if not holding:
        return None
    root = max(holding, key=len)
    try:
        info = os.stat(path)
    except OSError:
        return None
    if not stat.S_ISREG(info.st_mode):
        return None
    return FileEntry(root, path, info.st_size, info.st_mtime, roots[root])
