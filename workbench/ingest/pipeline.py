"""The one ingest queue: scan → diff against the catalog → parse → chunk → embed → write.

Crash safety comes from the order of writes. A batch of documents is written to LanceDB
first (delete their old rows, add the new ones) and only then committed to the catalog
with its content hash. A crash in between leaves the catalog unaware of the batch, so the
next run redoes it; the delete-then-add makes that repeat free of duplicates. Deletions run
in the same order, and a reconcile step drops chunks of documents the catalog does not know.

While a run writes, a marker file says its writes are pending (`workbench.stores.markers`):
search hides chunks the catalog has not committed, and a run killed mid-way leaves the marker
for the next run (or `doctor --repair`) to reconcile. Documents of folders are
`file:<root number>/<relative path>`, so two watched folders never share an id.

Renames and moves are never re-embedded: within one run, a file that disappeared and a new
file with the same content hash are one document that moved. Its chunk rows are read back
with their vectors and re-added under the new `file:<root number>/<relative path>` id (new rows first, old
rows second), then the catalog moves the document, its file record and the rows keyed by it
(triage, summaries) in one transaction. A crash in between leaves the old catalog state; the
next run finds the same pair, finds no old rows to carry over and indexes the file afresh.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from workbench.ingest.chunk import chunk_sections
from workbench.ingest.file_moves import MOVABLE_STATUSES, find_moves, move_document
from workbench.ingest.index_report import IndexReport, file_note
from workbench.ingest.metadata_refresh import refresh_metadata as refresh_metadata_of
from workbench.ingest.ocr import page_reader
from workbench.ingest.parse import METADATA_RULES_VERSION, SUPPORTED_SUFFIXES, UNREAD_DOCUMENT_SUFFIXES, parse_file
from workbench.ingest.parse_error import ParseError
from workbench.ingest.regular_file import hash_regular
from workbench.ingest.scanned import PUT_OFF, ScanReading, ingest_scans_last
from workbench.ingest.text_sketch import (
    SKETCH_VERSION,
    LibrarySketches,
    SameText,
    sketch_of_chunks,
    sketch_stored_documents,
)
from workbench.llm.embed import Embedder
from workbench.records import Chunk, Document, ParsedDocument, Section
from workbench.settings.config import Settings
from workbench.sources.folder import FileEntry, ScanProblem, entry_at, scan_roots
from workbench.stores.catalog import Catalog, FileRecord
from workbench.stores.chunks import ChunkStore, chunk_rows, embedding_text
from workbench.stores.consistency import apply_renames
from workbench.stores.markers import clear_marker, has_marker, set_marker, writes_pending_path
from workbench.text.safe import valid_text


@dataclass(frozen=True)
class Progress:
    """One document handled: position, path and outcome (for progress bars and logs)."""

    done: int
    total: int
    path: str
    status: str


def metadata_sections(parsed: ParsedDocument) -> tuple[Section, ...]:
    """Sections to index: the parsed ones, or a metadata-only section for text-less files."""
    if parsed.has_text and parsed.sections:
        return parsed.sections
    header = "; ".join(part for part in (parsed.title, ", ".join(parsed.authors)) if part)
    return (Section("title", header or "untitled", 1, 1),)


def _has_text_now(entry: FileEntry) -> bool:
    """Whether a file recorded without text has text for the current rules (a font that numbers
    its glyphs, read since); it has no vectors to keep, so it is then indexed anew."""
    try:
        return parse_file(Path(entry.path)).has_text
    except ParseError:
        return False


@dataclass
class _Pending:
    document: Document
    chunks: list[Chunk]
    records: list[FileRecord]
    is_new: bool
    sketch: bytes | None


class Indexer:
    """Runs index jobs against one set of stores; the only code that writes them."""

    def __init__(
        self,
        settings: Settings,
        embedder: Embedder,
        catalog: Catalog,
        chunks: ChunkStore,
        ocr_cache: Path | None = None,
    ) -> None:
        """`ocr_cache`: the folder where what OCR reads of scanned pages is kept (none: not kept)."""
        self.settings = settings
        self.embedder = embedder
        self.catalog = catalog
        self.chunks = chunks
        self._pending: list[_Pending] = []
        self._pending_chunks = 0
        self.sketches = LibrarySketches(catalog)
        index = settings.index
        self.scans = ScanReading(
            page_reader(index.ocr, index.ocr_languages, index.ocr_max_pages, ocr_cache, index.ocr_workers)
        )
        self._released: list[str] = []  # folder files no longer duplicates of anything (see `flush`)

    def parse(self, path: Path, content_type: str | None = None) -> ParsedDocument:
        """Parse one file as this index reads files (OCR for scanned pages when `index.ocr` is on)."""
        return self.scans.parse(path, content_type)

    def chunk_document(self, doc_id: str, sections: Sequence[Section]) -> list[Chunk]:
        """Chunks for a document's sections, sized by the embedder's tokenizer."""
        index = self.settings.index
        return chunk_sections(
            doc_id,
            sections,
            self.embedder.count_tokens,
            index.chunk_tokens,
            index.max_chunk_tokens,
            index.min_chunk_tokens,
        )

    def index_folders(
        self,
        roots: Sequence[Path],
        progress: Callable[[Progress], None] | None = None,
        cancelled: Callable[[], bool] | None = None,
        refresh_metadata: bool = False,
    ) -> IndexReport:
        """Bring the index in line with these folders: add, update, remove; returns a report.

        Unchanged files whose metadata older rules derived (all of them with
        `refresh_metadata`) get their metadata re-derived without re-embedding.
        """
        with self.run():
            return self._index_folders(roots, progress, cancelled, refresh_metadata)

    def _index_folders(
        self,
        roots: Sequence[Path],
        progress: Callable[[Progress], None] | None,
        cancelled: Callable[[], bool] | None,
        refresh_metadata: bool,
    ) -> IndexReport:
        started = time.perf_counter()
        report = IndexReport()
        live_roots = [valid_text(str(r.resolve())) for r in roots if r.is_dir()]
        numbers = self.catalog.root_numbers(live_roots)
        ignore = self.settings.sources.ignore
        scan = scan_roots(roots, numbers, SUPPORTED_SUFFIXES, ignore, UNREAD_DOCUMENT_SUFFIXES)
        entries = scan.entries
        known = self.catalog.files_under(live_roots)
        unreadable = self._record_problems(scan.problems, known, report)
        report.note_unread(scan.unread)

        gone = [record for path, record in known.items() if path not in entries and path not in unreadable]
        hashes: dict[str, str] = {}
        moved_to: set[str] = set()
        if gone:
            fresh = [entry for path, entry in entries.items() if path not in known]
            for source, target in find_moves(gone, fresh, hashes):
                if self._move(source, target, report):
                    moved_to.add(target.key)
            moved_from = {m["from"] for m in report.moves}
            gone = [r for r in gone if r.path not in moved_from]
        if gone:
            self._remove(gone, report)
        if gone or moved_to:
            known = self.catalog.files_under(live_roots)
        todo: list[FileEntry] = []
        stale = None if refresh_metadata else self.catalog.stale_metadata(METADATA_RULES_VERSION)
        rederive: list[FileRecord] = []
        reread: set[str] = set()
        self.scans.note_problem(report)
        movable = [path for path, record in known.items() if record.status in MOVABLE_STATUSES]
        waiting = self.scans.waiting(movable, self.catalog.file_pages)
        for path, entry in entries.items():
            if path in moved_to:
                continue
            record = known.get(path)
            if record and record.size == entry.size and record.mtime == entry.mtime:
                if path in waiting or (
                    record.status == "no-text" and (stale is None or record.doc_id in stale) and _has_text_now(entry)
                ):
                    reread.add(path)  # newer rules (or OCR) read what older ones could not: index it whole
                    todo.append(entry)
                    continue
                report.unchanged += 1
                if record.status in MOVABLE_STATUSES and (stale is None or record.doc_id in stale):
                    rederive.append(record)
            else:
                todo.append(entry)

        def ingest(entry: FileEntry) -> str:
            previous, known_hash = known.get(entry.key), hashes.get(entry.key)
            return self._ingest_file(entry, previous, report, known_hash, reread=entry.key in reread)

        def done(number: int, entry: FileEntry, status: str) -> None:
            if progress is not None:
                progress(Progress(number, len(todo), entry.key, status))

        flush = partial(self.flush, report)
        report.cancelled = ingest_scans_last(todo, self.scans, ingest, flush, cancelled, done)
        self.flush(report)
        self.read_released(report, entries, hashes)
        if not report.cancelled:
            report.metadata_refreshed += refresh_metadata_of(self.catalog, self.chunks, rederive, self.parse)
        self.finish(report, reconcile=not report.cancelled)
        report.seconds = round(time.perf_counter() - started, 3)
        return report

    def release(self, paths: Sequence[str]) -> None:
        """Folder files no longer copies of anything (their records dropped): `read_released` reads them."""
        self._released += paths

    def read_released(
        self,
        report: IndexReport,
        scanned: Mapping[str, FileEntry] | None = None,
        hashes: Mapping[str, str] | None = None,
    ) -> None:
        """Read again, now, the folder files that were copies of a document this run changed or removed
        (a folder file, or a Zotero item whose attachment now holds another paper), until none is left:
        those this run's scan found as scanned, the others under the roots the catalog knows."""
        roots: dict[str, int] | None = None
        while self._released and not report.cancelled:
            paths, self._released = list(dict.fromkeys(self._released)), []
            for path in paths:
                entry = (scanned or {}).get(path)
                if entry is None:
                    roots = self.catalog.folder_roots() if roots is None else roots
                    entry = entry_at(path, roots)
                if entry is not None:
                    self._ingest_file(entry, None, report, (hashes or {}).get(entry.key))
            self.flush(report)

    def begin(self) -> None:
        """Start a run: mark writes pending, migrate the catalog, finish renames a migration left."""
        marker = writes_pending_path(self.catalog.path)
        self._marker_was_set = has_marker(marker)
        set_marker(marker)
        self.catalog.migrate()
        apply_renames(self.catalog, self.chunks)
        self._start_version = self.chunks.version()
        self.sketches.reset()
        self._released = []
        sketch_stored_documents(self.catalog, self.chunks)  # an index from before sketches were kept

    def abandon(self) -> None:
        """A run that stopped with an error: clear the marker when it wrote no chunk and set the marker itself.

        A clean failure (an unreadable library, a bad path) leaves the stores as they were, so
        `doctor` must not report unfinished writes; a marker left by an earlier killed run, or
        chunks written before the error, keep it for the next run to reconcile.
        """
        if getattr(self, "_marker_was_set", True) or self.chunks.version() != self._start_version:
            return
        clear_marker(writes_pending_path(self.catalog.path))

    @contextmanager
    def run(self) -> Iterator[None]:
        """`begin`, the caller's work, and `abandon` should the work raise; OCR's worker processes,
        if a scan started any, stop with the run."""
        self.begin()
        try:
            yield
        except BaseException:
            with contextlib.suppress(Exception):  # the original error is the one to report
                self.abandon()
            raise
        finally:
            self.scans.close()

    def finish(self, report: IndexReport, reconcile: bool) -> None:
        """End a run whose writes are all committed: drop orphans if asked, update indexes, clear
        the marker; the report counts the pages OCR read.

        Orphans (chunks of documents the catalog does not know) are left only by a run stopped
        between its LanceDB write and its catalog commit, and such a run leaves the
        writes-pending marker behind. So the chunk table's document ids (a scan of a column of
        every row) are compared with the catalog only when this run found the marker set; a run
        that began without it and got here committed everything it wrote.
        """
        self.scans.tally(report)
        orphans: set[str] = set()
        if getattr(self, "_marker_was_set", True):
            orphans = self.chunks.doc_ids() - self.catalog.doc_ids()
        if orphans and reconcile:  # chunks whose document the catalog does not know (left by a crash)
            self.chunks.replace_documents(sorted(orphans), [])
        index = self.settings.index
        self.chunks.finish_writes(index.vector_index_min_rows, index.optimize_after_rows)
        if reconcile or not orphans:
            clear_marker(writes_pending_path(self.catalog.path))

    def _record_problems(
        self, problems: Sequence[ScanProblem], known: dict[str, FileRecord], report: IndexReport
    ) -> set[str]:
        """Count and list scan problems; a file's (a broken or looping link) is recorded as failed.

        Returns the catalog keys of those files, which are therefore not "gone".
        """
        records: list[FileRecord] = []
        for problem in problems:
            report.fail(problem.path, problem.reason)
            entry = problem.entry
            if entry is None:
                continue
            previous = known.get(entry.key)
            if previous is not None and previous.status in MOVABLE_STATUSES:
                self.drop_documents([previous.doc_id], [])  # its file is gone; the record stays, failed
            records.append(FileRecord(entry.key, entry.root_key, entry.doc_id, 0, 0.0, "", "failed", problem.reason))
        if records:
            with self.catalog.write() as con:
                Catalog.upsert(con, [], records)
        return {r.path for r in records}

    def index_documents(
        self,
        items: Sequence[tuple[Document, Sequence[Section]]],
        progress: Callable[[Progress], None] | None = None,
    ) -> IndexReport:
        """Index documents that come with their text (benchmarks, Zotero notes); no files."""
        started = time.perf_counter()
        report = IndexReport()
        self.begin()
        known = self.catalog.doc_ids()
        for number, (document, sections) in enumerate(items, start=1):
            self.queue(document, sections, [], document.doc_id not in known, report)
            if progress is not None:
                progress(Progress(number, len(items), document.doc_id, "indexed"))
        self.flush(report)
        self.finish(report, reconcile=False)
        report.seconds = round(time.perf_counter() - started, 3)
        return report

    def queue(
        self,
        document: Document,
        sections: Sequence[Section],
        records: list[FileRecord],
        is_new: bool,
        report: IndexReport,
    ) -> SameText | None:
        """Chunk a document and buffer it; a full buffer is embedded and written at once.

        Returns the other document, if any, that holds the same text (`workbench.ingest.text_sketch`).
        """
        chunks = self.chunk_document(document.doc_id, sections)
        sketch = sketch_of_chunks(chunks)
        same = self.sketches.match(sketch, document.doc_id)
        self._enqueue(document, chunks, sketch, records, is_new, report)
        return same

    def _enqueue(
        self,
        document: Document,
        chunks: list[Chunk],
        sketch: bytes | None,
        records: list[FileRecord],
        is_new: bool,
        report: IndexReport,
    ) -> None:
        if sketch is not None:
            self.sketches.add(document.doc_id, sketch)
        self._pending.append(_Pending(document, chunks, records, is_new, sketch))
        self._pending_chunks += len(chunks)
        if self._pending_chunks >= self.settings.index.write_batch_chunks:
            self.flush(report)

    def pending_owner(self, content_hash: str) -> str | None:
        """The document already indexed (or buffered) from a file with these bytes."""
        for item in self._pending:
            if any(r.content_hash == content_hash for r in item.records):
                return item.document.doc_id
        return self.catalog.doc_for_hash(content_hash)

    def _ingest_file(
        self,
        entry: FileEntry,
        previous: FileRecord | None,
        report: IndexReport,
        known_hash: str | None = None,
        reread: bool = False,
    ) -> str:
        doc_id = entry.doc_id
        try:
            content_hash = known_hash or hash_regular(entry.path)
        except OSError as exc:
            return self._record_failure(entry, doc_id, "", f"cannot read: {exc.strerror or exc}", report)
        if previous and previous.content_hash == content_hash and previous.status != "failed" and not reread:
            # Touched but not changed: remember the new mtime, keep everything else.
            record = FileRecord(
                entry.key,
                entry.root_key,
                previous.doc_id,
                entry.size,
                entry.mtime,
                content_hash,
                previous.status,
                previous.error,
            )
            with self.catalog.write() as con:
                Catalog.upsert(con, [], [record])
            report.unchanged += 1
            return "unchanged"
        owner = self.pending_owner(content_hash)
        if owner and owner != doc_id:
            return self._record_duplicate(entry, previous, owner, content_hash, f"same content as {owner}", report)
        if self.scans.puts_off(Path(entry.path)):
            return PUT_OFF
        try:
            parsed = self.parse(Path(entry.path))
        except ParseError as exc:
            return self._record_failure(entry, doc_id, content_hash, str(exc), report)
        chunks = self.chunk_document(doc_id, metadata_sections(parsed))
        sketch = sketch_of_chunks(chunks)
        same = self.sketches.match(sketch, doc_id)
        if same is not None:
            report.warnings.append({"path": entry.key, "warning": same.reason()})
            return self._record_duplicate(entry, previous, same.doc_id, content_hash, same.reason(), report)
        document = Document(
            doc_id=doc_id,
            title=parsed.title,
            source="folder",
            authors=parsed.authors,
            year=parsed.year,
            doi=parsed.doi,
            venue=parsed.venue,
            abstract=parsed.abstract,
            item_type=parsed.kind,
            folder=entry.root_key,
            paths=(entry.key,),
            content_hash=content_hash,
        )
        status = "indexed" if parsed.has_text else "no-text"
        warning = file_note(parsed)  # why there is no text; a garbled page, a title from the file name, a decoding
        if warning:
            report.warnings.append({"path": entry.key, "warning": warning})
        report.note_dropped(entry.key, parsed)
        record = FileRecord(
            entry.key,
            entry.root_key,
            doc_id,
            entry.size,
            entry.mtime,
            content_hash,
            status,
            warning,
            parsed.page_count,
            parsed.dropped_pages,
        )
        self._enqueue(document, chunks, sketch, [record], previous is None, report)
        return status

    def _record_duplicate(
        self,
        entry: FileEntry,
        previous: FileRecord | None,
        owner: str,
        content_hash: str,
        reason: str,
        report: IndexReport,
    ) -> str:
        """The file holds what `owner` holds: record it as a duplicate of it; a document the file had goes
        (and the copies of that document are read again)."""
        key, root = entry.key, entry.root_key
        record = FileRecord(key, root, owner, entry.size, entry.mtime, content_hash, "duplicate", reason)
        had_document = previous is not None and previous.status in MOVABLE_STATUSES
        if had_document:
            self.chunks.replace_documents([entry.doc_id], [])
            self.sketches.forget([entry.doc_id])
        with self.catalog.write() as con:
            if had_document:
                Catalog.remove(con, [entry.doc_id], [])
                self._released += Catalog.release_duplicates(con, [entry.doc_id])
            Catalog.upsert(con, [], [record])
        report.duplicate += 1
        return "duplicate"

    def _record_failure(
        self, entry: FileEntry, doc_id: str, content_hash: str, reason: str, report: IndexReport
    ) -> str:
        record = FileRecord(entry.key, entry.root_key, doc_id, entry.size, entry.mtime, content_hash, "failed", reason)
        self.chunks.replace_documents([doc_id], [])
        self.sketches.forget([doc_id])
        with self.catalog.write() as con:
            Catalog.remove(con, [doc_id], [])
            self._released += Catalog.release_duplicates(con, [doc_id])  # its copies hold what it lost
            Catalog.upsert(con, [], [record])
        report.fail(entry.key, reason)
        return "failed"

    def flush(self, report: IndexReport) -> None:
        """Embed and write everything pending: LanceDB first, then the catalog commit."""
        if not self._pending:
            return
        all_chunks = [c for p in self._pending for c in p.chunks]
        titles = {p.document.doc_id: p.document.title for p in self._pending}
        vectors = self.embedder.embed_passages([embedding_text(titles[c.doc_id], c.text) for c in all_chunks])
        rows = []
        offset = 0
        for item in self._pending:
            count = len(item.chunks)
            rows.extend(chunk_rows(item.document, item.chunks, vectors[offset : offset + count]))
            offset += count
        self.chunks.replace_documents([p.document.doc_id for p in self._pending], rows)
        with self.catalog.write() as con:
            # a folder document whose file changed no longer vouches for its copies: they are read again
            changed = [p.document.doc_id for p in self._pending if not p.is_new and p.document.source == "folder"]
            self._released += Catalog.release_duplicates(con, changed)
            Catalog.upsert(
                con,
                [(p.document, len(p.chunks)) for p in self._pending],
                [r for p in self._pending for r in p.records],
            )
            folder_docs = [p.document.doc_id for p in self._pending if p.document.source == "folder"]
            Catalog.set_metadata_rules(con, folder_docs, METADATA_RULES_VERSION)
            Catalog.put_sketches(con, [(p.document.doc_id, p.sketch) for p in self._pending], SKETCH_VERSION)
        for item in self._pending:
            if item.records and all(r.status == "no-text" for r in item.records):
                report.no_text += 1
            if item.is_new:
                report.added += 1
            else:
                report.updated += 1
        report.chunks += len(all_chunks)
        self._pending = []
        self._pending_chunks = 0

    def _move(self, record: FileRecord, entry: FileEntry, report: IndexReport) -> bool:
        """Move a document to its file's new path without re-embedding; False if it must be re-indexed."""
        if not move_document(self.catalog, self.chunks, record, entry):
            return False
        self.sketches.rename(record.doc_id, entry.doc_id)
        report.moved += 1
        report.moves.append({"from": record.path, "to": entry.key, "doc_id": entry.doc_id})
        return True

    def _remove(self, gone: Sequence[FileRecord], report: IndexReport) -> None:
        """Drop files that disappeared; a duplicate of a removed original is re-indexed next."""
        owned = sorted({r.doc_id for r in gone if r.status != "duplicate"})
        self.drop_documents(owned, [r.path for r in gone])
        report.removed += len(gone)

    def drop_documents(self, doc_ids: Sequence[str], paths: Sequence[str]) -> None:
        """Remove documents (index first, then catalog) and file records; free their duplicates."""
        self.chunks.replace_documents(doc_ids, [])
        self.catalog.drop_documents(doc_ids, paths)
        self.sketches.forget(doc_ids)
