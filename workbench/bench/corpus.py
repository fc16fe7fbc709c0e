"""Corpus accounting: index real libraries and folders and check that nothing was lost silently.

Each source (a Zotero data dir or a folder) is indexed into a fresh temporary home. Then,
independently of the ingest code's own judgement, every PDF the source recorded is opened
with PDFium and its pages with extractable text (non-empty text layer) are counted. A page
with text is accounted for when a chunk of its document spans it (indexed) or when the
catalog records it as dropped with a reason; anything else is `unaccounted` (lost silently).

Besides pages: files by state, no-text files by reason, failures by reason, tracebacks (an
exception that escaped the index run, or one a parser turned into a "could not parse file:
SomeError" failure: both are bugs, never bad input), a source's own one-line error where it
cannot be read at all (`source_error`: "not a Zotero data directory: …", bad input, no bug),
and for each paper with a labelled title (Zotero's own title; `labels.json` / `MANIFEST.tsv` in
a folder) whether a keyword (FTS) search for that title, in its own script, finds the paper in
the top 10 (papers that share one title, a handbook's chapters, each get one more place per
other paper with it).
"""

from __future__ import annotations

import re
import sys
import tempfile
import time
import traceback
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from workbench.bench.ingest import peak_rss_mb
from workbench.engine.engine import Engine
from workbench.errors import WorkbenchError, one_line
from workbench.ingest.parse import begins_as_pdf
from workbench.ingest.pipeline import Progress
from workbench.llm.embed import Embedder
from workbench.settings.config import Settings
from workbench.stores.catalog import FileRecord
from workbench.text.safe import valid_text

FTS_TOP = 10  # a title query finds its paper when the paper is among this many results
NOT_INDEXED_SECTIONS = frozenset({"title", "note", "annotation"})  # not page text of an attachment
_HIDDEN_EXCEPTION = re.compile(r"could not parse file: (\w+(?:Error|Exception))\b")


class ZeroVectors(Embedder):
    """The real tokenizer (chunk sizes stay exact) with zero vectors: nothing this benchmark measures uses them."""

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        """A zero vector per passage, at once."""
        return np.zeros((len(texts), self.dimension), dtype=np.float32)


def bench_corpus(
    settings: Settings, zotero_dirs: list[Path], folders: list[Path], vectors: bool = True
) -> dict[str, Any]:
    """Index each source into a fresh home and account for every file, page and title.

    `vectors=False` stores zero vectors instead of embedding (pages, reasons, tracebacks and
    keyword search do not depend on them; on two busy cores embedding is most of the time).
    """
    sources = [("zotero", d) for d in zotero_dirs] + [("folder", d) for d in folders]
    results = [_one_source(settings, kind, path, vectors) for kind, path in sources]
    return {"sources": results, "total": _total(results), "fts_top": FTS_TOP, "vectors": vectors}


def _one_source(settings: Settings, kind: str, path: Path, vectors: bool) -> dict[str, Any]:
    path = path.expanduser().resolve()
    with tempfile.TemporaryDirectory(prefix="workbench-corpus-") as tmp:
        fresh = replace(settings, storage=replace(settings.storage, data_dir=tmp, lancedb_uri=""))
        if not vectors:  # no ANN index over placeholder zero vectors: LanceDB cannot train one on them
            fresh = replace(fresh, index=replace(fresh.index, vector_index_min_rows=sys.maxsize))
        engine = Engine(fresh)
        if not vectors:
            emb = fresh.embedding
            engine.__dict__["_embedder"] = ZeroVectors(emb.model, engine.paths.models_dir, emb.batch_size, emb.threads)
        tracebacks: list[dict[str, str]] = []
        source_error = ""
        same_text_items = ocr_read = ocr_cached = 0
        started = time.perf_counter()
        finished: dict[str, float] = {}  # when each file (item) was read, from the run's start

        def read(done: Progress) -> None:
            finished[done.path] = time.perf_counter() - started

        try:
            if kind == "zotero":
                report = engine.index_zotero(path, progress=read)
            else:
                report = engine.index_folders([path], progress=read)
            same_text_items = sum("a duplicate item?" in w["warning"] for w in report.warnings)
            ocr_read, ocr_cached = report.ocr_pages, report.ocr_pages_cached
        except WorkbenchError as exc:  # bad input, told in one line ("not a Zotero data directory")
            source_error = one_line(exc)
        except Exception as exc:  # the benchmark records a crash instead of dying of it
            frame = traceback.extract_tb(exc.__traceback__)[-1] if exc.__traceback__ else None
            where = f"{Path(frame.filename).name}:{frame.lineno}" if frame else ""
            tracebacks.append({"source": str(path), "error": f"{type(exc).__name__}: {exc}"[:300], "at": where})
        seconds = time.perf_counter() - started
        root = f"zotero:{path}" if kind == "zotero" else valid_text(str(path))
        records = engine.internals().catalog.files_under([root])
        result = _account(engine, records, tracebacks)
        result["fts_titles"] = _fts_titles(engine, kind, path, records)
        result["source_error"] = source_error
        result["zotero_items_with_the_same_text"] = same_text_items
        result["ocr_pages"] = {"read": ocr_read, "from_cache": ocr_cached}
        result["seconds_until_text_files_read"] = _until_text_read(records, finished)
    result.update({"kind": kind, "source": str(path), "seconds": round(seconds, 2), "peak_rss_mb": peak_rss_mb()})
    return result


