"""Parsers that turn one file into a ParsedDocument, chosen from a registry by file suffix.

`parse_file` is the only entry point the rest of the workbench needs. Any problem with the
input (unreadable, empty, malformed, unsupported) surfaces as a `ParseError` whose message is
one human-readable line, so callers can show it next to the file without a traceback.
"""

from __future__ import annotations

import itertools
import re
import stat
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from workbench.ingest.sections import (
    SourceLine,
    arxiv_year,
    biorxiv_year,
    clean_text,
    find_arxiv_id,
    find_doi,
    join_lines,
    max_year,
    pdf_lines,
    plausible_year,
    split_authors,
    split_sections,
    strip_line_numbers,
    text_lines,
    without_page_breaks,
)
from workbench.models import ParsedDocument, Section

SUPPORTED_SUFFIXES: frozenset[str] = frozenset({".pdf", ".md", ".markdown", ".txt", ".html", ".htm"})

# A PDF whose pages average fewer real characters than this is treated as a scan.
MIN_TEXT_CHARS_PER_PAGE = 20
_TITLE_LINES_SCANNED = 40
MAX_FILE_BYTES = 512 * 2**20
_MAX_TITLE_CHARS = 300

# PDFium is not thread-safe; the workbench may parse from worker threads.
_PDFIUM_LOCK = threading.Lock()


class ParseError(Exception):
    """A file could not be parsed; `reason` is one line fit to show to a user."""

    def __init__(self, reason: str) -> None:
        self.reason = " ".join(reason.split()) or "unknown parse error"
        super().__init__(self.reason)


Parser = Callable[[Path, bytes], ParsedDocument]


def parse_file(path: Path) -> ParsedDocument:
    """Parse one file with the parser registered for its suffix, or raise ParseError."""
    suffix = path.suffix.lower()
    parser = _PARSERS.get(suffix)
    if parser is None:
        raise ParseError(f"unsupported file type: {suffix or '(no suffix)'}")
    data = _read_bytes(path)
    try:
        return parser(path, data)
    except ParseError:
        raise
    except Exception as exc:  # bad input must never escape as a traceback
        raise ParseError(f"could not parse file: {type(exc).__name__}: {exc}") from exc


def _read_bytes(path: Path) -> bytes:
    try:
        info = path.stat()
        if stat.S_ISDIR(info.st_mode):
            raise ParseError("is a directory, not a file")
        if not stat.S_ISREG(info.st_mode):
            raise ParseError("not a regular file")
        if info.st_size > MAX_FILE_BYTES:
            raise ParseError(f"file too large ({info.st_size // 2**20} MiB)")
        data = path.read_bytes()
    except FileNotFoundError:
        raise ParseError("file not found") from None
    except PermissionError:
        raise ParseError("permission denied") from None
    except OSError as exc:
        raise ParseError(f"cannot read file: {exc.strerror or exc}") from None
    if not data.strip():
        raise ParseError("file is empty")
    return data


# --- PDF ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class _PdfContent:
    page_texts: list[str]
    first_page_lines: list[tuple[str, float]]  # (line, largest font size on it)
    metadata: dict[str, str]


def _parse_pdf(path: Path, data: bytes) -> ParsedDocument:
    if b"%PDF-" not in data[:1024]:
        raise ParseError("not a valid PDF: no %PDF header")
    content = _extract_pdf(data)
    page_count = len(content.page_texts)
    real_chars = sum(len("".join(text.split())) for text in content.page_texts)
    has_text = real_chars >= MIN_TEXT_CHARS_PER_PAGE * page_count
    first_text = clean_text(content.page_texts[0]) if has_text else ""
    meta = content.metadata
    block = _title_block(content.first_page_lines) if has_text else None
    title = meta.get("Title", "").strip()
    if _is_junk_title(title):
        title = block[0] if block else path.stem
    authors = split_authors(meta.get("Author", ""))
    if not authors and block:
        authors = _authors_after(content.first_page_lines, block[1])
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
        abstract=_abstract(sections),
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


