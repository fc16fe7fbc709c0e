"""Read-only snapshots of a live SQLite database (Zotero's or Better BibTeX's) that never lock it.

Zotero keeps its database open, often under an exclusive lock, so the reader never opens the
original through SQLite's locking layer:

* With a non-empty `-wal` file, the database, its `-wal` and (if present) `-shm` are copied
  with plain file reads into a private temporary folder and the copy is opened with
  `mode=ro`: SQLite replays the copied WAL, so changes committed to it but not yet checkpointed
  are visible, and nothing is checkpointed back on close. SQLite rebuilds the WAL index of the
  copy on open (it is the only connection), so a stale `-shm` copy is harmless.
* Without one, the original is opened with `mode=ro&immutable=1`: no locks, no files created.

Consistency tradeoff: the main file is copied first, then the WAL. A checkpoint that lands
between the two would pair an old main file with a WAL whose frames were already moved into
the main file and possibly overwritten. The main file's size and mtime are compared before and
after copying; on a difference the copy is retried (a few times, then the last copy is used).
Frames appended to the WAL while it is copied are harmless: SQLite only replays transactions
whose commit frame and checksums are complete. Copying costs the size of the database per read,
which is why callers should read only when `zotero.sqlite` or `zotero.sqlite-wal` changed.
"""

from __future__ import annotations

import shutil
import sqlite3
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from workbench.sources.zotero_schema import ZoteroError

COPY_ATTEMPTS = 5


def sidecar(db_path: Path, suffix: str) -> Path:
    """The `-wal` / `-shm` / `-journal` file that belongs to a database."""
    return db_path.with_name(db_path.name + suffix)


def _has_wal(db_path: Path) -> bool:
    try:
        return sidecar(db_path, "-wal").stat().st_size > 0
    except OSError:
        return False


def _signature(path: Path) -> tuple[int, int]:
    stat = path.stat()
    return stat.st_size, stat.st_mtime_ns


def _copy_with_wal(db_path: Path, target_dir: Path) -> Path:
    """Copy the database, then its WAL and shared-memory files, retrying while it changes."""
    target = target_dir / db_path.name
    for _ in range(COPY_ATTEMPTS):
        before = _signature(db_path)
        shutil.copyfile(db_path, target)
        for suffix in ("-wal", "-shm"):
            copied = sidecar(target, suffix)
            try:
                shutil.copyfile(sidecar(db_path, suffix), copied)
            except FileNotFoundError:
                copied.unlink(missing_ok=True)
        if _signature(db_path) == before:
            break
    return target


def _decode(raw: bytes) -> str:
    return raw.decode("utf-8", errors="replace")


def _connect(path: Path, shown: Path, *, immutable: bool, lenient_text: bool) -> sqlite3.Connection:
    """Open `path` for reading only and check that it is an SQLite database at all."""
    # A read-only connection to the copy still replays its WAL, and skips the checkpoint on close.
    query = "mode=ro&immutable=1" if immutable else "mode=ro"
    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?{query}", uri=True)
    except sqlite3.Error as exc:
        raise ZoteroError(f"cannot open {shown}: {exc}") from exc
    if lenient_text:
        conn.text_factory = _decode
    try:
        conn.execute("PRAGMA query_only=1")
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except sqlite3.DatabaseError as exc:
        conn.close()
        raise ZoteroError(f"{shown} is corrupt: {exc}") from exc
    return conn


@contextmanager
def open_snapshot(db_path: Path, *, lenient_text: bool = False) -> Iterator[sqlite3.Connection]:
    """A read-only connection that sees everything committed to `db_path`, WAL included.

    Text is decoded as strict UTF-8 (fast, in C) unless `lenient_text`, which replaces bad bytes
    in Python: the fallback for the rare database holding invalid UTF-8.
    """
    if not db_path.is_file():
        raise ZoteroError(f"{db_path} does not exist")
    if not _has_wal(db_path):
        conn = _connect(db_path, db_path, immutable=True, lenient_text=lenient_text)
        try:
            yield conn
        finally:
            conn.close()
        return
    with tempfile.TemporaryDirectory(prefix="workbench-zotero-") as tmp:
        try:
            copy = _copy_with_wal(db_path, Path(tmp))
        except OSError as exc:
            raise ZoteroError(f"cannot copy {db_path}: {exc}") from exc
        conn = _connect(copy, db_path, immutable=False, lenient_text=lenient_text)
        try:
            yield conn
        finally:
            conn.close()
