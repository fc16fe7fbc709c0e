"""PDF parsing with PDFium: page text, the title page's layout, and the info dictionary.

Text extraction lives here, with the choice between what the title page prints and what the
metadata claims (`pdf_metadata`); the layout heuristics for the title page are in
`title_page`, the identifiers (DOI, arXiv id, year, venue) come from `metadata`.

A page whose text layer extracts as gibberish (a broken font encoding, judged in any script by
`page_quality`) is treated like a page without text, and a document left with too little text
is a scan (`has_text=False`). Every page left out is reported with its reason
(`ParsedDocument.dropped_pages`), and a document without text says why (`no_text_reason`).
"""

from __future__ import annotations

import hashlib
import itertools
import re
import threading
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from workbench.errors import one_line
from workbench.ingest.cover_pages import is_cover_sheet, names_repository
from workbench.ingest.glyph_names import NumberedGlyphs, code_remap, remapped_text
from workbench.ingest.ocr import MIN_PAGE_CHARS, OcrError, OcrPage, PageReader, inked_chars
from workbench.ingest.page_quality import (
    decode_symbol_ascii,
    drop_figure_marks,
    drop_garbled_lines,
    drop_unmapped_delimiters,
    page_problem,
)
from workbench.ingest.parse_error import ParseError
from workbench.ingest.pdf_layout import PageLayout, page_layout
from workbench.ingest.pdf_metadata import PdfContent, candidates_of, derive_metadata
from workbench.ingest.sections import abstract_text, split_sections
from workbench.ingest.source_lines import SourceLine, pdf_lines
from workbench.ingest.title_page import TitleCandidate, title_candidates
from workbench.ingest.word_spaces import drop_spaces_inside_words
from workbench.records import ParsedDocument, Section
from workbench.text.arabic_ligatures import find_arabic_repair
from workbench.text.ligatures import LOST_GLYPH, LOST_RETURN, find_glyph_repair
from workbench.text.prose import collapse_leaders

# A PDF whose pages average fewer real characters than this is treated as a scan.
MIN_TEXT_CHARS_PER_PAGE = 20
# In a scan, a page whose text layer holds fewer inked characters than this (a download stamp,
# a page number) is read by OCR as well.
SPARSE_PAGE_CHARS = 200
# Cover sheets skipped at most before the paper's own title page.
MAX_COVER_PAGES = 2
# A notice page's line this many times the size of most of its text is a display title.
DISPLAY_OVER_TEXT = 2.0

# A control character other than a line break: a font's raw code where PDFium found no Unicode.
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f]")
_CONTROL_SHARE = 0.05

# PDFium is not thread-safe; the workbench may parse from worker threads.
_PDFIUM_LOCK = threading.Lock()

NO_TEXT_LAYER = "no text layer"
GARBLED_LAYER = "garbled text layer"  # how `page_quality.page_problem`'s reasons begin
ONLY_RUNNING_HEADS = "only running heads, page numbers or stamps"
ONLY_HEADING = "only a section heading"
_WEB_PAGE = re.compile(rb"<(?:!doctype\s+html|html)\b", re.IGNORECASE)


def parse_pdf(path: Path, data: bytes, ocr: PageReader | None = None) -> ParsedDocument:
    """Parse a PDF: title, authors, identifiers and sections, or has_text=False for a scan.

    With a `PageReader`, pages without a usable text layer are read by OCR (`_read_by_ocr`)."""
    content, dropped = _extract_pdf(data, ocr)
    return _parse_content(path, content, dropped)


def parse_pdf_pages_only(path: Path, data: bytes, ocr: PageReader | None = None) -> ParsedDocument:
    """Parse a PDF as `parse_pdf` does, its info dictionary (Title, Author, dates) ignored: what
    the pages alone give, to measure title-page reading against labels taken from that dictionary."""
    content, dropped = _extract_pdf(data, ocr)
    try:
        return _parse_content(path, replace(content, metadata={}), dropped)
    except Exception as exc:  # as `parse_file`: bad input is a ParseError, never a traceback
        raise ParseError(f"could not parse file: {type(exc).__name__}: {exc}") from exc


