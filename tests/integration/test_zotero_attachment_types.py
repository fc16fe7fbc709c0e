"""Zotero attachments as real libraries hold them: a file whose name does not say what it is
(read by the content type Zotero recorded), an EPUB (read itself), a type the workbench does not
read (its text from Zotero's full-text cache where Zotero read it, else named in the report), and
a file missing on this machine whose text Zotero kept in that cache."""

from __future__ import annotations

import shutil
import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest

from tests.conftest import PDFS
from tests.zotero_fixture import _Writer, build_zotero_library, stamp
from workbench.engine.engine import Engine
from workbench.settings.config import Settings

pytestmark = pytest.mark.integration

BITCOIN = "zotero:1:BTCN8WEB"
ATTENTION = "zotero:1:ATTN7VSW"  # its PDF attachment (MSNG5PDF) is missing from storage
ODP_TEXT = "A lighthouse keeper's edition of the white paper, for reading on the train."
EPUB = Path(__file__).parent.parent / "data" / "formats" / "paper.epub"  # pandoc's EPUB 3
VASWANI = "Vaswani et al. - 2017 - Attention is all you need.pdf"
# Zotero's cache of a PDF's text: pdftotext's output, each page ended by a form feed.
CACHE = (
    "Attention Is All You Need\nThe dominant sequence transduction models are based on complex recurrent networks.\f"
    "\f"
    "The Transformer allows for significantly more parallelization and reaches a new state of the art.\f"
)


def test_attachments_by_type_unread_types_named_and_missing_files_from_zoteros_cache(
    tmp_path: Path, workbench_home: Path
) -> None:
    with build_zotero_library(tmp_path / "Zotero", schema=129, wal=False) as library:
        conn = sqlite3.connect(library.db_path)
        # A PDF saved from the web under the name the server gave it: no suffix, type application/pdf.
        (stored,) = conn.execute("SELECT path FROM itemAttachments WHERE path LIKE 'storage:%bitcoin%pdf'").fetchone()
        folder = library.data_dir / "storage" / "PDFB9TCN"
        (folder / stored.removeprefix("storage:")).rename(folder / "fulltext")
        conn.execute("UPDATE itemAttachments SET path = 'storage:fulltext' WHERE path = ?", (stored,))
        (parent,) = conn.execute("SELECT itemID FROM items WHERE key = 'BTCN8WEB'").fetchone()
        _Writer(conn).attachment(
            library_id=1, key="EPUB7BK1", parent_id=parent, link_mode="imported_file",
            content_type="application/epub+zip", path="storage:bitcoin.epub", title="EPUB", added=stamp(90),
        )  # fmt: skip
        _Writer(conn).attachment(
            library_id=1, key="ODP3SLD1", parent_id=parent, link_mode="imported_file",
            content_type="application/vnd.oasis.opendocument.presentation", path="storage:bitcoin.odp", title="ODP",
            added=stamp(90),
        )  # fmt: skip
        _Writer(conn).attachment(
            library_id=1, key="IMGP4PNG", parent_id=parent, link_mode="imported_file",
            content_type="image/png", path="storage:figure.png", title="Figure", added=stamp(91),
        )  # fmt: skip
        attached = (
            ("EPUB7BK1", "bitcoin.epub", EPUB.read_bytes()),
            ("ODP3SLD1", "bitcoin.odp", b"PK\x03\x04"),
            ("IMGP4PNG", "figure.png", b"\x89PNG"),
        )
        for key, name, data in attached:
            (library.data_dir / "storage" / key).mkdir()
            (library.data_dir / "storage" / key / name).write_bytes(data)
        # Zotero keeps the text of what it reads; the workbench reads no slides itself
        (library.data_dir / "storage" / "ODP3SLD1" / ".zotero-ft-cache").write_text(ODP_TEXT)
        missing = library.data_dir / "storage" / "MSNG5PDF"
        missing.mkdir(exist_ok=True)
        (missing / ".zotero-ft-cache").write_text(CACHE)
        conn.commit()
        conn.close()
        settings = Settings()
        settings = replace(settings, sources=replace(settings.sources, zotero_linked_base=str(library.linked_base)))
        engine = Engine(settings)
        report = engine.index_zotero(library.data_dir)
        restored = engine.index_zotero(library.data_dir)  # nothing changed: nothing read again
        assert (restored.added, restored.updated, restored.failed) == (0, 0, 0)
        cached = engine.document_detail(ATTENTION)
        found = engine.search("Transformer parallelization", mode="fts", filters=["source=zotero"]).hits
        from_cache = [
            (h.page_start, h.page_end, "allows for significantly" in h.text) for h in found if h.doc_id == ATTENTION
        ]
        # the file comes back: it is read, and the cache's record goes
        shutil.copy(PDFS / "arxiv_2501.10120_pasa.pdf", missing / VASWANI)
        back = engine.index_zotero(library.data_dir)
        after = engine.document_detail(ATTENTION)

    detail = engine.document_detail(BITCOIN)
    assert detail is not None
    files = {Path(f.path).name: f for f in detail.files}
    assert files["fulltext"].status == "indexed" and files["fulltext"].pages == 9
    assert files["bitcoin.epub"].status == "indexed"  # an EPUB is read itself, chapters and all
    assert "bitcoin.odp" not in files and "figure.png" not in files
    odp = "application/vnd.oasis.opendocument.presentation"
    odp_note = f"{odp} is not a type read here: its text is Zotero's full-text cache"
    assert (files[".zotero-ft-cache"].status, files[".zotero-ft-cache"].error) == ("indexed", odp_note)
    for words in ("proof-of-work chain double-spending", "lighthouse keeper's edition", "catches up from z blocks"):
        hits = engine.search(words, mode="fts", filters=["source=zotero"]).hits
        assert BITCOIN in [h.doc_id for h in hits]
    image = [w["warning"] for w in report.warnings if w["path"].endswith("figure.png")]
    assert image == ["not indexed: image/png is not a type read here"]
    assert not [f for f in report.failures if Path(f["path"]).name == "fulltext"]

    # the missing PDF: still a failed record, and its text indexed from the cache, pages counted
    assert cached is not None
    kinds = {Path(f.path).name: (f.status, f.error, f.pages) for f in cached.files}
    assert kinds[VASWANI] == ("failed", "file missing", 0)
    note = "the attachment's file is not on this machine: its text is Zotero's full-text cache"
    assert kinds[".zotero-ft-cache"] == ("indexed", note, 3)
    assert from_cache == [(1, 3, True)]  # the cache's pages: the second was empty
    assert {"path": str(missing / ".zotero-ft-cache"), "warning": note} in report.warnings
    assert back.updated == 1 and after is not None
    assert [(Path(f.path).name, f.status) for f in after.files] == [(VASWANI, "indexed")]


