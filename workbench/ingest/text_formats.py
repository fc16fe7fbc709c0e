"""Parsers for the text formats: plain text, Markdown (with YAML front matter) and HTML.

Each turns its input into SourceLines (explicit headings where the format marks them) and hands
them to `text_document`, which splits sections and reads identifiers from the front matter.
"""

from __future__ import annotations

import itertools
import logging
import re
from collections.abc import Mapping
from html.parser import HTMLParser
from pathlib import Path

from workbench.ingest.metadata import arxiv_year, find_arxiv_id, find_doi, plausible_year, split_authors
from workbench.ingest.parse_error import ParseError
from workbench.ingest.sections import abstract_text, split_sections
from workbench.ingest.source_lines import SourceLine, clean_text, text_lines
from workbench.ingest.title_text import MAX_TITLE_CHARS
from workbench.records import ParsedDocument


def decode_text(data: bytes) -> tuple[str, str]:
    """Decode text bytes and say how: BOMs honoured, UTF-8 tried strictly, else the encoding detected.

    Returns the text and a warning ('' for UTF-8 and BOM-marked text) to record with the file.
    """
    warning = ""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        text = data.decode("utf-16", errors="replace")
    elif b"\x00" in data[:8192]:
        raise ParseError("binary content, not text")
    else:
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            text, warning = _detect_and_decode(data)
    return text.replace("\r\n", "\n").replace("\r", "\n"), warning


def _detect_and_decode(data: bytes) -> tuple[str, str]:
    """Text that is not UTF-8: decoded with the encoding charset-normalizer finds most plausible."""
    from charset_normalizer import from_bytes

    best = from_bytes(data).best()
    if best is None:
        return data.decode("utf-8", errors="replace"), "not UTF-8 and no encoding fits: bad bytes replaced"
    return str(best), f"not UTF-8: decoded as {best.encoding}"


def text_document(
    path: Path,
    lines: list[SourceLine],
    kind: str,
    *,
    detect_headings: bool,
    title: str = "",
    meta: Mapping[str, str] | None = None,
    warning: str = "",
) -> ParsedDocument:
    """A ParsedDocument for a text-like file from its lines and optional metadata."""
    meta = meta or {}
    sections = tuple(split_sections(lines, detect_headings=detect_headings))
    # Identifiers come from the front matter only: a DOI in the references is someone else's.
    front = itertools.takewhile(lambda s: s.name in ("other", "abstract"), sections)
    head = "\n".join(s.text for s in front)[:3000]
    arxiv_id = meta.get("arxiv") or find_arxiv_id(head)
    doi = find_doi(meta.get("doi", "")) or find_doi(head)
    has_text = any(s.text.strip() for s in sections)
    if doi is None and arxiv_id:
        doi = f"10.48550/arXiv.{arxiv_id}"
    return ParsedDocument(
        title=" ".join(title.split())[:MAX_TITLE_CHARS] or path.stem,
        authors=split_authors(meta.get("authors", "")),
        year=plausible_year(meta.get("date")) or arxiv_year(arxiv_id),
        doi=doi,
        abstract=abstract_text(sections),
        sections=sections,
        page_count=max((line.page for line in lines), default=1),
        has_text=has_text,
        kind=kind,
        warnings=(warning,) if warning else (),
        no_text_reason="" if has_text else "no text beyond its title (an empty body or markup only)",
    )


def parse_txt(path: Path, data: bytes) -> ParsedDocument:
    """Parse a plain-text file; its first non-blank line is the title when it is short."""
    text, warning = decode_text(data)
    lines = text_lines(text)
    first = next((line.text for line in lines if line.text), "")
    title = first if len(first) <= 200 else ""
    return text_document(path, lines, "text", detect_headings=True, title=title, warning=warning)


_ATX = re.compile(r"^ {0,3}(#{1,6})\s+(.*?)(?:\s+#+)?\s*$")
_UNDERLINE = re.compile(r"=+|-{2,}")
_RULE = re.compile(r"(\*\s*){3,}|(_\s*){3,}|(-\s*){3,}")
_FENCE = re.compile(r"^ {0,3}(```|~~~)")
_MD_LEAD = re.compile(r"^[*_]{1,3}([A-Za-z][A-Za-z ]{2,30}?)([:.]?)[*_]{1,3}\s*([:.—]?)")


def parse_markdown(path: Path, data: bytes) -> ParsedDocument:
    """Parse a Markdown file: YAML front matter, ATX and setext headings, fenced code kept as text."""
    text, warning = decode_text(data)
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
    return text_document(path, lines, "markdown", detect_headings=False, title=title, meta=meta, warning=warning)


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


# Elements whose content is never visible text. <head> is not one of them: HTML5 lets a page
# omit </head> (and <body>), and what <head> may hold (<title>, <meta>, <script>, <style>) is
# handled element by element, so skipping "the head" would drop the body of such a page.
_HTML_SKIP = frozenset({"script", "style", "nav", "noscript", "template", "svg"})
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


class HtmlText(HTMLParser):
    """Collects visible text as SourceLines, <h1>-<h3> as headings, plus citation meta tags."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lines: list[SourceLine] = []
        self.meta: dict[str, str] = {}
        self.page_title = ""
        self.first_h1 = ""
        self.title_heading = ""  # the first heading classed "title" (pandoc's, an EPUB's title page)
        self._titled = False
        self._skip = 0
        self._buffer: list[str] = []
        self._in_title = False
        self._heading: str | None = None

    @classmethod
    def read(cls, html: str) -> HtmlText:
        """The text of a whole page of HTML."""
        collector = cls()
        collector.feed(html)
        collector.close()
        return collector

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
            self._titled = "title" in (dict(attrs).get("class") or "").split()
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
            self.title_heading = self.title_heading or (text if self._titled else "")
            self.lines.append(SourceLine(text, 1, "heading"))
        elif text:
            self.lines.append(SourceLine(text, 1))
            self.lines.append(SourceLine("", 1, "break"))
        self._heading = None
        self._titled = False


# The main content must hold at least this many characters to stand for the page (else the whole
# page is read): Readability finds nothing worth keeping in a page that is not an article.
MIN_MAIN_CHARS = 200


def parse_html(path: Path, data: bytes) -> ParsedDocument:
    """Parse an HTML page: its main content's text and <h1>-<h3> headings, the page's citation meta tags.

    A saved web page (a Zotero snapshot of a publisher's abstract page) is mostly navigation,
    sign-in forms and menus around a few paragraphs: the main content is found with Readability
    (`readability-lxml`, the algorithm of Firefox's reader view), and the title and meta tags
    are read from the whole page.
    """
    text, warning = decode_text(data)
    page = HtmlText.read(text)
    lines = page.lines
    main = _main_content(text)
    if main is not None:
        article = HtmlText.read(main)
        if sum(len(line.text) for line in article.lines) >= MIN_MAIN_CHARS:
            lines = article.lines
    title = page.meta.get("title") or " ".join(page.page_title.split()) or page.first_h1
    return text_document(path, lines, "html", detect_headings=False, title=title, meta=page.meta, warning=warning)


def _main_content(html: str) -> str | None:
    """The HTML of a page's main content by Readability, or None when it finds none."""
    from readability import Document as Readable  # lxml, loaded only for HTML files

    # Readability logs each page it cannot parse with the stack, then raises: the exception is
    # handled here (the page is read whole), so the log record is nobody's news.
    logging.getLogger("readability").setLevel(logging.CRITICAL)
    try:
        return str(Readable(html).summary(html_partial=True))
    except Exception:  # Readability's own "Unparseable", or lxml's on a broken page: read it whole
        return None
