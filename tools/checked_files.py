"""Writing a fetched labelled file only when its bytes are the ones its labels name (SHA-256)."""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path


def write_checked(folder: Path, name: str, content: bytes, sha256: object) -> bool:
    """Write `content` as `folder/name` if its SHA-256 is `sha256`; else say so on stderr."""
    if hashlib.sha256(content).hexdigest() != sha256:
        print(f"error: {name}: missing from its archive or checksum differs", file=sys.stderr)
        return False
    (folder / name).write_bytes(content)
    return True