def _parse_content(path: Path, content: PdfContent, dropped: dict[int, str]) -> ParsedDocument:
    page_count = len(content.page_texts)
    real_chars, has_text = _text_layer(content)
    meta = derive_metadata(path, content, has_text)
    lines = pdf_lines(content.page_texts) if has_text else []
    sections = tuple(split_sections(lines)) if has_text else ()
    no_text_reason = ""
    if has_text:
        dropped.update(_pages_without_body(content.page_texts, lines, dropped))
        dropped.update(_heading_pages(content.page_texts, sections, dropped))
    else:
        too_little = f"too little text to index ({real_chars} characters on {page_count} pages)"
        dropped.update({n: too_little for n, text in enumerate(content.page_texts, 1) if text.strip()})
        no_text_reason = no_text_summary(dropped, page_count)
    warnings = meta.warnings
    if content.ocr_pages:
        warnings = (ocr_note(content.ocr_pages), *warnings)
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
        warnings=warnings,
        dropped_pages=tuple(sorted(dropped.items())),
        no_text_reason=no_text_reason,
        other_titles=meta.other_titles,
    )


def read_title_candidates(data: bytes) -> list[TitleCandidate]:
    """The candidate titles of a PDF's title page, as `parse_pdf` reads them (for `bench metadata --fit`)."""
    content, _ = _extract_pdf(data)
    return candidates_of(content, _text_layer(content)[1])


def _text_layer(content: PdfContent) -> tuple[int, bool]:
    """The inked characters of all pages, and whether that is a usable text layer (on average
    enough of them per page)."""
    real_chars = sum(inked_chars(text) for text in content.page_texts)
    return real_chars, real_chars >= MIN_TEXT_CHARS_PER_PAGE * len(content.page_texts)


def no_text_summary(dropped: dict[int, str], page_count: int) -> str:
    """Why a PDF has no usable text, from its pages' reasons: `no text layer on any of its 3 pages`."""
    reasons = Counter(dropped.values())
    if reasons.get(NO_TEXT_LAYER) == page_count:
        return f"no text layer on any of its {page_count} pages"
    parts = [f"{n} of {page_count} pages: {reason}" for reason, n in reasons.most_common()]
    return "; ".join(parts) or f"no usable text on its {page_count} pages"


def _pages_without_body(texts: list[str], lines: list[SourceLine], dropped: dict[int, str]) -> dict[int, str]:
    """Pages with text whose every line was left out as a running head, page number or stamp."""
    kept = {line.page for line in lines if line.kind == "text"}
    return {
        number: ONLY_RUNNING_HEADS
        for number, text in enumerate(texts, start=1)
        if text.strip() and number not in kept and number not in dropped
    }


def _heading_pages(texts: list[str], sections: Sequence[Section], dropped: dict[int, str]) -> dict[int, str]:
    """Pages with text but none of it in any section: their lines were all headings ("附 录" alone
    on the page before an appendix, "目录" alone on the last page of a table of contents), which
    open or name a section and are not its text. A section's text holds one part per page it spans
    (split at form feeds), so a page inside a section's span can still have nothing in it."""
    with_body = {
        section.page_start + offset
        for section in sections
        for offset, part in enumerate(section.text.split("\f"))
        if part.strip()
    }
    return {
        number: ONLY_HEADING
        for number, text in enumerate(texts, start=1)
        if text.strip() and number not in with_body and number not in dropped
    }


