"""Zotero → index: turn changed items into documents and keep the index in step with the library.

Each regular item becomes one document (`zotero:<libraryID>:<key>`) whose chunks come from
its abstract, the text of its PDF and HTML attachments, its notes (section `note`) and its
annotations (section `annotation`, with page labels). Standalone attachments are documents
of their own. Attachment files are catalogued in `files` under the root `zotero:<data dir>`,
so a file replaced on disk is noticed by size/mtime and content hash like any folder file.

Order of writes (crash safety): documents are written through the indexer (LanceDB, then the
catalog), deletions likewise, and the library's watermarks are stored last. A crash before
that leaves the old watermarks, so the next run re-reads and re-writes the same items,
which the delete-then-add writes make harmless.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path, PureWindowsPath

from workbench.ingest.index_report import IndexReport, file_note
from workbench.ingest.parse import MAX_FILE_BYTES, parser_for
from workbench.ingest.parse_error import ParseError
from workbench.ingest.pdf import parse_extracted_pages
from workbench.ingest.pipeline import Indexer, Progress
from workbench.ingest.regular_file import hash_regular, read_regular
from workbench.ingest.scanned import PUT_OFF, ingest_scans_last
from workbench.ingest.text_sketch import NOT_THE_FILES, SAME_TEXT, SameText, resemblance, text_sketch
from workbench.records import Document, ParsedDocument, Section
from workbench.sources.zotero import Watermark, ZoteroItem, read_library
from workbench.sources.zotero_records import ZoteroAttachment
from workbench.stores.catalog import Catalog, FileRecord

AUTHOR_TYPES = ("author", "inventor", "programmer", "artist", "director", "presenter")


def zotero_root(data_dir: Path) -> str:
    """The `files.root` value for a Zotero data dir's attachment files."""
    return f"zotero:{data_dir.resolve()}"


def collection_labels(paths: tuple[str, ...]) -> tuple[str, ...]:
    """Filter values for nested collections: each full path, every ancestor path and the leaf.

    So `collection=Computer Science` matches items of `Computer Science/Distributed Systems`
    (as Zotero's "show items from subcollections" does) and the leaf name works alone.
    """
    labels: list[str] = []
    for path in paths:
        parts = path.split("/")
        labels.extend("/".join(parts[: i + 1]) for i in range(len(parts)))
        labels.append(parts[-1])
    return tuple(dict.fromkeys(labels))


def item_authors(item: ZoteroItem) -> tuple[str, ...]:
    """Creators who are authors (in order); editors only when there are no authors."""
    authors = tuple(c.display for c in item.creators if c.creator_type in AUTHOR_TYPES)
    return authors or tuple(c.display for c in item.creators)


def _annotation_sections(item: ZoteroItem) -> list[Section]:
    sections = []
    for note in item.annotations:
        label = note.page_label or ""
        page = int(label) if label.isdigit() else 1
        body = " — ".join(part for part in (note.text.strip(), note.comment.strip()) if part)
        if body:
            prefix = f"[p. {label}] " if label else ""
            sections.append(Section("annotation", f"{prefix}{body}", page, page))
    return sections


def _readable_files(item: ZoteroItem) -> Iterator[tuple[Path, str | None]]:
    """The item's attachment files here that a parser reads, with their content types."""
    for attachment in item.attachments:
        path = attachment.path
        if path is not None and attachment.exists and parser_for(path, attachment.content_type) is not None:
            yield path, attachment.content_type


def _name(raw: str) -> str:
    """The file name of a stored path in either convention (`C:\\x\\a.pdf`, `/x/a.pdf`, `storage:a.pdf`)."""
    return PureWindowsPath(raw.removeprefix("storage:").removeprefix("attachments:")).name


def _copy_of(
    parsed: ParsedDocument, content_hash: str, earlier: list[FileRecord], sketches: dict[str, bytes] | None, path: str
) -> str | None:
    """Why an attachment is a copy of one its item had already (same bytes, or same text), or None;
    a sketch of its text is kept in `sketches` for the attachments after it (None: it has none)."""
    for record in earlier:
        if record.content_hash == content_hash and record.status in ("indexed", "no-text"):
            return f"same content as {record.path}, an attachment of the same item"
    if sketches is None:
        return None
    sketch = text_sketch(s.text for s in parsed.sections if s.name not in NOT_THE_FILES)
    if sketch is None:
        return None
    for other, known in sketches.items():
        score = resemblance(sketch, known)
        if score >= SAME_TEXT:
            return f"same text as {other}, an attachment of the same item, resemblance {score:.2f}"
    sketches[path] = sketch
    return None


