"""Shared fixtures: paths to ../shared data and an isolated workbench home per test."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
PDFS = SHARED / "data" / "pdfs"
SCIFACT = SHARED / "data" / "scifact"


@pytest.fixture(scope="session")
def shared_ocr_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One OCR cache for the session's homes, as a user's homes share it (`$WORKBENCH_OCR_CACHE`):
    the Zotero fixture's linked scan is read by Tesseract once, not in every test that builds it."""
    return tmp_path_factory.mktemp("ocr-cache")


@pytest.fixture
def workbench_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, shared_ocr_cache: Path) -> Path:
    """A private $WORKBENCH_HOME with no user config, so tests never touch real data."""
    home = tmp_path / "home"
    monkeypatch.setenv("WORKBENCH_HOME", str(home))
    monkeypatch.setenv("WORKBENCH_OCR_CACHE", str(shared_ocr_cache))
    monkeypatch.delenv("WORKBENCH_CONFIG", raising=False)
    return home


@pytest.fixture
def own_ocr_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, workbench_home: Path) -> Path:
    """An empty OCR cache of the test's own, for tests that count what Tesseract read."""
    folder = tmp_path / "ocr"
    monkeypatch.setenv("WORKBENCH_OCR_CACHE", str(folder))
    return folder


def shared_pdfs_in(folder: Path, **names: str) -> Path:
    """A folder holding copies of shared PDFs, each under the name given (`linn="ocrmypdf_linn.pdf"`
    is copied as `linn.pdf`)."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, shared in names.items():
        shutil.copy(PDFS / shared, folder / f"{name}.pdf")
    return folder
