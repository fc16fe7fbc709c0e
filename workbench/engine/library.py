"""The engine's library door: listing, document detail, triage, export, related papers, depth.

A mixin of `Engine` (kept apart so neither file grows past a screen of methods): every
front end reads the library through these methods, so the CLI and the TUI list, triage and
export the same way.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from workbench.engine.core import EngineCore
from workbench.engine.records import DocumentDetail, FileDetail, FileFailure, IndexStatus, TextTwin
from workbench.errors import UsageError
from workbench.library.listing import Listing
from workbench.library.reading import DEFAULT_READ_CHARS, DocumentText, check_read_request, document_text
from workbench.library.triage import QueueItem, TriageRecord, TriageUpdate
from workbench.query.filters import parse_filters
from workbench.records import Answer, CatalogDocument, Filter, GraphDescription
from workbench.text.safe import quoted, valid_text

if TYPE_CHECKING:  # the attributes the Engine brings (this class is only ever mixed into it)
    from workbench.formats.export import Export
    from workbench.query.intent.detect import Intent
    from workbench.query.related import RelatedPaper, RelatedSources
    from workbench.records import Neighbour, SearchResult
    from workbench.stores.graph_queries import GraphQueries
    from workbench.stores.triage import TriageStore

MIN_TITLE_FRAGMENT = 3  # characters of a title a reference must give to name a paper by it

# Everything else loads when first used, so a plain `workbench search` never imports it.
TRIAGE_CHANGES: tuple[str, ...] = ("state", "priority", "star", "tag_add", "tag_remove", "note")


class LibraryDoor(EngineCore):
    """Library, triage and export methods of the engine."""

    if TYPE_CHECKING:  # provided by Engine

        def _graph_queries(self) -> GraphQueries: ...

        def graph_warnings(self) -> list[str]: ...

        def neighbours(self, doc_id: str) -> dict[str, list[Neighbour]]: ...

        def search(
            self,
            query: str,
            mode: str | None = None,
            filters: Sequence[Filter | str] = (),
            limit: int | None = None,
            per_doc: bool = True,
        ) -> SearchResult: ...

    @cached_property
    def _triage_store(self) -> TriageStore:
        """Triage rows in the catalog."""
        from workbench.stores.triage import TriageStore

        return TriageStore(self._catalog)

    # -- documents ---------------------------------------------------------------------------
    def document(self, doc_id: str) -> CatalogDocument | None:
        """One document's catalog row, by exact id."""
        return self._catalog.document(doc_id)

    def find_document(self, ref: str) -> str | None:
        """The doc id a reference names: a doc id, a Zotero key or a citekey (`@` optional), else None.

        The one rule for paper references, read from the index this home reads: its catalog, or
        the chunk rows where the home only reads an index another home writes (no catalog of it).
        """
        text = valid_text(ref)
        if self.settings.storage.read_only:
            return self._chunks.find_document(text)
        return self._catalog.find_document(text)

    def resolve(self, ref: str) -> str:
        """The doc id a reference names (`named_document`'s rule); UsageError if none."""
        found = self.named_document(ref)
        if found is None:
            raise UsageError(f"no document matches {quoted(ref)} (give a doc id, a Zotero key, a citekey or a title)")
        return found

    def named_document(self, ref: str) -> str | None:
        """`find_document`'s doc id, else the one paper whose title holds `ref` (case and accents
        ignored: "joomla", "Produção"); UsageError naming the candidates when several do, None when none."""
        found = self.find_document(ref)
        text = valid_text(ref).strip()
        if found is not None or len(text) < MIN_TITLE_FRAGMENT or text.startswith(("file:", "zotero:", "@")):
            return found
        store = self._chunks if self.settings.storage.read_only else self._catalog
        titled = store.documents_titled(text)
        if len(titled) == 1:
            return titled[0][0]
        if len(titled) > 1:
            listed = "; ".join(f"{doc_id} ({title[:60]})" for doc_id, title in titled[:5])
            more = " …" if len(titled) > 5 else ""
            raise UsageError(f"{quoted(ref)} is in the titles of several papers: {listed}{more}; give one's doc id")
        return None

    def document_detail(self, ref: str) -> DocumentDetail | None:
        """A document by id, Zotero key, citekey or title (`named_document`), with its files, notes and annotations."""
        doc_id = self.named_document(ref)
        if doc_id is None:
            return None
        document = self._catalog.document(doc_id)
        if document is None:
            return None
        notes = self._chunks.section_texts(doc_id, ("note", "annotation"))
        files = self._catalog.document_files(doc_id)
        pages = self._catalog.file_pages([f.path for f in files])
        details = tuple(
            FileDetail(
                path=f.path,
                status=f.status,
                error=f.error,
                pages=pages.get(f.path, (0, ()))[0],
                dropped_pages=_pages_by_reason(pages.get(f.path, (0, ()))[1]),
            )
            for f in files
        )
        return DocumentDetail(
            document=document,
            files=details,
            notes=tuple(n for n in notes if n["section"] == "note"),
            annotations=tuple(n for n in notes if n["section"] == "annotation"),
            same_text=self._text_twins(doc_id),
        )

    def _text_twins(self, doc_id: str) -> tuple[TextTwin, ...]:
        """The other documents that hold this one's text, the closest first (none in a home that only reads)."""
        if self.read_only:
            return ()
        twins = []
        for match in self._sketches.matches(doc_id):
            other = self._catalog.document(match.doc_id)
            twins.append(TextTwin(match.doc_id, other.title if other else "", match.resemblance))
        return tuple(twins)

    def read_document(
        self,
        ref: str,
        page_from: int | None = None,
        page_to: int | None = None,
        section: str | None = None,
        max_chars: int = DEFAULT_READ_CHARS,
    ) -> DocumentText:
        """A paper's metadata, abstract and its indexed text for a page range or a section (to check a quote).

        `ref` must name an indexed document (doc id, Zotero key or citekey; UsageError otherwise):
        the text is the index's own passages, never read from a path.
        """
        check_read_request(page_from, page_to, section, max_chars)
        doc_id = self.resolve(ref)
        row = self._catalog.document(doc_id)
        if row is None:
            raise UsageError(f"no document matches {quoted(ref)} (give a doc id, a Zotero key, a citekey or a title)")
        self._chunks.refresh()
        chunks = self._chunks.document_chunks(doc_id)
        return document_text(row, chunks, page_from, page_to, section, max_chars)

    def indexed_zotero_dirs(self) -> list[Path]:
        """The Zotero data dirs this index was built from (`index --zotero DIR`), configured or not."""
        return [Path(d) for d in self._catalog.indexed_sources()[1]]

    def dropped_page_totals(self) -> tuple[int, int, dict[str, int]]:
        """(files with pages left out, pages left out, pages by reason) over the whole index."""
        return self._catalog.dropped_page_totals()

    def status(self) -> IndexStatus:
        """What is indexed: documents, chunks, files by status, failures, where the data lives."""
        summary = self._catalog.summary()
        return IndexStatus(
            documents=summary["documents"],
            chunks=summary["chunks"],
            files=summary["files"],
            sources=summary["sources"],
            failures=tuple(FileFailure(f["path"], f["error"]) for f in summary["failures"]),
            chunk_rows=self._chunks.count(),
            data_dir=str(self.paths.data_dir),
        )

    def document_count(self) -> int:
        """How many documents the library holds (the catalog alone: cheap, no chunk table opened)."""
        return self._catalog.document_count()

    def schema_version(self) -> int:
        """The catalog's applied schema version (0 when there is no catalog yet)."""
        return self._catalog.schema_version()

    # -- the listing ---------------------------------------------------------------------------
    def listing(
        self,
        query: str = "",
        filters: Sequence[str] = (),
        limit: int | None = None,
        known: Mapping[str, TriageRecord] | None = None,
        sort: str = "relevance",
    ) -> Listing:
        """Search hits for a query, else the library last indexed first; metadata and triage filters, then the sort."""

        def search(text: str, metadata: Sequence[Filter], count: int) -> SearchResult:
            return self.search(text, filters=metadata, limit=count)

        if limit is not None and limit < 1:
            raise UsageError(f"the result limit must be at least 1, got {limit}")
        count = limit or self.settings.retrieval.limit
        from workbench.query.library import list_library

        return list_library(search, self._triage_store, query, filters, count, known, sort)

    # -- triage ----------------------------------------------------------------------------------
    def triage(self, doc_ids: Sequence[str]) -> dict[str, TriageRecord]:
        """Triage records for these papers (defaults for papers without one)."""
        return self._triage_store.get_many(doc_ids)

    def triage_records(self) -> dict[str, TriageRecord]:
        """Every stored triage record, by doc id."""
        return self._triage_store.all()

    def triage_counts(self) -> dict[str, int]:
        """Papers per triage state, plus `starred`."""
        return self._triage_store.counts()

    def queue(self, limit: int | None = None) -> list[QueueItem]:
        """The inbox to work through: priority high to low, then last indexed first (`limit` at least 1)."""
        if limit is not None and limit < 1:
            raise UsageError(f"the result limit must be at least 1, got {limit}")
        return self._triage_store.queue(limit)

    def starred(self) -> list[str]:
        """Doc ids of every starred paper, most recently changed first."""
        return self._triage_store.starred()

    def change_triage(self, doc_id: str, change: str, value: Any = None) -> TriageRecord:
        """One triage change (a TUI key): state, priority, star (toggles), tag_add, tag_remove or note."""
        store = self._triage_store
        actions: dict[str, Callable[[], TriageRecord]] = {
            "state": lambda: store.set_state(doc_id, str(value)),
            "priority": lambda: store.set_priority(doc_id, value),
            "star": lambda: store.toggle_star(doc_id),
            "tag_add": lambda: store.add_tag(doc_id, str(value)),
            "tag_remove": lambda: store.remove_tag(doc_id, str(value)),
            "note": lambda: store.set_note(doc_id, str(value)),
        }
        if change not in actions:
            raise UsageError(f"unknown triage change {change!r} (use {', '.join(TRIAGE_CHANGES)})")
        return actions[change]()

    def update_triage(self, ref: str, update: TriageUpdate) -> TriageRecord:
        """Several triage changes to one paper (given by id, key or citekey) in one transaction."""
        doc_id = self.resolve(ref)
        if update.empty:
            return self._triage_store.get(doc_id)
        return self._triage_store.update(doc_id, update)

    # -- export ----------------------------------------------------------------------------------
    def _documents(self, refs: Sequence[str], starred: bool) -> list[CatalogDocument]:
        ids = [self.resolve(ref) for ref in refs]
        if starred:
            ids += [i for i in self.starred() if i not in ids]
        if not ids:
            raise UsageError("no papers to export: name them, or star some (press * or `workbench triage DOC --star`)")
        docs = [d for d in (self._catalog.document(i) for i in ids) if d is not None]
        if not docs:
            raise UsageError("the paper is not in the catalog")
        return docs

    def export_bibtex(self, refs: Sequence[str] = (), starred: bool = False) -> Export:
        """BibTeX for these papers (ids, keys or citekeys) and, with `starred`, every starred one."""
        docs = self._documents(refs, starred)
        from workbench.formats.export import Export, bibtex, export_name

        return Export("bibtex", bibtex(docs), export_name(docs, "bib"), tuple(d.doc_id for d in docs))

    def export_markdown(
        self,
        refs: Sequence[str] = (),
        starred: bool = False,
        summary: Answer | None = None,
        answer: Answer | None = None,
    ) -> Export:
        """Markdown notes (metadata, abstract, triage and note) for these papers, one after another.

        `summary` and `answer` (the TUI's, for the paper on screen) go into the first note.
        """
        from workbench.formats.export import Export, export_name, markdown_note

        docs = self._documents(refs, starred)
        ids = [d.doc_id for d in docs]
        records = self._triage_store.get_many(ids)
        notes = [
            markdown_note(doc, summary=summary if n == 0 else None, answer=answer if n == 0 else None,
                          triage=records[ids[n]])
            for n, doc in enumerate(docs)
        ]  # fmt: skip
        return Export("markdown", "\n".join(notes), export_name(docs, "md"), tuple(ids))

    def write_export(self, export: Export, directory: Path) -> Path:
        """Write an export into a folder under its own name, never overwriting (`name-2.bib`, ...)."""
        from workbench.formats.export import write_export

        return write_export(export.text, directory, export.name)

    # -- related papers, graph, depth ---------------------------------------------------------------
    def related(self, ref: str, limit: int = 10) -> list[RelatedPaper]:
        """Papers related to one paper: graph neighbours and search, each labelled by what found it."""
        from workbench.query.related import related

        return related(self._related_reads(), self.resolve(ref), limit)

    def _related_reads(self) -> RelatedSources:
        """What `query.related` reads of the engine: neighbours, a document's row, search; nothing more."""
        from workbench.query.related import RelatedSources

        if self.read_only:
            return RelatedSources(self.neighbours, self.document, self.search)
        return RelatedSources(
            self.neighbours,
            self.document,
            self.search,
            lambda doc_id: [m.doc_id for m in self._sketches.matches(doc_id)],
        )

    def graph_description(self, ref: str, depth: int = 1) -> GraphDescription:
        """A paper's graph neighbourhood (`depth` 2: one hop more), or an author with co-authors.

        `ref` is a doc id, a Zotero key or a citekey, else an author's name, else a piece of one
        paper's title (`named_document`: several papers holding it is a UsageError naming them)."""
        doc_id = self.find_document(ref)
        queries = self._graph_queries()
        try:
            from workbench.query.related import describe

            return describe(queries, doc_id, valid_text(ref), depth, self.graph_warnings(), self.named_document)
        finally:
            queries.store.close()

    def default_depth(self, intent: Intent) -> str:
        """The depth an answer uses when none is chosen: `answer.default_depth`, else the wording, else the intent."""
        from workbench.query.depth import choose_depth

        return choose_depth(None, self.settings.answer.default_depth, intent.depth, intent.kind)

    def detect_intent(self, query: str) -> Intent:
        """The query's intent by the rules alone (fast enough to run on every keystroke)."""
        from workbench.query.intent.detect import detect_intent

        return detect_intent(query)

    def parse_filters(self, expressions: Sequence[Filter | str]) -> list[Filter]:
        """Filter expressions parsed (FilterError names a bad one)."""
        return parse_filters(expressions)

    def _shared_document(self, doc_id: str) -> CatalogDocument | None:
        """A document's record from its chunk rows (a home that only reads has no catalog of the index).

        Its `content_hash` hashes the chunk ids, which hash the text, so cached summaries are
        made anew when the writer re-indexes a changed paper.
        """
        rows = self._chunks.document_chunks(doc_id)
        if not rows:
            return None
        digest = hashlib.sha256("\n".join(sorted(r["chunk_id"] for r in rows)).encode()).hexdigest()
        return CatalogDocument(doc_id, title=str(rows[0]["title"] or ""), content_hash=f"chunks:{digest}")


def _pages_by_reason(dropped: Sequence[tuple[int, str]]) -> dict[str, list[int]]:
    """Left-out pages grouped by their reason, in page order."""
    grouped: dict[str, list[int]] = {}
    for page, reason in sorted(dropped):
        grouped.setdefault(reason, []).append(page)
    return grouped
