"""The single-writer lock on the stores: one process writes at a time, and a second is told who holds it."""

from __future__ import annotations

import fcntl
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from workbench.errors import StoreBusyError


class WriterBusyError(StoreBusyError):
    """Another process is already writing to the stores."""


@contextmanager
def writer_lock(lock_path: Path) -> Iterator[None]:
    """Hold the single-writer lock for the stores, or fail at once naming the holder."""
    lock_path.parent.mkdir(parents=True, exist_ok=True)
    with lock_path.open("a+") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.seek(0)
            holder = handle.read().strip() or "unknown"
            raise WriterBusyError(f"another workbench process (pid {holder}) is writing the index") from None
        handle.seek(0)
        handle.truncate()
        handle.write(str(os.getpid()))
        handle.flush()
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)
