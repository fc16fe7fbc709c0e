"""A real small library for TUI tests: Markdown papers indexed once with the real embedder.

Each test gets its own copy of the indexed home (triage writes must not leak between tests)
and an engine over it: the real stores and the real Kùzu graph that indexing built, with the
deterministic stand-in model (see `fakes.py`).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.tui.fakes import PAPERS, TestEngine
from workbench.engine.engine import Engine
from workbench.settings.config import Settings


@pytest.fixture
def anyio_backend() -> str:
    """Async tests run on asyncio (Textual's loop) through anyio's pytest plugin."""
    return "asyncio"


@pytest.fixture(scope="session")
def indexed_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A workbench home with the papers in `fakes.PAPERS` indexed (built once per session)."""
    root = tmp_path_factory.mktemp("tui-library")
    papers = root / "papers"
    papers.mkdir()
    for name, text in PAPERS.items():
        (papers / name).write_text(text, encoding="utf-8")
    home = root / "home"
    old = os.environ.get("WORKBENCH_HOME")
    os.environ["WORKBENCH_HOME"] = str(home)
    try:
        report = Engine(Settings()).index_folders([papers])
    finally:
        if old is None:
            os.environ.pop("WORKBENCH_HOME", None)
        else:
            os.environ["WORKBENCH_HOME"] = old
    assert report.added == len(PAPERS), report
    return home


@pytest.fixture
def home(indexed_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A private copy of the indexed home, active as $WORKBENCH_HOME; no Zotero, no user config."""
    copy = tmp_path / "home"
    shutil.copytree(indexed_home, copy)
    monkeypatch.setenv("WORKBENCH_HOME", str(copy))
    monkeypatch.delenv("WORKBENCH_CONFIG", raising=False)
    monkeypatch.setenv("ZOTERO_DATA_DIR", str(tmp_path / "no-zotero"))
    monkeypatch.chdir(tmp_path)
    return copy


@pytest.fixture
def engine(home: Path) -> Iterator[TestEngine]:
    """An engine over the private home (real stores, real graph) with the stand-in model."""
    yield TestEngine(Settings())


@pytest.fixture
def empty_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh home: nothing indexed, nothing configured, no Zotero library."""
    home = tmp_path / "empty-home"
    monkeypatch.setenv("WORKBENCH_HOME", str(home))
    monkeypatch.delenv("WORKBENCH_CONFIG", raising=False)
    monkeypatch.setenv("ZOTERO_DATA_DIR", str(tmp_path / "no-zotero"))
    monkeypatch.chdir(tmp_path)
    return home