# --- Front matter heuristics -------------------------------------------------------------

_BANNER = re.compile(
    r"^((a )?(peer[- ]reviewed( forum)?|preprint|reviews?|research( article| paper)?|original "
    r"(article|research)|article|letter|(short )?communication|editorial|perspective|brief "
    r"report)\W*$|(journal of|proceedings|vol\.|volume|copyright|©|received|accepted|"
    r"published|doi)\b)",
    re.IGNORECASE,
)
_NOISE = re.compile(r"@|https?://|www\.|arXiv:|\bdoi\b|^\W*\d+\W*$", re.IGNORECASE)
_AFFILIATION = re.compile(
    r"@|https?://|universit|department|institute|school|laborator|college|hospital|center|"
    r"centre|\binc\b|\bltd\b|abstract|corresponding|e-?mail|^[\W\d]+$",
    re.IGNORECASE,
)
_MARKERS = re.compile(r"[∗*†‡§¶#♯⊥]|\d+")
_CONNECTORS = frozenset(
    {
        "a",
        "an",
        "the",
        "of",
        "on",
        "in",
        "for",
        "and",
        "or",
        "to",
        "with",
        "via",
        "from",
        "by",
        "at",
        "as",
        "towards",
        "toward",
        "using",
        "into",
        "between",
        "under",
        "through",
    }
)
_PARTICLES = frozenset(
    {
        "van",
        "von",
        "de",
        "der",
        "den",
        "da",
        "di",
        "du",
        "la",
        "le",
        "del",
        "dos",
        "das",
        "bin",
        "al",
        "el",
        "ter",
        "ten",
    }
)
_NOT_NAMES = frozenset(
    {
        "preprint",
        "review",
        "reviews",
        "article",
        "forum",
        "peer",
        "journal",
        "research",
        "paper",
        "abstract",
        "university",
        "department",
        "institute",
        "laboratory",
        "school",
        "supplementary",
        "information",
        "introduction",
    }
)
_JUNK_TITLE = re.compile(
    r"^(microsoft (word|powerpoint|excel)\b|untitled\b|document\d*$|title$|no title$|none$|"
    r"unknown$|paper$|manuscript$|draft$|slide \d+$|powerpoint presentation$)|"
    r"\.(docx?|pdf|tex|dvi|e?ps|rtf|odt|indd|qxd|txt|wpd|pages|png|jpe?g)$",
    re.IGNORECASE,
)


def _is_junk_title(title: str) -> bool:
    title = title.strip()
    if len(title) < 4 or not any(c.isalpha() for c in title) or _JUNK_TITLE.search(title):
        return True
    return " " not in title and ("_" in title or any(c.isdigit() for c in title))


def _is_title_candidate(line: str) -> bool:
    words = line.split()
    letters = sum(c.isalpha() for c in line)
    return (
        (len(words) >= 3 or len(line) >= 20)
        and letters >= 0.5 * len(line)
        and not _NOISE.search(line)
        and not _BANNER.match(line)
    )


def _title_block(lines: Sequence[tuple[str, float]]) -> tuple[str, int] | None:
    """The title on page 1 and the index of the line after it: largest font, else first line."""
    head = list(lines[:_TITLE_LINES_SCANNED])
    candidates = [i for i, (text, _) in enumerate(head) if _is_title_candidate(text)]
    if not candidates:
        return None
    sizes = [size for _, size in head if size > 0]
    if sizes and max(sizes) - min(sizes) > 0.5:
        best = max(head[i][1] for i in candidates)
        start = next(i for i in candidates if abs(head[i][1] - best) < 0.3)
        end = start + 1
        while (
            end < len(head) and end - start < 4 and abs(head[end][1] - best) < 0.3 and not _NOISE.search(head[end][0])
        ):
            end += 1
    else:
        start = candidates[0]
        end = start + 1
        while end < len(head) and end - start < 4 and _continues_title(head[end - 1][0], head[end][0]):
            end += 1
    title = join_lines(text for text, _ in head[start:end])[:_MAX_TITLE_CHARS].strip()
    return (title, end) if title else None


