"""The engine's core: its settings, its stores and models (private, opened on first use), the writer lock
and the index fingerprint. Every part of the door (`library`, `indexing`, `sources`,
`doctor`, `engine`) builds on it; nothing outside the engine package reads these attributes.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from functools import cached_property
from typing import TYPE_CHECKING

from workbench.errors import IndexMismatchError, UsageError
from workbench.ingest.fingerprint import index_fingerprint
from workbench.llm.base import LanguageModel
from workbench.llm.embed import Embedder
from workbench.records import IndexFingerprint
from workbench.settings.config import Settings
from workbench.settings.paths import Paths
from workbench.stores.catalog import Catalog
from workbench.stores.chunks import ChunkStore
from workbench.stores.consistency import OrphanFilter

if TYPE_CHECKING:
    from workbench.ingest.text_sketch import StoredSketches


class EngineCore:
    """Settings, paths, stores and the fingerprint check that every part of the engine shares."""

    def __init__(self, settings: Settings, model: LanguageModel | None = None) -> None:
        """`model` injects a model (tests use the stand-in); by default the configured one loads lazily."""
        self._settings = settings
        self._paths: Paths = settings.paths()
        self._given_model = model
        self._model_loading = False
        self._model_error = ""
        self._index_checked = False

    @property
    def settings(self) -> Settings:
        """The settings this engine runs with (a frozen record; `add_sources` is the one way they change)."""
        return self._settings

    @property
    def paths(self) -> Paths:
        """The folders this engine keeps its data, cache and config in."""
        return self._paths

    @property
    def read_only(self) -> bool:
        """True when this home reads an index that another home writes (`storage.read_only`)."""
        return self._settings.storage.read_only

    # -- stores and models (private; opened on first use) ------------------------------------------
    @cached_property
    def _embedder(self) -> Embedder:
        """The embedding model wrapper (loads the model on first embed)."""
        emb = self._settings.embedding
        return Embedder(emb.model, self._paths.models_dir, emb.batch_size, emb.threads, emb.max_batch_tokens)

    @cached_property
    def _catalog(self) -> Catalog:
        """The DuckDB catalog."""
        return Catalog(self._paths.catalog_path)

    @cached_property
    def _sketches(self) -> StoredSketches:
        """The documents' text sketches, to name documents that hold one text (read when first asked)."""
        from workbench.ingest.text_sketch import StoredSketches

        # read again when the chunk table's version changes (documents written), not on every write of
        # the catalog (an answer's ledger line, a triage mark)
        return StoredSketches(self._catalog, self._chunks.version)

    @cached_property
    def _chunks(self) -> ChunkStore:
        """The LanceDB chunk table; search hides chunks the catalog has not committed (orphans).

        A home that only reads (`storage.read_only`) hides nothing: its catalog is not the
        writer's, and the table's committed version is what it reads.
        """
        self._paths.ensure()
        hidden = None if self.read_only else OrphanFilter(self._catalog)
        options = self._settings.chunks_storage_options()
        return ChunkStore(self._settings.chunks_uri(), self._embedder.dimension, self._settings.fts, hidden, options)

    @cached_property
    def _model(self) -> LanguageModel:
        """The configured language model (loaded on first use, not here)."""
        if self._given_model is not None:
            return self._given_model
        from workbench.llm.llamacpp import load_model

        llm = self._settings.llm
        return load_model(llm.model_path, llm.server_url, llm.n_ctx, self._paths.models_dir, llm.threads)

    def _check_writable(self) -> None:
        """Raise UsageError (one line) when this home only reads an index that another home writes."""
        if self.read_only:
            raise UsageError(
                f"this home only reads the index at {self._settings.chunks_uri()} (storage.read_only = true): "
                "index and repair on the home that writes it"
            )

    @contextlib.contextmanager
    def _writing(self) -> Iterator[None]:
        """Hold the single-writer lock; a home that only reads refuses in one line, before touching anything."""
        self._check_writable()
        self._paths.ensure()
        from workbench.ingest.writer_lock import writer_lock

        try:
            with writer_lock(self._paths.writer_lock_path):
                yield
        finally:
            if "_sketches" in self.__dict__:  # what this process wrote is read at the next search
                self._sketches.reset()

    @cached_property
    def fingerprint(self) -> IndexFingerprint:
        """The fingerprint of an index built now, with these settings and this embedder."""
        return index_fingerprint(self._settings, self._embedder)

    def stored_fingerprint(self) -> IndexFingerprint | None:
        """The fingerprint recorded when the index was built (None: nothing recorded yet).

        The writer's catalog holds it; a home that only reads takes the copy the writer keeps
        beside the chunk table.
        """
        if self.read_only:
            values = self._chunks.stored_fingerprint()
            return None if values is None else IndexFingerprint.from_dict(values)
        return self._catalog.fingerprint()

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
        self._chunks.refresh()

    def _claim_index(self) -> None:
        """Before a write (writer lock held): check the fingerprint, recording it if none is yet.

        When only the FTS settings changed, the keyword index is rebuilt from the stored rows
        (no re-embedding) and the new fingerprint recorded.
        """
        stored = self._catalog.fingerprint()
        if stored is not None and stored.only_fts_differs(self.fingerprint):
            self._chunks.rebuild_fts()
            self._catalog.set_fingerprint(self.fingerprint)
        self.check_index()
        if self._catalog.fingerprint() is None:
            self._catalog.set_fingerprint(self.fingerprint)
        self._chunks.record_fingerprint(self.fingerprint.as_dict())
        self._chunks.add_page_offsets()  # an index made before page offsets: one commit, nothing re-embedded
