"""The sentence-vector cache: an entry read is kept, one no answer has read for months is pruned."""

from __future__ import annotations

import os
import time
from pathlib import Path

import numpy as np

from workbench.stores.file_cache import PRUNE_EVERY_SECONDS, Pruned
from workbench.stores.sentence_cache import UNUSED_DAYS, SentenceVectorCache, prune

DAY = 86_400.0


def entry_path(cache: SentenceVectorCache, chunk_id: str) -> Path:
    return cache.folder / chunk_id[:2] / f"{chunk_id}.npy"


def test_unused_entries_and_write_leftovers_go_and_read_ones_stay(tmp_path: Path) -> None:
    root = tmp_path / "sentences"
    cache = SentenceVectorCache(root, "minilm", 4)
    now = time.time()
    for chunk_id in ("aa01", "aa02", "bb03"):
        cache.put(chunk_id, np.ones((2, 4), dtype=np.float32))
    old = now - (UNUSED_DAYS + 1) * DAY
    for chunk_id in ("aa01", "aa02", "bb03"):
        os.utime(entry_path(cache, chunk_id), (old, old))
    assert cache.get("aa02", 2) is not None  # read now: used
    leftover = cache.folder / "bb" / "interrupted.tmp"
    leftover.write_bytes(b"half")
    os.utime(leftover, (now - 2 * DAY, now - 2 * DAY))
    other = SentenceVectorCache(root, "another-embedder", 8)  # another embedder's folder is pruned alike
    other.put("cc04", np.ones((1, 8), dtype=np.float32))
    os.utime(entry_path(other, "cc04"), (old, old))

    pruned = prune(root, now=now)
    assert pruned is not None and pruned.entries == 3 and pruned.bytes > 0
    assert cache.get("aa02", 2) is not None
    assert cache.get("aa01", 2) is None and cache.get("bb03", 2) is None and other.get("cc04", 1) is None
    assert not leftover.exists() and not (cache.folder / "bb").exists()  # an emptied folder goes too


def test_prune_runs_at_most_once_a_day(tmp_path: Path) -> None:
    root = tmp_path / "sentences"
    cache = SentenceVectorCache(root, "minilm", 4)
    cache.put("aa01", np.ones((1, 4), dtype=np.float32))
    now = time.time()
    assert prune(root, now=now) == Pruned(0, 0)  # nothing old yet
    old = now - (UNUSED_DAYS + 1) * DAY
    os.utime(entry_path(cache, "aa01"), (old, old))
    assert prune(root, now=now + 60) is None  # pruned a minute ago
    pruned = prune(root, now=now + PRUNE_EVERY_SECONDS)
    assert pruned is not None and pruned.entries == 1


def test_nothing_to_prune_without_a_cache(tmp_path: Path) -> None:
    assert prune(tmp_path / "never-made") is None
