"""A scanned PDF in a watched folder and in a Zotero library, on the real stores: a home indexed
without OCR records it as having no text layer; the first run with OCR reads it again (the file
has not changed) and keyword search finds its words; the run after that reads nothing. A reader
without its model says so once and changes nothing."""

from __future__ import annotations

import shutil
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from tests.conftest import PDFS
from tests.zotero_fixture import build_zotero_library
from workbench.engine.engine import Engine
from workbench.settings.config import Settings

pytestmark = pytest.mark.integration

SCANNED_THESIS = "zotero:1:THSS3GRC"  # its attachment: a linked six-page scan (OCRmyPDF's multipage.pdf)


def test_a_scan_indexed_before_ocr_is_read_by_the_next_run(tmp_path: Path, workbench_home: Path) -> None:
    folder = tmp_path / "papers"
    folder.mkdir()
    shutil.copy(PDFS / "ocrmypdf_linn.pdf", folder / "linn.pdf")
    off = Settings()
    off = replace(off, index=replace(off.index, ocr=False))

    before = Engine(off).index_folders([folder])
    engine = Engine(Settings())
    unread = engine.search("polyphonic synthesizers", mode="fts").hits
    with_ocr = engine.index_folders([folder])
    found = engine.search("polyphonic synthesizers", mode="fts").hits
    detail = engine.document_detail("file:1/linn.pdf")
    again = engine.index_folders([folder])

    assert (before.added, before.failed) == (1, 0)
    assert unread == []
    assert (with_ocr.added, with_ocr.updated, with_ocr.unchanged) == (0, 1, 0)
    assert [h.doc_id for h in found] == ["file:1/linn.pdf"]
    assert detail is not None
    assert detail.document.title.startswith("The LinnSequencer")
    assert [(f.status, f.error, dict(f.dropped_pages)) for f in detail.files] == [
        ("indexed", "1 page read by OCR (1)", {})
    ]
    assert (again.added, again.updated, again.unchanged) == (0, 0, 1)


def test_a_scan_ocr_cannot_read_keeps_its_reason_and_the_run_says_why(tmp_path: Path, workbench_home: Path) -> None:
    folder = tmp_path / "papers"
    folder.mkdir()
    shutil.copy(PDFS / "ocrmypdf_linn.pdf", folder / "linn.pdf")
    settings = Settings()
    settings = replace(settings, index=replace(settings.index, ocr_languages="eng+xyz"))

    report = Engine(settings).index_folders([folder])
    detail = Engine(settings).document_detail("file:1/linn.pdf")

    models = Path(sys.prefix) / "share" / "tessdata"
    assert [n for n in report.notes if n.startswith("OCR unavailable")] == [
        f"OCR unavailable: no Tesseract model for xyz (put its .traineddata in {models} or a folder named by "
        "$TESSDATA_PREFIX); scanned pages keep their reasons (index.ocr = false turns OCR off)"
    ]
    assert detail is not None
    assert [(f.status, dict(f.dropped_pages)) for f in detail.files] == [("no-text", {"no text layer": [1]})]


def test_a_zotero_scan_indexed_before_ocr_is_read_by_the_next_sync(tmp_path: Path, workbench_home: Path) -> None:
    with build_zotero_library(tmp_path / "Zotero", schema=129, wal=False) as library:
        settings = Settings()
        settings = replace(settings, sources=replace(settings.sources, zotero_linked_base=str(library.linked_base)))
        off = replace(settings, index=replace(settings.index, ocr=False))
        Engine(off).index_zotero(library.data_dir)
        before = Engine(off).document_detail(SCANNED_THESIS)
        engine = Engine(settings)
        with_ocr = engine.index_zotero(library.data_dir)
        after = engine.document_detail(SCANNED_THESIS)
        again = engine.index_zotero(library.data_dir)

    assert before is not None and after is not None
    assert [(f.status, f.error.split(";")[0]) for f in before.files] == [("no-text", "5 of 6 pages: no text layer")]
    assert with_ocr.updated == 1
    assert [(f.status, f.error.split(";")[0]) for f in after.files] == [("indexed", "4 pages read by OCR (1-2, 5-6)")]
    assert (again.updated, again.added) == (0, 0)
