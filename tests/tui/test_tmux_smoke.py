"""Smoke test: the installed TUI in a real terminal (tmux), keys in, screen text out."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed (apt-get install -y tmux)"),
]


class Tmux:
    """One tmux server on a private socket, running one program in a 100×30 window."""

    def __init__(self, socket: str) -> None:
        self.socket = socket

    def run(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(["tmux", "-L", self.socket, *args], capture_output=True, text=True, check=False)

    def screen(self) -> str:
        return self.run("capture-pane", "-p", "-t", "wb").stdout

    def keys(self, *keys: str) -> None:
        self.run("send-keys", "-t", "wb", *keys)

    def wait_for(self, text: str, timeout: float = 180.0) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            screen = self.screen()
            if text in screen:
                return screen
            time.sleep(0.2)
        raise AssertionError(f"{text!r} never appeared on the screen:\n{self.screen()}")

    def alive(self) -> bool:
        return self.run("has-session", "-t", "wb").returncode == 0


@pytest.fixture
def tmux(home: Path, tmp_path: Path) -> Iterator[Tmux]:
    session = Tmux(f"workbench-test-{os.getpid()}")
    env = {
        "WORKBENCH_HOME": str(home),
        "ZOTERO_DATA_DIR": str(tmp_path / "no-zotero"),
        "TERM": "xterm-256color",
        "PATH": os.environ.get("PATH", ""),
    }
    installed = Path(sys.executable).parent / "workbench"  # the console script, as a user runs it
    command = " ".join([*(f"{k}={v}" for k, v in env.items()), str(installed)])
    started = session.run("new-session", "-d", "-s", "wb", "-x", "100", "-y", "30", f"env -i {command}")
    assert started.returncode == 0, started.stderr
    try:
        yield session
    finally:
        session.run("kill-server")


def test_tui_in_tmux(tmux: Tmux) -> None:
    tmux.wait_for("index: 5 papers")
    tmux.keys("-l", "/electron mobility")  # one burst, as over SSH: "/" must not lose the letters
    deadline = time.monotonic() + 30
    while "electron mobility" not in tmux.screen().splitlines()[0] and time.monotonic() < deadline:
        time.sleep(0.2)
    tmux.keys("Enter")
    screen = tmux.wait_for("sort: relevance")  # search results, not the library listing
    assert "Results 5" in screen and "Electron mobility in" in screen
    screen = tmux.wait_for("Novoselov; Andre Geim")  # the preview of the first hit
    print(screen)
    tmux.keys("r")  # triage: reading
    tmux.wait_for("◐1")
    tmux.keys("?")
    tmux.wait_for("workbench keys")
    tmux.keys("Escape")
    deadline = time.monotonic() + 10
    while "workbench keys" in tmux.screen() and time.monotonic() < deadline:
        time.sleep(0.2)
    tmux.keys("q")
    deadline = time.monotonic() + 20
    while tmux.alive() and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not tmux.alive(), tmux.screen()