def _extract_pdf(data: bytes, ocr: PageReader | None = None) -> tuple[PdfContent, dict[int, str]]:
    """The pages' text (unusable pages emptied), and the pages left out with their reasons."""
    import pypdfium2 as pdfium

    if b"%PDF-" not in data[:1024]:
        if _WEB_PAGE.search(data[:1024]):  # a download that saved the publisher's sign-in page
            raise ParseError("not a PDF but a web page (a download that saved the site's page instead?)")
        raise ParseError("not a valid PDF: no %PDF header")

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
                metadata = {str(k): _as_written(str(v)) for k, v in pdf.get_metadata_dict().items()}
            except Exception:  # a broken info dictionary is not fatal
                metadata = {}
            raw: list[str] = []
            failures: list[str] = []
            dropped: dict[int, str] = {}
            for index in range(page_count):
                try:
                    raw.append(_page_text(pdf, index))
                except Exception as exc:  # one bad page must not sink the rest
                    failures.append(str(exc))
                    dropped[index + 1] = f"PDFium could not read the page: {' '.join(str(exc).split())[:80]}"
                    raw.append("")
            if len(failures) == page_count:
                raise ParseError(f"could not read any page: {failures[0]}")
            numbered = _read_numbered_glyphs(pdf, data, raw)
            # Glyphs the fonts lost ("\x03amily" → "family") are put back first, so a placeholder
            # the repair understands never makes its page look garbled; a contents page's leaders
            # ("Introduction ........ 1") become one "…" each (`collapse_leaders`).
            # Arabic ligatures written backwards ("املعامالت" → "المعاملات") are put in order too.
            glyphs, arabic = find_glyph_repair(raw), find_arabic_repair(raw)

            def repair(text: str) -> str:
                return arabic(glyphs.apply(text)).replace(LOST_GLYPH, "")  # a lost glyph not put back

            texts, garbled = _usable_pages(raw, repair, dropped)
            layouts: dict[int, PageLayout | None] = {}
            was_garbled = {number for number, reason in dropped.items() if reason.startswith(GARBLED_LAYER)}
            read = _read_by_ocr(pdf, data, texts, dropped, ocr, layouts) if ocr is not None else ()
            garbled -= len(was_garbled.intersection(read))

            def layout_of(index: int) -> PageLayout | None:
                if index not in layouts:  # each page's layout is read once, whichever rule asks first
                    layouts[index] = _page_layout(pdf, texts, index, repair, numbered)
                return layouts[index]

            title_page = 0
            while title_page < min(MAX_COVER_PAGES, page_count - 1) and _cover(texts, title_page, layout_of):
                title_page += 1
            layout = layout_of(title_page)
            while title_page > 0 and (layout is None or not title_candidates(layout)):
                # the page after a "cover" holds no title (a table of contents): the cover was the title page
                earlier = layout_of(title_page - 1)
                if earlier is None or not title_candidates(earlier):
                    break
                title_page, layout = title_page - 1, earlier
            return PdfContent(texts, metadata, title_page, layout, garbled, read), dropped
        finally:
            pdf.close()


def ocr_can_read(reason: str) -> bool:
    """Whether a page left out for this reason is one OCR reads: no text layer, or a garbled one,
    not yet tried (a reason OCR has added to names the attempt)."""
    return (reason == NO_TEXT_LAYER or reason.startswith(GARBLED_LAYER)) and ";" not in reason


def _read_by_ocr(
    pdf: Any,
    data: bytes,
    texts: list[str],
    dropped: dict[int, str],
    reader: PageReader,
    layouts: dict[int, PageLayout | None],
) -> tuple[int, ...]:
    """Read by OCR the pages left out for want of a usable text layer, at most `reader.max_pages`
    of them: a page whose text OCR reads takes it (and its layout, for a title page) and leaves
    `dropped`; one it cannot read keeps its reason with what OCR found. In a scan (a file OCR had
    to read, or one with too little text in all), a page whose layer holds only a few lines (a
    download stamp over a scanned title page) is read too, and takes OCR's text where that holds
    much more. The file's sha256 names its pages in OCR's cache. Returns the pages read. Where
    OCR cannot run (`reader.problem`, which the indexer reports once a run), nothing changes."""
    wanted = [number for number, reason in sorted(dropped.items()) if ocr_can_read(reason)]
    inked = [inked_chars(text) for text in texts]
    thin = sum(inked) < MIN_TEXT_CHARS_PER_PAGE * len(texts)
    if not (wanted or thin) or reader.problem:
        return ()
    digest = hashlib.sha256(data).hexdigest()
    read: list[int] = []
    for number in wanted[reader.max_pages :]:
        dropped[number] += f"; not read by OCR (over index.ocr_max_pages, {reader.max_pages} a file)"
    for number, (found, failure) in _ocr_pages(pdf, wanted[: reader.max_pages], reader, digest):
        if found is None:
            dropped[number] += f"; {failure}"
            continue
        texts[number - 1], layouts[number - 1] = found.text, found.layout
        del dropped[number]
        read.append(number)
    if read or thin:
        sparse = [n for n, chars in enumerate(inked, 1) if 0 < chars < SPARSE_PAGE_CHARS and n not in dropped]
        budget = max(reader.max_pages - len(wanted), 0)
        for number, (found, _) in _ocr_pages(pdf, sparse[:budget], reader, digest):
            if found is not None and inked_chars(found.text) >= 2 * inked[number - 1] + MIN_PAGE_CHARS:
                texts[number - 1], layouts[number - 1] = found.text, found.layout
                read.append(number)
    return tuple(sorted(read))


