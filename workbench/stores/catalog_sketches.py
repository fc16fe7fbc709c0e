"""The catalog's text sketches: one MinHash sketch per document, to know a paper under other bytes.

A mixin of `Catalog`. `text_sketches` holds a row for every document whose text was sketched:
the sketch (`workbench.ingest.text_sketch`), or NULL where the text was too short to judge, so
that a document is sketched once, and the version of the sketching rules that made it: a sketch
of other rules is never compared, and its document is sketched again from its chunks. A row is
written in the transaction that writes its document, and removed with it; rows a crash left
behind for a document the catalog no longer holds are never read (the reads join `documents`).
"""

from __future__ import annotations

from collections.abc import Iterable
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING

import duckdb

SKETCHES_TABLE = "text_sketches"


def _has_sketches_table(con: duckdb.DuckDBPyConnection) -> bool:
    row = con.execute(
        "SELECT count(*) FROM information_schema.tables WHERE table_name = ?", [SKETCHES_TABLE]
    ).fetchone()
    return bool(row and row[0])


class SketchRecords:
    """Text sketches of documents (see `workbench.ingest.text_sketch`)."""

    if TYPE_CHECKING:  # provided by Catalog

        def read(self, wait_s: float = 10.0) -> AbstractContextManager[duckdb.DuckDBPyConnection | None]: ...

        def write(self) -> AbstractContextManager[duckdb.DuckDBPyConnection]: ...

    def text_sketches(self, version: int, wait_s: float = 10.0) -> dict[str, bytes]:
        """The sketch of every document that has one made by these rules."""
        with self.read(wait_s) as con:
            if con is None or not _has_sketches_table(con):
                return {}
            rows = con.execute(
                "SELECT s.doc_id, s.sketch FROM text_sketches s JOIN documents d USING (doc_id) "
                "WHERE s.sketch IS NOT NULL AND s.version = ? ORDER BY s.doc_id",
                [version],
            ).fetchall()
        return {str(doc_id): bytes(sketch) for doc_id, sketch in rows}

    def unsketched_documents(self, version: int) -> list[str]:
        """Documents with text not sketched by these rules (indexed before sketches were kept, or
        sketched by other rules)."""
        with self.read() as con:
            if con is None or not _has_sketches_table(con):
                return []
            rows = con.execute(
                "SELECT doc_id FROM documents d WHERE chunk_count > 0 AND NOT EXISTS "
                "(SELECT 1 FROM text_sketches s WHERE s.doc_id = d.doc_id AND s.version = ?) ORDER BY doc_id",
                [version],
            ).fetchall()
        return [str(row[0]) for row in rows]

    @staticmethod
    def put_sketches(
        con: duckdb.DuckDBPyConnection, sketches: Iterable[tuple[str, bytes | None]], version: int
    ) -> None:
        """Record documents' sketches (None: sketched, too little text) inside an open transaction."""
        rows = [[doc_id, sketch, version] for doc_id, sketch in sketches]
        if rows:
            con.executemany("INSERT OR REPLACE INTO text_sketches (doc_id, sketch, version) VALUES (?, ?, ?)", rows)

    def set_sketches(self, sketches: Iterable[tuple[str, bytes | None]], version: int) -> None:
        """Record documents' sketches in a transaction of their own."""
        with self.write() as con:
            self.put_sketches(con, sketches, version)
