"""PDF parsing with PDFium: page text, first-page lines with font sizes, and the info dictionary.

Text extraction lives here; the title and author heuristics for page 1 are in `title_page`, and
the identifiers (DOI, arXiv id, year) come from `metadata`.
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from workbench.ingest.metadata import (
    arxiv_year,
    biorxiv_year,
    find_arxiv_id,
    find_doi,
    max_year,
    plausible_year,
    split_authors,
)
from workbench.ingest.parse_error import ParseError
from workbench.ingest.sections import abstract_text, split_sections
from workbench.ingest.source_lines import clean_text, pdf_lines, strip_line_numbers
from workbench.ingest.title_page import authors_after, is_junk_title, title_block
from workbench.models import ParsedDocument

# A PDF whose pages average fewer real characters than this is treated as a scan.
MIN_TEXT_CHARS_PER_PAGE = 20

# PDFium is not thread-safe; the workbench may parse from worker threads.
_PDFIUM_LOCK = threading.Lock()


@dataclass(frozen=True)
class _PdfContent:
    page_texts: list[str]
    first_page_lines: list[tuple[str, float]]  # (line, largest font size on it)
    metadata: dict[str, str]


def parse_pdf(path: Path, data: bytes) -> ParsedDocument:
    """Parse a PDF: title, authors, identifiers and sections, or has_text=False for a scan."""
    if b"%PDF-" not in data[:1024]:
        raise ParseError("not a valid PDF: no %PDF header")
    content = _extract_pdf(data)
    page_count = len(content.page_texts)
    real_chars = sum(len("".join(text.split())) for text in content.page_texts)
    has_text = real_chars >= MIN_TEXT_CHARS_PER_PAGE * page_count
    first_text = clean_text(content.page_texts[0]) if has_text else ""
    meta = content.metadata
    block = title_block(content.first_page_lines) if has_text else None
    title = meta.get("Title", "").strip()
    if is_junk_title(title):
        title = block[0] if block else path.stem
    authors = split_authors(meta.get("Author", ""))
    if not authors and block:
        authors = authors_after(content.first_page_lines, block[1])
    meta_ids = " ".join(meta.get(key, "") for key in ("Subject", "Keywords", "Title"))
    doi = find_doi(meta_ids) or find_doi(first_text)
    arxiv_id = find_arxiv_id(first_text)
    if doi is None and arxiv_id:
        doi = f"10.48550/arXiv.{arxiv_id}"
    year = arxiv_year(arxiv_id) or biorxiv_year(doi) or plausible_year(meta.get("CreationDate")) or max_year(first_text)
    sections = tuple(split_sections(pdf_lines(content.page_texts))) if has_text else ()
    return ParsedDocument(
        title=title,
        authors=authors,
        year=year,
        doi=doi,
        abstract=abstract_text(sections),
        sections=sections,
        page_count=page_count,
        has_text=has_text,
        kind="pdf",
    )


def _extract_pdf(data: bytes) -> _PdfContent:
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
            first_lines: list[tuple[str, float]] = []
            failures: list[str] = []
            for index in range(page_count):
                try:
                    text, lines = _read_page(pdf, index, with_sizes=index == 0)
                except Exception as exc:  # one bad page must not sink the rest
                    failures.append(str(exc))
                    text, lines = "", []
                texts.append(text)
                first_lines = first_lines or lines
            if len(failures) == page_count:
                raise ParseError(f"could not read any page: {failures[0]}")
            return _PdfContent(texts, first_lines, metadata)
        finally:
            pdf.close()


def _read_page(pdf: Any, index: int, *, with_sizes: bool) -> tuple[str, list[tuple[str, float]]]:
    """Text of one page, plus its lines with font sizes when asked (for the title)."""
    page = pdf[index]
    try:
        textpage = page.get_textpage()
        try:
            text = str(textpage.get_text_bounded())
            return text, _lines_with_sizes(textpage) if with_sizes else []
        finally:
            textpage.close()
    finally:
        page.close()


def _lines_with_sizes(textpage: Any) -> list[tuple[str, float]]:
    import pypdfium2.raw as pdfium_c

    lines: list[tuple[str, float]] = []
    chars: list[str] = []
    size = 0.0
    for index in range(min(int(textpage.count_chars()), 8000)):
        code = int(pdfium_c.FPDFText_GetUnicode(textpage, index))
        if code == 10:
            lines.append((clean_text("".join(chars)).strip(), size))
            chars, size = [], 0.0
        elif code != 13 and 0 < code < 0x110000 and not 0xD800 <= code <= 0xDFFF:
            chars.append(chr(code))
            if not chr(code).isspace():
                size = max(size, float(pdfium_c.FPDFText_GetFontSize(textpage, index)))
    lines.append((clean_text("".join(chars)).strip(), size))
    texts = strip_line_numbers([text for text, _ in lines])
    return [(text.strip(), s) for text, (_, s) in zip(texts, lines, strict=True) if text.strip()]


def _pdfium_reason(message: str) -> str:
    detail = re.search(r"\(PDFium: ([^)]*)\)", message)
    reason = detail.group(1) if detail else message.rstrip(".")
    if "password" in reason.lower():
        return "PDF is encrypted (password required)"
    return f"not a valid PDF: {reason.lower().removesuffix(' error') or 'unknown error'}"
