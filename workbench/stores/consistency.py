"""Consistency between the catalog, the chunk table and the graph: hide, check, repair.

The catalog is the record of what is committed. Chunks whose document it does not hold are
orphans (a run killed between its LanceDB write and its catalog commit); file records that
say `indexed` for a document it does not hold are dangling; documents without chunks, chunk
ids stored twice, graph papers that differ from the catalog's documents and an unfinished
graph sync are the other ways the stores can disagree. `check` finds all of them for
`workbench doctor`; `repair_stores` fixes what can be fixed in place and leaves the rest to the next
index run (it forgets file records so that their files are indexed afresh). `OrphanFilter`
keeps orphans out of search while an index run's writes are pending (see `markers`).
"""

from __future__ import annotations

import os
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from workbench.records import Chunk
from workbench.stores.catalog import Catalog
from workbench.stores.catalog_ids import forget_renames, pending_renames
from workbench.stores.chunks import ChunkStore
from workbench.stores.markers import (
    clear_marker,
    graph_incomplete_path,
    has_marker,
    writes_pending_path,
)

SHOWN = 5  # ids named in a problem line


class OrphanFilter:
    """For `ChunkStore(hidden_docs=...)`: the orphan documents, while an index run's writes are pending.

    Costs one `stat` when nothing is pending. While a marker is there, the orphans are worked
    out once per (table version, catalog file state) and reused.
    """

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog
        self._key: tuple[int, int, int] | None = None
        self._orphans: frozenset[str] = frozenset()

    def __call__(self, chunks: ChunkStore) -> frozenset[str]:
        if not has_marker(writes_pending_path(self.catalog.path)):
            return frozenset()
        try:
            info = os.stat(self.catalog.path)
            key = (chunks.version(), info.st_mtime_ns, info.st_size)
        except OSError:
            key = (chunks.version(), 0, 0)
        if key != self._key:
            self._orphans = frozenset(chunks.doc_ids() - self.catalog.doc_ids())
            self._key = key
        return self._orphans


def apply_renames(catalog: Catalog, chunks: ChunkStore) -> int:
    """Move the chunks of renamed documents to their new ids (see `catalog_ids`); returns how many moved.

    New rows are added before old ones are deleted and a rename is forgotten only after, so a
    crash anywhere in between is finished by the next call. The caller holds the writer lock.
    """
    with catalog.read() as con:
        renames = {} if con is None else pending_renames(con)
    if not renames:
        return 0
    olds = sorted(renames)
    for start in range(0, len(olds), 200):
        batch = olds[start : start + 200]
        rows = chunks.stored_rows(batch)
        for row in rows:
            new_id = renames[row["doc_id"]]
            row["doc_id"] = new_id
            row["chunk_id"] = Chunk.make_id(new_id, row["section"], row["ordinal"], row["text"])
        chunks.replace_documents([renames[o] for o in batch], rows)
        chunks.replace_documents(batch, [])
        with catalog.write() as con:
            forget_renames(con, batch)
    return len(olds)


@dataclass
class ConsistencyReport:
    """What `check` found; `problems()` turns it into one line per disagreement."""

    documents: int = 0
    catalog_chunks: int = 0  # the sum of the catalog's chunk counts
    chunk_rows: int = 0
    orphan_docs: list[str] = field(default_factory=list)  # chunks, but no catalog document
    missing_chunks: list[str] = field(default_factory=list)  # a document that should have chunks has none
    dangling_files: list[str] = field(default_factory=list)  # an indexed file record without its document
    duplicate_chunk_ids: int = 0  # rows beyond the first for a chunk id
    duplicate_docs: list[str] = field(default_factory=list)  # documents holding those rows
    pending_renames: int = 0
    writes_pending: bool = False
    graph: str = "not built"  # "ok", "not built", "busy", "incomplete", or the error
    graph_papers: int = 0
    graph_missing: list[str] = field(default_factory=list)  # catalog documents not in the graph
    graph_extra: list[str] = field(default_factory=list)  # graph papers the catalog does not hold

    def problems(self) -> list[str]:
        """One line per disagreement; empty when the stores agree."""

        def some(ids: list[str]) -> str:
            more = f", … {len(ids) - SHOWN} more" if len(ids) > SHOWN else ""
            return ", ".join(ids[:SHOWN]) + more

        found = []
        if self.orphan_docs:
            found.append(f"{len(self.orphan_docs)} documents have chunks but no catalog entry (orphans, hidden "
                         f"from search): {some(self.orphan_docs)}")  # fmt: skip
        if self.missing_chunks:
            found.append(f"{len(self.missing_chunks)} documents have no chunks: {some(self.missing_chunks)}")
        if self.dangling_files:
            found.append(f"{len(self.dangling_files)} file records point at no document: {some(self.dangling_files)}")
        if self.duplicate_chunk_ids:
            found.append(f"{self.duplicate_chunk_ids} duplicate chunk rows in {some(self.duplicate_docs)}")
        if self.pending_renames:
            found.append(f"{self.pending_renames} renamed documents still have chunks under their old ids")
        if self.writes_pending and not found:
            found.append("an index run's writes are marked unfinished (killed, or running now)")
        if self.graph == "incomplete":
            found.append("the graph is incomplete: a graph sync was interrupted (or is running now)")
        elif self.graph not in ("ok", "not built", "busy"):
            found.append(f"the graph cannot be read: {self.graph}")
        if self.graph_missing:
            found.append(f"{len(self.graph_missing)} documents are missing from the graph: {some(self.graph_missing)}")
        if self.graph_extra:
            found.append(f"{len(self.graph_extra)} graph papers are not in the catalog: {some(self.graph_extra)}")
        return found

    def as_dict(self) -> dict[str, Any]:
        """The report for `doctor --json`."""
        return {**asdict(self), "problems": self.problems()}


