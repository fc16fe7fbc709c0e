"""Parsers for the formats packaged as zip archives: EPUB books, Word documents (DOCX) and
OpenDocument texts (ODT).

An EPUB is XHTML chapters listed in reading order by its package document (the OPF, named by
`META-INF/container.xml`), with Dublin Core metadata (title, creators, date, identifiers). Each
chapter goes through the HTML text collector, headings included; the title is the package's, else
the title page's, else the first heading. A book whose chapters are encrypted (DRM) cannot be read
and says so; fonts obfuscated the way the EPUB standard allows do not count.

A Word document is turned into HTML by `mammoth` (its headings from Word's Heading styles, Word's
Title style as the title), and its title and creators are read from its core properties
(`docProps/core.xml`). A creator Word fills in from a machine's account ("Microsoft Office User")
is nobody's name.

An OpenDocument text is read from its XML (`content.xml`, `meta.xml`): headings by their outline
level, paragraphs, list items and table cells in document order, a footnote after its paragraph,
reviewers' comments left out; the author is the document's initial creator.

None of these formats has printed pages: all text is on page 1, as for HTML, so answers cite their
sections. The archives are read with the standard library's `zipfile`; members are read up to a
size limit, so a zip bomb cannot fill memory.
"""

from __future__ import annotations

import io
import posixpath
import zipfile
from pathlib import Path
from urllib.parse import unquote
from xml.parsers.expat import ExpatError

from lxml import etree

from workbench.ingest.parse_error import ParseError
from workbench.ingest.source_lines import SourceLine, clean_text
from workbench.ingest.text_formats import HtmlText, decode_text, text_document
from workbench.records import ParsedDocument

MAX_MEMBER_BYTES = 64 * 2**20  # one chapter or document part, uncompressed
MAX_TEXT_BYTES = 256 * 2**20  # all of a book's chapters together

_CONTAINER = "urn:oasis:names:tc:opendocument:xmlns:container"
_OPF = "http://www.idpf.org/2007/opf"
_DC = "http://purl.org/dc/elements/1.1/"
_ENC = "http://www.w3.org/2001/04/xmlenc#"
_OFFICE = "urn:oasis:names:tc:opendocument:xmlns:office:1.0"
_TEXT = "urn:oasis:names:tc:opendocument:xmlns:text:1.0"
_META = "urn:oasis:names:tc:opendocument:xmlns:meta:1.0"
_CHAPTER_TYPES = frozenset({"application/xhtml+xml", "text/html"})
# The font obfuscations of the EPUB standard (IDPF) and of Adobe: fonts only, the text is readable
_FONT_OBFUSCATION = frozenset({"http://www.idpf.org/2008/embedding", "http://ns.adobe.com/pdf/enc#RC"})
# Creators a word processor fills in from the machine's account, not an author's name
_ACCOUNT_NAMES = frozenset(
    {"user", "windows user", "microsoft office user", "administrator", "admin", "author", "owner", "unknown"}
)
_XML = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False)


def parse_epub(path: Path, data: bytes) -> ParsedDocument:
    """Parse an EPUB book: its chapters' text in reading order, its package's metadata."""
    archive = _archive(data, "EPUB")
    opf_path = _package_path(archive)
    package = _xml(archive, opf_path)
    base = posixpath.dirname(opf_path)
    manifest = {item.get("id"): item for item in package.iter(f"{{{_OPF}}}item") if item.get("id") and item.get("href")}
    chapters = []
    for ref in package.iter(f"{{{_OPF}}}itemref"):
        item = manifest.get(ref.get("idref"))
        navigation = item is not None and "nav" in (item.get("properties") or "").split()
        if item is None or item.get("media-type") not in _CHAPTER_TYPES or navigation:
            continue
        chapters.append(posixpath.normpath(posixpath.join(base, unquote(item.get("href") or ""))))
    if not chapters:
        raise ParseError("not a valid EPUB: its package lists no chapters")
    encrypted = _encrypted(archive) & set(chapters)
    if encrypted:
        raise ParseError(f"an encrypted EPUB (DRM): {len(encrypted)} of {len(chapters)} chapters cannot be read")
    lines: list[SourceLine] = []
    title_page = ""
    total = 0
    for chapter in dict.fromkeys(chapters):
        raw = _member(archive, chapter)
        total += len(raw)
        if total > MAX_TEXT_BYTES:
            raise ParseError(f"an EPUB whose chapters hold more than {MAX_TEXT_BYTES // 2**20} MiB of text")
        html, _ = decode_text(raw)
        collector = HtmlText.read(html)
        lines += collector.lines
        title_page = title_page or collector.title_heading or collector.first_h1
    meta = _dublin_core(package)
    return text_document(path, lines, "epub", detect_headings=False, title=meta.get("title") or title_page, meta=meta)


