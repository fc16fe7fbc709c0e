"""A long-running workbench process serves the CLI's searches over a unix socket.

`workbench watch` and the TUI hold a warm engine (LanceDB open, embedder loaded). While one
runs, it listens on `<data dir>/engine.sock` (mode 0600) and answers `search` requests from
`workbench search` (see `workbench.engine.resident_client`), so a search from the shell costs a
socket round trip instead of a cold start. It declines a client whose settings differ from
its own. One listener per data dir: a second process finds the first alive and does not
listen; a socket file left by a killed process is replaced.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import socketserver
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Protocol

from workbench.engine.resident_client import MAX_REPLY_BYTES, PROTOCOL, settings_token, socket_path
from workbench.errors import WorkbenchError, is_store_failure, one_line
from workbench.records import SearchResult
from workbench.settings.config import Settings


class SearchEngine(Protocol):
    """What the server needs of the engine: its settings and its search."""

    @property
    def settings(self) -> Settings:
        """The settings the engine runs with."""
        ...

    def search(
        self, query: str, mode: str | None, filters: Sequence[str], limit: int | None, per_doc: bool
    ) -> SearchResult: ...


def _alive(path: Path) -> bool:
    """Whether a process accepts connections on the socket at `path`."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
        probe.settimeout(0.5)
        try:
            probe.connect(str(path))
        except OSError:
            return False
    return True


class _Server(socketserver.ThreadingMixIn, socketserver.UnixStreamServer):
    daemon_threads = True
    answer: Callable[[dict[str, Any]], dict[str, Any]]


class _Handler(socketserver.StreamRequestHandler):
    server: _Server

    def handle(self) -> None:
        line = self.rfile.readline(MAX_REPLY_BYTES)
        reply: dict[str, Any] = {"declined": "bad request"}
        with contextlib.suppress(ValueError):
            request = json.loads(line)
            if isinstance(request, dict):
                reply = self.server.answer(request)
        reply["protocol"] = PROTOCOL
        with contextlib.suppress(OSError):  # the client gave up
            self.wfile.write(json.dumps(reply, ensure_ascii=False, default=str).encode("utf-8") + b"\n")


class ResidentServer:
    """Serves `search` for the CLI from this process's engine, in a background thread."""

    def __init__(self, engine: SearchEngine, log: Callable[[str], None] | None = None) -> None:
        self.engine = engine
        self.path = socket_path(engine.settings)
        self.token = settings_token(engine.settings)
        self.log = log or (lambda _line: None)
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None

    def start(self) -> bool:
        """Listen unless another live process does (or the path cannot be a socket); True when listening."""
        if len(os.fsencode(self.path)) >= 100:  # AF_UNIX paths are limited to about 108 bytes
            self.log(f"search server: socket path too long, not listening ({self.path})")
            return False
        self.path.parent.mkdir(parents=True, exist_ok=True)
        if self.path.exists() or self.path.is_symlink():
            if _alive(self.path):
                self.log("search server: another workbench process serves this data dir")
                return False
            with contextlib.suppress(FileNotFoundError):
                self.path.unlink()  # left by a process that was killed
        old_mask = os.umask(0o177)
        try:
            server = _Server(str(self.path), _Handler)
        except OSError as exc:
            self.log(f"search server: cannot listen on {self.path}: {one_line(exc)}")
            return False
        finally:
            os.umask(old_mask)
        server.answer = self.answer
        self._server = server
        self._thread = threading.Thread(target=server.serve_forever, name="resident-search", daemon=True)
        self._thread.start()
        return True

    def stop(self) -> None:
        """Stop listening and remove the socket file (if it is still ours)."""
        server, self._server = self._server, None
        if server is None:
            return
        server.shutdown()
        server.server_close()
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()

    def __enter__(self) -> ResidentServer:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def answer(self, request: dict[str, Any]) -> dict[str, Any]:
        """One request's reply: the search as `search --json` prints it, an error line, or declined."""
        if request.get("protocol") != PROTOCOL or request.get("op") != "search":
            return {"declined": "unknown request"}
        if request.get("settings") != self.token:
            return {"declined": "other settings"}
        filters = [str(f) for f in request.get("filters") or []]
        try:
            result = self.engine.search(
                str(request.get("query", "")),
                request.get("mode"),
                filters,
                request.get("limit"),
                per_doc=bool(request.get("per_doc", True)),
            )
        except WorkbenchError as exc:
            return {"error": one_line(exc, 500), "exit_code": exc.exit_code}
        except Exception as exc:  # a store failure is one line for the client, as in the CLI
            if not (is_store_failure(exc) or isinstance(exc, RuntimeError)):
                return {"declined": f"failed: {type(exc).__name__}"}
            return {"error": one_line(exc, 500), "exit_code": 1}
        return {"result": result.to_dict(filters)}