def _graph_papers(graph_path: Path) -> tuple[str, set[str]]:
    from workbench.stores.graph_db import GraphBusyError, GraphError
    from workbench.stores.graph_db import GraphDatabase as GraphStore

    if not graph_path.exists():
        return "not built", set()
    store = GraphStore(graph_path, read_only=True, wait_s=1.0)
    try:
        papers = store.doc_ids()
    except GraphBusyError:
        return "busy", set()
    except (GraphError, RuntimeError) as exc:
        return str(exc).splitlines()[0], set()
    finally:
        store.close()
    return ("incomplete" if has_marker(graph_incomplete_path(graph_path)) else "ok"), papers


def check(catalog: Catalog, chunks: ChunkStore, graph_path: Path) -> ConsistencyReport:
    """Compare the three stores (reads only)."""
    report = ConsistencyReport(writes_pending=has_marker(writes_pending_path(catalog.path)))
    with catalog.read() as con:
        if con is not None:
            counts = dict(con.execute("SELECT doc_id, coalesce(chunk_count, 0) FROM documents").fetchall())
            dangling = con.execute(
                "SELECT f.path FROM files f LEFT JOIN documents d ON f.doc_id = d.doc_id "
                "WHERE f.status IN ('indexed', 'no-text') AND d.doc_id IS NULL ORDER BY f.path"
            ).fetchall()
            report.pending_renames = len(pending_renames(con))
        else:
            counts, dangling = {}, []
    chunk_ids = chunks.chunk_id_counts()
    in_chunks = chunks.doc_ids()
    report.documents = len(counts)
    report.catalog_chunks = sum(int(n) for n in counts.values())
    report.chunk_rows = sum(chunk_ids.values())
    report.orphan_docs = sorted(in_chunks - set(counts))
    report.missing_chunks = sorted(d for d, n in counts.items() if n and d not in in_chunks)
    report.dangling_files = [str(row[0]) for row in dangling]
    duplicated = {c for c, n in chunk_ids.items() if n > 1}
    report.duplicate_chunk_ids = sum(chunk_ids[c] - 1 for c in duplicated)
    if duplicated:
        report.duplicate_docs = sorted({r["doc_id"] for r in _rows_of_chunks(chunks, duplicated)})
    report.graph, papers = _graph_papers(graph_path)
    report.graph_papers = len(papers)
    if report.graph in ("ok", "incomplete"):
        report.graph_missing = sorted(set(counts) - papers)
        report.graph_extra = sorted(papers - set(counts))
    return report


def _rows_of_chunks(chunks: ChunkStore, chunk_ids: set[str]) -> list[dict[str, Any]]:
    table = chunks.table()
    if table is None:
        return []
    ids = sorted(chunk_ids)
    found: list[dict[str, Any]] = []
    for start in range(0, len(ids), 500):
        where = "chunk_id IN (" + ", ".join("'" + c.replace("'", "''") + "'" for c in ids[start : start + 500]) + ")"
        found.extend(table.to_lance().to_table(columns=["doc_id"], filter=where).to_pylist())
    return found


def repair_stores(catalog: Catalog, chunks: ChunkStore, report: ConsistencyReport) -> list[str]:
    """Fix what `check` found, as far as the stores allow; one line per action. Caller holds the writer lock.

    Orphan chunks are deleted, duplicate rows collapsed, pending renames finished. Dangling file
    records and the files of documents without chunks are forgotten, so the next index run
    indexes them afresh (a Zotero document's library is read in full). The graph is left to
    the caller, which re-syncs it.
    """
    actions: list[str] = []
    moved = apply_renames(catalog, chunks)
    if moved:
        actions.append(f"moved the chunks of {moved} renamed documents")
    orphans = sorted(chunks.doc_ids() - catalog.doc_ids())
    if orphans:
        chunks.replace_documents(orphans, [])
        actions.append(f"deleted the chunks of {len(orphans)} orphan documents")
    if report.duplicate_docs:
        rows = chunks.stored_rows(report.duplicate_docs)
        unique = list({row["chunk_id"]: row for row in rows}.values())
        chunks.replace_documents(report.duplicate_docs, unique)
        actions.append(f"removed {len(rows) - len(unique)} duplicate chunk rows")
    if report.graph_missing or report.graph == "incomplete":
        with catalog.write() as con:  # the next graph sync rebuilds what the graph lacks
            if report.graph == "incomplete":
                con.execute("DELETE FROM graph_state")
            else:
                con.execute("DELETE FROM graph_state WHERE list_contains(?, doc_id)", [report.graph_missing])
    if report.dangling_files or report.missing_chunks:
        with catalog.write() as con:
            if report.dangling_files:
                con.execute("DELETE FROM files WHERE list_contains(?, path)", [report.dangling_files])
            if report.missing_chunks:
                con.execute("DELETE FROM files WHERE list_contains(?, doc_id)", [report.missing_chunks])
                if any(d.startswith("zotero:") for d in report.missing_chunks):
                    con.execute("DELETE FROM zotero_state")
        forgotten = len(report.dangling_files) + len(report.missing_chunks)
        actions.append(f"forgot {forgotten} file records: the next `workbench index` indexes them afresh")
    clear_marker(writes_pending_path(catalog.path))
    return actions
