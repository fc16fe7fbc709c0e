"""EPUB books and Word documents in a watched folder: indexed with their titles and authors,
searchable by their chapters' words, filtered by type; a broken one is a failed record with its
reason, and the rest of the run goes on; documents of types not read are counted, not passed over
without a word."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from workbench.engine.engine import Engine
from workbench.settings.config import Settings

pytestmark = pytest.mark.integration

FORMATS = Path(__file__).parent.parent / "data" / "formats"


def test_books_and_word_documents_in_a_folder_are_indexed_and_searched(tmp_path: Path, workbench_home: Path) -> None:
    folder = tmp_path / "papers"
    folder.mkdir()
    shutil.copy(FORMATS / "paper.epub", folder / "bitcoin-reading.epub")
    shutil.copy(FORMATS / "note.docx", folder / "fin-note.docx")
    (folder / "locked.epub").write_bytes(b"PK\x03\x04 not an archive")
    for name in ("old-draft.doc", "scan.djvu", "figure.png", ".hidden.doc"):  # not read: documents are counted
        (folder / name).write_bytes(b"\xd0\xcf\x11\xe0")
    engine = Engine(Settings())
    report = engine.index_folders([folder])
    book = engine.document_detail("file:1/bitcoin-reading.epub")
    note = engine.document_detail("file:1/fin-note.docx")
    chapters = engine.search("attacker catches up from z blocks behind", mode="fts").hits
    word = engine.search("amputation plane outgrowth", mode="fts", filters=["type=docx"]).hits
    again = engine.index_folders([folder])

    assert (report.added, report.failed) == (2, 1)
    assert report.failures == [
        {"path": str(folder / "locked.epub"), "error": "not a valid EPUB: not a zip archive (File is not a zip file)"}
    ]
    assert [n for n in report.notes if n.startswith("not read:")] == [
        "not read: 2 documents of types not read here (.djvu 1, .doc 1); "
        "PDF, EPUB, Word (.docx), OpenDocument (.odt), HTML, Markdown and text files are"
    ]
    assert book is not None and note is not None
    assert (book.document.title, book.document.authors, book.document.year) == (
        "Proof of Work and the Double-Spending Problem",
        ("Ada Lovelace", "Alan Turing"),
        2021,
    )
    assert (note.document.title, note.document.authors) == (
        "Fin Regeneration in Zebrafish: A Laboratory Note",
        ("Kenneth Poss",),
    )
    assert [(h.doc_id, h.section) for h in chapters][:1] == [("file:1/bitcoin-reading.epub", "methods")]
    assert [h.doc_id for h in word] == ["file:1/fin-note.docx"]
    assert (again.added, again.updated, again.failed, again.unchanged) == (0, 0, 0, 3)  # nothing read again
