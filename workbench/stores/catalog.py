"""The DuckDB catalog: documents, files and their states, behind ordered migrations.

DuckDB lets one process write and, while it does, no other process open the file. So the
writer opens a connection per transaction and closes it at once; readers (search, status,
the TUI) retry briefly and are never held up for longer than one commit.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import duckdb

from workbench.errors import StoreBusyError, StoreError, one_line
from workbench.records import CatalogDocument, Document
from workbench.stores.catalog_documents import DOCUMENT_COLUMNS, catalog_document
from workbench.stores.catalog_ids import root_scoped_file_ids
from workbench.stores.catalog_pages import PageRecords, encode_dropped
from workbench.stores.catalog_sketches import SketchRecords
from workbench.stores.catalog_sync import SyncRecords
from workbench.stores.markers import set_marker, writes_pending_path

# A migration is SQL, or a function run on the connection inside the migration's transaction.
Migration = str | Callable[[duckdb.DuckDBPyConnection], None]

MIGRATIONS: tuple[tuple[str, Migration], ...] = (
    (
        "documents and files",
        """
        CREATE TABLE documents (
            doc_id VARCHAR PRIMARY KEY, title VARCHAR, authors VARCHAR[], year INTEGER,
            venue VARCHAR, doi VARCHAR, abstract VARCHAR, item_type VARCHAR, tags VARCHAR[],
            collections VARCHAR[], citekey VARCHAR, source VARCHAR, folder VARCHAR,
            content_hash VARCHAR, chunk_count INTEGER, updated_at TIMESTAMP DEFAULT now()
        );
        CREATE TABLE files (
            path VARCHAR PRIMARY KEY, root VARCHAR, doc_id VARCHAR, size BIGINT,
            mtime DOUBLE, content_hash VARCHAR, status VARCHAR, error VARCHAR,
            indexed_at TIMESTAMP DEFAULT now()
        );
        """,
    ),
    (
        "zotero watermarks",
        """
        CREATE TABLE zotero_state (
            data_dir VARCHAR, library_id INTEGER, watermark VARCHAR,
            updated_at TIMESTAMP DEFAULT now(), PRIMARY KEY (data_dir, library_id)
        );
        """,
    ),
    (
        "triage and query ledger",
        """
        CREATE TABLE triage (
            doc_id VARCHAR PRIMARY KEY, state VARCHAR DEFAULT 'inbox', priority INTEGER DEFAULT 0,
            starred BOOLEAN DEFAULT false, tags VARCHAR[] DEFAULT [], note VARCHAR DEFAULT '',
            updated_at TIMESTAMP DEFAULT now()
        );
        CREATE SEQUENCE query_ids START 1;
        CREATE TABLE queries (
            id BIGINT PRIMARY KEY DEFAULT nextval('query_ids'), asked_at TIMESTAMP DEFAULT now(),
            query VARCHAR, intent VARCHAR, depth VARCHAR, model VARCHAR, status VARCHAR,
            estimated_prompt_tokens INTEGER, prompt_tokens INTEGER, completion_tokens INTEGER,
            latency_ms DOUBLE, verdict VARCHAR
        );
        CREATE TABLE summaries (
            doc_id VARCHAR, model VARCHAR, depth VARCHAR, content_hash VARCHAR, body VARCHAR,
            created_at TIMESTAMP DEFAULT now(), PRIMARY KEY (doc_id, model, depth)
        );
        """,
    ),
    (
        "graph sync state",
        """
        CREATE TABLE graph_state (doc_id VARCHAR PRIMARY KEY, content_hash VARCHAR);
        """,
    ),
    ("file ids carry their watched root", root_scoped_file_ids),
    (
        "metadata rules version",
        """
        CREATE TABLE metadata_rules (doc_id VARCHAR PRIMARY KEY, version INTEGER);
        """,
    ),
    (
        "index fingerprint",
        """
        CREATE TABLE index_meta (key VARCHAR PRIMARY KEY, value VARCHAR, updated_at TIMESTAMP DEFAULT now());
        """,
    ),
    (
        "pages per file and the pages left out",
        """
        CREATE TABLE file_pages (path VARCHAR PRIMARY KEY, pages INTEGER, dropped VARCHAR);
        """,
    ),
    (
        "graph sync meta",
        """
        CREATE TABLE graph_meta (key VARCHAR PRIMARY KEY, value VARCHAR);
        """,
    ),
    (
        "text sketches",
        """
        CREATE TABLE text_sketches (doc_id VARCHAR PRIMARY KEY, sketch BLOB, version INTEGER);
        """,
    ),
)
SCHEMA_VERSION = len(MIGRATIONS)
# Catalog tables keyed by doc_id whose rows follow a document when its file moves.
DOC_KEYED_TABLES: tuple[str, ...] = ("documents", "triage", "summaries", "metadata_rules", "text_sketches")


def is_busy_error(exc: duckdb.Error) -> bool:
    """Whether DuckDB refused a connection because the file is in use (worth waiting for).

    Another process holds the file's lock, or this process has it open with the other
    read-only setting ("different configuration"); both last one commit. DuckDB raises the
    same exception classes for other I/O failures and says which only in the message, so
    this is the one place its text is read; callers get `CatalogBusyError`.
    """
    message = str(exc).lower()
    return "lock" in message or "different configuration" in message


class CatalogBusyError(StoreBusyError):
    """Another process holds the catalog for longer than a reader waits."""


@dataclass(frozen=True)
class FileRecord:
    """A file the catalog knows: where it is, what it contained, and how indexing went."""

    path: str
    root: str
    doc_id: str
    size: int
    mtime: float
    content_hash: str
    status: str  # indexed, no-text, failed, duplicate
    error: str = ""  # why it failed; for an indexed file, a warning (e.g. how its text was decoded)
    pages: int | None = None  # pages parsed (None: not parsed in this write, keep what is recorded)
    dropped: tuple[tuple[int, str], ...] = ()  # pages left out of the index, with their reasons


class Catalog(SyncRecords, PageRecords, SketchRecords):
    """Access to the catalog file; every method opens and closes its own connection."""

    def __init__(self, path: Path) -> None:
        self.path = path

    @contextmanager
    def _connect(self, read_only: bool, wait_s: float = 10.0) -> Iterator[duckdb.DuckDBPyConnection]:
        deadline = time.monotonic() + wait_s
        while True:
            try:
                con = duckdb.connect(str(self.path), read_only=read_only)
                break
            except (duckdb.IOException, duckdb.ConnectionException) as exc:
                if not is_busy_error(exc):
                    raise StoreError(f"catalog {self.path} cannot be opened: {one_line(exc)}") from None
                if time.monotonic() > deadline:
                    raise CatalogBusyError(f"catalog {self.path} is busy: {one_line(exc)}") from None
                time.sleep(0.05)
            except duckdb.Error as exc:
                raise StoreError(f"catalog {self.path} cannot be opened: {one_line(exc)}") from None
        try:
            yield con
        except duckdb.Error as exc:
            # A failed statement or commit (a full disk, a corrupt file): one line, never a traceback.
            raise StoreError(f"catalog {self.path}: {one_line(exc)}") from exc
        finally:
            con.close()

    @contextmanager
    def write(self) -> Iterator[duckdb.DuckDBPyConnection]:
        """A connection inside one transaction: committed on success, rolled back on error."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self._connect(read_only=False) as con:
            con.execute("BEGIN TRANSACTION")
            try:
                yield con
            except BaseException:
                with contextlib.suppress(duckdb.Error):  # a failed commit may have ended it already
                    con.execute("ROLLBACK")
                raise
            con.execute("COMMIT")

    @contextmanager
    def read(self, wait_s: float = 10.0) -> Iterator[duckdb.DuckDBPyConnection | None]:
        """A read-only connection, or None when no catalog exists yet (busy longer than `wait_s`:
        CatalogBusyError)."""
        if not self.path.exists():
            yield None
            return
        with self._connect(read_only=True, wait_s=wait_s) as con:
            yield con

    def migrate(self) -> int:
        """Apply pending migrations in order; returns the schema version.

        A catalog that holds data and is behind is marked as having writes pending first: a
        migration may rename documents whose chunks only the next index run re-keys (see
        `catalog_ids`), and until then search must hide those chunks (see `markers`).
        """
        if self.path.exists() and self.schema_version() < SCHEMA_VERSION:
            set_marker(writes_pending_path(self.path))
        with self.write() as con:
            con.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations "
                "(version INTEGER PRIMARY KEY, name VARCHAR, applied_at TIMESTAMP DEFAULT now())"
            )
            row = con.execute("SELECT coalesce(max(version), 0) FROM schema_migrations").fetchone()
            applied = int(row[0]) if row else 0
            for version, (name, step) in enumerate(MIGRATIONS, start=1):
                if version > applied:
                    if isinstance(step, str):
                        con.execute(step)
                    else:
                        step(con)
                    con.execute("INSERT INTO schema_migrations (version, name) VALUES (?, ?)", [version, name])
        return SCHEMA_VERSION

    def schema_version(self) -> int:
        """The applied schema version (0 when there is no catalog)."""
        with self.read() as con:
            if con is None:
                return 0
            row = con.execute("SELECT coalesce(max(version), 0) FROM schema_migrations").fetchone()
            return int(row[0]) if row else 0

    def root_numbers(self, roots: Sequence[str]) -> dict[str, int]:
        """Each watched root's number (see `folder_doc_id`); a root seen for the first time gets the next one."""
        if not roots:
            return {}
        with self.write() as con:
            for root in roots:
                con.execute(
                    "INSERT INTO roots SELECT ?, coalesce(max(number), 0) + 1 FROM roots ON CONFLICT DO NOTHING", [root]
                )
            rows = con.execute("SELECT root, number FROM roots WHERE list_contains(?, root)", [list(roots)]).fetchall()
        return {str(root): int(number) for root, number in rows}

    def folder_roots(self) -> dict[str, int]:
        """Every folder root the catalog has numbered, with its number."""
        with self.read() as con:
            rows = [] if con is None else con.execute("SELECT root, number FROM roots").fetchall()
        return {str(root): int(number) for root, number in rows}

    def files_under(self, roots: Sequence[str]) -> dict[str, FileRecord]:
        """Every file the catalog holds under these roots, by path."""
        with self.read() as con:
            if con is None or not roots:
                return {}
            rows = con.execute(
                "SELECT path, root, doc_id, size, mtime, content_hash, status, coalesce(error, '') "
                "FROM files WHERE list_contains(?, root)",
                [list(roots)],
            ).fetchall()
        return {row[0]: FileRecord(*row) for row in rows}

    def doc_for_hash(self, content_hash: str) -> str | None:
        """The document already indexed from a file with this content, if any."""
        with self.read() as con:
            if con is None:
                return None
            row = con.execute(
                "SELECT doc_id FROM files WHERE content_hash = ? AND status IN ('indexed', 'no-text') LIMIT 1",
                [content_hash],
            ).fetchone()
        return str(row[0]) if row else None

    @staticmethod
    def upsert(
        con: duckdb.DuckDBPyConnection, documents: Iterable[tuple[Document, int]], files: Iterable[FileRecord]
    ) -> None:
        """Write documents (with chunk counts) and file records inside an open transaction."""
        doc_rows = [
            [
                d.doc_id,
                d.title,
                list(d.authors),
                d.year,
                d.venue,
                d.doi,
                d.abstract,
                d.item_type,
                list(d.tags),
                list(d.collections),
                d.citekey,
                d.source,
                d.folder,
                d.content_hash,
                n,
            ]
            for d, n in documents
        ]
        if doc_rows:
            con.executemany(
                "INSERT OR REPLACE INTO documents (doc_id, title, authors, year, venue, doi, abstract, "
                "item_type, tags, collections, citekey, source, folder, content_hash, chunk_count) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                doc_rows,
            )
        files = list(files)
        file_rows = [[f.path, f.root, f.doc_id, f.size, f.mtime, f.content_hash, f.status, f.error] for f in files]
        if file_rows:
            con.executemany(
                "INSERT OR REPLACE INTO files (path, root, doc_id, size, mtime, content_hash, status, error) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                file_rows,
            )
        page_rows = [[f.path, f.pages, encode_dropped(f.dropped)] for f in files if f.pages is not None]
        if page_rows:
            con.executemany("INSERT OR REPLACE INTO file_pages (path, pages, dropped) VALUES (?, ?, ?)", page_rows)

    @staticmethod
    def remove(con: duckdb.DuckDBPyConnection, doc_ids: Sequence[str], paths: Sequence[str]) -> None:
        """Delete documents and file records inside an open transaction."""
        if doc_ids:
            con.execute("DELETE FROM documents WHERE list_contains(?, doc_id)", [list(doc_ids)])
            con.execute("DELETE FROM text_sketches WHERE list_contains(?, doc_id)", [list(doc_ids)])
        if paths:
            con.execute("DELETE FROM files WHERE list_contains(?, path)", [list(paths)])
            con.execute("DELETE FROM file_pages WHERE list_contains(?, path)", [list(paths)])

    @staticmethod
    def release_duplicates(con: duckdb.DuckDBPyConnection, doc_ids: Sequence[str]) -> list[str]:
        """Forget the folder files recorded as duplicates of these documents (whose content changed, so
        a copy of the old content is a copy no more) inside an open transaction; returns their paths."""
        if not doc_ids:
            return []
        rows = con.execute(
            "DELETE FROM files WHERE status = 'duplicate' AND root NOT LIKE 'zotero:%' AND list_contains(?, doc_id) "
            "RETURNING path",
            [list(doc_ids)],
        ).fetchall()
        return [str(row[0]) for row in rows]

    def drop_documents(self, doc_ids: Sequence[str], paths: Sequence[str]) -> None:
        """Delete documents and file records in one transaction; their orphaned duplicates lose their record too.

        A duplicate without its original is indexed afresh by the next scan.
        """
        with self.write() as con:
            Catalog.remove(con, doc_ids, paths)
            if doc_ids:
                con.execute(
                    "DELETE FROM files WHERE status = 'duplicate' AND list_contains(?, doc_id)", [list(doc_ids)]
                )

    def move_document(self, old_id: str, new_id: str, folder: str, old_path: str, moved: FileRecord) -> None:
        """A document's file moved: carry its rows (document, triage, summaries) to the new id, in one transaction."""
        with self.write() as con:
            if new_id != old_id:
                present = {
                    row[0]
                    for row in con.execute(
                        "SELECT table_name FROM information_schema.tables WHERE list_contains(?, table_name)",
                        [list(DOC_KEYED_TABLES)],
                    ).fetchall()
                }
                for table in (t for t in DOC_KEYED_TABLES if t in present):
                    con.execute(
                        f"INSERT OR REPLACE INTO {table} SELECT * REPLACE (? AS doc_id) FROM {table} WHERE doc_id = ?",
                        [new_id, old_id],
                    )
                    con.execute(f"DELETE FROM {table} WHERE doc_id = ?", [old_id])
                con.execute(
                    "UPDATE files SET doc_id = ?, error = replace(error, ?, ?) "
                    "WHERE doc_id = ? AND status = 'duplicate'",
                    [new_id, old_id, new_id, old_id],
                )
            con.execute("UPDATE documents SET folder = ? WHERE doc_id = ?", [folder, new_id])
            if moved.path != old_path:
                con.execute("DELETE FROM file_pages WHERE path = ?", [moved.path])
                con.execute("UPDATE file_pages SET path = ? WHERE path = ?", [moved.path, old_path])
            Catalog.remove(con, [], [old_path])
            Catalog.upsert(con, [], [moved])

    @staticmethod
    def set_metadata_rules(con: duckdb.DuckDBPyConnection, doc_ids: Sequence[str], version: int) -> None:
        """Record which version of the metadata rules derived these documents' metadata."""
        if doc_ids:
            con.executemany(
                "INSERT OR REPLACE INTO metadata_rules (doc_id, version) VALUES (?, ?)",
                [[doc_id, version] for doc_id in doc_ids],
            )

    def stale_metadata(self, version: int) -> set[str]:
        """Folder documents whose metadata an older version of the rules derived (or none recorded)."""
        with self.read() as con:
            if con is None:
                return set()
            rows = con.execute(
                "SELECT d.doc_id FROM documents d LEFT JOIN metadata_rules m ON m.doc_id = d.doc_id "
                "WHERE d.source = 'folder' AND coalesce(m.version, 0) < ?",
                [version],
            ).fetchall()
        return {str(row[0]) for row in rows}

    @staticmethod
    def update_metadata(con: duckdb.DuckDBPyConnection, document: Document, version: int) -> None:
        """Replace a document's bibliographic fields (not its text) and mark its graph node stale."""
        con.execute(
            "UPDATE documents SET title = ?, authors = ?, year = ?, venue = ?, doi = ?, updated_at = now() "
            "WHERE doc_id = ?",
            [document.title, list(document.authors), document.year, document.venue, document.doi, document.doc_id],
        )
        con.execute("DELETE FROM graph_state WHERE doc_id = ?", [document.doc_id])
        Catalog.set_metadata_rules(con, [document.doc_id], version)

    def doc_ids(self) -> set[str]:
        """Every document id in the catalog."""
        with self.read() as con:
            if con is None:
                return set()
            return {row[0] for row in con.execute("SELECT doc_id FROM documents").fetchall()}

    def document(self, doc_id: str) -> CatalogDocument | None:
        """One document's catalog row, as its record."""
        with self.read() as con:
            if con is None:
                return None
            row = con.execute(f"SELECT {DOCUMENT_COLUMNS} FROM documents WHERE doc_id = ?", [doc_id]).fetchone()
        return catalog_document(row) if row else None

    def file_count(self, root: str) -> int:
        """Files recorded under one root (0 when there is no catalog)."""
        with self.read() as con:
            if con is None:
                return 0
            row = con.execute("SELECT count(*) FROM files WHERE root = ?", [root]).fetchone()
        return int(row[0]) if row else 0

    def find_document(self, ref: str) -> str | None:
        """The doc id a reference names: a doc id, a citekey or a Zotero item key (`@` optional)."""
        ref = ref.strip().removeprefix("@")
        with self.read() as con:
            if con is None or not ref:
                return None
            row = con.execute(
                "SELECT doc_id FROM documents WHERE doc_id = ? OR citekey = ? OR doc_id LIKE ? "
                "ORDER BY doc_id = ? DESC, citekey = ? DESC LIMIT 1",
                [ref, ref, f"zotero:%:{ref}", ref, ref],
            ).fetchone()
        return str(row[0]) if row else None

    def documents_titled(self, fragment: str, limit: int = 6) -> list[tuple[str, str]]:
        """(doc id, title) of the documents whose title holds `fragment`, ignoring case and accents."""
        text = fragment.strip().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
        with self.read() as con:
            if con is None or not text:
                return []
            rows = con.execute(
                "SELECT doc_id, title FROM documents "
                "WHERE strip_accents(lower(title)) LIKE '%' || strip_accents(lower(?)) || '%' ESCAPE '\\' "
                "ORDER BY title, doc_id LIMIT ?",
                [text, limit],
            ).fetchall()
        return [(str(r[0]), str(r[1])) for r in rows]

    def document_files(self, doc_id: str) -> list[FileRecord]:
        """The files recorded for a document (attachments, duplicates, failures), by path."""
        with self.read() as con:
            if con is None:
                return []
            rows = con.execute(
                "SELECT path, root, doc_id, size, mtime, content_hash, status, coalesce(error, '') "
                "FROM files WHERE doc_id = ? ORDER BY path",
                [doc_id],
            ).fetchall()
        return [FileRecord(*row) for row in rows]

    def all_documents(self) -> list[CatalogDocument]:
        """Every document's catalog row, as its record (the graph is derived from them)."""
        with self.read() as con:
            if con is None:
                return []
            rows = con.execute(f"SELECT {DOCUMENT_COLUMNS} FROM documents").fetchall()
        return [catalog_document(row) for row in rows]

    def document_count(self) -> int:
        """Documents in the catalog (0 when there is no catalog yet)."""
        with self.read() as con:
            if con is None:
                return 0
            row = con.execute("SELECT count(*) FROM documents").fetchone()
        return int(row[0]) if row else 0

    def summary(self) -> dict[str, Any]:
        """What is indexed: counts by status and source, total chunks, failures."""
        with self.read() as con:
            if con is None:
                return {"documents": 0, "chunks": 0, "files": {}, "sources": {}, "failures": []}
            docs = con.execute("SELECT count(*), coalesce(sum(chunk_count), 0) FROM documents").fetchone()
            by_status = dict(con.execute("SELECT status, count(*) FROM files GROUP BY status").fetchall())
            by_source = dict(con.execute("SELECT source, count(*) FROM documents GROUP BY source").fetchall())
            failures = con.execute("SELECT path, error FROM files WHERE status = 'failed' ORDER BY path").fetchall()
        return {
            "documents": int(docs[0]) if docs else 0,
            "chunks": int(docs[1]) if docs else 0,
            "files": {str(k): int(v) for k, v in by_status.items()},
            "sources": {str(k): int(v) for k, v in by_source.items()},
            "failures": [{"path": p, "error": e} for p, e in failures],
        }
