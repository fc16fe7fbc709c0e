"""The page offsets migration on a chunk table written before them: one commit, nothing else rewritten,
crash-safe, and reads that work before it runs (a home that only reads never migrates)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pytest

from workbench.errors import StoreError
from workbench.records import Chunk, Document
from workbench.settings.config import FtsSettings
from workbench.stores import chunk_columns
from workbench.stores.chunk_columns import PAGE_OFFSETS, chunk_rows, chunk_schema
from workbench.stores.chunks import ChunkStore

DIM = 4
TEXTS = {  # (page_start, page_end): text
    (1, 1): "Graphene mobility is high at room temperature.",
    (2, 3): "Phonon scattering limits the mobility. Suspended samples reach higher values.",
    (4, 4): "Substrate phonons limit supported graphene.",
}


def old_rows() -> list[dict[str, Any]]:
    """Rows as an index made before page offsets wrote them (no page_offsets key)."""
    document = Document("file:1/g.pdf", "Graphene", "folder")
    chunks = [
        Chunk(Chunk.make_id(document.doc_id, "results", n, text), document.doc_id, "results", n, text, a, b, 9)
        for n, ((a, b), text) in enumerate(TEXTS.items())
    ]
    vectors = np.eye(len(chunks), DIM, dtype=np.float32)
    rows = chunk_rows(document, chunks, vectors)
    for row in rows:
        del row[PAGE_OFFSETS]
    return rows


def old_schema() -> pa.Schema:
    schema = chunk_schema(DIM)
    return schema.remove(schema.get_field_index(PAGE_OFFSETS))


@pytest.fixture
def old_store(tmp_path: Path) -> ChunkStore:
    """A store over a table of the old schema, written in two commits (two fragments), with its FTS index."""
    import lancedb

    rows = old_rows()
    db = lancedb.connect(str(tmp_path / "lancedb"))
    table = db.create_table("chunks", data=pa.Table.from_pylist(rows[:2], schema=old_schema()))
    table.add(pa.Table.from_pylist(rows[2:], schema=old_schema()))
    store = ChunkStore(str(tmp_path / "lancedb"), DIM, FtsSettings())
    store.finish_writes(vector_index_min_rows=10_000)  # the FTS index an old index has
    return store


def stored(store: ChunkStore) -> dict[str, dict[str, Any]]:
    table = store.table()
    assert table is not None
    return {r["text"]: r for r in table.to_lance().to_table().to_pylist()}


def test_an_old_table_reads_without_offsets_and_counts_what_a_rebuild_would_fix(old_store: ChunkStore) -> None:
    assert not old_store.has_page_offsets()
    hits = old_store.fts("phonon scattering", 5, None)
    assert hits.num_rows >= 1 and PAGE_OFFSETS not in hits.column_names
    assert PAGE_OFFSETS not in old_store.document_chunks("file:1/g.pdf")[0]
    assert old_store.rows_without_page_offsets() == 1  # the chunk across pages 2-3


def test_the_migration_adds_the_column_in_one_commit_and_keeps_everything_else(old_store: ChunkStore) -> None:
    before = stored(old_store)
    version = old_store.version()
    assert old_store.add_page_offsets() is True
    assert old_store.version() == version + 1
    after = stored(old_store)
    assert after.keys() == before.keys()
    for text, row in after.items():
        assert {k: v for k, v in row.items() if k != PAGE_OFFSETS} == before[text]  # vectors and all kept
    assert after[TEXTS[(1, 1)]][PAGE_OFFSETS] == [0] and after[TEXTS[(4, 4)]][PAGE_OFFSETS] == [0]
    assert after[TEXTS[(2, 3)]][PAGE_OFFSETS] is None  # where its page break fell is not stored anywhere
    assert old_store.rows_without_page_offsets() == 1
    assert old_store.fts("phonon scattering", 5, None).num_rows >= 1  # the keyword index still answers
    assert old_store.add_page_offsets() is False and old_store.version() == version + 1  # once only


def test_new_rows_go_into_an_old_table_after_migrating_it(old_store: ChunkStore) -> None:
    document = Document("file:1/new.pdf", "New", "folder")
    chunk = Chunk("c-new", document.doc_id, "results", 0, "First page text. Second page text.", 5, 6, 6, (0, 17))
    old_store.replace_documents([document.doc_id], chunk_rows(document, [chunk], np.ones((1, DIM), np.float32)))
    assert old_store.has_page_offsets()
    rows = {r["chunk_id"]: r for r in old_store.document_chunks(document.doc_id)}
    assert rows["c-new"][PAGE_OFFSETS] == [0, 17]


def test_a_migration_that_fails_midway_leaves_the_table_as_it_was(
    old_store: ChunkStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    version = old_store.version()
    real = chunk_columns._one_page_offsets
    calls: list[int] = []

    def dies_on_the_second_fragment(batch: pa.RecordBatch) -> pa.RecordBatch:
        calls.append(batch.num_rows)
        if len(calls) == 2:
            raise OSError("disk full")
        return real(batch)

    monkeypatch.setattr(chunk_columns, "_one_page_offsets", dies_on_the_second_fragment)
    with pytest.raises(StoreError, match="adding page offsets failed"):
        old_store.add_page_offsets()
    assert len(calls) == 2  # it had written the first fragment's column when it died
    fresh = ChunkStore(old_store.uri, DIM, FtsSettings())
    assert fresh.version() == version and not fresh.has_page_offsets()
    monkeypatch.setattr(chunk_columns, "_one_page_offsets", real)
    assert fresh.add_page_offsets() is True
    assert stored(fresh)[TEXTS[(1, 1)]][PAGE_OFFSETS] == [0]
