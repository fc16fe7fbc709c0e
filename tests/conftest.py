"""Shared fixtures: paths to ../shared data and an isolated workbench home per test."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
PDFS = SHARED / "data" / "pdfs"
SCIFACT = SHARED / "data" / "scifact"


@pytest.fixture
def workbench_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A private $WORKBENCH_HOME with no user config, so tests never touch real data."""
    home = tmp_path / "home"
    monkeypatch.setenv("WORKBENCH_HOME", str(home))
    monkeypatch.delenv("WORKBENCH_CONFIG", raising=False)
    return home
