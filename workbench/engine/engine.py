"""The one door that every front end (CLI, TUI, MCP server, doctor) goes through.

Its public methods take plain values and return frozen records (`workbench.records`,
`workbench.library.triage`, the query and ingest reports); the stores, models and query paths behind
them are private attributes. Tests and benchmarks that measure or break the stores on purpose
reach them through `Engine.internals()`, which no front end calls (a unit test reads their
source to keep it so).

Everything heavy (the embedding model, the stores) is opened lazily on first use, so
building an engine is free and the TUI can paint before any model is loaded.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from workbench.engine.doctor import DoctorDoor
from workbench.engine.indexing import IndexDoor
from workbench.engine.library import LibraryDoor
from workbench.engine.records import ModelInfo
from workbench.engine.sources import SourcesDoor
from workbench.errors import GraphNotBuiltError, UsageError
from workbench.llm.base import LanguageModel, ModelError
from workbench.llm.embed import Embedder
from workbench.query.depth import check_depth
from workbench.query.filters import parse_filters
from workbench.query.quote_pages import with_page_note
from workbench.query.retrieve import Retriever
from workbench.query.snippet import snippet
from workbench.records import Answer, CostEstimate, Filter, Hit, Neighbour, SearchResult
from workbench.settings.config import Settings
from workbench.stores.catalog import Catalog
from workbench.stores.chunks import ChunkStore
from workbench.text.safe import valid_text

if TYPE_CHECKING:  # loaded where used: a plain search imports no ingest, model, answer or watch code
    # The records of index runs, re-exported for the front ends' type hints.
    from workbench.ingest.index_report import IndexReport as IndexReport
    from workbench.ingest.pipeline import Progress as Progress
    from workbench.query.ask import Asker, EvidenceSink
    from workbench.stores.graph_queries import GraphQueries
    from workbench.stores.triage import TriageStore
    from workbench.watch.records import WatchEvent

__all__ = ["Engine", "EngineInternals"]


class Engine(LibraryDoor, IndexDoor, SourcesDoor, DoctorDoor):
    """Headless workbench: index, search, ask, library, doctor; front ends only format what it returns."""

    def internals(self) -> EngineInternals:
        """The stores and models behind the door, for tests and benchmarks only (never a front end)."""
        return EngineInternals(self)

    # -- warming up and the model's state -----------------------------------------------------------
    def warm_up(self) -> None:
        """Open the stores, check the index fingerprint, load the embedder and read the text sketches now
        (a resident server's first call)."""
        self._open_index()
        self._embedder.warm_up()
        _ = self._retriever, self._asker
        if not self.read_only:
            self._sketches.warm_up()

    def warm_up_embedder(self) -> None:
        """Load the embedding model and read the text sketches now (call from a background worker), so
        the first search is quick."""
        self._embedder.warm_up()
        if not self.read_only:
            self._sketches.warm_up()

    def model_state(self) -> str:
        """'not loaded', 'loading', 'ready' or 'error: ...' (for the status bar)."""
        if self._model_error:
            return f"error: {self._model_error}"
        if self._model_loading:
            return "loading"
        if "_model" not in self.__dict__:
            return "not loaded"
        loaded = getattr(self._model, "loaded", True)
        return "ready" if loaded else "not loaded"

    def warm_up_model(self) -> None:
        """Load the model now (call from a background worker); errors are kept for model_state()."""
        self._model_loading = True
        try:
            self._model.count_tokens("warm up")
            self._model_error = ""
        except ModelError as exc:
            self._model_error = str(exc)
        finally:
            self._model_loading = False

    def model_info(self) -> ModelInfo:
        """The configured language model's name and context size (its weights load only when it first runs)."""
        return ModelInfo(self._model.name, self._model.context_size)

    # -- the query path -----------------------------------------------------------------------------
    @cached_property
    def _asker(self) -> Asker:
        """The query path for ask, summarize and cost, given the collaborators it needs."""
        return self._make_asker(self._settings)

    @cached_property
    def _evidence_asker(self) -> Asker:
        """The query path with synthesis off (`answer.synthesis = "never"`): evidence only, no model call."""
        evidence_only = replace(self._settings, answer=replace(self._settings.answer, synthesis="never"))
        return self._make_asker(evidence_only)

    def _make_asker(self, settings: Settings) -> Asker:
        from workbench.query.ask import Asker, QueryTools
        from workbench.query.related import related
        from workbench.stores.ledger import Ledger
        from workbench.stores.sentence_cache import SentenceVectorCache

        def search(query: str, filters: Sequence[Filter], limit: int) -> list[Hit]:
            # the passages an answer reads: no snippets (they are for showing hits)
            self._open_index()
            return self._retriever.search(valid_text(query), None, list(filters), limit, False).hits

        embedder = self._embedder
        reads = self._related_reads()
        tools = QueryTools(
            settings=settings,
            search=search,
            document=self._shared_document if self.read_only else self._catalog.document,
            resolve=self.resolve_doc,
            document_chunks=lambda doc_id: self._chunks.document_chunks(doc_id, with_vectors=True),
            related=lambda doc_id: related(reads, doc_id),
            embedder=embedder,
            model=lambda: self._model,
            ledger=Ledger(self._catalog),
            sentence_cache=SentenceVectorCache(self._paths.cache_dir / "sentences", embedder.model, embedder.dimension),
        )
        return Asker(tools)

    def resolve_doc(self, ref: str) -> str | None:
        """The paper a question names: a reference or a piece of one title by `named_document`'s rule
        (UsageError naming them when several titles hold it), else the best search hit for its words."""
        found = self.named_document(ref)
        if found is not None:
            return found
        if ref.strip().startswith(("file:", "zotero:", "@")):  # a reference that is not there: never a look-alike
            return None
        hits = self.search(ref, limit=1).hits
        return hits[0].doc_id if hits else None

    def estimate_costs(self, query: str, doc_id: str | None = None) -> list[CostEstimate]:
        """Token estimates for every depth (see `Asker.estimate_costs`)."""
        self._open_index()
        return self._asker.estimate_costs(query, doc_id)

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
        asker = self._asker if synthesis else self._evidence_asker
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
        check_depth(depth)
        self._open_index()
        asker = self._asker if synthesis else self._evidence_asker
        return with_page_note(asker.summarize(doc_id, depth, on_text, cancelled, refresh, on_evidence))

    @cached_property
    def _retriever(self) -> Retriever:
        """Search over the chunk table; documents that hold one text are folded into the first found."""
        same_text = None if self.read_only else self._sketches.twins
        return Retriever(self._settings.retrieval, self._embedder, self._chunks, same_text)

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
        result = self._retriever.search(query, mode, parsed, limit, per_doc)
        result.hits = [replace(h, snippet=snippet(h.text, query)) for h in result.hits]
        return result

    # -- the watcher -------------------------------------------------------------------------------
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
        from workbench.engine.resident import ResidentServer
        from workbench.watch import run_watch
        from workbench.watch.records import WatchSources

        self._check_writable()
        if folders is None and zotero is None:
            folders, zotero = self.configured_sources()
        sources = WatchSources(tuple(folders or ()), zotero)
        if sources.empty:
            raise UsageError(
                "nothing to watch: give folders, --zotero [DIR], or set sources.folders / sources.zotero_dir"
            )
        # While it watches, this process also answers `workbench search` from the shell (see `engine.resident`).
        with ResidentServer(self, log):
            run_watch(self, log, stop=stop, sources=sources, on_event=on_event)

    # -- the graph ------------------------------------------------------------------------------------
    def graph_warnings(self) -> list[str]:
        """Why the graph may not answer fully: an interrupted (or running) graph sync; [] when none."""
        from workbench.stores.markers import graph_incomplete_path, has_marker

        if has_marker(graph_incomplete_path(self._paths.graph_path)):
            return [
                "the graph is incomplete: an index run was interrupted while updating it (or is updating it now); "
                "`workbench index` completes it"
            ]
        return []

    def _graph_queries(self) -> GraphQueries:
        """Read-only graph queries; raises GraphNotBuiltError when no graph has been built yet."""
        from workbench.stores.graph import GraphStore
        from workbench.stores.graph_queries import GraphQueries

        if not self._paths.graph_path.exists():
            raise GraphNotBuiltError("the graph is not built yet: run `workbench index` first")
        return GraphQueries(GraphStore(self._paths.graph_path, read_only=True))

    def neighbours(self, doc_id: str) -> dict[str, list[Neighbour]]:
        """Graph neighbours of a paper grouped by edge type (authors, tags, cites, similar, ...)."""
        queries = self._graph_queries()
        try:
            return queries.neighbours(doc_id)
        finally:
            queries.store.close()


class EngineInternals:
    """The stores and models behind an engine's door, for tests and benchmarks only.

    Tests that break a store on purpose, and benchmarks that time the embedder or the
    retriever alone, need them; front ends never do (`tests/unit/test_engine_door.py` reads
    their source to keep it so). Each attribute opens its store on first use, as the engine does.
    """

    def __init__(self, engine: Engine) -> None:
        self._engine = engine

    @property
    def catalog(self) -> Catalog:
        """The DuckDB catalog."""
        return self._engine._catalog

    @property
    def chunks(self) -> ChunkStore:
        """The LanceDB chunk table."""
        return self._engine._chunks

    @property
    def embedder(self) -> Embedder:
        """The embedding model wrapper."""
        return self._engine._embedder

    @property
    def model(self) -> LanguageModel:
        """The language model."""
        return self._engine._model

    @property
    def retriever(self) -> Retriever:
        """The retriever over the chunk table."""
        return self._engine._retriever

    @property
    def asker(self) -> Asker:
        """The query path for ask and summarize."""
        return self._engine._asker

    @property
    def triage_store(self) -> TriageStore:
        """Triage rows in the catalog."""
        return self._engine._triage_store

    def graph_queries(self) -> GraphQueries:
        """Read-only graph queries (the caller closes `.store`); GraphNotBuiltError when there is no graph."""
        return self._engine._graph_queries()

    def writing(self) -> contextlib.AbstractContextManager[None]:
        """The single-writer lock, as the engine takes it."""
        return self._engine._writing()
