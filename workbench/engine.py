"""The one entry point that the CLI and the TUI share: settings, stores, indexer, retriever.

Everything heavy (the embedding model, the stores) is opened lazily on first use, so
building an engine is free and the TUI can paint before any model is loaded.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from workbench.config import Settings
from workbench.errors import UsageError
from workbench.ingest.embed import Embedder
from workbench.ingest.pipeline import Indexer, IndexReport, Progress, writer_lock
from workbench.llm.base import LanguageModel, ModelError
from workbench.llm.llamacpp import load_model
from workbench.models import Answer, CostEstimate, Document, Hit, Section
from workbench.paths import Paths
from workbench.query.ask import Asker, EvidenceSink, QueryTools
from workbench.query.intent import Intent, detect_intent
from workbench.query.retrieve import Retriever, SearchResult
from workbench.safe_text import valid_text
from workbench.stores.catalog import Catalog
from workbench.stores.chunks import ChunkStore, Filter
from workbench.stores.consistency import OrphanFilter

if TYPE_CHECKING:
    from workbench.query.graph import GraphQueries, Neighbour


class Engine:
    """Headless workbench: index, search, status; front ends only format what it returns."""

    def __init__(self, settings: Settings, model: LanguageModel | None = None) -> None:
        """`model` injects a model (tests use the stand-in); by default the configured one loads lazily."""
        self.settings = settings
        self.paths: Paths = settings.paths()
        self._model = model
        self._model_loading = False
        self._model_error = ""

    @cached_property
    def embedder(self) -> Embedder:
        """The embedding model wrapper (loads the model on first embed)."""
        emb = self.settings.embedding
        return Embedder(emb.model, self.paths.models_dir, emb.batch_size, emb.threads)

    @cached_property
    def catalog(self) -> Catalog:
        """The DuckDB catalog."""
        return Catalog(self.paths.catalog_path)

    @cached_property
    def chunks(self) -> ChunkStore:
        """The LanceDB chunk table; search hides chunks the catalog has not committed (orphans)."""
        self.paths.ensure()
        hidden = OrphanFilter(self.catalog)
        return ChunkStore(self.settings.chunks_uri(), self.embedder.dimension, self.settings.fts, hidden)

    @cached_property
    def model(self) -> LanguageModel:
        """The configured language model (loaded on first use, not here)."""
        if self._model is not None:
            return self._model
        llm = self.settings.llm
        return load_model(llm.model_path, llm.server_url, llm.n_ctx, self.paths.models_dir, llm.threads)

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
    def asker(self) -> Asker:
        """The query path for ask, summarize and cost, given the collaborators it needs."""
        from workbench.query.related import related
        from workbench.stores.ledger import Ledger
        from workbench.stores.sentence_cache import SentenceVectorCache

        def search(query: str, filters: Sequence[Filter], limit: int) -> list[Hit]:
            return self.search(query, filters=filters, limit=limit, per_doc=False).hits

        embedder = self.embedder
        tools = QueryTools(
            settings=self.settings,
            search=search,
            document=self.catalog.document,
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
        """A document id from an id, Zotero key or citekey, else from the best search hit for `ref`."""
        detail = self.document_detail(ref)
        if detail is not None:
            return str(detail["document"]["doc_id"])
        if ref.startswith(("file:", "zotero:")):  # an id that is not there: never a look-alike
            return None
        hits = self.search(ref, limit=1).hits
        return hits[0].doc_id if hits else None

    def detect_intent(self, query: str) -> Intent:
        """The query's intent by the rules alone (fast enough to run on every keystroke)."""
        return detect_intent(query)

    def estimate_costs(self, query: str, doc_id: str | None = None) -> list[CostEstimate]:
        """Token estimates for every depth (see `Asker.estimate_costs`)."""
        self.chunks.refresh()
        return self.asker.estimate_costs(query, doc_id)

    def ask(
        self,
        query: str,
        depth: str | None = None,
        doc_id: str | None = None,
        on_text: Callable[[str], None] | None = None,
        cancelled: Callable[[], bool] | None = None,
        on_evidence: EvidenceSink | None = None,
    ) -> Answer:
        """Evidence first, then the model's synthesis as far as the critic approves it (see `Asker.ask`).

        `on_evidence` gets the evidence as soon as it is chosen; `on_text` the synthesis draft as it streams.
        """
        if not query.strip():
            raise UsageError("the question is empty")
        self.chunks.refresh()
        return self.asker.ask(query, depth, doc_id, on_text, cancelled, on_evidence)

    def summarize(
        self,
        doc_id: str,
        depth: str = "comprehensive",
        on_text: Callable[[str], None] | None = None,
        cancelled: Callable[[], bool] | None = None,
        on_evidence: EvidenceSink | None = None,
        refresh: bool = False,
    ) -> Answer:
        """A four-aspect summary of one paper from its own sentences, cached (see `Asker.summarize`)."""
        self.chunks.refresh()
        return self.asker.summarize(doc_id, depth, on_text, cancelled, refresh, on_evidence)

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
        self.paths.ensure()
        with writer_lock(self.paths.writer_lock_path):
            indexer = Indexer(self.settings, self.embedder, self.catalog, self.chunks)
            report = indexer.index_folders(folders, progress, cancelled, refresh_metadata)
            self._sync_graph()
            return report

    def index_zotero(
        self,
        data_dir: Path,
        progress: Callable[[Progress], None] | None = None,
        cancelled: Callable[[], bool] | None = None,
    ) -> IndexReport:
        """Sync a Zotero library (read-only) into the index under the single-writer lock."""
        from workbench.ingest.zotero_sync import ZoteroSync

        self.paths.ensure()
        with writer_lock(self.paths.writer_lock_path):
            indexer = Indexer(self.settings, self.embedder, self.catalog, self.chunks)
            linked_base = self.zotero_linked_base(data_dir)
            report = ZoteroSync(indexer, data_dir, linked_base).run(progress, cancelled)
            self._sync_graph()
            return report

    def zotero_linked_base(self, data_dir: Path) -> Path | None:
        """Base folder of linked files: `sources.zotero_linked_base`, else Zotero's own preference."""
        from workbench.sources.zotero_prefs import linked_base_for

        base = self.settings.sources.zotero_linked_base
        return Path(base).expanduser() if base else linked_base_for(data_dir)

    def zotero_dir(self) -> Path | None:
        """The configured Zotero data dir ('auto' = the platform default), or None."""
        from workbench.sources.zotero import configured_zotero_dir

        return configured_zotero_dir(self.settings.sources.zotero_dir)

    def index_documents(
        self,
        items: Sequence[tuple[Document, Sequence[Section]]],
        progress: Callable[[Progress], None] | None = None,
        graph: bool = True,
    ) -> IndexReport:
        """Index documents given with their text, under the single-writer lock."""
        self.paths.ensure()
        with writer_lock(self.paths.writer_lock_path):
            indexer = Indexer(self.settings, self.embedder, self.catalog, self.chunks)
            report = indexer.index_documents(items, progress)
            if graph:
                self._sync_graph()
            return report

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
        """Read-only graph queries; raises GraphError when no graph has been built yet."""
        from workbench.query.graph import GraphQueries
        from workbench.stores.graph import GraphError, GraphStore

        if not self.paths.graph_path.exists():
            raise GraphError("the graph is not built yet: run `workbench index` first")
        return GraphQueries(GraphStore(self.paths.graph_path, read_only=True))

    def neighbours(self, doc_id: str) -> dict[str, list[Neighbour]]:
        """Graph neighbours of a paper grouped by edge type (authors, tags, cites, similar, ...)."""
        queries = self.graph_queries()
        try:
            return queries.neighbours(doc_id)
        finally:
            queries.store.close()

    def document_detail(self, ref: str) -> dict[str, Any] | None:
        """A document by id, Zotero key or citekey, with its files, notes and annotations."""
        ref = valid_text(ref).strip().removeprefix("@")
        with self.catalog.read() as con:
            if con is None:
                return None
            cursor = con.execute(
                "SELECT * FROM documents WHERE doc_id = ? OR citekey = ? OR doc_id LIKE ? "
                "ORDER BY doc_id = ? DESC, citekey = ? DESC LIMIT 1",
                [ref, ref, f"zotero:%:{ref}", ref, ref],
            )
            row = cursor.fetchone()
            if row is None:
                return None
            document = dict(zip([d[0] for d in cursor.description], row, strict=True))
            files = con.execute(
                "SELECT path, status, coalesce(error, '') FROM files WHERE doc_id = ? ORDER BY path",
                [document["doc_id"]],
            ).fetchall()
        notes = self.chunks.section_texts(document["doc_id"], ("note", "annotation"))
        return {
            "document": document,
            "files": [{"path": p, "status": s, "error": e} for p, s, e in files],
            "notes": [n for n in notes if n["section"] == "note"],
            "annotations": [n for n in notes if n["section"] == "annotation"],
        }

    def search(
        self,
        query: str,
        mode: str | None = None,
        filters: Sequence[Filter] = (),
        limit: int | None = None,
        per_doc: bool = True,
    ) -> SearchResult:
        """Search the index (see `Retriever.search`); `limit`, when given, is at least 1."""
        if limit is not None and limit < 1:
            raise UsageError(f"the result limit must be at least 1, got {limit}")
        query = valid_text(query)
        self.chunks.refresh()
        return self.retriever.search(query, mode, filters, limit, per_doc)
