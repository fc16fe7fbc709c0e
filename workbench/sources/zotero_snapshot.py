"""Read-only snapshots of a live SQLite database (Zotero's or Better BibTeX's) that never lock it.

Zotero keeps its database open, often under an exclusive lock, so the reader never opens the
original through SQLite's locking layer:

* With a non-empty `-wal` file, the database, its `-wal` and (if present) `-shm` are copied
  with plain file reads into a private temporary folder and the copy is opened with
  `mode=ro`: SQLite replays the copied WAL, so changes committed to it but not yet checkpointed
  are visible, and nothing is checkpointed back on close. SQLite rebuilds the WAL index of the
  copy on open (it is the only connection), so a stale `-shm` copy is harmless.
* With a hot rollback journal (`-journal` starting with SQLite's journal magic: a writer is
  in the middle of a transaction in rollback-journal mode and may already have written
  uncommitted pages into the main file), the database and its journal are copied the same way
  and the copy is opened read-write, so SQLite rolls the copy back to the last committed state
  (the original is never written). Opening the original `immutable` would read those
  uncommitted pages: never-committed text, or "database disk image is malformed".
* Without either, the original is opened with `mode=ro&immutable=1`: no locks, no files
  created. Its size and mtime and the journal's absence are checked again after the read; a
  writer that started meanwhile makes `read_consistently` read again.

Consistency tradeoff: the main file is copied first, then the WAL. A checkpoint that lands
between the two would pair an old main file with a WAL whose frames were already moved into
the main file and possibly overwritten. The main file's size and mtime are compared before and
after copying; on a difference the copy is retried (a few times, then the last copy is used).
Frames appended to the WAL while it is copied are harmless: SQLite only replays transactions
whose commit frame and checksums are complete. A journal copy has no such safety net, so it is
used only when the main file and the journal did not change while they were copied; a
journal that keeps changing raises `ZoteroBusyError` ("Zotero is writing its database; try
again"), never a guess. Copying costs the size of the database per read, which is why
callers should read only when `zotero.sqlite` or `zotero.sqlite-wal` changed.
"""

from __future__ import annotations

import shutil
import sqlite3
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TypeVar

from workbench.sources.zotero_schema import ZoteroError

COPY_ATTEMPTS = 5
JOURNAL_WAIT_S = 0.2  # between copies of a database whose journal is changing
JOURNAL_MAGIC = bytes.fromhex("d9d505f920a163d7")  # the first 8 bytes of a live rollback journal
T = TypeVar("T")


class ZoteroBusyError(ZoteroError):
    """Zotero is in the middle of writing its database; reading now could see uncommitted data."""


class SnapshotChangedError(Exception):
    """The database changed while it was read in place; read again (see `read_consistently`)."""


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


def _journal_state(db_path: Path) -> tuple[int, int] | None:
    """The signature of a hot rollback journal, or None when there is none."""
    journal = sidecar(db_path, "-journal")
    try:
        with journal.open("rb") as handle:
            if handle.read(len(JOURNAL_MAGIC)) != JOURNAL_MAGIC:
                return None  # absent, truncated or zeroed: the last transaction is complete
        return _signature(journal)
    except OSError:
        return None


def _copy_with_journal(db_path: Path, target_dir: Path) -> Path:
    """Copy the database and its hot journal, only from a moment when neither changed."""
    target = target_dir / db_path.name
    for attempt in range(COPY_ATTEMPTS):
        before = (_signature(db_path), _journal_state(db_path))
        # The main file first: every page the writer changed in it was journaled before the change,
        # so a journal copied afterwards holds the original of each.
        shutil.copyfile(db_path, target)
        copied = sidecar(target, "-journal")
        try:
            shutil.copyfile(sidecar(db_path, "-journal"), copied)
        except FileNotFoundError:
            copied.unlink(missing_ok=True)
        after = (_signature(db_path), _journal_state(db_path))
        if before == after:
            return target
        if attempt + 1 < COPY_ATTEMPTS:
            time.sleep(JOURNAL_WAIT_S)
    raise ZoteroBusyError(f"Zotero is writing {db_path} (its rollback journal keeps changing); try again in a moment")


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


def _connect(
    path: Path, shown: Path, *, immutable: bool, lenient_text: bool, private_copy: bool = False
) -> sqlite3.Connection:
    """Open `path` for reading and check that it is an SQLite database at all.

    A read-only connection to a WAL copy still replays its WAL and skips the checkpoint on close;
    a `private_copy` with a hot journal is opened read-write so SQLite can roll the copy back.
    """
    query = "mode=ro&immutable=1" if immutable else ("mode=rw" if private_copy else "mode=ro")
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
    hot_journal = _journal_state(db_path) is not None
    if not _has_wal(db_path) and not hot_journal:
        before = _signature(db_path)
        conn = _connect(db_path, db_path, immutable=True, lenient_text=lenient_text)
        try:
            yield conn
        finally:
            conn.close()
        if _signature(db_path) != before or _journal_state(db_path) is not None:
            raise SnapshotChangedError(str(db_path))
        return
    with tempfile.TemporaryDirectory(prefix="workbench-zotero-") as tmp:
        try:
            copy = _copy_with_journal(db_path, Path(tmp)) if hot_journal else _copy_with_wal(db_path, Path(tmp))
        except ZoteroError:
            raise
        except OSError as exc:
            raise ZoteroError(f"cannot copy {db_path}: {exc}") from exc
        conn = _connect(copy, db_path, immutable=False, lenient_text=lenient_text, private_copy=hot_journal)
        try:
            yield conn
        finally:
            conn.close()


def read_consistently(db_path: Path, read: Callable[[], T]) -> T:
    """Run `read` (which opens `open_snapshot(db_path)`) until it saw an unchanging database.

    An in-place read is redone when Zotero wrote meanwhile, so it never keeps half a write.
    """
    for _ in range(COPY_ATTEMPTS - 1):
        try:
            return read()
        except SnapshotChangedError:
            time.sleep(JOURNAL_WAIT_S)
    try:
        return read()
    except SnapshotChangedError:
        raise ZoteroBusyError(f"Zotero kept writing {db_path} while it was read; try again in a moment") from None