def _ocr_pages(
    pdf: Any, numbers: list[int], reader: PageReader, digest: str
) -> list[tuple[int, tuple[OcrPage | None, str]]]:
    """Pages read by OCR (side by side, `PageReader.read_pages`), each with its reading or None
    and why not ("OCR found no text")."""
    found = reader.read_pages(pdf, numbers, digest)
    return [(number, _usable_reading(found[number])) for number in numbers]


def _usable_reading(found: OcrPage | OcrError) -> tuple[OcrPage | None, str]:
    if isinstance(found, OcrError):  # one page OCR cannot render or read keeps its reason
        return None, f"OCR failed: {one_line(found, 80)}"
    if inked_chars(found.text) < MIN_PAGE_CHARS:
        return None, "OCR found no text"
    problem = page_problem(found.text)
    if problem:
        return None, f"OCR read {problem.removeprefix(GARBLED_LAYER).strip(': ')}"
    return found, ""


def ocr_note(pages: Sequence[int]) -> str:
    """A file's note on the pages OCR read: `12 pages read by OCR (1-12)`."""
    spans: list[str] = []
    for _, run in itertools.groupby(enumerate(pages), key=lambda pair: pair[1] - pair[0]):
        numbers = [n for _, n in run]
        spans.append(str(numbers[0]) if len(numbers) == 1 else f"{numbers[0]}-{numbers[-1]}")
    return f"{len(pages)} page{'s' if len(pages) != 1 else ''} read by OCR ({', '.join(spans)})"


def _usable_pages(raw: Sequence[str], repair: Callable[[str], str], dropped: dict[int, str]) -> tuple[list[str], int]:
    """Each page's readable text, a garbled or empty page emptied and entered in `dropped` with
    its reason; and how many pages were garbled."""
    texts: list[str] = []
    garbled = 0
    for number, text in enumerate((_readable(t, repair) for t in raw), start=1):
        problem = page_problem(text) if text.strip() else None
        if problem:
            garbled += 1
            dropped[number] = problem
            text = ""
        elif not text.strip():
            dropped.setdefault(number, NO_TEXT_LAYER)
        texts.append(text)
    return texts, garbled


def parse_extracted_pages(path: Path, pages: Sequence[str]) -> ParsedDocument:
    """Parse text another program extracted from a PDF page by page (Zotero's full-text cache of a
    file this machine does not have), with the same page checks and accounting as `parse_pdf`."""
    dropped: dict[int, str] = {}
    texts, garbled = _usable_pages(pages, str, dropped)
    return _parse_content(path, PdfContent(texts, {}, 0, None, garbled), dropped)


def _cover(texts: list[str], index: int, layout_of: Callable[[int], PageLayout | None]) -> bool:
    """Whether page `index` is a cover sheet to pass over (`cover_pages`). A short page of notices
    that sets a line in display type, twice its text's size or more, and holds a title candidate
    is the title page with its copyright notice at the foot (a clinical guideline's cover:
    "Thyroid Carcinoma" at 52 points over a 6-point rights line), not an offprint's terms (whose
    publisher's name may be set large: "John Benjamins Publishing Company")."""
    text, following = texts[index], texts[index + 1]
    if not is_cover_sheet(text, following):
        return False
    if names_repository(text, following):
        return True
    layout = layout_of(index)  # a page of notices: is its title set on it after all?
    return layout is None or not _displays_a_line(layout) or not title_candidates(layout)


