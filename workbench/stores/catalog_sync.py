"""The catalog's sync records: what the graph and each Zotero library last saw, and the index fingerprint.

A mixin of `Catalog` (kept apart so the catalog stays one screen of methods): the graph sync,
the Zotero sync and `Engine.rebuild_index` keep their state here, in the catalog's own
transactions.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import TYPE_CHECKING

import duckdb

from workbench.records import CatalogDocument, IndexFingerprint
from workbench.stores.catalog_documents import DOCUMENT_COLUMNS, catalog_document


def _has_table(con: duckdb.DuckDBPyConnection, name: str) -> bool:
    row = con.execute("SELECT count(*) FROM information_schema.tables WHERE table_name = ?", [name]).fetchone()
    return bool(row and row[0])


@dataclass(frozen=True)
class GraphChanges:
    """What the graph has not seen yet, from the catalog alone (see `SyncRecords.graph_changes`)."""

    changed: list[CatalogDocument]  # catalog rows of documents new or changed since the graph saw them
    gone: list[str]  # documents the graph saw that the catalog no longer holds
    documents: int  # documents in the catalog
    schema: str | None  # the graph schema version the last sync recorded (None: none recorded)


class SyncRecords:
    """Graph sync state, Zotero watermarks and copies, the index fingerprint and its sources."""

    if TYPE_CHECKING:  # provided by Catalog

        def read(self) -> AbstractContextManager[duckdb.DuckDBPyConnection | None]: ...

        def write(self) -> AbstractContextManager[duckdb.DuckDBPyConnection]: ...

        def migrate(self) -> int: ...

        @staticmethod
        def remove(con: duckdb.DuckDBPyConnection, doc_ids: Sequence[str], paths: Sequence[str]) -> None: ...

    # -- graph sync state ------------------------------------------------------------------------
    def graph_state(self) -> dict[str, str | None]:
        """The content hash of each document as the graph last saw it."""
        with self.read() as con:
            if con is None or not _has_table(con, "graph_state"):
                return {}
            return dict(con.execute("SELECT doc_id, content_hash FROM graph_state").fetchall())

    def graph_changes(self) -> GraphChanges:
        """Documents new or changed (by content hash) since the graph saw them, and those gone: two joins.

        Reads only the rows that changed, so a sync of one new paper costs the same in a
        library of ten or ten thousand.
        """
        with self.read() as con:
            if con is None or not _has_table(con, "graph_state"):
                return GraphChanges([], [], 0, None)
            rows = con.execute(
                f"SELECT {DOCUMENT_COLUMNS} FROM (SELECT d.* FROM documents d LEFT JOIN graph_state g "
                "ON g.doc_id = d.doc_id WHERE g.doc_id IS NULL OR g.content_hash IS DISTINCT FROM d.content_hash)"
            ).fetchall()
            changed = [catalog_document(row) for row in rows]
            gone = con.execute(
                "SELECT g.doc_id FROM graph_state g ANTI JOIN documents d ON d.doc_id = g.doc_id ORDER BY g.doc_id"
            ).fetchall()
            count = con.execute("SELECT count(*) FROM documents").fetchone()
            schema = None
            if _has_table(con, "graph_meta"):
                found = con.execute("SELECT value FROM graph_meta WHERE key = 'schema_version'").fetchone()
                schema = str(found[0]) if found else None
        return GraphChanges(changed, [str(g[0]) for g in gone], int(count[0]) if count else 0, schema)

    def record_graph_state(
        self,
        reset: bool,
        gone: Sequence[str],
        changed: Sequence[tuple[str, str | None]],
        schema: str | None = None,
    ) -> None:
        """After a graph sync: forget everything (`reset`) or the `gone` documents, then note the `changed` ones.

        `schema` records the graph schema version the graph was written with.
        """
        with self.write() as con:
            if reset:
                con.execute("DELETE FROM graph_state")
            if gone:
                con.execute("DELETE FROM graph_state WHERE list_contains(?, doc_id)", [list(gone)])
            if changed:
                con.executemany(
                    "INSERT OR REPLACE INTO graph_state (doc_id, content_hash) VALUES (?, ?)",
                    [list(c) for c in changed],
                )
            if schema is not None and _has_table(con, "graph_meta"):
                con.execute("INSERT OR REPLACE INTO graph_meta (key, value) VALUES ('schema_version', ?)", [schema])

    # -- Zotero sync state -----------------------------------------------------------------------
    def zotero_doc_ids(self, root: str) -> set[str]:
        """Documents of one Zotero library (`root` is its `zotero:<data dir>`)."""
        with self.read() as con:
            if con is None:
                return set()
            rows = con.execute("SELECT doc_id FROM documents WHERE source = 'zotero' AND folder = ?", [root]).fetchall()
        return {str(row[0]) for row in rows}

    def folder_copies_of(self, root: str) -> list[tuple[str, str, str]]:
        """(path, folder doc id, Zotero doc id) of folder files with the same bytes as a library's attachment."""
        with self.read() as con:
            if con is None:
                return []
            rows = con.execute(
                "SELECT f.path, f.doc_id, z.doc_id FROM files f JOIN files z ON f.content_hash = z.content_hash "
                "WHERE z.root = ? AND z.status IN ('indexed', 'no-text') AND f.root NOT LIKE 'zotero:%' "
                "AND f.status IN ('indexed', 'no-text')",
                [root],
            ).fetchall()
        return [(str(p), str(d), str(z)) for p, d, z in rows]

    def yield_to(self, path: str | None, folder_doc: str, owner: str, reason: str) -> None:
        """A folder file (None: every file of the folder document) becomes a duplicate of `owner`
        (a Zotero item) for `reason`, and its own document goes; duplicates of it follow to `owner`."""
        with self.write() as con:
            self.remove(con, [folder_doc], [])
            con.execute(
                "UPDATE files SET status = 'duplicate', doc_id = ?, error = ? "
                "WHERE (path = ? OR (? IS NULL AND doc_id = ?)) AND status <> 'duplicate'",
                [owner, reason, path, path, folder_doc],
            )
            con.execute("UPDATE files SET doc_id = ? WHERE doc_id = ? AND status = 'duplicate'", [owner, folder_doc])

    def zotero_watermarks(self, data_dir: str) -> dict[int, str]:
        """The stored watermark (JSON) of each library of a Zotero data dir."""
        with self.read() as con:
            if con is None:
                return {}
            rows = con.execute(
                "SELECT library_id, watermark FROM zotero_state WHERE data_dir = ?", [data_dir]
            ).fetchall()
        return {int(lib): str(mark) for lib, mark in rows}

    def set_zotero_watermarks(self, data_dir: str, marks: Mapping[int, str]) -> None:
        """Replace the watermarks (JSON) of a Zotero data dir's libraries."""
        with self.write() as con:
            con.execute("DELETE FROM zotero_state WHERE data_dir = ?", [data_dir])
            con.executemany(
                "INSERT INTO zotero_state (data_dir, library_id, watermark) VALUES (?, ?, ?)",
                [[data_dir, lib, mark] for lib, mark in marks.items()],
            )

    def fingerprint(self) -> IndexFingerprint | None:
        """The fingerprint recorded for the index, or None when none is (a new or older catalog)."""
        with self.read() as con:
            if con is None or not _has_table(con, "index_meta"):
                return None
            rows = con.execute("SELECT key, value FROM index_meta").fetchall()
        return IndexFingerprint.from_dict({str(k): str(v) for k, v in rows}) if rows else None

    def set_fingerprint(self, fingerprint: IndexFingerprint) -> None:
        """Record the fingerprint of the index (replacing any older one)."""
        self.migrate()
        with self.write() as con:
            con.execute("DELETE FROM index_meta")
            con.executemany(
                "INSERT INTO index_meta (key, value) VALUES (?, ?)", [[k, v] for k, v in fingerprint.as_dict().items()]
            )

    def indexed_sources(self) -> tuple[list[str], list[str]]:
        """The folder roots and Zotero data dirs the index was built from (for a rebuild)."""
        with self.read() as con:
            if con is None:
                return [], []
            roots = con.execute(
                "SELECT DISTINCT root FROM files WHERE root NOT LIKE 'zotero:%' ORDER BY root"
            ).fetchall()
            zotero = con.execute(
                "SELECT DISTINCT substr(root, 8) FROM files WHERE root LIKE 'zotero:%' UNION "
                "SELECT DISTINCT data_dir FROM zotero_state ORDER BY 1"
            ).fetchall()
        return [str(r[0]) for r in roots], [str(z[0]) for z in zotero]

    def clear_index(self) -> None:
        """Forget every document, file, graph and Zotero sync record; triage, notes, summaries and the ledger stay.

        Root numbers stay, so a rebuilt library keeps its `file:<n>/...` ids (and its triage); pending
        id renames go with the chunk table they were to re-key.
        """
        self.migrate()
        with self.write() as con:
            tables = (
                "documents",
                "files",
                "file_pages",
                "graph_state",
                "graph_meta",
                "zotero_state",
                "index_meta",
                "metadata_rules",
                "doc_id_renames",
                "text_sketches",
            )
            for table in tables:
                con.execute(f"DELETE FROM {table}")