def _continues_title(previous: str, line: str) -> bool:
    if _NOISE.search(line) or _AFFILIATION.search(line) or _MARKERS.search(line):
        return False
    last_word = previous.rsplit(maxsplit=1)[-1].lower() if previous.split() else ""
    if previous.endswith((",", ":", ";", "-", "–")) or last_word in _CONNECTORS:
        return True
    return line[:1].islower() or not _is_name_list(line)


def _is_name_list(line: str) -> bool:
    parts = [p for p in re.split(r",|;|\band\b|&", line, flags=re.IGNORECASE) if p.strip()]
    return bool(parts) and len(_names_in(line)) == len(parts)


def _authors_after(lines: Sequence[tuple[str, float]], start: int) -> tuple[str, ...]:
    """Author names from the lines right after the title, up to the first affiliation."""
    block: list[str] = []
    for text, _ in lines[start : start + 4]:
        if _AFFILIATION.search(text) or _BANNER.match(text) or not re.search(r"[^\W\d]", text):
            break
        block.append(text)
    parts = [
        p for p in re.split(r",|;|\band\b|&", _MARKERS.sub(",", " ".join(block)), flags=re.IGNORECASE) if p.strip()
    ]
    names = _names_in(", ".join(parts))
    return tuple(names) if parts and len(names) >= 0.5 * len(parts) else ()


def _names_in(text: str) -> list[str]:
    """The comma/"and"-separated parts of text that look like personal names."""
    names = []
    for part in re.split(r",|;|\band\b|&", text, flags=re.IGNORECASE):
        tokens = part.split()
        if 2 <= len(tokens) <= 5 and all(_is_name_token(t) for t in tokens):
            names.append(" ".join(t.title() if t.isupper() and len(t) > 2 else t for t in tokens))
    return names


def _is_name_token(token: str) -> bool:
    bare = token.rstrip(".,")
    if bare.lower() in _NOT_NAMES:
        return False
    if token in ("Jr.", "Sr.", "II", "III", "IV") or bare.lower() in _PARTICLES:
        return True
    if re.fullmatch(r"([^\W\d_]\.)+(-[^\W\d_]\.)?", token):
        return token[0].isupper()  # initials: "D.", "J.-P."
    return len(bare) >= 2 and bare[0].isupper() and all(c.isalpha() or c in "-'’" for c in bare)


def _abstract(sections: Sequence[Section]) -> str:
    return "\n\n".join(without_page_breaks(s.text) for s in sections if s.name == "abstract")


# --- Text formats ------------------------------------------------------------------------


