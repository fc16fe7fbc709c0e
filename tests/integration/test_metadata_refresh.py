"""Re-deriving folder metadata with newer rules, on real stores, without calling the embedder."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from tests.conftest import PDFS
from workbench.engine.engine import Engine
from workbench.ingest.parse import METADATA_RULES_VERSION
from workbench.llm.embed import Embedder
from workbench.records import Document
from workbench.settings.config import Settings
from workbench.stores.catalog import Catalog

pytestmark = pytest.mark.integration

BITCOIN = "zotero_bitcoin_whitepaper.pdf"
SCAN = "ocrmypdf_c02-22.pdf"


class NoEmbedder:
    """Stands in for the embedder after the first run: any embedding call fails the test."""

    def __init__(self, real: Embedder) -> None:
        self.real = real
        self.calls = 0
        self.dimension = real.dimension

    def count_tokens(self, text: str) -> int:
        return self.real.count_tokens(text)

    def embed_passages(self, texts: list[str]) -> np.ndarray:
        self.calls += 1
        raise AssertionError(f"the embedder was called for {len(texts)} passages")

    def embed_query(self, text: str) -> np.ndarray:
        self.calls += 1
        raise AssertionError("the embedder was called for a query")


def _rows(engine: Engine, doc_id: str) -> list[dict[str, object]]:
    table = engine.internals().chunks.table()
    assert table is not None
    quoted = doc_id.replace("'", "''")
    rows: list[dict[str, object]] = table.to_lance().to_table(filter=f"doc_id = '{quoted}'").to_pylist()
    return sorted(rows, key=lambda r: str(r["chunk_id"]))


def _age(engine: Engine, doc_id: str) -> None:
    """Make a document look as if an older rule set had derived it (producer junk and all)."""
    old = Document(
        doc_id=doc_id,
        title="Microsoft Word - bitcoin.doc",
        source="folder",
        authors=("Administrator",),
        year=1999,
    )
    engine.internals().chunks.update_metadata(old)
    with engine.internals().catalog.write() as con:
        Catalog.update_metadata(con, old, METADATA_RULES_VERSION - 1)


def test_newer_rules_rederive_metadata_without_embedding(tmp_path: Path, workbench_home: Path) -> None:
    folder = tmp_path / "papers"
    folder.mkdir()
    for name in (BITCOIN, SCAN):
        shutil.copy(PDFS / name, folder / name)
    engine = Engine(Settings())
    first = engine.index_folders([folder])
    assert first.added == 2 and first.metadata_refreshed == 0
    doc_id = f"file:1/{BITCOIN}"
    fresh_title = "Bitcoin: A Peer-to-Peer Electronic Cash System"
    assert _title(engine, doc_id) == fresh_title
    assert engine.internals().catalog.stale_metadata(METADATA_RULES_VERSION) == set()

    _age(engine, doc_id)
    with engine.internals().catalog.write() as con:  # the scan too was derived by the older rules
        Catalog.set_metadata_rules(con, [f"file:1/{SCAN}"], METADATA_RULES_VERSION - 1)
    assert engine.internals().catalog.stale_metadata(METADATA_RULES_VERSION) == {doc_id, f"file:1/{SCAN}"}
    before = _rows(engine, doc_id)
    assert before and all(r["title"] == "Microsoft Word - bitcoin.doc" for r in before)

    guard = NoEmbedder(engine.internals().embedder)
    engine.__dict__["_embedder"] = guard  # the engine's cached embedder, swapped for the guard
    report = engine.index_folders([folder])
    assert guard.calls == 0
    assert report.metadata_refreshed == 1  # the scan's metadata came out the same: only re-stamped
    assert report.added == report.updated == 0 and report.unchanged == 2

    row = engine.internals().catalog.document(doc_id)
    assert row is not None
    assert row.title == fresh_title
    assert row.authors == ("Satoshi Nakamoto",)
    after = _rows(engine, doc_id)
    assert [r["chunk_id"] for r in after] == [r["chunk_id"] for r in before]
    for old, new in zip(before, after, strict=True):
        assert new["title"] == fresh_title and new["authors"] == ["Satoshi Nakamoto"]
        assert new["text"] == old["text"]
        assert str(new["search_text"]).startswith(fresh_title + "\n")
        assert np.array_equal(np.asarray(new["vector"]), np.asarray(old["vector"]))  # not re-embedded
    assert engine.internals().catalog.stale_metadata(METADATA_RULES_VERSION) == set()
    queries = engine.internals().graph_queries()
    try:
        described = queries.describe_paper(doc_id)
    finally:
        queries.store.close()
    assert described is not None and described.title == fresh_title  # the graph follows
    assert described.authors == ("Satoshi Nakamoto",)

    again = engine.index_folders([folder])  # nothing stale: nothing re-derived
    assert again.metadata_refreshed == 0 and guard.calls == 0

    _age(engine, doc_id)
    with engine.internals().catalog.write() as con:  # stamped current, so only --refresh-metadata finds it
        Catalog.set_metadata_rules(con, [doc_id], METADATA_RULES_VERSION)
    assert engine.index_folders([folder]).metadata_refreshed == 0
    forced = engine.index_folders([folder], refresh_metadata=True)
    assert forced.metadata_refreshed == 1 and guard.calls == 0
    assert _title(engine, doc_id) == fresh_title


def test_a_file_older_rules_found_no_text_in_is_indexed_when_newer_ones_read_it(
    tmp_path: Path, workbench_home: Path
) -> None:
    from dataclasses import replace

    from tests.unit.test_glyph_names import LINES, _pdf

    folder = tmp_path / "papers"
    folder.mkdir()
    (folder / "numbered.pdf").write_bytes(_pdf(LINES, {c: f"C{ord(c)}" for c in "".join(LINES)}))
    shutil.copy(PDFS / SCAN, folder / SCAN)
    engine = Engine(Settings())
    assert engine.index_folders([folder]).added == 2
    catalog = engine.internals().catalog
    records = catalog.files_under([str(folder.resolve())])
    numbered = next(r for r in records.values() if r.path.endswith("numbered.pdf"))
    assert numbered.status == "indexed"
    # What an index built before the numbered-glyph reading holds: the file without text, older rules.
    with catalog.write() as con:
        Catalog.upsert(con, [], [replace(numbered, status="no-text", error="garbled text layer")])
        Catalog.set_metadata_rules(con, [numbered.doc_id, f"file:1/{SCAN}"], METADATA_RULES_VERSION - 1)

    report = engine.index_folders([folder])
    assert report.updated == 1 and report.unchanged == 1  # the scan still has no text: left alone
    after = catalog.files_under([numbered.root])
    assert after[numbered.path].status == "indexed"
    texts = " ".join(str(r["text"]) for r in _rows(engine, numbered.doc_id))
    assert "quick brown fox" in texts
    assert catalog.stale_metadata(METADATA_RULES_VERSION) == set()


def test_zotero_items_are_never_rederived(tmp_path: Path) -> None:
    catalog = Catalog(tmp_path / "catalog.duckdb")
    catalog.migrate()
    zotero = Document(doc_id="zotero:1:ABCD", title="Curated title", source="zotero")
    folder = Document(doc_id="file:x.pdf", title="x", source="folder")
    with catalog.write() as con:
        Catalog.upsert(con, [(zotero, 0), (folder, 0)], [])
    assert catalog.stale_metadata(METADATA_RULES_VERSION) == {"file:x.pdf"}


def _title(engine: Engine, doc_id: str) -> str | None:
    doc = engine.internals().catalog.document(doc_id)
    return doc.title if doc else None
