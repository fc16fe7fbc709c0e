"""A scanned PDF in a watched folder and in a Zotero library, on the real stores: a home indexed
without OCR records it as having no text layer; the first run with OCR reads it again (the file
has not changed) and keyword search finds its words; the run after that reads nothing. A reader
without its model says so once and changes nothing."""

from __future__ import annotations

import shutil
import sys
from collections.abc import Callable
from dataclasses import astuple, replace
from pathlib import Path

import pytest

from tests.conftest import PDFS, shared_pdfs_in
from tests.zotero_fixture import build_zotero_library
from workbench.engine.engine import Engine
from workbench.ingest.ocr import auto_workers
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


def test_a_rebuild_reads_its_scans_from_the_ocr_cache(tmp_path: Path, own_ocr_cache: Path) -> None:
    import os

    from workbench.cli.index import ocr_text

    folder = shared_pdfs_in(tmp_path / "papers", linn="ocrmypdf_linn.pdf")
    engine = Engine(Settings())

    first = engine.index_folders([folder])
    chunks = engine.internals().chunks.doc_ids()
    rebuilt = engine.rebuild_index()["folders"]
    detail = engine.document_detail("file:1/linn.pdf")
    found = engine.search("polyphonic synthesizers", mode="fts").hits
    doctor = {check.name: check for check in engine.doctor()}["ocr"]
    entry = next(own_ocr_cache.rglob("*.json"))
    long_ago = entry.stat().st_mtime - 400 * 86_400  # no index has read it for over a year
    os.utime(entry, (long_ago, long_ago))
    (own_ocr_cache / ".pruned").unlink(missing_ok=True)
    pruned = engine.index_folders([folder])

    assert (first.ocr_pages, first.ocr_pages_cached) == (1, 0)
    assert ocr_text(first) == "OCR 1 page; "
    assert (rebuilt.added, rebuilt.ocr_pages, rebuilt.ocr_pages_cached) == (1, 0, 1)
    assert ocr_text(rebuilt) == "OCR 1 page (1 from its cache); "
    assert engine.internals().chunks.doc_ids() == chunks
    assert detail is not None and detail.document.title.startswith("The LinnSequencer")
    assert [(f.status, f.error) for f in detail.files] == [("indexed", "1 page read by OCR (1)")]
    assert [h.doc_id for h in found] == ["file:1/linn.pdf"]
    assert doctor.ok and doctor.detail.endswith("; cache 1 page (0.0 MB)"), doctor.detail
    assert f", {auto_workers()} page" in doctor.detail  # the pages read at once, one a core
    assert not entry.exists()
    removed = "OCR cache: removed the reading of 1 page no index read for 365 days"
    assert any(n.startswith(removed) for n in pruned.notes), pruned.notes


def _stop_after(calls: int) -> Callable[[], bool]:
    """A `cancelled` that says stop on its call after `calls` (the run asks before each file)."""
    asked = iter(range(calls + 1))
    return lambda: next(asked, calls) >= calls


def test_text_papers_are_indexed_before_ocr_reads_the_scans(tmp_path: Path, workbench_home: Path) -> None:
    folder = tmp_path / "papers"
    folder.mkdir()
    shutil.copy(PDFS / "ocrmypdf_linn.pdf", folder / "a-scan.pdf")  # first by name
    for name in ("zotero_bitcoin_whitepaper.pdf", "devdyn_2000_218_235.pdf"):
        shutil.copy(PDFS / name, folder / name)
    engine = Engine(Settings())
    seen: list[tuple[int, int, str, str]] = []

    stopped = engine.index_folders([folder], progress=lambda p: seen.append(astuple(p)), cancelled=_stop_after(3))
    before = engine.search("double spending", mode="fts").hits
    scan_before = engine.document_detail("file:1/a-scan.pdf")
    resumed = engine.index_folders([folder])
    scan = engine.document_detail("file:1/a-scan.pdf")

    assert [(n, total, path.rsplit("/", 1)[-1]) for n, total, path, _ in seen] == [
        (1, 3, "devdyn_2000_218_235.pdf"),
        (2, 3, "zotero_bitcoin_whitepaper.pdf"),
    ]
    assert stopped.cancelled and stopped.added == 2 and stopped.ocr_pages + stopped.ocr_pages_cached == 0
    assert [h.doc_id for h in before][:1] == ["file:1/zotero_bitcoin_whitepaper.pdf"]  # committed
    assert scan_before is None  # put off, never written: the next run reads it
    assert (resumed.added, resumed.unchanged, resumed.failed) == (1, 2, 0)
    assert scan is not None and [(f.status, f.error) for f in scan.files] == [("indexed", "1 page read by OCR (1)")]


def test_a_zotero_item_with_a_scan_is_synced_after_the_others(tmp_path: Path, workbench_home: Path) -> None:
    with build_zotero_library(tmp_path / "Zotero", schema=129, wal=False) as library:
        settings = Settings()
        settings = replace(settings, sources=replace(settings.sources, zotero_linked_base=str(library.linked_base)))
        engine = Engine(settings)
        seen: list[str] = []
        first = engine.index_zotero(library.data_dir, progress=lambda p: seen.append(p.path))
        items = len(seen)
        fresh = Engine(replace(settings, storage=replace(settings.storage, data_dir=str(tmp_path / "other"))))
        stopped = fresh.index_zotero(library.data_dir, cancelled=_stop_after(items))
        thesis_before = fresh.document_detail(SCANNED_THESIS)
        resumed = fresh.index_zotero(library.data_dir)
        thesis = fresh.document_detail(SCANNED_THESIS)

    assert seen[-1] == SCANNED_THESIS and seen.count(SCANNED_THESIS) == 1
    assert not first.cancelled and first.ocr_pages + first.ocr_pages_cached == 6
    assert stopped.cancelled and thesis_before is None
    assert resumed.added == 1 and thesis is not None
    assert [(f.status, f.error.split(";")[0]) for f in thesis.files] == [("indexed", "4 pages read by OCR (1-2, 5-6)")]


def test_a_script_without_a_main_guard_runs_once_and_its_scans_are_read(tmp_path: Path, own_ocr_cache: Path) -> None:
    """Tesseract's worker is a program of its own: a process spawned by `multiprocessing` would
    import the caller's script first, and a script with no `if __name__ == "__main__":` guard
    would index again inside the worker (and the worker would die starting a process of its own)."""
    import json
    import subprocess

    folder = shared_pdfs_in(tmp_path / "papers", linn="ocrmypdf_linn.pdf")
    runs = tmp_path / "runs.txt"
    script = tmp_path / "index_my_papers.py"
    script.write_text(
        "import json\n"
        "from pathlib import Path\n"
        "from workbench.engine.engine import Engine\n"
        "from workbench.settings.config import Settings\n"
        f"with open({str(runs)!r}, 'a') as log:\n"
        "    log.write('run\\n')\n"
        f"report = Engine(Settings()).index_folders([Path({str(folder)!r})])\n"
        "print(json.dumps({'ocr_pages': report.ocr_pages, 'failed': report.failed, 'added': report.added}))\n"
    )

    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=600, cwd=tmp_path)

    assert done.returncode == 0, done.stderr[-2000:]
    assert json.loads(done.stdout.strip().splitlines()[-1]) == {"ocr_pages": 1, "failed": 0, "added": 1}
    assert runs.read_text() == "run\n"
    assert Engine(Settings()).search("polyphonic synthesizers", mode="fts").hits[0].doc_id == "file:1/linn.pdf"