def _displays_a_line(layout: PageLayout) -> bool:
    """Whether a page's largest line is twice or more the size most of its letters are set in."""
    sized = sorted((line.size, len(line.text)) for line in layout.lines)
    if not sized:
        return False
    half, seen = sum(n for _, n in sized) / 2, 0
    for size, n in sized:
        seen += n
        if seen >= half:
            return sized[-1][0] >= DISPLAY_OVER_TEXT * size
    return False


def _as_written(value: str) -> str:
    """An info dictionary's string as its writer meant it. Some writers store a string's UTF-8
    bytes as PDFDocEncoding text, which reads back as "BalÃ¡zs Varga" or "Há»ﬁng-PhÃºc" (byte
    0x93 is "ﬁ" there): when the string's PDFDocEncoding bytes are valid UTF-8 with a non-ASCII
    character, that is what they were. Latin text really written in PDFDocEncoding ("Müller",
    one byte per letter) is no valid UTF-8 and stays as it is."""
    if value.isascii():
        return value
    from pypdf.generic import encode_pdfdocencoding

    try:
        return encode_pdfdocencoding(value).decode("utf-8")
    except (UnicodeEncodeError, UnicodeDecodeError):
        return value


def _page_layout(
    pdf: Any, texts: list[str], index: int, repair: Callable[[str], str], numbered: dict[int, dict[str, dict[int, str]]]
) -> PageLayout | None:
    """A page's layout, or None when it has no text."""
    return _layout(pdf, index, repair, numbered.get(index, {})) if texts[index].strip() else None


def _read_numbered_glyphs(pdf: Any, data: bytes, raw: list[str]) -> dict[int, dict[str, dict[int, str]]]:
    """Pages whose control characters are codes of fonts with numbered glyph names, read again
    (in `raw`) through those names; the pages' font codes, for their layout (`glyph_names`)."""
    found: dict[int, dict[str, dict[int, str]]] = {}
    glyphs: NumberedGlyphs | None = None
    for index, text in enumerate(raw):
        if len(_CONTROL.findall(text)) < _CONTROL_SHARE * len(text.replace(" ", "")) or not text.strip():
            continue  # a stray control character (a soft hyphen's, a lost ligature's) is no font's codes
        glyphs = glyphs or NumberedGlyphs(data)
        codes = glyphs.page_codes(index)
        if not codes:
            continue
        page = pdf[index]
        try:
            textpage = page.get_textpage()
            try:
                raw[index] = remapped_text(textpage, code_remap(textpage, codes))
            finally:
                textpage.close()
        except Exception:  # the repair is a bonus: the page stays as PDFium read it
            continue
        finally:
            page.close()
        found[index] = codes
    return found


def _readable(text: str, repair: Callable[[str], str]) -> str:
    """A page's text with lost glyphs put back, a symbol cmap's letters read as ASCII, leaders
    collapsed, and charts' plot marks, equations' unmapped delimiters and a few garbled lines
    (a logo's glyphs) left out."""
    return drop_garbled_lines(
        drop_unmapped_delimiters(drop_figure_marks(collapse_leaders(repair(decode_symbol_ascii(text)))))
    )


def _page_text(pdf: Any, index: int) -> str:
    page = pdf[index]
    try:
        textpage = page.get_textpage()
        try:
            return LOST_RETURN.sub(LOST_GLYPH, drop_spaces_inside_words(textpage, str(textpage.get_text_bounded())))
        finally:
            textpage.close()
    finally:
        page.close()


def _layout(pdf: Any, index: int, repair: Callable[[str], str], codes: dict[str, dict[int, str]]) -> PageLayout | None:
    """The title page's lines with sizes and positions (None when PDFium cannot give them)."""
    try:
        page = pdf[index]
    except Exception:
        return None
    try:
        textpage = page.get_textpage()
        try:
            return page_layout(page, textpage, repair, code_remap(textpage, codes) if codes else None)
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
