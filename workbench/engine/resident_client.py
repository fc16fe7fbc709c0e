"""Asking a resident workbench process (the watcher, the TUI) to run a search for the CLI.

A CLI `search` started cold spends seconds importing LanceDB and loading the embedder
before a query that takes milliseconds. When a workbench process already runs on the same
data with the same settings, it listens on a unix socket in the data dir
(`workbench.engine.resident`), and the CLI sends it the search instead: one JSON line each way.

Anything short of a complete answer (no socket, a stale socket a killed process left, a
refused or dropped connection, a timeout, other settings, a malformed reply) returns None,
and the CLI runs the search itself; a search reads only, so running it again is harmless.
Only the standard library is imported here, so trying costs milliseconds.
"""

from __future__ import annotations

import hashlib
import json
import socket
from pathlib import Path
from typing import Any

from workbench.settings.config import Settings

CONNECT_TIMEOUT_S = 0.5
PROTOCOL = 1
MAX_REPLY_BYTES = 64 * 2**20


def socket_path(settings: Settings) -> Path:
    """Where a resident process of these settings listens (in its data dir)."""
    return settings.paths().data_dir / "engine.sock"


def settings_token(settings: Settings) -> str:
    """A digest of every setting: a resident process answers only a client with the same settings."""
    return hashlib.sha256(repr(settings).encode("utf-8")).hexdigest()[:24]


def resident_request(path: Path, payload: dict[str, Any], timeout_s: float = 60.0) -> dict[str, Any] | None:
    """Send one request to the resident process at `path`; its reply, or None to run locally."""
    if not path.exists():
        return None
    request = json.dumps({**payload, "protocol": PROTOCOL}, ensure_ascii=False).encode("utf-8") + b"\n"
    received = bytearray()
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
            conn.settimeout(CONNECT_TIMEOUT_S)
            conn.connect(str(path))
            conn.settimeout(timeout_s)
            conn.sendall(request)
            while not received.endswith(b"\n"):
                chunk = conn.recv(1 << 16)
                if not chunk or len(received) > MAX_REPLY_BYTES:  # the process went away mid-answer
                    return None
                received.extend(chunk)
        reply = json.loads(received)
    except (OSError, ValueError):
        return None
    if not isinstance(reply, dict) or reply.get("protocol") != PROTOCOL or "declined" in reply:
        return None
    return reply
