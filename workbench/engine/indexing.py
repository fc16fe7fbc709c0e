"""The engine's indexing door: folders, Zotero, documents given with their text, and rebuilds.

Every write runs under the single-writer lock, claims the index (its fingerprint) first and
syncs the graph last.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from workbench.engine.core import EngineCore
from workbench.query.quote_pages import index_note
from workbench.records import Document, Section

if TYPE_CHECKING:  # loaded where used: a plain search imports no ingest code
    from workbench.ingest.index_report import IndexReport
    from workbench.ingest.pipeline import Indexer, Progress


class IndexDoor(EngineCore):
    """Index runs of the engine, each under the writer lock."""

    if TYPE_CHECKING:  # provided by SourcesDoor (the Engine mixes both in)

        def zotero_linked_base(self, data_dir: Path) -> Path | None: ...

    def index_folders(
        self,
        folders: Sequence[Path],
        progress: Callable[[Progress], None] | None = None,
        cancelled: Callable[[], bool] | None = None,
        refresh_metadata: bool = False,
    ) -> IndexReport:
        """Index these folders under the single-writer lock (`refresh_metadata`: re-derive all metadata)."""
        with self._writing():
            self._claim_index()
            report = self._indexer().index_folders(folders, progress, cancelled, refresh_metadata)
            self._sync_graph()
            return self._noted(report)

    def _noted(self, report: IndexReport) -> IndexReport:
        """The report with a line on what the index as a whole still lacks (page offsets of older
        chunks), and one each on the sentence vectors no answer has read for months and the OCR'd
        pages no index has read for a year, removed (at most once a day: `stores.file_cache.prune`)."""
        note = index_note(self._chunks.rows_without_page_offsets())
        report.notes.extend([note] if note else [])
        from workbench.stores.sentence_cache import UNUSED_DAYS, prune

        pruned = prune(self._paths.cache_dir / "sentences")
        if pruned is not None and pruned.entries:
            passages = f"{pruned.entries:,} passage{'s' if pruned.entries != 1 else ''}"
            report.notes.append(
                f"sentence cache: removed the vectors of {passages} no answer read for {UNUSED_DAYS} days "
                f"({pruned.bytes / 1e6:.1f} MB)"
            )
        from workbench.ingest.ocr import CACHE_UNUSED_DAYS
        from workbench.stores.file_cache import JsonCache
        from workbench.stores.file_cache import prune as prune_entries

        pruned = prune_entries(self._paths.ocr_cache_dir, JsonCache.SUFFIX, CACHE_UNUSED_DAYS)
        if pruned is not None and pruned.entries:
            pages = f"{pruned.entries:,} page{'s' if pruned.entries != 1 else ''}"
            report.notes.append(
                f"OCR cache: removed the reading of {pages} no index read for {CACHE_UNUSED_DAYS} days "
                f"({pruned.bytes / 1e6:.1f} MB)"
            )
        return report

    def _indexer(self) -> Indexer:
        from workbench.ingest.pipeline import Indexer

        return Indexer(self._settings, self._embedder, self._catalog, self._chunks, self._paths.ocr_cache_dir)

    def index_zotero(
        self,
        data_dir: Path,
        progress: Callable[[Progress], None] | None = None,
        cancelled: Callable[[], bool] | None = None,
    ) -> IndexReport:
        """Sync a Zotero library (read-only) into the index under the single-writer lock."""
        with self._writing():
            self._claim_index()
            report = self._sync_zotero(data_dir, progress, cancelled)
            self._sync_graph()
            return self._noted(report)

    def _sync_zotero(
        self, data_dir: Path, progress: Callable[[Progress], None] | None, cancelled: Callable[[], bool] | None
    ) -> IndexReport:
        from workbench.ingest.zotero_sync import ZoteroSync

        return ZoteroSync(self._indexer(), data_dir, self.zotero_linked_base(data_dir)).run(progress, cancelled)

    def rebuild_index(
        self,
        folders: Sequence[Path] = (),
        zotero: Path | None = None,
        progress: Callable[[Progress], None] | None = None,
        cancelled: Callable[[], bool] | None = None,
    ) -> dict[str, IndexReport]:
        """Rebuild the index under the current settings from every source it was built from (plus any given).

        Chunks, graph and the documents and files records are dropped and rebuilt from the
        files and the Zotero library; triage (states, notes, labels), summaries and the query
        ledger are kept: they are keyed by stable doc ids, which the rebuild gives back.
        """
        with self._writing():
            roots, zotero_dirs = self._catalog.indexed_sources()
            named = [p.expanduser().resolve() for p in folders]
            folder_list = list(dict.fromkeys([*named, *(Path(r) for r in roots)]))
            given = [zotero.expanduser().resolve()] if zotero else []
            zotero_list = list(dict.fromkeys([*given, *(Path(z).expanduser().resolve() for z in zotero_dirs)]))
            self._chunks.drop()
            self._catalog.clear_index()
            from workbench.stores.ledger import Ledger

            Ledger(self._catalog).drop_unpaged_summaries()  # cached before page offsets: made again, with pages
            from workbench.stores.graph_db import remove_graph_files

            remove_graph_files(self._paths.graph_path)
            self._catalog.set_fingerprint(self.fingerprint)
            self._chunks.record_fingerprint(self.fingerprint.as_dict())
            self._index_checked = True
            reports: dict[str, IndexReport] = {}
            if folder_list:
                reports["folders"] = self._indexer().index_folders(folder_list, progress, cancelled)
            for number, data_dir in enumerate(zotero_list):
                name = "zotero" if number == 0 else f"zotero {data_dir}"
                reports[name] = self._sync_zotero(data_dir, progress, cancelled)
            self._sync_graph()
            return reports

    def index_documents(
        self,
        items: Sequence[tuple[Document, Sequence[Section]]],
        progress: Callable[[Progress], None] | None = None,
        graph: bool = True,
    ) -> IndexReport:
        """Index documents given with their text, under the single-writer lock."""
        with self._writing():
            self._claim_index()
            report = self._indexer().index_documents(items, progress)
            if graph:
                self._sync_graph()
            return self._noted(report)

    def indexed_file_count(self, root: str) -> int:
        """Files the catalog holds under one root (the watcher tells an unmounted folder from an emptied one)."""
        return self._catalog.file_count(root)

    def refresh_index(self) -> None:
        """See writes made to the chunk table since it was opened (by another process, or this one)."""
        self._chunks.refresh()

    def _sync_graph(self) -> None:
        """Update the Kùzu graph from the catalog and chunks (caller holds the writer lock)."""
        from workbench.ingest.graph_sync import sync_graph

        sync_graph(self._catalog, self._chunks, self._paths.graph_path)
