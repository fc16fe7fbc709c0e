"""Scanned files in an index run: which files OCR should read again, and which wait for the end.

**Read again.** A home indexed before OCR (or while it could not run, or with `index.ocr` off)
recorded its scans as `no-text` and its garbled pages as left out, each page with its reason.
Once OCR can run, a file whose recorded pages OCR would read (`pdf.ocr_can_read`) is read again
though it has not changed, if they are worth its whole text's embedding again: a quarter of its
pages or more (a scan), or any garbled page (whose ink is text a broken font hid); not a text
paper's blank page.

**Read last.** OCR costs seconds a page, so a large library's first index would spend hours on
its scans while the text papers queued behind them waited. In a run's first pass a PDF is read
without OCR first; a file OCR would read by the same rule (or one with no usable text at all)
is put off to a second pass after every other file is indexed and committed, and indexed then,
once, with OCR. A PDF whose few pages OCR reads (a figure without a text layer) is read with OCR
at once, and every other file's first reading is the one indexed: nothing is parsed twice but the
files OCR reads, and every file ends as a single pass with OCR would leave it. A run stopped in
the second pass leaves the files put off unwritten, so the next run reads them.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TypeVar

from workbench.ingest.index_report import IndexReport
from workbench.ingest.ocr import PageReader
from workbench.ingest.parse import begins_as_pdf, parse_file
from workbench.ingest.parse_error import ParseError
from workbench.ingest.pdf import GARBLED_LAYER, ocr_can_read
from workbench.records import ParsedDocument

OCR_REREAD_SHARE = 0.25
PUT_OFF = "put off"  # what an ingest step answers for a file (or item) it leaves to the second pass

T = TypeVar("T")
Recorded = tuple[int, Sequence[tuple[int, str]]]  # a file's page count and its pages left out, with reasons


def worth_ocr(path: str, page_count: int, dropped: Sequence[tuple[int, str]]) -> bool:
    """Whether the file at `path`, recorded with these pages left out, is read again for OCR."""
    readable = [reason for _, reason in dropped if ocr_can_read(reason)]
    if not readable:
        return False
    garbled = any(reason.startswith(GARBLED_LAYER) for reason in readable)
    # the file must still be a PDF here: a record of the text Zotero cached for a missing file is not
    return (len(readable) >= OCR_REREAD_SHARE * page_count or garbled) and begins_as_pdf(path)


class ScanReading:
    """One index run's OCR: its reader (None when `index.ocr` is off), and its first pass, in
    which scans are put off (`puts_off`) until every other file is read."""

    def __init__(self, reader: PageReader | None) -> None:
        self.reader = reader
        self.first_pass = False  # set by a run around the files it may put off
        self._read_early: dict[Path, ParsedDocument] = {}

    @property
    def problem(self) -> str | None:
        """Why OCR is on and cannot run, or None."""
        return self.reader.problem if self.reader is not None else None

    def parse(self, path: Path, content_type: str | None = None) -> ParsedDocument:
        """Parse one file as this index reads files (OCR for scanned pages when it can run)."""
        early = self._read_early.pop(path, None)
        return early if early is not None else parse_file(path, content_type, self.reader)

    def puts_off(self, path: Path, content_type: str | None = None) -> bool:
        """In the first pass: whether this file is a scan OCR reads in the second. A file it is
        not is parsed here once, and that reading is what the next `parse` of it returns."""
        if not self.first_pass or self.reader is None or self.problem:
            return False
        try:
            probe = parse_file(path, content_type)
        except ParseError:  # the real reading raises it again and records it
            return False
        readable = [(page, reason) for page, reason in probe.dropped_pages if ocr_can_read(reason)]
        if probe.kind != "pdf" or not (readable or not probe.has_text):
            self._read_early[path] = probe  # nothing OCR would read: this reading is final
            return False
        return not probe.has_text or worth_ocr(str(path), probe.page_count, readable)

    def end_first_pass(self) -> None:
        """The first pass is over: files read early and never parsed (a run cancelled) are let go."""
        self.first_pass = False
        self._read_early.clear()

    def waiting(self, paths: Sequence[str], file_pages: Callable[[list[str]], Mapping[str, Recorded]]) -> set[str]:
        """Of these files recorded by earlier runs, those with pages OCR would read now (a scan
        indexed before OCR, or while it could not run): they are read again. `file_pages` gives
        what the catalog recorded of each (its page count, its pages left out with reasons)."""
        if not paths or self.reader is None or self.problem:
            return set()
        return {path for path, pages in file_pages(list(paths)).items() if worth_ocr(path, *pages)}

    def note_problem(self, report: IndexReport) -> None:
        """Say once a run why OCR cannot read scanned pages, when it is on and cannot run."""
        if self.problem:
            report.notes.append(f"{self.problem}; scanned pages keep their reasons (index.ocr = false turns OCR off)")

    def tally(self, report: IndexReport) -> None:
        """Count the pages OCR read this run, and those its cache answered."""
        if self.reader is not None:
            report.ocr_pages, report.ocr_pages_cached = self.reader.pages_read, self.reader.pages_cached

    def close(self) -> None:
        """Stop OCR's worker process, if a scan started one."""
        self.end_first_pass()
        if self.reader is not None:
            self.reader.close()


def ingest_scans_last(
    items: Sequence[T],
    scans: ScanReading,
    ingest: Callable[[T], str],
    flush: Callable[[], None],
    cancelled: Callable[[], bool] | None,
    done: Callable[[int, T, str], None],
) -> bool:
    """Ingest each item (a file, a Zotero item) in the run's first pass; one that `ingest` answers
    `PUT_OFF` for is ingested again after every other, once the first pass's writes are flushed
    (searchable while OCR reads). `done` hears each item ingested with its count and status.
    Returns whether `cancelled` stopped the run (asked before each item)."""
    queue: deque[T | None] = deque([*items, None])  # None: the end of the first pass
    count = 0
    scans.first_pass = True
    try:
        while queue:
            item = queue.popleft()
            if item is None:
                scans.end_first_pass()
                flush()
                continue
            if cancelled is not None and cancelled():
                return True
            status = ingest(item)
            if status == PUT_OFF:
                queue.append(item)
                continue
            count += 1
            done(count, item, status)
        return False
    finally:
        scans.end_first_pass()
