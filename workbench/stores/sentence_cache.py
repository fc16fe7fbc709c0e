"""Sentence vectors cached per chunk id, on disk, so a repeated question embeds nothing.

Chunk ids hash the chunk's text, so an entry never goes stale: a changed chunk has a new
id. Entries live under one folder per embedder (its name and vector size), one `.npy` file
per chunk holding a float16 matrix (one row per sentence, in the order the sentence
splitter gives). Writes go to a temporary file that is renamed into place, so a crash
leaves either the whole entry or none; a damaged or mismatched entry is ignored and
rewritten.

But the entries of a re-chunked, changed or removed paper are never read again, and several
indexes (homes, benchmarks) may share the folder, so no one index can say which entries are
its own. Reading an entry marks it used (its mtime); `prune` removes those no answer has read
for `UNUSED_DAYS`, and leftovers of interrupted writes, at most once a day (an index run asks).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

UNUSED_DAYS = 90  # an entry no answer has read for this long is removed
PRUNE_EVERY_SECONDS = 86_400.0  # a walk of the folder at most once a day
_MARKER = ".pruned"


class SentenceVectorCache:
    """Sentence vectors of chunks, keyed by chunk id, for one embedder."""

    def __init__(self, root: Path, embedder_name: str, dimension: int) -> None:
        key = hashlib.sha256(f"{embedder_name}\x1f{dimension}".encode()).hexdigest()[:12]
        self.folder = root / key
        self.dimension = dimension

    def _path(self, chunk_id: str) -> Path:
        safe = "".join(c for c in chunk_id if c.isalnum()) or "x"
        return self.folder / safe[:2] / f"{safe}.npy"

    def get(self, chunk_id: str, rows: int) -> np.ndarray | None:
        """The cached vectors of a chunk's `rows` sentences, or None when absent or unusable."""
        path = self._path(chunk_id)
        try:
            matrix = np.load(path, allow_pickle=False)
        except (OSError, ValueError):
            return None
        if matrix.shape != (rows, self.dimension):
            return None
        with contextlib.suppress(OSError):  # a read-only cache still serves
            os.utime(path)  # used now: `prune` keeps it
        return np.asarray(matrix, dtype=np.float32)

    def put(self, chunk_id: str, vectors: np.ndarray) -> None:
        """Store a chunk's sentence vectors (best effort: a full or read-only disk only skips caching)."""
        path = self._path(chunk_id)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            handle, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        except OSError:
            return
        try:
            with os.fdopen(handle, "wb") as out:
                np.save(out, np.asarray(vectors, dtype=np.float16), allow_pickle=False)
            os.replace(tmp, path)
        except OSError:
            Path(tmp).unlink(missing_ok=True)


@dataclass(frozen=True)
class Pruned:
    """What one `prune` removed."""

    entries: int = 0
    bytes: int = 0


def prune(root: Path, now: float | None = None, unused_days: float = UNUSED_DAYS) -> Pruned | None:
    """Remove the entries under `root` (every embedder's folder) that no answer has read for
    `unused_days`, and temporary files of interrupted writes; None when the last prune was less
    than a day ago (or `root` holds nothing). Best effort: a file that cannot be removed stays."""
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
    for path in root.glob("*/*/*"):
        try:
            info = path.stat()
            unused = path.suffix == ".npy" and info.st_mtime < cutoff
            if unused or (path.suffix == ".tmp" and info.st_mtime < now - PRUNE_EVERY_SECONDS):
                path.unlink()
                entries += path.suffix == ".npy"
                removed_bytes += info.st_size
        except OSError:
            continue
    for folder in root.glob("*/*"):
        with contextlib.suppress(OSError):
            folder.rmdir()  # only when empty
    with contextlib.suppress(OSError):
        marker.touch()
        os.utime(marker, (now, now))
    return Pruned(entries, removed_bytes)
