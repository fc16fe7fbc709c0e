"""A paper under other bytes is one document: the same text, downloaded twice or saved again by a
reader, is recorded as a duplicate of the document that holds it, in a folder, within a Zotero
item, and between a folder and Zotero; two Zotero items with one text are both kept and named."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import duckdb
import pytest

from tests.conftest import PDFS, SHARED
from tests.zotero_fixture import _Writer, build_zotero_library, stamp
from workbench.engine.engine import Engine
from workbench.settings.config import Settings

pytestmark = pytest.mark.integration

# One paper downloaded twice from the publisher: every page stamped "Downloaded at … on May 27,
# 2020" in one file and "… May 29, 2020" in the other (a real pair, from a shared Zotero library).
FRANZI = SHARED / "data" / "zotero-real" / "franzi" / "storage"
BOLA = "Bola et al. - 2017 - Task-specific reorganization of the auditory corte.pdf"
FIRST, SECOND = FRANZI / "BLR9CEWV" / BOLA, FRANZI / "2BSYUSQ3" / BOLA
BITCOIN = "zotero:1:BTCN8WEB"


def _saved_again(source: Path, target: Path) -> Path:
    """The same PDF saved again: an appended update changes its bytes, not its text."""
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(source.read_bytes() + b"\n% saved again by another reader\n")
    return target


def _papers(folder: Path, files: dict[str, Path]) -> Path:
    """A folder holding these files under these names."""
    folder.mkdir()
    for name, source in files.items():
        shutil.copy(source, folder / name)
    return folder


def _catalog(home: Path, read_only: bool = True) -> duckdb.DuckDBPyConnection:
    return duckdb.connect(str(home / "data" / "catalog.duckdb"), read_only=read_only)


def test_a_paper_downloaded_twice_is_indexed_once_and_on_its_own_when_the_first_changes(
    tmp_path: Path, workbench_home: Path
) -> None:
    bitcoin = PDFS / "zotero_bitcoin_whitepaper.pdf"
    folder = _papers(tmp_path / "papers", {"a-bola.pdf": FIRST, "b-bola.pdf": SECOND, "bitcoin.pdf": bitcoin})
    assert (folder / "a-bola.pdf").read_bytes() != (folder / "b-bola.pdf").read_bytes()
    engine = Engine(Settings())
    report = engine.index_folders([folder])
    hits = engine.search("task-specific reorganization auditory cortex deaf", mode="fts").hits
    detail = engine.document_detail("file:1/a-bola.pdf")
    again = engine.index_folders([folder])  # nothing changed: nothing read again
    shutil.copy(PDFS / "zotero_arxiv_1412.6206_lattice.pdf", folder / "a-bola.pdf")  # another paper now
    after = engine.index_folders([folder])
    hits_after = engine.search("task-specific reorganization auditory cortex deaf", mode="fts").hits

    assert (report.added, report.duplicate) == (2, 1)
    [note] = [w["warning"] for w in report.warnings if w["path"].endswith("b-bola.pdf")]
    assert note.startswith("same text as file:1/a-bola.pdf, resemblance ")
    assert {h.doc_id for h in hits} == {"file:1/a-bola.pdf"}
    assert detail is not None
    assert {Path(f.path).name: f.status for f in detail.files} == {"a-bola.pdf": "indexed", "b-bola.pdf": "duplicate"}
    assert engine.document_detail("file:1/bitcoin.pdf") is not None  # another paper stays its own
    assert (again.added, again.updated, again.duplicate, again.unchanged) == (0, 0, 0, 3)
    # the original's file now holds another paper: its copy is indexed in its own name, in the same run
    assert (after.updated, after.added, after.duplicate) == (1, 1, 0)
    assert {h.doc_id for h in hits_after} == {"file:1/b-bola.pdf"}


def test_a_copy_in_another_folder_is_read_again_when_the_original_changes(tmp_path: Path, workbench_home: Path) -> None:
    # the copy's folder is not part of the run that changes the original (`watch` runs one folder
    # at a time): it is read again all the same, not left a copy of a text nobody holds
    originals = _papers(tmp_path / "papers", {"a-bola.pdf": FIRST})
    downloads = _papers(tmp_path / "downloads", {"b-bola.pdf": SECOND})
    engine = Engine(Settings())
    engine.index_folders([originals])
    first = engine.index_folders([downloads])
    shutil.copy(PDFS / "zotero_arxiv_1412.6206_lattice.pdf", originals / "a-bola.pdf")
    after = engine.index_folders([originals])
    copy = engine.document_detail("file:2/b-bola.pdf")

    assert (first.added, first.duplicate) == (0, 1)
    assert (after.updated, after.added) == (1, 1)
    assert copy is not None and [f.status for f in copy.files] == ["indexed"]
    assert engine.index_folders([downloads]).unchanged == 1


def test_an_index_from_before_sketches_is_sketched_from_its_chunks(tmp_path: Path, workbench_home: Path) -> None:
    folder = _papers(tmp_path / "papers", {"a-bola.pdf": FIRST})
    engine = Engine(Settings())
    engine.index_folders([folder])
    with _catalog(workbench_home, read_only=False) as con:
        con.execute("DELETE FROM text_sketches")  # as an index built before sketches were kept
    shutil.copy(SECOND, folder / "b-bola.pdf")
    report = engine.index_folders([folder])
    with _catalog(workbench_home) as con:
        sketched = con.execute("SELECT doc_id FROM text_sketches WHERE sketch IS NOT NULL").fetchall()

    assert (report.added, report.duplicate, report.unchanged) == (0, 1, 1)
    assert sketched == [("file:1/a-bola.pdf",)]


def test_zotero_attachments_and_items_with_one_text(tmp_path: Path, workbench_home: Path) -> None:
    folder = tmp_path / "downloads"
    pdf = PDFS / "zotero_bitcoin_whitepaper.pdf"
    _saved_again(pdf, folder / "bitcoin-download.pdf")
    with build_zotero_library(tmp_path / "Zotero", schema=129, wal=False) as library:
        engine = Engine(Settings())
        folder_first = engine.index_folders([folder])
        engine.index_zotero(library.data_dir)
        chunks_once = engine.document_detail(BITCOIN)
        # the item's paper attached a second time, saved again by another reader; and a second
        # item (the paper imported twice) holding another download of it
        twin_key = library.add_item("Bitcoin (imported again)")
        conn = sqlite3.connect(library.db_path)
        writer = _Writer(conn)
        for key, parent_key, name in (
            ("SAVE2PDF", "BTCN8WEB", "bitcoin-annotated.pdf"),
            ("TWIN5PDF", twin_key, "b.pdf"),
        ):
            (parent,) = conn.execute("SELECT itemID FROM items WHERE key = ?", (parent_key,)).fetchone()
            writer.attachment(
                library_id=1, key=key, parent_id=parent, link_mode="imported_file",
                content_type="application/pdf", path=f"storage:{name}", title="PDF", added=stamp(95),
            )  # fmt: skip
            _saved_again(pdf, library.data_dir / "storage" / key / name)
        conn.commit()
        conn.close()
        for key in ("BTCN8WEB", twin_key):
            library.touch_item(key)
        report = engine.index_zotero(library.data_dir)
        doctor = {check.name: check for check in engine.doctor()}
        chunks_after = engine.document_detail(BITCOIN)
        twin_detail = engine.document_detail(f"zotero:1:{twin_key}")
        papers = engine.search("proof-of-work chain double spending", mode="fts").hits
        passages = engine.search("proof-of-work chain double spending", mode="fts", per_doc=False).hits
        only_twin = engine.search("proof-of-work chain", mode="fts", filters=[f"doc=zotero:1:{twin_key}"]).hits
        related = engine.related(BITCOIN)

    assert folder_first.added == 1
    assert chunks_once is not None and chunks_after is not None and twin_detail is not None
    # the folder's download yielded to the Zotero item when the item was indexed
    assert engine.document_detail("file:1/bitcoin-download.pdf") is None
    yielded = [f for f in chunks_once.files if f.path.endswith("bitcoin-download.pdf")]
    assert [(f.status, (f.error or "").startswith(f"same text as {BITCOIN}, resemblance ")) for f in yielded] == [
        ("duplicate", True)
    ]
    # the second attachment of the item: a duplicate within the item, its text not indexed again
    files = {Path(f.path).name: f for f in chunks_after.files}
    assert files["bitcoin-annotated.pdf"].status == "duplicate"
    assert (files["bitcoin-annotated.pdf"].error or "").startswith("same text as ")
    assert "an attachment of the same item" in (files["bitcoin-annotated.pdf"].error or "")
    assert chunks_after.document.chunk_count == chunks_once.document.chunk_count
    # two items of the user's with one text: both kept, and the report names the pair
    assert [f.status for f in twin_detail.files] == ["indexed"] and twin_detail.document.chunk_count > 20
    [note] = [w["warning"] for w in report.warnings if w["path"] == f"zotero:1:{twin_key}"]
    assert note.startswith(f"same text as {BITCOIN}, resemblance ") and "a duplicate item?" in note
    # search lists the paper once, naming the other item, and reads its passages once; `show` names it
    [kept] = [h.doc_id for h in papers if h.doc_id in (BITCOIN, f"zotero:1:{twin_key}")]
    twin = f"zotero:1:{twin_key}" if kept == BITCOIN else BITCOIN
    assert next(h.same_text for h in papers if h.doc_id == kept) == (twin,)
    assert twin not in {h.doc_id for h in passages} and len(passages) > 1
    assert [h.same_text for h in papers if h.doc_id != kept] == [()] * (len(papers) - 1)
    assert {h.doc_id for h in only_twin} == {f"zotero:1:{twin_key}"}  # a search of one item alone folds nothing
    assert [(t.doc_id, t.resemblance >= 0.9) for t in twin_detail.same_text] == [(BITCOIN, True)]
    assert [t.doc_id for t in chunks_after.same_text] == [f"zotero:1:{twin_key}"]
    assert (related[0].doc_id, related[0].found_by[0]) == (f"zotero:1:{twin_key}", "same text")
    assert doctor["same text"].ok
    assert doctor["same text"].detail.startswith(
        f"1 pair of documents holds one text: {BITCOIN} ~ zotero:1:{twin_key} ("
    )


def test_bench_same_text_lists_the_copies_and_the_closest_distinct_pairs(tmp_path: Path) -> None:
    from workbench.bench.same_text import bench_same_text

    bitcoin = PDFS / "zotero_bitcoin_whitepaper.pdf"
    files = {"a-bola.pdf": FIRST, "b-bola.pdf": SECOND, "bitcoin.pdf": bitcoin, "bitcoin-copy.pdf": bitcoin}
    folder = _papers(tmp_path / "papers", files)
    (folder / "note.md").write_text("too short to judge")
    result = bench_same_text([], [folder])

    assert (result["files"], result["sketched"], result["too_short"]) == (5, 4, 1)
    assert (result["pairs"], result["same_text_pairs"], result["same_text_pairs_other_bytes"]) == (6, 2, 1)
    [other_bytes] = [p for p in result["same_text"] if not p["same_bytes"]]
    assert {Path(other_bytes["a"]).name, Path(other_bytes["b"]).name} == {"a-bola.pdf", "b-bola.pdf"}
    assert sum(result["histogram"].values()) == 6 and result["histogram"]["0.0"] == 4


def test_a_folder_copy_is_read_again_when_the_zotero_item_no_longer_holds_its_text(
    tmp_path: Path, workbench_home: Path
) -> None:
    folder = tmp_path / "downloads"
    pdf = PDFS / "zotero_bitcoin_whitepaper.pdf"
    _saved_again(pdf, folder / "bitcoin-download.pdf")
    with build_zotero_library(tmp_path / "Zotero", schema=129, wal=False) as library:
        engine = Engine(Settings())
        engine.index_zotero(library.data_dir)
        first = engine.index_folders([folder])
        library.touch_item("BTCN8WEB")  # a metadata edit alone leaves the copy a copy
        engine.index_zotero(library.data_dir)
        quiet = engine.index_folders([folder])
        attached = next((library.data_dir / "storage" / "PDFB9TCN").glob("*.pdf"))
        shutil.copy(PDFS / "zotero_arxiv_1412.6206_lattice.pdf", attached)  # another paper in its place
        library.touch_item("BTCN8WEB")
        replaced = engine.index_zotero(library.data_dir)
        # the Zotero run itself reads the copy again: `watch` rescans a folder only when it changes
        on_its_own = engine.document_detail("file:1/bitcoin-download.pdf")
        after = engine.index_folders([folder])

    assert (first.added, first.duplicate) == (0, 1)
    assert (quiet.added, quiet.duplicate, quiet.unchanged) == (0, 0, 1)
    assert (replaced.updated, replaced.added, replaced.failed) == (1, 1, 0)
    assert on_its_own is not None and on_its_own.document.chunk_count > 5
    assert [f.status for f in on_its_own.files] == ["indexed"]
    assert (after.added, after.duplicate, after.unchanged) == (0, 0, 1)