FULLTEXT_CACHE = ".zotero-ft-cache"  # Zotero's text of an attachment, beside its file
_NOT_HERE = "the attachment's file is not on this machine: its text is Zotero's full-text cache"
_NOT_READ = "{} is not a type read here: its text is Zotero's full-text cache"
_UNREADABLE = "the attachment's file could not be read ({}): its text is Zotero's full-text cache"


class ZoteroSync:
    """One sync run of one Zotero data dir through an indexer."""

    def __init__(self, indexer: Indexer, data_dir: Path, linked_base: Path | None = None) -> None:
        self.indexer = indexer
        self.catalog: Catalog = indexer.catalog
        self.data_dir = data_dir.expanduser().resolve()
        self.root = zotero_root(self.data_dir)
        self.linked_base = linked_base
        self._folder_copies: list[tuple[str, str, SameText]] = []  # (folder doc, Zotero item, match)

    def run(
        self,
        progress: Callable[[Progress], None] | None = None,
        cancelled: Callable[[], bool] | None = None,
    ) -> IndexReport:
        """Index what changed since the stored watermarks; remove trashed and deleted items."""
        with self.indexer.run():
            return self._run(progress, cancelled)

    def _run(self, progress: Callable[[Progress], None] | None, cancelled: Callable[[], bool] | None) -> IndexReport:
        started = time.perf_counter()
        report = IndexReport()
        since = self._load_watermarks()
        result = read_library(self.data_dir, since=since or None, linked_base=self.linked_base)
        report.warnings.extend({"path": str(self.data_dir), "warning": w} for w in result.warnings)
        known_files = self.catalog.files_under([self.root])
        known_docs = self._known_docs()
        live = {f"zotero:{lib}:{key}" for lib, keys in result.live_keys.items() for key in keys}
        gone = sorted(known_docs - live)
        if gone:
            paths = [p for p, r in known_files.items() if r.doc_id in gone]
            self.indexer.drop_documents(gone, paths)
            report.removed += len(gone)
        changed = {item.doc_id: item for item in result.items}
        self.indexer.scans.note_problem(report)
        stale = self._items_with_changed_files(known_files, set(changed), live)
        if stale:
            full = read_library(self.data_dir, linked_base=self.linked_base)
            changed.update({i.doc_id: i for i in full.items if i.doc_id in stale})
        report.unchanged = len(live) - len(changed)
        scans = self.indexer.scans

        def ingest(item: ZoteroItem) -> str:
            if scans.first_pass and any(scans.puts_off(path, kind) for path, kind in _readable_files(item)):
                return PUT_OFF
            return self._ingest_item(item, known_docs, known_files, report)

        def done(number: int, item: ZoteroItem, status: str) -> None:
            if progress is not None:
                progress(Progress(number, len(changed), item.doc_id, status))

        flush = partial(self.indexer.flush, report)
        report.cancelled = ingest_scans_last(list(changed.values()), scans, ingest, flush, cancelled, done)
        self.indexer.flush(report)
        self._claim_folder_duplicates(report)
        self.indexer.read_released(report)
        if not report.cancelled and result.watermarks != since:
            self._store_watermarks(result.watermarks)
        self.indexer.finish(report, reconcile=not report.cancelled)
        report.seconds = round(time.perf_counter() - started, 3)
        return report

    def _known_docs(self) -> set[str]:
        return self.catalog.zotero_doc_ids(self.root)

    def _items_with_changed_files(self, known: dict[str, FileRecord], changed: set[str], live: set[str]) -> set[str]:
        """Documents whose attachment file was replaced or removed on disk since the last run, or
        whose scanned pages OCR would read now (`ScanReading.waiting`)."""
        unchanged = [path for path, record in known.items() if record.doc_id in live and record.doc_id not in changed]
        waiting = self.indexer.scans.waiting(unchanged, self.catalog.file_pages)
        stale = {known[path].doc_id for path in waiting}
        for path, record in known.items():
            if record.doc_id in changed or record.doc_id not in live:
                continue
            try:
                stat = Path(path).stat()
            except OSError:
                if record.status != "failed":
                    stale.add(record.doc_id)
                continue
            if stat.st_size != record.size or stat.st_mtime != record.mtime:
                stale.add(record.doc_id)  # a file that failed is read again once it changes, as in a folder
        return stale

    def _ingest_item(
        self, item: ZoteroItem, known_docs: set[str], known_files: dict[str, FileRecord], report: IndexReport
    ) -> str:
        sections: list[Section] = []
        if item.abstract.strip():
            sections.append(Section("abstract", item.abstract.strip()))
        records: list[FileRecord] = []
        hashes: list[str] = []
        # the item's attachments read so far, by path (sketched only where there is more than one)
        sketches: dict[str, bytes] | None = {} if len(item.attachments) > 1 else None
        keep_abstract = not item.abstract.strip()
        into = (records, hashes, sections)
        for attachment in item.attachments:
            path = attachment.path
            named = path if path is not None else Path(_name(attachment.raw_path))
            readable = parser_for(named, attachment.content_type) is not None
            if path is None:
                if attachment.problem and readable:
                    raw, reason = attachment.raw_path, f"file missing: {attachment.problem}"
                    records.append(FileRecord(raw, self.root, item.doc_id, 0, 0.0, "", "failed", reason))
                    report.fail(raw, f"attachment of {item.doc_id}: {reason}")
                    self._from_cache(attachment, item.doc_id, keep_abstract, into, report, _NOT_HERE)
                continue
            if not readable:
                kind = attachment.content_type or path.suffix.lower() or "a file without a suffix"
                # Zotero reads EPUBs and more: its cache of their text is read where the file is not
                if not self._from_cache(attachment, item.doc_id, keep_abstract, into, report, _NOT_READ.format(kind)):
                    note = f"not indexed: {kind} is not a type read here"
                    report.warnings.append({"path": str(path), "warning": note})
                continue
            if not attachment.exists:
                records.append(FileRecord(str(path), self.root, item.doc_id, 0, 0.0, "", "failed", "file missing"))
                report.fail(str(path), f"attachment of {item.doc_id} is missing")
                self._from_cache(attachment, item.doc_id, keep_abstract, into, report, _NOT_HERE)
                continue
            try:
                stat = path.stat()
                content_hash = hash_regular(str(path))
            except OSError as exc:  # unreadable here: zero size and time, so every run tries again
                records.append(FileRecord(str(path), self.root, item.doc_id, 0, 0.0, "", "failed", str(exc)))
                report.fail(str(path), str(exc))
                continue
            try:
                parsed = self.indexer.parse(path, attachment.content_type)
            except ParseError as exc:  # read again only once the file changes
                size, mtime, reason = stat.st_size, stat.st_mtime, str(exc)
                records.append(
                    FileRecord(str(path), self.root, item.doc_id, size, mtime, content_hash, "failed", reason)
                )
                report.fail(str(path), reason)
                self._from_cache(attachment, item.doc_id, keep_abstract, into, report, _UNREADABLE.format(reason))
                continue
            copy = _copy_of(parsed, content_hash, records, sketches, str(path))
            if copy is not None:  # the paper attached twice: its text is indexed once
                size, mtime = stat.st_size, stat.st_mtime
                records.append(
                    FileRecord(str(path), self.root, item.doc_id, size, mtime, content_hash, "duplicate", copy)
                )
                report.warnings.append({"path": str(path), "warning": copy})
                report.duplicate += 1
                continue
            hashes.append(content_hash)
            status = "indexed" if parsed.has_text else "no-text"
            note = file_note(parsed)
            if note:
                report.warnings.append({"path": str(path), "warning": note})
            report.note_dropped(str(path), parsed)
            records.append(
                FileRecord(
                    str(path),
                    self.root,
                    item.doc_id,
                    stat.st_size,
                    stat.st_mtime,
                    content_hash,
                    status,
                    note,
                    parsed.page_count,
                    parsed.dropped_pages,
                )
            )
            sections.extend(s for s in parsed.sections if keep_abstract or s.name != "abstract")
        sections.extend(Section("note", note.text) for note in item.notes if note.text.strip())
        sections.extend(_annotation_sections(item))
        if not any(s.text.strip() for s in sections):
            header = "; ".join(p for p in (item.title, ", ".join(item_authors(item)), item.venue or "") if p)
            sections.append(Section("title", header or item.key))
        document = self._document(item, hashes)
        same = self.indexer.queue(document, sections, records, item.doc_id not in known_docs, report)
        if same is not None and same.doc_id.startswith("zotero:"):
            # Two items of the user's are both kept: which one is the paper is the user's call
            note = f"same text as {same.doc_id}, resemblance {same.resemblance:.2f}: a duplicate item?"
            report.warnings.append({"path": item.doc_id, "warning": note + " Zotero can merge them"})
        elif same is not None:
            self._folder_copies.append((same.doc_id, item.doc_id, same))
        before = {r.content_hash for r in known_files.values() if r.doc_id == item.doc_id and r.status == "indexed"}
        if before - set(hashes):  # the item no longer holds what its folder copies held: they are read again
            with self.catalog.write() as con:
                self.indexer.release(Catalog.release_duplicates(con, [item.doc_id]))
        stale_paths = [
            p for p, r in known_files.items() if r.doc_id == item.doc_id and p not in {x.path for x in records}
        ]
        if stale_paths:
            with self.catalog.write() as con:
                Catalog.remove(con, [], stale_paths)
        return "indexed" if hashes or not item.attachments else "metadata"

    def _from_cache(
        self,
        attachment: ZoteroAttachment,
        doc_id: str,
        keep_abstract: bool,
        into: tuple[list[FileRecord], list[str], list[Section]],
        report: IndexReport,
        note: str,
    ) -> bool:
        """Index an attachment's text from Zotero's full-text cache where Zotero left one, and say
        whether it did; `note` is the cache record's note (why the file itself is not read).

        Zotero keeps the text it extracted from each attachment, page by page, in
        `storage/<key>/.zotero-ft-cache`, for linked files too: a library copied without its PDFs,
        or a linked file on another machine's path, still has its papers' text, and so has an
        EPUB, which Zotero reads and the workbench does not. The cache is a file record of its
        own beside the missing file's (which stays `failed`, so the file is read again once it is
        back).
        """
        cache = self.data_dir / "storage" / attachment.item_key / FULLTEXT_CACHE
        try:
            data = read_regular(cache, MAX_FILE_BYTES)
            content_hash = hashlib.sha256(data).hexdigest()
            stat = cache.stat()
        except OSError:
            return False
        pages = data.decode("utf-8", errors="replace").split("\f")
        if len(pages) > 1 and not pages[-1].strip():
            pages.pop()  # the form feed that ends the last page
        parsed = parse_extracted_pages(cache, pages)
        if not parsed.has_text:
            return False
        records, hashes, sections = into
        records.append(
            FileRecord(
                str(cache), self.root, doc_id, stat.st_size, stat.st_mtime, content_hash, "indexed", note,
                parsed.page_count, parsed.dropped_pages,
            )
        )  # fmt: skip
        hashes.append(content_hash)
        sections.extend(s for s in parsed.sections if keep_abstract or s.name != "abstract")
        report.warnings.append({"path": str(cache), "warning": note})
        report.note_dropped(str(cache), parsed)
        return True

    def _document(self, item: ZoteroItem, hashes: list[str]) -> Document:
        digest = hashlib.sha256(
            json.dumps([item.version, item.date_modified, sorted(hashes)], sort_keys=True).encode()
        ).hexdigest()
        return Document(
            doc_id=item.doc_id,
            title=item.title or item.key,
            source="zotero",
            authors=item_authors(item),
            year=item.year,
            venue=item.venue,
            doi=item.doi,
            abstract=item.abstract,
            item_type=item.item_type,
            tags=item.tags,
            collections=collection_labels(item.collections),
            citekey=item.citekey,
            folder=self.root,
            paths=tuple(str(a.path) for a in item.attachments if a.path is not None),
            content_hash=digest,
        )

    def _claim_folder_duplicates(self, report: IndexReport) -> None:
        """A folder file with the same bytes as a Zotero attachment, or the same text as a Zotero
        item, yields to the Zotero item (whose metadata is the user's own)."""
        claimed = set()
        for path, folder_doc, owner in self.catalog.folder_copies_of(self.root):
            self.indexer.chunks.replace_documents([folder_doc], [])
            self.catalog.yield_to(path, folder_doc, owner, f"same content as {owner}")
            claimed.add(folder_doc)
        for folder_doc, owner, same in self._folder_copies:
            if folder_doc in claimed:
                continue
            reason = SameText(owner, same.resemblance).reason()
            self.indexer.chunks.replace_documents([folder_doc], [])
            self.indexer.sketches.forget([folder_doc])
            self.catalog.yield_to(None, folder_doc, owner, reason)
            report.warnings.append({"path": folder_doc, "warning": f"yields to {owner}: {reason}"})
        self._folder_copies.clear()

    def _load_watermarks(self) -> dict[int, Watermark]:
        stored = self.catalog.zotero_watermarks(str(self.data_dir))
        return {lib: Watermark.from_dict(json.loads(mark)) for lib, mark in stored.items()}

    def _store_watermarks(self, marks: dict[int, Watermark]) -> None:
        self.catalog.set_zotero_watermarks(
            str(self.data_dir), {lib: json.dumps(mark.to_dict()) for lib, mark in marks.items()}
        )
