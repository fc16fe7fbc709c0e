"""Opening files to hash or parse them: only regular files, checked at the moment of opening.

A scan sees a regular file; by the time it is read, it may have been replaced by a FIFO (whose
`open()` blocks until a writer appears, forever, while the writer lock is held), a socket, a
device or a directory. So every read opens with `O_NONBLOCK` (which makes opening a FIFO
return at once), checks the *open descriptor* with `fstat` (no window between check and
use), and only then reads. Hashing and parsing both go through `open_regular`.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import stat
from typing import BinaryIO

_KINDS = (
    (stat.S_ISDIR, "is a directory, not a file"),
    (stat.S_ISFIFO, "is a FIFO (named pipe), not a regular file"),
    (stat.S_ISSOCK, "is a socket, not a regular file"),
    (stat.S_ISCHR, "is a character device, not a regular file"),
    (stat.S_ISBLK, "is a block device, not a regular file"),
)


class NotRegularFileError(OSError):
    """The path is (now) something other than a regular file; `strerror` says what."""


def open_regular(path: str | os.PathLike[str]) -> tuple[BinaryIO, os.stat_result]:
    """Open a regular file for reading without ever blocking; its handle and `fstat`.

    Raises `NotRegularFileError` for anything else, and `OSError` as `open` does.
    """
    flags = os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC
    fd = os.open(path, flags)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            reason = next((text for test, text in _KINDS if test(info.st_mode)), "not a regular file")
            raise NotRegularFileError(0, reason, os.fspath(path))
        fcntl.fcntl(fd, fcntl.F_SETFL, fcntl.fcntl(fd, fcntl.F_GETFL) & ~os.O_NONBLOCK)
        return os.fdopen(fd, "rb"), info
    except BaseException:
        os.close(fd)
        raise


def hash_regular(path: str | os.PathLike[str]) -> str:
    """sha256 of a regular file's bytes, read in blocks (see `open_regular`)."""
    handle, _ = open_regular(path)
    digest = hashlib.sha256()
    with handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def read_regular(path: str | os.PathLike[str], max_bytes: int) -> bytes:
    """The bytes of a regular file of at most `max_bytes` (a larger one raises `OSError(EFBIG)`)."""
    handle, info = open_regular(path)
    with handle:
        if info.st_size > max_bytes:
            raise OSError(27, f"file too large ({info.st_size // 2**20} MiB)", os.fspath(path))
        return handle.read(max_bytes + 1)[:max_bytes]
