"""The file caches' shared parts: JSON entries written whole or not at all, a damaged entry read
as missing, and pruning that removes the cache's own old entries and nothing else."""

from __future__ import annotations

import os
import time
from pathlib import Path

from workbench.stores.file_cache import JsonCache, prune, usage, write_atomic

DAY = 86_400.0


def test_a_json_entry_is_read_back_and_a_damaged_one_is_missing(tmp_path: Path) -> None:
    cache = JsonCache(tmp_path / "ocr")
    assert cache.put("abc123", [0, [["Ünïcode line", [1.0, 2.0, 3.0, 4.0]]], 91.5])
    assert cache.get("abc123") == [0, [["Ünïcode line", [1.0, 2.0, 3.0, 4.0]]], 91.5]
    assert cache.get("ffff") is None
    (tmp_path / "ocr" / "ab" / "abc123.json").write_bytes(b"[0, [[")
    assert cache.get("abc123") is None
    assert usage(tmp_path / "ocr", JsonCache.SUFFIX) == (1, 6)


def test_a_failed_write_leaves_no_entry_and_no_leftover(tmp_path: Path) -> None:
    target = tmp_path / "ab" / "entry.json"

    def broken(out: object) -> None:
        raise OSError("disk full")

    assert not write_atomic(target, broken)
    assert not target.exists() and list((tmp_path / "ab").iterdir()) == []


def test_a_read_only_cache_folder_only_skips_caching(tmp_path: Path) -> None:
    blocker = tmp_path / "ocr"
    blocker.write_text("a file where the folder should be", encoding="utf-8")
    cache = JsonCache(blocker)
    assert not cache.put("abc", [1])
    assert cache.get("abc") is None


def test_prune_removes_only_the_caches_own_entries(tmp_path: Path) -> None:
    root = tmp_path / "ocr"
    cache = JsonCache(root)
    cache.put("aa01", [1])
    cache.put("bb02", [2])
    stray = root / "README.txt"  # not an entry: never pruned
    stray.write_text("mine", encoding="utf-8")
    (root / "docs").mkdir()
    settings = root / "docs" / "settings.json"  # a user's file, where a misplaced cache would find it
    settings.write_text("{}", encoding="utf-8")
    now = time.time()
    old = now - 40 * DAY
    for path in (root / "aa" / "aa01.json", stray, settings):
        os.utime(path, (old, old))

    pruned = prune(root, ".json", unused_days=30, now=now)

    assert pruned is not None and pruned.entries == 1
    assert cache.get("aa01") is None and cache.get("bb02") == [2]
    assert stray.exists() and settings.exists() and not (root / "aa").exists()
    assert usage(root, ".json") == (1, 3)  # bb02's "[2]"; the user's file is no entry
