"""PDF parsing with PDFium: page text, the title page's layout, and the info dictionary.

Text extraction lives here, with the choice between what the title page prints and what the
metadata claims (`pdf_metadata`); the layout heuristics for the title page are in
`title_page`, the identifiers (DOI, arXiv id, year, venue) come from `metadata`.

A page whose text layer extracts as gibberish (a broken font encoding) is treated like a page
without text, and a document left with too little text is a scan (`has_text=False`).
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from workbench.ingest.parse_error import ParseError
from workbench.ingest.pdf_layout import PageLayout, is_garbled, page_layout
from workbench.ingest.pdf_metadata import PdfContent, derive_metadata
from workbench.ingest.sections import abstract_text, split_sections
from workbench.ingest.source_lines import pdf_lines
from workbench.ingest.title_page import is_cover_sheet
from workbench.models import ParsedDocument
from workbench.text.ligatures import find_glyph_repair

# A PDF whose pages average fewer real characters than this is treated as a scan.
MIN_TEXT_CHARS_PER_PAGE = 20
# Cover sheets skipped at most before the paper's own title page.
MAX_COVER_PAGES = 2

# PDFium is not thread-safe; the workbench may parse from worker threads.
_PDFIUM_LOCK = threading.Lock()


def parse_pdf(path: Path, data: bytes) -> ParsedDocument:
    """Parse a PDF: title, authors, identifiers and sections, or has_text=False for a scan."""
    if b"%PDF-" not in data[:1024]:
        raise ParseError("not a valid PDF: no %PDF header")
    content = _extract_pdf(data)
    page_count = len(content.page_texts)
    real_chars = sum(len("".join(text.split())) for text in content.page_texts)
    has_text = real_chars >= MIN_TEXT_CHARS_PER_PAGE * page_count
    meta = derive_metadata(path, content, has_text)
    sections = tuple(split_sections(pdf_lines(content.page_texts))) if has_text else ()
    return ParsedDocument(
        title=meta.title,
        authors=meta.authors,
        year=meta.year,
        doi=meta.doi,
        abstract=abstract_text(sections),
        sections=sections,
        page_count=page_count,
        has_text=has_text,
        kind="pdf",
        venue=meta.venue,
        title_source=meta.title_source,
        warnings=meta.warnings,
    )


def _extract_pdf(data: bytes) -> PdfContent:
    import pypdfium2 as pdfium

    with _PDFIUM_LOCK:
        try:
            pdf = pdfium.PdfDocument(data)
        except pdfium.PdfiumError as exc:
            raise ParseError(_pdfium_reason(str(exc))) from None
        try:
            page_count = len(pdf)
            if page_count <= 0:
                raise ParseError("PDF has no pages")
            try:
                metadata = {str(k): str(v) for k, v in pdf.get_metadata_dict().items()}
            except Exception:  # a broken info dictionary is not fatal
                metadata = {}
            texts: list[str] = []
            failures: list[str] = []
            garbled = 0
            for index in range(page_count):
                try:
                    text = _page_text(pdf, index)
                except Exception as exc:  # one bad page must not sink the rest
                    failures.append(str(exc))
                    text = ""
                if text.strip() and is_garbled(text):
                    garbled += 1
                    text = ""
                texts.append(text)
            if len(failures) == page_count:
                raise ParseError(f"could not read any page: {failures[0]}")
            repair = find_glyph_repair(texts)  # glyphs the fonts lost ("\x03amily" → "family")
            texts = [repair.apply(text) for text in texts]
            title_page = 0
            while title_page < min(MAX_COVER_PAGES, page_count - 1) and is_cover_sheet(
                texts[title_page], texts[title_page + 1]
            ):
                title_page += 1
            layout = _layout(pdf, title_page, repair.apply) if texts[title_page].strip() else None
            return PdfContent(texts, metadata, title_page, layout, garbled)
        finally:
            pdf.close()


def _page_text(pdf: Any, index: int) -> str:
    page = pdf[index]
    try:
        textpage = page.get_textpage()
        try:
            return str(textpage.get_text_bounded())
        finally:
            textpage.close()
    finally:
        page.close()


def _layout(pdf: Any, index: int, repair: Callable[[str], str]) -> PageLayout | None:
    """The title page's lines with sizes and positions (None when PDFium cannot give them)."""
    try:
        page = pdf[index]
    except Exception:
        return None
    try:
        textpage = page.get_textpage()
        try:
            return page_layout(page, textpage, repair)
        except Exception:  # a layout problem costs the title heuristics, never the document
            return None
        finally:
            textpage.close()
    finally:
        page.close()


def _pdfium_reason(message: str) -> str:
    detail = re.search(r"\(PDFium: ([^)]*)\)", message)
    reason = detail.group(1) if detail else message.rstrip(".")
    if "password" in reason.lower():
        return "PDF is encrypted (password required)"
    return f"not a valid PDF: {reason.lower().removesuffix(' error') or 'unknown error'}"