def test_an_attachment_that_cannot_be_read_is_indexed_from_zoteros_cache_and_read_again_once_changed(
    tmp_path: Path, workbench_home: Path
) -> None:
    with build_zotero_library(tmp_path / "Zotero", schema=129, wal=False) as library:
        folder = library.data_dir / "storage" / "PDFB9TCN"
        pdf = next(folder.glob("*.pdf"))
        good = pdf.read_bytes()
        pdf.write_bytes(b"%PDF-1.4 cut short by a download that failed" + b"\0" * 2000)
        # Zotero read the file before it broke (pdf.js is lenient): its text is in the cache
        (folder / ".zotero-ft-cache").write_text("A purely peer-to-peer version of electronic cash.\f")
        engine = Engine(Settings())
        first = engine.index_zotero(library.data_dir)
        second = engine.index_zotero(library.data_dir)  # nothing changed: nothing read, nothing reported
        hits = engine.search("purely peer-to-peer electronic cash", mode="fts", filters=["source=zotero"]).hits
        pdf.write_bytes(good)  # the file is repaired
        third = engine.index_zotero(library.data_dir)
        detail = engine.document_detail(BITCOIN)

    assert [f["path"] for f in first.failures if f["path"] == str(pdf)] == [str(pdf)]
    note = (
        "the attachment's file could not be read (not a valid PDF: data format): its text is Zotero's full-text cache"
    )
    assert {"path": str(folder / ".zotero-ft-cache"), "warning": note} in first.warnings
    assert (second.added, second.updated, second.failed, second.chunks) == (0, 0, 0, 0)
    assert BITCOIN in [h.doc_id for h in hits]
    assert (third.updated, third.failed) == (1, 0)
    assert detail is not None
    statuses = {Path(f.path).name: f.status for f in detail.files}
    assert statuses[pdf.name] == "indexed" and ".zotero-ft-cache" not in statuses  # the file, not its cache
