"""Sentence vectors cached per chunk id, on disk, so a repeated question embeds nothing.

Chunk ids hash the chunk's text, so an entry never goes stale: a changed chunk has a new
id. Entries live under one folder per embedder (its name and vector size), one `.npy` file
per chunk holding a float16 matrix (one row per sentence, in the order the sentence
splitter gives). Writes go to a temporary file that is renamed into place, so a crash
leaves either the whole entry or none; a damaged or mismatched entry is ignored and
rewritten.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path

import numpy as np


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
