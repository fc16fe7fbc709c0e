"""`python -m llama_cpp.server` (the server extra of llama-cpp-python) on 127.0.0.1 for the tests."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest


def free_port() -> int:
    """A TCP port free on 127.0.0.1 right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class LlamaServer:
    """One llama_cpp.server process serving a GGUF over the OpenAI-compatible API."""

    def __init__(self, gguf: Path, n_ctx: int, n_threads: int = 1) -> None:
        for module in ("uvicorn", "fastapi", "sse_starlette", "starlette_context", "pydantic_settings"):
            pytest.importorskip(module, reason="llama_cpp.server needs llama-cpp-python[server]")
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        command = [
            sys.executable, "-m", "llama_cpp.server", "--model", str(gguf), "--host", "127.0.0.1",
            "--port", str(self.port), "--n_ctx", str(n_ctx), "--n_threads", str(n_threads), "--verbose", "False",
        ]  # fmt: skip
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)

    def wait_ready(self, timeout_s: float = 90) -> None:
        """Return once `/v1/models` answers; fail the test with the server's stderr if it exits or stalls."""
        deadline = time.monotonic() + timeout_s
        while True:
            if self.process.poll() is not None:
                error = self.process.stderr.read().decode(errors="replace")[-2000:] if self.process.stderr else ""
                pytest.fail(f"llama_cpp.server exited with {self.process.returncode}: {error}")
            try:
                with urllib.request.urlopen(self.url + "/v1/models", timeout=2):
                    return
            except OSError:
                if time.monotonic() > deadline:
                    self.stop()
                    pytest.fail(f"llama_cpp.server did not answer within {timeout_s:.0f} s")
                time.sleep(0.5)

    def kill(self) -> None:
        """Kill the server at once (SIGKILL): the machine serving the model goes away."""
        if self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGKILL)
            self.process.wait()

    def stop(self) -> None:
        """Stop the server (SIGTERM; SIGKILL after 10 s)."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()
        if self.process.stderr is not None:
            self.process.stderr.close()