def parse_docx(path: Path, data: bytes) -> ParsedDocument:
    """Parse a Word document: its text with Word's headings as headings, its core properties."""
    import mammoth  # loaded only for Word files

    archive = _archive(data, "Word document")
    styles = "p[style-name='Title'] => h1.title:fresh\np[style-name='Subtitle'] => p:fresh"
    try:
        html = mammoth.convert_to_html(io.BytesIO(data), style_map=styles).value
    except OSError as exc:  # mammoth's word for a package without its main document (found by its relationships)
        raise ParseError(f"not a valid Word document: {exc}") from None
    except (KeyError, ValueError, ExpatError, zipfile.BadZipFile, etree.XMLSyntaxError) as exc:  # a part broken
        raise ParseError(f"not a valid Word document: {type(exc).__name__}: {exc}") from None
    collector = HtmlText.read(html)
    meta: dict[str, str] = {}
    if "docProps/core.xml" in archive.namelist():
        core = _xml(archive, "docProps/core.xml")
        meta = _dublin_core(core)
        meta["date"] = ""  # the file's creation, not the work's: a template's year is no paper's
    title = collector.title_heading or meta.get("title") or collector.first_h1
    return text_document(path, collector.lines, "docx", detect_headings=False, title=title, meta=meta)


def parse_odt(path: Path, data: bytes) -> ParsedDocument:
    """Parse an OpenDocument text (LibreOffice's `.odt`): headings and paragraphs in document order,
    footnotes after their paragraph, comments left out; title and creator from `meta.xml`."""
    archive = _archive(data, "OpenDocument text")
    if "content.xml" not in archive.namelist():
        raise ParseError("not a valid OpenDocument text: no content.xml in the archive")
    if "META-INF/manifest.xml" in archive.namelist() and b"encryption-data" in _member(
        archive, "META-INF/manifest.xml"
    ):
        raise ParseError("a password-protected OpenDocument text: its text cannot be read")
    body = _xml(archive, "content.xml").find(f".//{{{_OFFICE}}}body")
    lines: list[SourceLine] = []
    title = ""
    for element in body.iter(f"{{{_TEXT}}}h", f"{{{_TEXT}}}p") if body is not None else ():
        if any(a.tag == f"{{{_OFFICE}}}annotation" for a in element.iterancestors()):
            continue  # a reviewer's comment, not the document's text
        text = " ".join(clean_text(_odf_text(element)).split())
        if not text:
            continue
        level = element.get(f"{{{_TEXT}}}outline-level") or ""
        if element.tag == f"{{{_TEXT}}}h" and (not level.isdigit() or int(level) <= 3):
            lines.append(SourceLine(text, 1, "heading"))
            continue
        if not title and element.get(f"{{{_TEXT}}}style-name") == "Title":
            title = text
        lines += [SourceLine(text, 1), SourceLine("", 1, "break")]
    meta: dict[str, str] = {}
    if "meta.xml" in archive.namelist():
        document_meta = _xml(archive, "meta.xml")
        meta = _dublin_core(document_meta)
        first = document_meta.find(f".//{{{_META}}}initial-creator")
        author = " ".join("".join(first.itertext()).split()) if first is not None else ""
        if author and author.casefold() not in _ACCOUNT_NAMES:
            meta["authors"] = author  # who wrote it; dc:creator is who saved it last
        meta["date"] = ""  # the file's dates, as Word's
    return text_document(path, lines, "odt", detect_headings=False, title=title or meta.get("title", ""), meta=meta)


