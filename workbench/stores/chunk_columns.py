"""The chunk table's row shape: its Arrow schema, rows from chunks, and the migration that added page offsets.

`page_offsets` (where each page of a chunk begins in its text, see `workbench.text.pages`) came
after the first indexes were written. `add_page_offsets` adds the column to such a table in one
LanceDB commit (the other columns, vectors and indexes untouched): a chunk on one page gets
`[0]`, which is all its page span says; a chunk across pages gets null, because the table
keeps no trace of where its page break fell (the text was joined, and the catalog keeps no
page text). Those quotes are cited to the chunk's page span until `workbench index --rebuild`
(or a change to the file) indexes them again.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pyarrow as pa

from workbench.records import Chunk, Document
from workbench.text.fts_text import fts_text

FTS_COLUMN = "search_text"
PAGE_OFFSETS = "page_offsets"
# Chunks across pages whose page breaks are unknown (rows of an index made before page offsets).
WITHOUT_OFFSETS = f"page_start <> page_end AND {PAGE_OFFSETS} IS NULL"


def chunk_schema(dimension: int) -> pa.Schema:
    """The Arrow schema of the chunk table."""
    return pa.schema(
        [
            pa.field("chunk_id", pa.string(), nullable=False),
            pa.field("doc_id", pa.string(), nullable=False),
            pa.field("section", pa.string()),
            pa.field("ordinal", pa.int32()),
            pa.field("text", pa.string()),
            pa.field(FTS_COLUMN, pa.string()),
            pa.field("page_start", pa.int32()),
            pa.field("page_end", pa.int32()),
            pa.field("token_count", pa.int32()),
            pa.field("title", pa.string()),
            pa.field("authors", pa.list_(pa.string())),
            pa.field("year", pa.int32()),
            pa.field("item_type", pa.string()),
            pa.field("source", pa.string()),
            pa.field("folder", pa.string()),
            pa.field("tags", pa.list_(pa.string())),
            pa.field("collections", pa.list_(pa.string())),
            pa.field("citekey", pa.string()),
            pa.field("vector", pa.list_(pa.float32(), dimension)),
            pa.field(PAGE_OFFSETS, pa.list_(pa.int32())),  # last: the column `add_page_offsets` appends
        ]
    )


def embedding_text(title: str, chunk_text: str) -> str:
    """What is embedded and BM25-indexed for a chunk: its paper's title, then the text."""
    return f"{title}\n{chunk_text}" if title else chunk_text


def chunk_rows(document: Document, chunks: Sequence[Chunk], vectors: np.ndarray) -> list[dict[str, Any]]:
    """Table rows for one document's chunks and their vectors."""
    return [
        {
            "chunk_id": c.chunk_id,
            "doc_id": c.doc_id,
            "section": c.section,
            "ordinal": c.ordinal,
            "text": c.text,
            FTS_COLUMN: fts_text(embedding_text(document.title, c.text)),
            "page_start": c.page_start,
            "page_end": c.page_end,
            "token_count": c.token_count,
            "title": document.title,
            "authors": list(document.authors),
            "year": document.year,
            "item_type": document.item_type,
            "source": document.source,
            "folder": document.folder or "",
            "tags": list(document.tags),
            "collections": list(document.collections),
            "citekey": document.citekey or "",
            "vector": vector.astype(np.float32),
            PAGE_OFFSETS: list(c.page_offsets) or None,
        }
        for c, vector in zip(chunks, vectors, strict=True)
    ]


def has_page_offsets(table: Any) -> bool:
    """Whether the table has the page offsets column (False: written before it existed)."""
    return PAGE_OFFSETS in table.schema.names


def _one_page_offsets(batch: pa.RecordBatch) -> pa.RecordBatch:
    """`[0]` for a chunk on one page, null for one across pages (its break cannot be recovered)."""
    starts = batch.column("page_start").to_pylist()
    ends = batch.column("page_end").to_pylist()
    values = [[0] if start == end else None for start, end in zip(starts, ends, strict=True)]
    field = chunk_schema(1).field(PAGE_OFFSETS)
    return pa.record_batch([pa.array(values, field.type)], schema=pa.schema([field]))


def add_page_offsets(table: Any) -> bool:
    """Add the page offsets column to a table written before it existed, in one commit; False if it has it.

    LanceDB writes the new column's data files beside the old ones and commits them as one new
    table version, so a crash leaves the table as it was (and the next writer migrates it); the
    rows, vectors and indexes are not rewritten. Works on object storage as on disk.
    """
    import lance

    table.checkout_latest()
    if has_page_offsets(table):
        return False
    udf = lance.batch_udf(output_schema=pa.schema([chunk_schema(1).field(PAGE_OFFSETS)]))(_one_page_offsets)
    table.to_lance().add_columns(udf, read_columns=["page_start", "page_end"])
    table.checkout_latest()
    return True


def rows_without_offsets(table: Any) -> int:
    """Chunks across pages whose page breaks the table does not know (quotes cite their page span)."""
    if not has_page_offsets(table):
        return int(table.count_rows("page_start <> page_end"))
    return int(table.count_rows(WITHOUT_OFFSETS))