def _until_text_read(records: dict[str, FileRecord], finished: dict[str, float]) -> float:
    """Seconds from the run's start until the last file (Zotero item) OCR did not read was read:
    how long a first index keeps text papers waiting (scans are read last, `ingest.scanned`)."""
    by_ocr = {key for path, r in records.items() if "read by OCR" in r.error for key in (path, r.doc_id)}
    return round(max((t for key, t in finished.items() if key not in by_ocr), default=0.0), 2)


def _account(engine: Engine, records: dict[str, FileRecord], tracebacks: list[dict[str, str]]) -> dict[str, Any]:
    """Files by state and reason, pages with text vs indexed vs dropped, tracebacks."""
    statuses = Counter(r.status for r in records.values())
    no_text = Counter(r.error or "(no reason given)" for r in records.values() if r.status == "no-text")
    failed = Counter(_reason_class(r.error) for r in records.values() if r.status == "failed")
    duplicates = Counter(_duplicate_class(r.error) for r in records.values() if r.status == "duplicate")
    for record in records.values():
        hidden = _HIDDEN_EXCEPTION.search(record.error) if record.status == "failed" else None
        if hidden:
            tracebacks.append({"source": record.path, "error": record.error[:300], "at": "parser"})
    recorded = engine.internals().catalog.file_pages(list(records))
    doc_pages: dict[str, set[int]] = {}
    pages = {"pdf_files": 0, "pages": 0, "with_text": 0, "indexed": 0, "dropped": 0, "unaccounted": 0}
    pages["indexed_without_text_layer"] = 0  # read by OCR (`index.ocr`)
    dropped_by_reason: Counter[str] = Counter()
    unaccounted_files: list[dict[str, Any]] = []
    for path, record in sorted(records.items()):
        if record.status not in ("indexed", "no-text") or not begins_as_pdf(path):
            continue
        text_pages, page_count = _pages_with_text(Path(path))
        if record.doc_id not in doc_pages:
            doc_pages[record.doc_id] = _chunk_pages(engine, record.doc_id)
        indexed = doc_pages[record.doc_id] & text_pages
        dropped = {page: reason for page, reason in recorded.get(path, (0, ()))[1]}
        for reason in dropped.values():
            dropped_by_reason[_reason_class(reason)] += 1
        lost = sorted(text_pages - indexed - set(dropped))
        pages["pdf_files"] += 1
        pages["pages"] += page_count
        pages["with_text"] += len(text_pages)
        pages["indexed"] += len(indexed)
        pages["indexed_without_text_layer"] += len(
            {p for p in doc_pages[record.doc_id] if p <= page_count} - text_pages
        )
        pages["dropped"] += len(dropped)
        pages["unaccounted"] += len(lost)
        if lost:
            entry = {"path": path, "status": record.status, "pages_with_text": len(text_pages)}
            unaccounted_files.append({**entry, "unaccounted": len(lost), "pages": lost[:12]})
    return {
        "files": len(records),
        "files_by_status": dict(sorted(statuses.items())),
        "no_text_by_reason": dict(no_text.most_common()),
        "failed_by_reason": dict(failed.most_common()),
        "duplicates_by_reason": dict(duplicates.most_common()),
        "pages": pages,
        "pages_dropped_by_reason": dict(dropped_by_reason.most_common()),
        "unaccounted_files": unaccounted_files,
        "tracebacks": len(tracebacks),
        "traceback_list": tracebacks,
    }


def _duplicate_class(reason: str) -> str:
    """A duplicate's reason as a class: the same bytes or the same text, of another document or of
    another attachment of the same Zotero item."""
    kind = "same text" if reason.startswith("same text") else "same content"
    return f"{kind}, within an item" if "an attachment of the same item" in reason else kind


def _reason_class(reason: str) -> str:
    """A reason without the per-file detail (numbers, paths), so reasons can be counted."""
    text = re.sub(r"\d+", "N", reason.split(";")[0])
    return text[:120] or "(no reason given)"


def _pages_with_text(path: Path) -> tuple[set[int], int]:
    """1-based pages whose PDFium text layer is not empty, and the page count (0 when unreadable)."""
    import pypdfium2 as pdfium

    try:
        pdf = pdfium.PdfDocument(str(path))
    except Exception:  # an unreadable PDF has no pages with text
        return set(), 0
    found: set[int] = set()
    try:
        for index in range(len(pdf)):
            try:
                page = pdf[index]
                textpage = page.get_textpage()
                text = str(textpage.get_text_bounded())
                textpage.close()
                page.close()
            except Exception:  # a page PDFium cannot read has no text to lose
                continue
            if text.strip():
                found.add(index + 1)
        return found, len(pdf)
    finally:
        pdf.close()