def _decode_text(data: bytes) -> str:
    """Decode text bytes: BOMs honoured, UTF-8 tried strictly, then UTF-8 with replacements."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        text = data.decode("utf-16", errors="replace")
    elif b"\x00" in data[:8192]:
        raise ParseError("binary content, not text")
    else:
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            text = data.decode("utf-8", errors="replace")
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _text_document(
    path: Path,
    lines: list[SourceLine],
    kind: str,
    *,
    detect_headings: bool,
    title: str = "",
    meta: Mapping[str, str] | None = None,
) -> ParsedDocument:
    """A ParsedDocument for a text-like file from its lines and optional metadata."""
    meta = meta or {}
    sections = tuple(split_sections(lines, detect_headings=detect_headings))
    # Identifiers come from the front matter only: a DOI in the references is someone else's.
    front = itertools.takewhile(lambda s: s.name in ("other", "abstract"), sections)
    head = "\n".join(s.text for s in front)[:3000]
    arxiv_id = meta.get("arxiv") or find_arxiv_id(head)
    doi = find_doi(meta.get("doi", "")) or find_doi(head)
    if doi is None and arxiv_id:
        doi = f"10.48550/arXiv.{arxiv_id}"
    return ParsedDocument(
        title=" ".join(title.split())[:_MAX_TITLE_CHARS] or path.stem,
        authors=split_authors(meta.get("authors", "")),
        year=plausible_year(meta.get("date")) or arxiv_year(arxiv_id),
        doi=doi,
        abstract=_abstract(sections),
        sections=sections,
        page_count=max((line.page for line in lines), default=1),
        has_text=any(s.text.strip() for s in sections),
        kind=kind,
    )


def _parse_txt(path: Path, data: bytes) -> ParsedDocument:
    lines = text_lines(_decode_text(data))
    first = next((line.text for line in lines if line.text), "")
    title = first if len(first) <= 200 else ""
    return _text_document(path, lines, "text", detect_headings=True, title=title)


_ATX = re.compile(r"^ {0,3}(#{1,6})\s+(.*?)(?:\s+#+)?\s*$")
_UNDERLINE = re.compile(r"=+|-{2,}")
_RULE = re.compile(r"(\*\s*){3,}|(_\s*){3,}|(-\s*){3,}")
_FENCE = re.compile(r"^ {0,3}(```|~~~)")
_MD_LEAD = re.compile(r"^[*_]{1,3}([A-Za-z][A-Za-z ]{2,30}?)([:.]?)[*_]{1,3}\s*([:.—]?)")


def _parse_markdown(path: Path, data: bytes) -> ParsedDocument:
    text = _decode_text(data)
    meta, body = _front_matter(text)
    raw_lines = clean_text(body).split("\n")
    lines: list[SourceLine] = []
    title = meta.get("title", "")
    in_fence = False
    for index, raw in enumerate(raw_lines):
        line = raw.strip()
        if _FENCE.match(raw):
            in_fence = not in_fence
            lines.append(SourceLine("", 1, "break"))
            continue
        following = raw_lines[index + 1].strip() if index + 1 < len(raw_lines) else ""
        atx = None if in_fence else _ATX.match(raw)
        setext = not in_fence and line and _UNDERLINE.fullmatch(following) is not None
        if atx or setext:
            heading = re.sub(r"[*_`]+|\{#[^}]*\}", "", atx.group(2) if atx else line).strip()
            level = len(atx.group(1)) if atx else (1 if following.startswith("=") else 2)
            title = title or (heading if level == 1 else "")
            lines.append(SourceLine(heading, 1, "heading"))
        elif not in_fence and (_UNDERLINE.fullmatch(line) or _RULE.fullmatch(line)):
            lines.append(SourceLine("", 1, "break"))  # setext underline or thematic break
        else:
            lead = _MD_LEAD.sub(lambda m: m.group(1) + (m.group(2) or m.group(3)) + " ", line)
            lines.append(SourceLine(lead.strip(), 1, "text" if line else "break"))
    return _text_document(path, lines, "markdown", detect_headings=False, title=title, meta=meta)


def _front_matter(text: str) -> tuple[dict[str, str], str]:
    """Simple YAML front matter (key: value and "- item" lists) and the text after it."""
    match = re.match(r"^---[ \t]*\n(.*?)\n(?:---|\.\.\.)[ \t]*(?:\n|$)", text, re.DOTALL)
    if not match:
        return {}, text
    meta: dict[str, str] = {}
    key = ""
    for line in match.group(1).split("\n"):
        item = re.match(r"^\s+-\s+(.*)$", line)
        pair = re.match(r"^([A-Za-z_][\w-]*)\s*:\s*(.*)$", line)
        if item and key:
            meta[key] = "; ".join(filter(None, [meta.get(key, ""), item.group(1).strip(" '\"")]))
        elif pair:
            key = {"author": "authors", "year": "date"}.get(pair.group(1).lower(), pair.group(1).lower())
            meta[key] = pair.group(2).strip().strip("'\"").strip("[]")
    return meta, text[match.end() :]


_HTML_SKIP = frozenset({"script", "style", "nav", "noscript", "template", "svg", "head"})
_HTML_BLOCK = frozenset(
    {
        "p",
        "div",
        "li",
        "ul",
        "ol",
        "section",
        "article",
        "br",
        "tr",
        "table",
        "blockquote",
        "pre",
        "dd",
        "dt",
        "dl",
        "figure",
        "figcaption",
        "header",
        "footer",
        "main",
        "aside",
        "hr",
        "h4",
        "h5",
        "h6",
        "td",
        "th",
        "caption",
        "body",
    }
)
_HTML_META = {
    "citation_title": "title",
    "dc.title": "title",
    "citation_author": "authors",
    "dc.creator": "authors",
    "citation_doi": "doi",
    "dc.identifier": "doi",
    "citation_publication_date": "date",
    "citation_date": "date",
    "dc.date": "date",
    "citation_arxiv_id": "arxiv",
}


class _HtmlText(HTMLParser):
    """Collects visible text as SourceLines, <h1>-<h3> as headings, plus citation meta tags."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lines: list[SourceLine] = []
        self.meta: dict[str, str] = {}
        self.page_title = ""
        self.first_h1 = ""
        self._skip = 0
        self._buffer: list[str] = []
        self._in_title = False
        self._heading: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "meta":
            self._meta(dict(attrs))
        elif tag == "title":
            self._in_title = True
        elif tag in _HTML_SKIP:
            self._skip += 1
        elif tag in ("h1", "h2", "h3"):
            self._flush()
            self._heading = tag
        elif tag in _HTML_BLOCK:
            self._flush()

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "meta":
            self._meta(dict(attrs))
        elif tag in _HTML_BLOCK:
            self._flush()

    def handle_endtag(self, tag: str) -> None:
        if tag == "title":
            self._in_title = False
        elif tag in _HTML_SKIP:
            self._skip = max(0, self._skip - 1)
        elif tag in _HTML_BLOCK or tag in ("h1", "h2", "h3"):
            self._flush()

    def handle_data(self, data: str) -> None:
        if self._in_title:
            self.page_title += data
        elif not self._skip:
            self._buffer.append(data)

    def close(self) -> None:
        super().close()
        self._flush()

    def _meta(self, attrs: dict[str, str | None]) -> None:
        key = _HTML_META.get((attrs.get("name") or attrs.get("property") or "").lower())
        value = " ".join((attrs.get("content") or "").split())
        if key and value:
            joined = "; ".join(filter(None, [self.meta.get(key, ""), value]))
            self.meta[key] = joined if key == "authors" else self.meta.get(key) or value

    def _flush(self) -> None:
        text = " ".join(clean_text("".join(self._buffer)).split())
        self._buffer = []
        if self._heading and text:
            self.first_h1 = self.first_h1 or (text if self._heading == "h1" else "")
            self.lines.append(SourceLine(text, 1, "heading"))
        elif text:
            self.lines.append(SourceLine(text, 1))
            self.lines.append(SourceLine("", 1, "break"))
        self._heading = None


def _parse_html(path: Path, data: bytes) -> ParsedDocument:
    parser = _HtmlText()
    parser.feed(_decode_text(data))
    parser.close()
    title = parser.meta.get("title") or " ".join(parser.page_title.split()) or parser.first_h1
    return _text_document(path, parser.lines, "html", detect_headings=False, title=title, meta=parser.meta)


_PARSERS: dict[str, Parser] = {
    ".pdf": _parse_pdf,
    ".md": _parse_markdown,
    ".markdown": _parse_markdown,
    ".txt": _parse_txt,
    ".html": _parse_html,
    ".htm": _parse_html,
}
