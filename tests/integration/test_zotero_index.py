"""A Zotero library indexed for real: every kind of content, filters, incremental sync, safety."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from tests.conftest import PDFS
from tests.zotero_fixture import ZoteroFixture, build_zotero_library
from workbench.engine.engine import Engine
from workbench.query.filters import parse_filter
from workbench.settings.config import Settings

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def indexed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Engine, ZoteroFixture, Path]]:
    root = tmp_path_factory.mktemp("zotero")
    home = tmp_path_factory.mktemp("home")
    old = os.environ.get("WORKBENCH_HOME")
    os.environ["WORKBENCH_HOME"] = str(home)
    with build_zotero_library(root / "Zotero", schema=129, wal=True) as library:
        settings = Settings()
        settings = replace(settings, sources=replace(settings.sources, zotero_linked_base=str(library.linked_base)))
        engine = Engine(settings)
        report = engine.index_zotero(library.data_dir)
        assert report.added >= 9
        # the fixture's one missing attachment: counted and listed (the item is indexed from its metadata)
        assert report.failed == len(report.failures) == 1 and "is missing" in report.failures[0]["error"]
        yield engine, library, home
    if old is None:
        os.environ.pop("WORKBENCH_HOME", None)
    else:
        os.environ["WORKBENCH_HOME"] = old


def doc_ids(engine: Engine) -> set[str]:
    return engine.internals().catalog.doc_ids()


def test_items_become_documents_per_library(indexed: tuple[Engine, ZoteroFixture, Path]) -> None:
    engine, library, _ = indexed
    ids = doc_ids(engine)
    assert {"zotero:1:JRNL2TNC", "zotero:2:JRNL2TNC", "zotero:2:PXSL8MPT"} <= ids  # same key, two libraries
    assert f"zotero:1:{library.keys['standalone']}" in ids  # standalone attachment is its own document
    assert f"zotero:1:{library.keys['trashed']}" not in ids
    assert not any(i.startswith("zotero:3:") for i in ids)  # feeds are not library items
    assert engine.internals().chunks.doc_ids() == ids


def test_full_text_notes_and_annotations_are_searchable(indexed: tuple[Engine, ZoteroFixture, Path]) -> None:
    engine, _, _ = indexed
    hits = engine.search("double-spending problem peer-to-peer network timestamps", mode="fts").hits
    assert hits[0].doc_id == "zotero:1:BTCN8WEB"
    note = engine.search("reading notes PaSa", filters=[parse_filter("section=note")], per_doc=False).hits
    assert note and note[0].doc_id == "zotero:1:PASA25HE"
    ann = engine.search("agentic search loop", filters=[parse_filter("section=annotation")], per_doc=False).hits
    assert ann and ann[0].doc_id == "zotero:1:PASA25HE"
    assert ann[0].page_start == 1 and "[p. 1]" in ann[0].text and "Core idea" in ann[0].text


def test_metadata_filters(indexed: tuple[Engine, ZoteroFixture, Path]) -> None:
    engine, _, _ = indexed

    def found(*filters: str) -> set[str]:
        result = engine.search("consensus paper", filters=[parse_filter(f) for f in filters], limit=50)
        return {h.doc_id for h in result.hits}

    assert found("collection=Computer Science/Distributed Systems/Consensus") == {"zotero:1:THSS3GRC"}
    # a parent collection includes its sub-collections, as Zotero's "show items from subcollections"
    assert found("collection=Computer Science/Distributed Systems") == {"zotero:1:BTCN8WEB", "zotero:1:THSS3GRC"}
    assert found("collection=Consensus") == {"zotero:1:THSS3GRC", "zotero:2:JRNL2TNC", "zotero:2:PXSL8MPT"}
    assert found("author=Lamport") == {"zotero:2:PXSL8MPT"}
    assert found("citekey=he2025pasa") == {"zotero:1:PASA25HE"}
    assert found("type=thesis") == {"zotero:1:THSS3GRC"}
    assert found("tag=raft") == {"zotero:2:JRNL2TNC"}
    assert found("year>=2020", "source=zotero") == {"zotero:1:PASA25HE", "zotero:1:THSS3GRC", "zotero:1:XPLN4WLT"}


def test_missing_file_is_recorded_not_fatal(indexed: tuple[Engine, ZoteroFixture, Path]) -> None:
    engine, _, _ = indexed
    detail = engine.document_detail("zotero:1:ATTN7VSW")
    assert detail is not None
    statuses = {Path(f.path).name: (f.status, f.error) for f in detail.files}
    assert statuses["Vaswani et al. - 2017 - Attention is all you need.pdf"] == ("failed", "file missing")
    assert engine.search("dominant sequence transduction models", mode="fts").hits[0].doc_id == "zotero:1:ATTN7VSW"


def test_show_by_citekey_lists_notes_and_annotations(indexed: tuple[Engine, ZoteroFixture, Path]) -> None:
    engine, _, home = indexed
    env = {**os.environ, "WORKBENCH_HOME": str(home)}
    out = subprocess.run(
        [sys.executable, "-m", "workbench.cli", "show", "@he2025pasa", "--json"],
        env=env,
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["document"]["doc_id"] == "zotero:1:PASA25HE"
    assert data["document"]["authors"][0] == "He, Yichen"
    assert any("agentic search loop" in a["text"] for a in data["annotations"])
    assert data["notes"] and data["files"][0]["status"] == "indexed"
    by_key = engine.document_detail("THSS3GRC")
    assert by_key is not None and by_key.document.citekey is None


def test_incremental_runs(indexed: tuple[Engine, ZoteroFixture, Path]) -> None:
    engine, library, _ = indexed
    again = engine.index_zotero(library.data_dir)
    assert (again.added, again.updated, again.removed, again.chunks) == (0, 0, 0, 0)

    library.touch_item(library.keys["book"])
    touched = engine.index_zotero(library.data_dir)
    assert (touched.added, touched.updated, touched.removed) == (0, 1, 0)

    key = library.add_item("Quantum error correction with surface codes", tags=["qec"])  # only in the WAL
    added = engine.index_zotero(library.data_dir)
    assert added.added == 1
    assert engine.search("surface codes", mode="fts").hits[0].doc_id == f"zotero:1:{key}"

    library.trash_item(key)
    trashed = engine.index_zotero(library.data_dir)
    assert trashed.removed == 1
    assert f"zotero:1:{key}" not in engine.internals().chunks.doc_ids()


def test_attachment_replaced_on_disk_is_reindexed(indexed: tuple[Engine, ZoteroFixture, Path]) -> None:
    engine, library, _ = indexed
    target = next((library.data_dir / "storage" / library.keys["standalone"]).glob("*.pdf"))
    shutil.copy(PDFS / "bpj_2021.11.1119_abstract_only.pdf", target)
    report = engine.index_zotero(library.data_dir)
    assert report.updated == 1
    assert engine.search("photoinduced electron transfer glutamate lysine capsids", mode="fts").hits[0].doc_id == (
        f"zotero:1:{library.keys['standalone']}"
    )


def test_folder_copy_of_a_zotero_pdf_is_not_indexed_twice(
    indexed: tuple[Engine, ZoteroFixture, Path], tmp_path: Path
) -> None:
    engine, _, _ = indexed
    folder = tmp_path / "downloads"
    folder.mkdir()
    shutil.copy(PDFS / "zotero_bitcoin_whitepaper.pdf", folder / "bitcoin.pdf")
    report = engine.index_folders([folder])
    assert report.duplicate == 1 and report.added == 0
    assert "file:1/bitcoin.pdf" not in engine.internals().chunks.doc_ids()


def test_corrupt_or_foreign_database_is_one_clear_error(tmp_path: Path, workbench_home: Path) -> None:
    bad = tmp_path / "Broken"
    bad.mkdir()
    (bad / "zotero.sqlite").write_bytes(os.urandom(4096))
    out = subprocess.run(
        [sys.executable, "-m", "workbench.cli", "index", "--zotero", str(bad)], capture_output=True, text=True
    )
    assert out.returncode == 1
    assert out.stderr.count("\n") == 1
    assert "corrupt" in out.stderr or "not a Zotero database" in out.stderr
    missing = subprocess.run(
        [sys.executable, "-m", "workbench.cli", "index", "--zotero", str(tmp_path / "nope")],
        capture_output=True,
        text=True,
    )
    assert missing.returncode == 1 and "not a Zotero data directory" in missing.stderr


def test_graph_follows_the_index(indexed: tuple[Engine, ZoteroFixture, Path]) -> None:
    engine, _, home = indexed
    groups = engine.neighbours("zotero:2:JRNL2TNC")  # Raft: shares tag and collection with Paxos
    by_relation = {relation: {n.doc_id for n in items} for relation, items in groups.items()}
    assert any("zotero:2:PXSL8MPT" in ids for ids in by_relation.values())
    env = {**os.environ, "WORKBENCH_HOME": str(home)}
    out = subprocess.run(
        [sys.executable, "-m", "workbench.cli", "graph", "Lamport", "--json"], env=env, capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["kind"] == "author"
    related = subprocess.run(
        [sys.executable, "-m", "workbench.cli", "related", "zotero:2:JRNL2TNC", "--json"],
        env=env,
        capture_output=True,
        text=True,
    )
    rows = json.loads(related.stdout)["related"]
    paxos = next(r for r in rows if r["doc_id"] == "zotero:2:PXSL8MPT")
    assert any(f.startswith("graph:") for f in paxos["found_by"])


def test_graph_drops_trashed_items(indexed: tuple[Engine, ZoteroFixture, Path]) -> None:
    engine, library, _ = indexed
    key = library.add_item("Graph deletion probe on quantum annealing", tags=["consensus"])
    engine.index_zotero(library.data_dir)
    queries = engine.internals().graph_queries()
    try:
        assert f"zotero:1:{key}" in queries.store.doc_ids()
    finally:
        queries.store.close()
    library.trash_item(key)
    engine.index_zotero(library.data_dir)
    queries = engine.internals().graph_queries()
    try:
        assert f"zotero:1:{key}" not in queries.store.doc_ids()
    finally:
        queries.store.close()


def test_catalog_record_is_the_row(indexed: tuple[Engine, ZoteroFixture, Path]) -> None:
    """Each document's record gives what `SELECT *` gives: every column, in order, same values (`show --json`)."""
    engine, _, _ = indexed
    catalog = engine.internals().catalog
    with catalog.read() as con:
        assert con is not None
        cursor = con.execute("SELECT * FROM documents ORDER BY doc_id")
        names = [d[0] for d in cursor.description]
        rows = [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]
    assert len(rows) >= 9 and any(r["tags"] for r in rows) and any(r["citekey"] for r in rows)
    assert [d.as_dict() for d in sorted(catalog.all_documents(), key=lambda d: d.doc_id)] == rows
    for row in rows:
        record = catalog.document(row["doc_id"])
        assert record is not None
        assert list(record.as_dict()) == names
        assert record.as_dict() == row
        assert json.dumps(record.as_dict(), default=str) == json.dumps(row, default=str)
