"""Turn one file into a ParsedDocument with the parser registered for its suffix (or its type).

`parse_file` is the only entry point the rest of the workbench needs. Any problem with the
input (unreadable, empty, malformed, unsupported) surfaces as a `ParseError` (from
`parse_error`) whose message is one human-readable line, so callers can show it next to the
file without a traceback. The parsers themselves live in `pdf` and `text_formats`.
"""

from __future__ import annotations

import errno
import mimetypes
from collections.abc import Callable
from pathlib import Path

from workbench.ingest.ocr import PageReader
from workbench.ingest.parse_error import ParseError
from workbench.ingest.pdf import parse_pdf
from workbench.ingest.regular_file import NotRegularFileError, read_regular
from workbench.ingest.text_formats import parse_html, parse_markdown, parse_txt
from workbench.ingest.zip_formats import parse_docx, parse_epub, parse_odt
from workbench.records import ParsedDocument

SUPPORTED_SUFFIXES: frozenset[str] = frozenset(
    {".pdf", ".md", ".markdown", ".txt", ".html", ".htm", ".xhtml", ".epub", ".docx", ".odt"}
)

# Documents a paper folder may hold that are not read: a folder run names how many it passed over
UNREAD_DOCUMENT_SUFFIXES: frozenset[str] = frozenset(
    {".doc", ".rtf", ".djvu", ".djv", ".ps", ".ppt", ".pptx", ".odp", ".mobi", ".azw", ".azw3", ".xps", ".chm"}
)

MAX_FILE_BYTES = 512 * 2**20

# The version of the rules that derive a file's title, authors, year, venue and DOI. Bump it
# when they change: the next index run re-derives the metadata of documents indexed under an
# older version from their files, keeping their text and vectors (`metadata_refresh`).
METADATA_RULES_VERSION = 29

Parser = Callable[[Path, bytes], ParsedDocument]


def parser_for(path: Path, content_type: str | None = None) -> Parser | None:
    """The parser for a file by its suffix, else by the content type its source records (a
    Zotero attachment saved from the web as "fulltext" or "viewcontent.cgi" is still a PDF)."""
    parser = _PARSERS.get(path.suffix.lower())
    if parser is None and content_type:
        suffix = _MIME_TYPES.guess_extension(content_type.partition(";")[0].strip().lower())
        parser = _PARSERS.get(suffix or "")
    return parser


def parse_file(path: Path, content_type: str | None = None, ocr: PageReader | None = None) -> ParsedDocument:
    """Parse one file with the parser for its suffix or content type (`parser_for`), or raise
    ParseError. A file with neither that begins as a PDF does is read as one: a refresh of a
    Zotero attachment named without a suffix knows only its path. With `ocr`, a PDF's pages
    without a usable text layer are read by OCR."""
    parser = parser_for(path, content_type)
    data = _read_bytes(path)
    if parser is None and _PDF_MAGIC in data[:1024]:
        parser = parse_pdf
    if parser is None:
        raise ParseError(f"unsupported file type: {content_type or path.suffix.lower() or '(no suffix)'}")
    try:
        if parser is parse_pdf and ocr is not None:
            return parse_pdf(path, data, ocr)
        return parser(path, data)
    except ParseError:
        raise
    except Exception as exc:  # bad input must never escape as a traceback
        raise ParseError(f"could not parse file: {type(exc).__name__}: {exc}") from exc


def begins_as_pdf(path: str | Path) -> bool:
    """Whether a file is here and is a PDF by its first KiB, as `parse_file` judges one (a Zotero
    attachment may be named "fulltext")."""
    try:
        with open(path, "rb") as handle:
            return _PDF_MAGIC in handle.read(1024)
    except OSError:
        return False


def _read_bytes(path: Path) -> bytes:
    try:
        data = read_regular(path, MAX_FILE_BYTES)
    except FileNotFoundError:
        raise ParseError("file not found") from None
    except PermissionError:
        raise ParseError("permission denied") from None
    except NotRegularFileError as exc:
        raise ParseError(exc.strerror or "not a regular file") from None
    except OSError as exc:
        if exc.errno == errno.EFBIG:  # over MAX_FILE_BYTES
            raise ParseError(exc.strerror or "file too large") from None
        raise ParseError(f"cannot read file: {exc.strerror or exc}") from None
    if not data.strip():
        raise ParseError("file is empty")
    return data


_PDF_MAGIC = b"%PDF-"  # within a file's first KiB, as PDF readers accept it
# Python's own table of types, not the machine's /etc/mime.types: the same answer everywhere.
_MIME_TYPES = mimetypes.MimeTypes(filenames=())
_MIME_TYPES.add_type("text/markdown", ".md")  # not in Python's table before 3.13
_MIME_TYPES.add_type("application/epub+zip", ".epub")
_MIME_TYPES.add_type("application/vnd.openxmlformats-officedocument.wordprocessingml.document", ".docx")
_MIME_TYPES.add_type("application/vnd.oasis.opendocument.text", ".odt")

_PARSERS: dict[str, Parser] = {
    ".pdf": parse_pdf,
    ".md": parse_markdown,
    ".markdown": parse_markdown,
    ".txt": parse_txt,
    ".html": parse_html,
    ".htm": parse_html,
    ".xhtml": parse_html,
    ".epub": parse_epub,
    ".docx": parse_docx,
    ".odt": parse_odt,
}
