"""Zotero attachments whose file name does not say what they are: read by the content type Zotero
recorded, and an attachment of a type the workbench does not read is named in the report."""

from __future__ import annotations

import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest

from tests.zotero_fixture import _Writer, build_zotero_library, stamp
from workbench.engine.engine import Engine
from workbench.settings.config import Settings

pytestmark = pytest.mark.integration

BITCOIN = "zotero:1:BTCN8WEB"


def test_a_pdf_saved_as_fulltext_is_read_and_an_epub_is_named(tmp_path: Path, workbench_home: Path) -> None:
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
        (library.data_dir / "storage" / "EPUB7BK1").mkdir()
        (library.data_dir / "storage" / "EPUB7BK1" / "bitcoin.epub").write_bytes(b"PK\x03\x04 an e-book")
        conn.commit()
        conn.close()
        settings = Settings()
        settings = replace(settings, sources=replace(settings.sources, zotero_linked_base=str(library.linked_base)))
        engine = Engine(settings)
        report = engine.index_zotero(library.data_dir)

    detail = engine.document_detail(BITCOIN)
    assert detail is not None
    files = {Path(f.path).name: f for f in detail.files}
    assert files["fulltext"].status == "indexed" and files["fulltext"].pages == 9
    assert "bitcoin.epub" not in files
    hits = engine.search("proof-of-work chain double-spending", mode="fts", filters=["source=zotero"]).hits
    assert BITCOIN in [h.doc_id for h in hits]
    epub = [w for w in report.warnings if w["path"].endswith("bitcoin.epub")]
    assert [w["warning"] for w in epub] == ["not indexed: application/epub+zip is not a type read here"]
    assert not [f for f in report.failures if Path(f["path"]).name == "fulltext"]