def _chunk_pages(engine: Engine, doc_id: str) -> set[int]:
    """Pages that some chunk of the document's attachment text spans."""
    pages: set[int] = set()
    for row in engine.internals().chunks.document_chunks(doc_id):
        if row["section"] in NOT_INDEXED_SECTIONS:
            continue
        pages.update(range(int(row["page_start"]), int(row["page_end"]) + 1))
    return pages


def _labelled_titles(kind: str, path: Path, records: dict[str, FileRecord]) -> list[tuple[str, str]]:
    """(doc id, labelled title) pairs: Zotero's own titles, or a folder's labels file."""
    from workbench.bench.metadata_labels import load_labels

    if kind == "zotero":
        return []  # read from the catalog by the caller (Zotero titles are the documents' titles)
    labels_file = next((path / name for name in ("labels.json", "MANIFEST.tsv") if (path / name).is_file()), None)
    if labels_file is None:
        return []
    by_path = {valid_text(str(path / label.path)): label for label in load_labels(labels_file)}
    pairs: list[tuple[str, str]] = []
    for file_path, record in sorted(records.items()):
        label = by_path.get(file_path)
        if label is None or not label.text_layer or label.kind == "other" or record.status == "duplicate":
            continue
        pairs.append((record.doc_id, label.title))
    return pairs


def _fts_titles(engine: Engine, kind: str, path: Path, records: dict[str, FileRecord]) -> dict[str, Any]:
    """Keyword search for each paper's labelled title: found in the top FTS_TOP, or a miss."""
    from workbench.bench.metadata import title_overlap, title_words

    if kind == "zotero":
        doc_ids = sorted({r.doc_id for r in records.values()} | _zotero_docs(engine))
        pairs = [(d, _indexed_title(engine, d)) for d in doc_ids]
        pairs = [(d, t) for d, t in pairs if t]
    else:
        pairs = _labelled_titles(kind, path, records)
    misses: list[dict[str, Any]] = []
    # Papers that share their title (a handbook's chapters) are looked for among the others: the
    # top FTS_TOP results plus one place for each other paper with that title.
    sharing = Counter(" ".join(title_words(title)) for _, title in pairs)
    for doc_id, title in pairs:
        try:
            limit = FTS_TOP + sharing[" ".join(title_words(title))] - 1
            hits = engine.search(title, mode="fts", limit=limit).hits
        except Exception as exc:  # a search that fails is a miss, with its error
            misses.append({"doc_id": doc_id, "title": title, "error": f"{type(exc).__name__}: {exc}"[:200]})
            continue
        ranked = [h.doc_id for h in hits]
        if doc_id not in ranked:
            found_title = _indexed_title(engine, doc_id)
            differs = title_overlap(title, found_title) < 0.8
            misses.append({"doc_id": doc_id, "title": title, "indexed_title": found_title, "title_differs": differs})
    return {"found": len(pairs) - len(misses), "total": len(pairs), "misses": misses}


def _indexed_title(engine: Engine, doc_id: str) -> str:
    """The title the catalog holds for a paper ("" when it holds none, or not the paper)."""
    doc = engine.internals().catalog.document(doc_id)
    return doc.title if doc else ""


def _zotero_docs(engine: Engine) -> set[str]:
    return {d for d in engine.internals().catalog.doc_ids() if d.startswith("zotero:")}


def _total(results: list[dict[str, Any]]) -> dict[str, Any]:
    total: dict[str, Any] = {
        "files": sum(r["files"] for r in results),
        "tracebacks": sum(r["tracebacks"] for r in results),
        "source_errors": sum(bool(r["source_error"]) for r in results),
        "seconds": round(sum(r["seconds"] for r in results), 2),
        "peak_rss_mb": max((r["peak_rss_mb"] for r in results), default=0.0),
    }
    total["zotero_items_with_the_same_text"] = sum(r["zotero_items_with_the_same_text"] for r in results)
    keys = ("files_by_status", "no_text_by_reason", "failed_by_reason", "duplicates_by_reason", "pages")
    for key in (*keys, "pages_dropped_by_reason", "ocr_pages"):
        merged: Counter[str] = Counter()
        for r in results:
            merged.update(r[key])
        total[key] = dict(merged.most_common()) if key not in ("pages", "ocr_pages") else dict(merged)
    for kind in ("zotero", "folder"):
        found = sum(r["fts_titles"]["found"] for r in results if r["kind"] == kind)
        count = sum(r["fts_titles"]["total"] for r in results if r["kind"] == kind)
        total[f"fts_titles_{kind}"] = {"found": found, "total": count}
    return total