def _odf_text(element: etree._Element) -> str:
    """An OpenDocument paragraph's text: its spaces, tabs and line breaks as written, its notes and
    comments left out (a note's paragraphs are read on their own)."""
    parts = [element.text or ""]
    for child in element:
        name = etree.QName(child).localname if isinstance(child.tag, str) else ""
        if name == "s":
            count = child.get(f"{{{_TEXT}}}c") or "1"
            parts.append(" " * min(int(count) if count.isdigit() else 1, 100))
        elif name == "tab":
            parts.append("\t")
        elif name == "line-break":
            parts.append("\n")
        elif name not in ("note", "annotation", "annotation-end") and isinstance(child.tag, str):
            parts.append(_odf_text(child))
        parts.append(child.tail or "")
    return "".join(parts)


def _archive(data: bytes, kind: str) -> zipfile.ZipFile:
    try:
        return zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, ValueError) as exc:
        raise ParseError(f"not a valid {kind}: not a zip archive ({exc})") from None


def _member(archive: zipfile.ZipFile, name: str) -> bytes:
    """One member's bytes (ParseError when it is missing, too large, or its data is corrupt)."""
    try:
        info = archive.getinfo(name)
    except KeyError:
        raise ParseError(f"a broken package: {name} is listed but not in the archive") from None
    if info.file_size > MAX_MEMBER_BYTES:
        raise ParseError(f"{name} unpacks to {info.file_size // 2**20} MiB, more than is read of one part")
    if info.flag_bits & 0x1:  # zipfile would ask for the password
        raise ParseError(f"{name} is encrypted in the archive (a password-protected zip)")
    try:
        return archive.read(info)
    except (zipfile.BadZipFile, OSError, EOFError, NotImplementedError) as exc:
        raise ParseError(f"{name} cannot be unpacked: {exc}") from None


def _xml(archive: zipfile.ZipFile, name: str) -> etree._Element:
    try:
        return etree.fromstring(_member(archive, name), _XML)
    except etree.XMLSyntaxError as exc:
        raise ParseError(f"{name} is not well-formed XML: {exc}") from None


def _package_path(archive: zipfile.ZipFile) -> str:
    """Where the EPUB's package document is (`META-INF/container.xml` names it)."""
    if "META-INF/container.xml" not in archive.namelist():
        raise ParseError("not a valid EPUB: no META-INF/container.xml")
    rootfile = _xml(archive, "META-INF/container.xml").find(f".//{{{_CONTAINER}}}rootfile")
    full_path = rootfile.get("full-path") if rootfile is not None else None
    if not full_path:
        raise ParseError("not a valid EPUB: its container names no package document")
    return unquote(full_path)


def _encrypted(archive: zipfile.ZipFile) -> set[str]:
    """Members encrypted other than by font obfuscation (`META-INF/encryption.xml`)."""
    if "META-INF/encryption.xml" not in archive.namelist():
        return set()
    found = set()
    for data in _xml(archive, "META-INF/encryption.xml").iter(f"{{{_ENC}}}EncryptedData"):
        method = data.find(f"{{{_ENC}}}EncryptionMethod")
        reference = data.find(f".//{{{_ENC}}}CipherReference")
        if reference is None or (method is not None and method.get("Algorithm") in _FONT_OBFUSCATION):
            continue
        found.add(posixpath.normpath(unquote(reference.get("URI") or "")))
    return found


def _dublin_core(root: etree._Element) -> dict[str, str]:
    """Title, creators, date and a DOI among the identifiers, as the text parsers' metadata."""

    def values(tag: str) -> list[str]:
        return [" ".join("".join(e.itertext()).split()) for e in root.iter(f"{{{_DC}}}{tag}")]

    creators = [c for c in values("creator") if c and c.casefold() not in _ACCOUNT_NAMES]
    doi = next((i for i in values("identifier") if "10." in i), "")
    return {
        "title": next((t for t in values("title") if t), ""),
        "authors": "; ".join(creators),
        "date": next((d for d in values("date") if d), ""),
        "doi": doi,
    }
