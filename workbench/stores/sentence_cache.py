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

import hashlib
from pathlib import Path

import numpy as np

from workbench.stores.file_cache import Pruned, mark_used, write_atomic
from workbench.stores.file_cache import prune as prune_entries

UNUSED_DAYS = 90  # an entry no answer has read for this long is removed


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
        mark_used(path)
        return np.asarray(matrix, dtype=np.float32)

    def put(self, chunk_id: str, vectors: np.ndarray) -> None:
        """Store a chunk's sentence vectors (best effort: a full or read-only disk only skips caching)."""
        matrix = np.asarray(vectors, dtype=np.float16)
        write_atomic(self._path(chunk_id), lambda out: np.save(out, matrix, allow_pickle=False))


def prune(root: Path, now: float | None = None, unused_days: float = UNUSED_DAYS) -> Pruned | None:
    """Remove the entries under `root` (every embedder's folder) that no answer has read for
    `unused_days`, and temporary files of interrupted writes; None when the last prune was less
    than a day ago (or `root` holds nothing)."""
    return prune_entries(root, ".npy", unused_days, now, depth=3)  # <embedder>/<ab>/<ab…>.npy
