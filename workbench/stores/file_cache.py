"""Caches of derived results kept as one file an entry, shared by every index that reads them.

An entry is named by a key that hashes everything its value depends on, so it never goes stale:
other inputs make another key. Writes go to a temporary file renamed into place, so a crash
leaves the whole entry or none, and several processes may write the same entry at once. Reading
an entry marks it used (its mtime); `prune` removes those nobody has read for a while, and the
leftovers of interrupted writes, at most once a day.

Used for sentence vectors (`sentence_cache`) and for the pages OCR read (`JsonCache`).
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

PRUNE_EVERY_SECONDS = 86_400.0  # a walk of the folder at most once a day
_MARKER = ".pruned"
_PARTIAL = ".tmp"


def write_atomic(path: Path, write: Callable[[IO[bytes]], object]) -> bool:
    """Write an entry through `write` to a temporary file renamed to `path`; False when the disk is
    full or read-only (caching is best effort: the caller carries on without it)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, tmp = tempfile.mkstemp(dir=path.parent, suffix=_PARTIAL)
    except OSError:
        return False
    try:
        with os.fdopen(handle, "wb") as out:
            write(out)
        os.replace(tmp, path)
        return True
    except OSError:
        Path(tmp).unlink(missing_ok=True)
        return False


def mark_used(path: Path) -> None:
    """Record that an entry was read now, so `prune` keeps it (a read-only cache still serves)."""
    with contextlib.suppress(OSError):
        os.utime(path)


@dataclass(frozen=True)
class Pruned:
    """What one `prune` removed."""

    entries: int = 0
    bytes: int = 0


def prune(root: Path, suffix: str, unused_days: float, now: float | None = None, depth: int = 2) -> Pruned | None:
    """Remove the entries under `root` that nobody has read for `unused_days`, and temporary files
    of interrupted writes; None when the last prune was less than a day ago (or `root` holds
    nothing). Best effort: a file that cannot be removed stays.

    Only the cache's own files are touched, so a cache folder pointed at the wrong place (a home
    directory) loses nothing else: `depth` folders down, in a folder named by the first two
    characters of the entry's name (`ab/abcdef….json`), ending in `suffix` (or a temporary file there)."""
    now = time.time() if now is None else now
    marker = root / _MARKER
    try:
        if now - marker.stat().st_mtime < PRUNE_EVERY_SECONDS:
            return None
    except OSError:
        pass  # never pruned
    if not root.is_dir():
        return None
    cutoff = now - unused_days * 86_400.0
    entries = removed_bytes = 0
    folders: set[Path] = set()
    for path in root.glob("/".join(["*"] * depth)):
        entry = _is_entry(path, suffix)
        partial = path.suffix == _PARTIAL and len(path.parent.name) == 2
        if not (entry or partial):
            continue
        try:
            info = path.stat()
            if (entry and info.st_mtime < cutoff) or (partial and info.st_mtime < now - PRUNE_EVERY_SECONDS):
                path.unlink()
                entries += entry
                removed_bytes += info.st_size
                folders.add(path.parent)
        except OSError:
            continue
    for folder in folders:
        with contextlib.suppress(OSError):
            folder.rmdir()  # only when emptied
    with contextlib.suppress(OSError):
        marker.touch()
        os.utime(marker, (now, now))
    return Pruned(entries, removed_bytes)


def usage(root: Path, suffix: str, depth: int = 2) -> tuple[int, int]:
    """How many entries the cache under `root` holds (as `prune` knows them), and their bytes."""
    count = size = 0
    for path in root.glob("/".join(["*"] * (depth - 1) + [f"*{suffix}"])):
        if _is_entry(path, suffix):
            with contextlib.suppress(OSError):
                size += path.stat().st_size
                count += 1
    return count, size


def _is_entry(path: Path, suffix: str) -> bool:
    """Whether a file is named as a cache entry: `ab/abcdef….suffix`."""
    return path.name.endswith(suffix) and path.name[:2] == path.parent.name


class JsonCache:
    """JSON values by hex key, one file each under `root` (`ab/abcdef….json`)."""

    SUFFIX = ".json"

    def __init__(self, root: Path) -> None:
        self.root = root

    def _path(self, key: str) -> Path:
        safe = "".join(c for c in key if c.isalnum()) or "x"
        return self.root / safe[:2] / f"{safe}{self.SUFFIX}"

    def get(self, key: str) -> Any:
        """The value stored under `key`, or None when absent or unreadable (a damaged entry is
        rewritten by the next `put`)."""
        path = self._path(key)
        try:
            value = json.loads(path.read_bytes())
        except (OSError, ValueError):
            return None
        mark_used(path)
        return value

    def put(self, key: str, value: Any) -> bool:
        """Store a value (best effort)."""
        data = json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode()
        return write_atomic(self._path(key), lambda out: out.write(data))
