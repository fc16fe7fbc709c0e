"""Catalog migration: folder document ids gain the number of their watched root.

Ids used to be `file:<path relative to its root>`, so `r1/notes.md` and `r2/notes.md` were one
document and deleting either lost both. Now they are `file:<root number>/<relative path>` (see
`workbench.records.folder_doc_id`); the `roots` table gives each watched root its number once
(existing roots in path order, new ones as they are first indexed, see
`Catalog.root_numbers`). This migration renames every folder document in one
transaction, carrying the rows keyed by it (triage, notes, summaries) along, and records each
rename in `doc_id_renames`. The chunk table is re-keyed from that table afterwards by the
writer (`workbench.stores.consistency.apply_renames`): rows under the new id are added before
the old ones are deleted, and a rename leaves the table only once its chunks have moved, so a
crash at any point is finished by the next run. The graph follows by itself: `graph_state`
forgets the old ids, so the next graph sync drops the old papers and builds the new ones.

Where two roots shared an id, the document belonged to the root in its `folder` column; the
other root's file records are dropped, so the next index run indexes those files afresh.
"""

from __future__ import annotations

from pathlib import PurePosixPath

import duckdb

from workbench.records import folder_doc_id

# Catalog tables keyed by doc_id whose rows follow a renamed document.
RENAMED_TABLES: tuple[str, ...] = ("documents", "triage", "summaries")


def _own_id(path: str, root: str, numbers: dict[str, int]) -> str | None:
    """The id a file's own root gives it, or None when the path is not under the root."""
    try:
        relative = PurePosixPath(path).relative_to(root).as_posix()
    except ValueError:
        return None
    return folder_doc_id(numbers[root], relative)


def root_scoped_file_ids(con: duckdb.DuckDBPyConnection) -> None:
    """Number the roots; rename `file:<relative>` documents to `file:<number>/<relative>` (in the migration)."""
    con.execute("CREATE TABLE roots (root VARCHAR PRIMARY KEY, number INTEGER UNIQUE NOT NULL)")
    con.execute("CREATE TABLE doc_id_renames (old_id VARCHAR PRIMARY KEY, new_id VARCHAR NOT NULL)")
    known = con.execute(
        "SELECT folder FROM documents WHERE starts_with(doc_id, 'file:') AND coalesce(folder, '') <> '' "
        "UNION SELECT root FROM files WHERE starts_with(doc_id, 'file:') ORDER BY 1"
    ).fetchall()
    numbers = {str(root): number for number, (root,) in enumerate(known, start=1)}
    if numbers:
        con.executemany("INSERT INTO roots VALUES (?, ?)", [[r, n] for r, n in numbers.items()])
    docs = con.execute(
        "SELECT doc_id, folder FROM documents WHERE starts_with(doc_id, 'file:') AND coalesce(folder, '') <> ''"
    ).fetchall()
    renames = {old: folder_doc_id(numbers[str(folder)], old.removeprefix("file:")) for old, folder in docs}
    if renames:
        con.executemany("INSERT INTO doc_id_renames VALUES (?, ?)", [[o, n] for o, n in renames.items()])
    present = {row[0] for row in con.execute("SELECT table_name FROM information_schema.tables").fetchall()}
    for table in (t for t in RENAMED_TABLES if t in present):
        con.execute(
            f"INSERT INTO {table} SELECT * REPLACE ("
            f"(SELECT r.new_id FROM doc_id_renames r WHERE r.old_id = {table}.doc_id) AS doc_id) "
            f"FROM {table} WHERE doc_id IN (SELECT old_id FROM doc_id_renames)"
        )
        con.execute(f"DELETE FROM {table} WHERE doc_id IN (SELECT old_id FROM doc_id_renames)")
    files = con.execute("SELECT path, root, doc_id, status FROM files WHERE starts_with(doc_id, 'file:')").fetchall()
    updates: list[list[str]] = []
    dropped: list[str] = []
    for path, root, doc_id, status in files:
        if status == "duplicate":
            new_id = renames.get(doc_id)
        else:
            own = _own_id(str(path), str(root), numbers)
            # Keep the record only where it is the file its document was built from (or a failure).
            new_id = own if own is not None and (renames.get(doc_id) == own or status == "failed") else None
        if new_id is None:
            dropped.append(path)
        else:
            updates.append([new_id, path])
    if updates:
        con.executemany("UPDATE files SET doc_id = ? WHERE path = ?", updates)
        con.execute(
            "UPDATE files SET error = 'same content as ' || doc_id WHERE status = 'duplicate' "
            "AND starts_with(error, 'same content as ')"
        )
    if dropped:
        con.execute("DELETE FROM files WHERE list_contains(?, path)", [dropped])
    if "graph_state" in present:
        con.execute("DELETE FROM graph_state WHERE doc_id IN (SELECT old_id FROM doc_id_renames)")


def pending_renames(con: duckdb.DuckDBPyConnection) -> dict[str, str]:
    """Renames whose chunks have not moved yet (old id → new id)."""
    present = con.execute(
        "SELECT count(*) FROM information_schema.tables WHERE table_name = 'doc_id_renames'"
    ).fetchone()
    if not present or not present[0]:
        return {}
    return dict(con.execute("SELECT old_id, new_id FROM doc_id_renames").fetchall())


def forget_renames(con: duckdb.DuckDBPyConnection, old_ids: list[str]) -> None:
    """Drop renames whose chunks have moved."""
    if old_ids:
        con.execute("DELETE FROM doc_id_renames WHERE list_contains(?, old_id)", [old_ids])
