"""What an index run reports: counts, failures, warnings and the pages it left out, per file.

Kept apart from the pipeline so the report's shape (the `index --json` object documented in
README) reads in one place.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from workbench.ingest.pdf import NO_TEXT_LAYER
from workbench.ingest.pdf_metadata import GARBLED_WARNING
from workbench.records import ParsedDocument


@dataclass
class IndexReport:
    """What an index run did, for the CLI summary and `--json`."""

    added: int = 0
    updated: int = 0
    removed: int = 0
    unchanged: int = 0
    failed: int = 0
    no_text: int = 0
    duplicate: int = 0
    chunks: int = 0
    seconds: float = 0.0
    cancelled: bool = False
    failures: list[dict[str, str]] = field(default_factory=list)
    moved: int = 0
    moves: list[dict[str, str]] = field(default_factory=list)
    warnings: list[dict[str, str]] = field(default_factory=list)  # indexed, with a caveat (e.g. decoding)
    # Files with pages left out of the index: {path, pages (1-based), reasons {reason: pages}}.
    dropped_pages: list[dict[str, object]] = field(default_factory=list)

    def note_dropped(self, path: str, parsed: ParsedDocument) -> None:
        """List the pages of one file that were left out with text on them (garbled, too little text, ...).

        Pages without any text layer are counted in the file's record but not listed: a figure
        or a blank page loses nothing.
        """
        lost = [(page, reason) for page, reason in parsed.dropped_pages if reason != NO_TEXT_LAYER]
        if lost:
            reasons: dict[str, int] = {}
            for _, reason in lost:
                reasons[reason] = reasons.get(reason, 0) + 1
            self.dropped_pages.append({"path": path, "pages": [p for p, _ in lost], "reasons": reasons})

    def note_unread(self, unread: Mapping[str, int]) -> None:
        """Say how many documents of types not read a folder run passed over, by suffix."""
        if unread:
            kinds = ", ".join(
                f"{suffix} {count}" for suffix, count in sorted(unread.items(), key=lambda x: (-x[1], x[0]))
            )
            total = sum(unread.values())
            self.notes.append(
                f"not read: {total} document{'s' if total != 1 else ''} of types not read here ({kinds}); "
                "PDF, EPUB, Word (.docx), OpenDocument (.odt), HTML, Markdown and text files are"
            )

    def fail(self, path: str, error: str) -> None:
        """Count and list one failure (so `failed` always equals the failures listed)."""
        self.failed += 1
        self.failures.append({"path": path, "error": error})

    metadata_refreshed: int = 0  # unchanged files whose metadata newer rules re-derived (no re-embedding)
    ocr_pages: int = 0  # scanned pages Tesseract read this run
    ocr_pages_cached: int = 0  # scanned pages whose reading came from OCR's cache
    notes: list[str] = field(default_factory=list)  # about the index as a whole (older chunks without page offsets)


def file_note(parsed: ParsedDocument) -> str:
    """A file record's note: why it has no text (always, for a no-text file), then its warnings."""
    reason = parsed.no_text_reason or ("" if parsed.has_text else "no usable text")
    # The page reasons already say how many pages are garbled; the parser's own count would repeat it.
    warnings = [w for w in parsed.warnings if not (reason and w.endswith(GARBLED_WARNING))]
    return "; ".join(part for part in (reason, *warnings) if part)
