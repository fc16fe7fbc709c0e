"""The one entry point that the CLI and the TUI share: settings, stores, indexer, retriever.

Everything heavy (the embedding model, the stores) is opened lazily on first use, so
building an engine is free and the TUI can paint before any model is loaded.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cached_property
from pathlib import Path

from workbench.config import Settings
from workbench.ingest.embed import Embedder
from workbench.ingest.pipeline import Indexer, IndexReport, Progress, writer_lock
from workbench.models import Document, Section
from workbench.paths import Paths
from workbench.query.retrieve import Retriever, SearchResult
from workbench.stores.catalog import Catalog
from workbench.stores.chunks import ChunkStore, Filter


class Engine:
    """Headless workbench: index, search, status; front ends only format what it returns."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.paths: Paths = settings.paths()

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
        """The LanceDB chunk table."""
        self.paths.ensure()
        return ChunkStore(self.settings.chunks_uri(), self.embedder.dimension, self.settings.fts)

    @cached_property
    def retriever(self) -> Retriever:
        """Search over the chunk table."""
        return Retriever(self.settings.retrieval, self.embedder, self.chunks)

    def index_folders(
        self,
        folders: Sequence[Path],
        progress: Callable[[Progress], None] | None = None,
        cancelled: Callable[[], bool] | None = None,
    ) -> IndexReport:
        """Index these folders under the single-writer lock."""
        self.paths.ensure()
        with writer_lock(self.paths.writer_lock_path):
            indexer = Indexer(self.settings, self.embedder, self.catalog, self.chunks)
            return indexer.index_folders(folders, progress, cancelled)

    def index_documents(
        self,
        items: Sequence[tuple[Document, Sequence[Section]]],
        progress: Callable[[Progress], None] | None = None,
    ) -> IndexReport:
        """Index documents given with their text, under the single-writer lock."""
        self.paths.ensure()
        with writer_lock(self.paths.writer_lock_path):
            indexer = Indexer(self.settings, self.embedder, self.catalog, self.chunks)
            return indexer.index_documents(items, progress)

    def search(
        self,
        query: str,
        mode: str | None = None,
        filters: Sequence[Filter] = (),
        limit: int | None = None,
        per_doc: bool = True,
    ) -> SearchResult:
        """Search the index (see `Retriever.search`)."""
        self.chunks.refresh()
        return self.retriever.search(query, mode, filters, limit, per_doc)
