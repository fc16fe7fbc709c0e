"""Zotero schema knowledge: which tables and columns exist, field aliases and value parsing.

Everything here is pure (no I/O beyond a given connection) so the reader in `zotero.py` stays
about the order of queries, and this module about what the values mean.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path

from workbench.errors import SourceError


class ZoteroError(SourceError):
    """A Zotero data directory or database that cannot be read; the message is one clear line."""


LINK_MODES: Mapping[int, str] = {
    0: "imported_file",
    1: "imported_url",
    2: "linked_file",
    3: "linked_url",
}
"""itemAttachments.linkMode → name; 4 (images embedded in notes) is deliberately absent."""

ANNOTATION_TYPES: Mapping[int, str] = {
    1: "highlight",
    2: "note",
    3: "image",
    4: "ink",
    5: "underline",
    6: "text",
}

NON_BIBLIOGRAPHIC_TYPES = frozenset({"attachment", "note", "annotation"})

# Type-specific field → base field, used only when the database has no baseFieldMappings table.
FALLBACK_BASE_FIELDS: Mapping[str, str] = {
    "proceedingsTitle": "publicationTitle",
    "bookTitle": "publicationTitle",
    "websiteTitle": "publicationTitle",
    "blogTitle": "publicationTitle",
    "forumTitle": "publicationTitle",
    "encyclopediaTitle": "publicationTitle",
    "dictionaryTitle": "publicationTitle",
    "programTitle": "publicationTitle",
    "university": "publisher",
    "institution": "publisher",
    "repository": "publisher",
    "label": "publisher",
    "distributor": "publisher",
    "company": "publisher",
    "network": "publisher",
    "studio": "publisher",
    "caseName": "title",
    "subject": "title",
    "nameOfAct": "title",
    "dateDecided": "date",
    "dateEnacted": "date",
    "issueDate": "date",
}

# Item types whose publisher-like field (university, institution, repository) is their venue.
PUBLISHER_IS_VENUE = frozenset({"thesis", "report", "preprint", "book"})


@dataclass(frozen=True)
class SchemaInfo:
    """The tables of one open database and, for each, its column names."""

    columns: Mapping[str, frozenset[str]]

    def has(self, table: str, column: str | None = None) -> bool:
        """Whether the table (and, if given, the column in it) exists."""
        cols = self.columns.get(table)
        if cols is None:
            return False
        return column is None or column in cols

    def first_table(self, *names: str) -> str | None:
        """The first of the given table names that exists, e.g. `fieldsCombined` before `fields`."""
        return next((name for name in names if name in self.columns), None)

    def first_column(self, table: str, *names: str) -> str | None:
        """The first of the given column names that the table has (old and new spellings)."""
        return next((name for name in names if self.has(table, name)), None)

    def column_or(self, alias: str, table: str, column: str, default_sql: str) -> str:
        """`alias.column` when the column exists, else a literal SQL default in its place."""
        return f"{alias}.{column}" if self.has(table, column) else default_sql


def read_schema(conn: sqlite3.Connection) -> SchemaInfo:
    """List every table and its columns in one query (sqlite_master joined with table_info)."""
    rows = conn.execute(
        "SELECT m.name, p.name FROM sqlite_master AS m, pragma_table_info(m.name) AS p WHERE m.type = 'table'"
    ).fetchall()
    columns: dict[str, set[str]] = {}
    for table, column in rows:
        columns.setdefault(str(table), set()).add(str(column))
    return SchemaInfo({name: frozenset(cols) for name, cols in columns.items()})


_ISO_DATE = re.compile(r"^(\d{4})-(\d{2})-(\d{2})")
_LOOSE_YEAR = re.compile(r"(?<!\d)(1\d{3}|20\d{2})(?!\d)")


def parse_year(raw: str | None) -> int | None:
    """The year of a Zotero date (`YYYY-MM-DD original text`), or of a plain date string."""
    if not raw:
        return None
    match = _ISO_DATE.match(raw)
    if match:
        year = int(match.group(1))
        return year or None
    loose = _LOOSE_YEAR.search(raw)
    return int(loose.group(1)) if loose else None


_CITEKEY_LINE = re.compile(r"^\s*(?:citation key|bibtex)\s*:\s*(\S+)\s*$", re.IGNORECASE | re.M)


def citekey_from_extra(extra: str | None) -> str | None:
    """The citation key pinned in an item's Extra field (`Citation Key: xyz`), if any."""
    if not extra:
        return None
    match = _CITEKEY_LINE.search(extra)
    return match.group(1) if match else None


def key_from_uri(uri: str) -> str:
    """The item key at the end of a relation object such as `http://zotero.org/users/1/items/K`."""
    return uri.rstrip("/").rsplit("/", 1)[-1]


def resolve_attachment_path(
    raw: str | None,
    *,
    link_mode: str,
    data_dir: Path,
    attachment_key: str,
    linked_base: Path | None,
) -> Path | None:
    """The absolute file an attachment points at, or None for URLs and unresolvable paths.

    `storage:F` lives in `<data>/storage/<attachment key>/F`; `attachments:R` is relative to the
    user's linked-attachment base folder, which only the caller knows; other linked paths are
    absolute already.
    """
    if not raw or link_mode == "linked_url":
        return None
    if raw.startswith("storage:"):
        return data_dir / "storage" / attachment_key / raw[len("storage:") :]
    if raw.startswith("attachments:"):
        if linked_base is None:
            return None
        return linked_base / raw[len("attachments:") :]
    path = Path(raw)
    return path if path.is_absolute() else None


_WINDOWS_PATH = re.compile(r"^(?:[A-Za-z]:[\\/]|\\\\|//)")


def unusable_path_reason(raw: str | None, *, link_mode: str, linked_base: Path | None) -> str:
    """Why an attachment's stored path names no file this machine can open ('' when it can, or it is a URL)."""
    if not raw or link_mode == "linked_url" or raw.startswith("storage:"):
        return ""
    if raw.startswith("attachments:"):
        if linked_base is None:
            return "relative to the linked attachment base folder, which is not set (sources.zotero_linked_base)"
        return ""
    if _WINDOWS_PATH.match(raw):
        return "a Windows or network path, which cannot be opened here"
    if not Path(raw).is_absolute():
        return "not an absolute path"
    return ""


def find_stored_name(path: Path) -> Path | None:
    """The file a stored name means when it is not there as spelled: a double-encoded name (mojibake).

    Zotero 4 wrote some names double-encoded (`nÃ£o` in the database, `não` on disk), and file
    systems differ in Unicode normalisation. Each name in the folder is compared with the
    stored one after both are repaired by ftfy and NFC-normalised.
    """
    import unicodedata

    import ftfy

    def fold(name: str) -> str:
        return unicodedata.normalize("NFC", ftfy.fix_text(unicodedata.normalize("NFC", name)))

    folder = path.parent
    try:
        entries = list(folder.iterdir()) if folder.is_dir() else []
    except OSError:
        return None
    wanted = fold(path.name)
    return next((entry for entry in entries if entry.is_file() and fold(entry.name) == wanted), None)


_BLOCK_TAGS = frozenset(
    {
        "address", "article", "blockquote", "dd", "div", "dl", "dt", "figcaption", "figure",
        "footer", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "li", "ol", "p", "pre",
        "section", "table", "tr", "ul",
    }
)  # fmt: skip
_SKIP_TAGS = frozenset({"script", "style", "head", "title"})


class _NoteTextParser(HTMLParser):
    """Collects the text of a Zotero note, one paragraph per block element."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.blocks: list[tuple[str, bool]] = []
        self._current: list[str] = []
        self._list_depth = 0
        self._skip_depth = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _SKIP_TAGS:
            self._skip_depth += 1
        elif tag == "br":
            self._current.append("\n")
        elif tag in _BLOCK_TAGS:
            self._flush()
            self._list_depth += tag == "li"
        elif tag in {"td", "th"}:
            self._current.append(" ")

    def handle_endtag(self, tag: str) -> None:
        if tag in _SKIP_TAGS:
            self._skip_depth = max(0, self._skip_depth - 1)
        elif tag in _BLOCK_TAGS:
            self._flush()
            if tag == "li":
                self._list_depth = max(0, self._list_depth - 1)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "br":
            self._current.append("\n")
        elif tag in _BLOCK_TAGS:
            self._flush()

    def handle_data(self, data: str) -> None:
        if not self._skip_depth:
            self._current.append(data)

    def _flush(self) -> None:
        raw = "".join(self._current)
        self._current = []
        lines = (" ".join(line.split()) for line in raw.split("\n"))
        text = "\n".join(line for line in lines if line)
        if text:
            in_item = self._list_depth > 0
            self.blocks.append((("- " + text) if in_item else text, in_item))

    def text(self) -> str:
        """The paragraphs found: blank lines between blocks, single newlines between list items."""
        self._flush()
        out: list[str] = []
        previous_item = False
        for index, (block, is_item) in enumerate(self.blocks):
            if index:
                out.append("\n" if (is_item and previous_item) else "\n\n")
            out.append(block)
            previous_item = is_item
        return "".join(out)


def html_to_text(html: str | None) -> str:
    """Plain text of a note's HTML with its paragraphs and list items kept on their own lines."""
    if not html:
        return ""
    parser = _NoteTextParser()
    parser.feed(html)
    parser.close()
    return parser.text()


def venue_of(item_type: str, values: Mapping[str, str]) -> str | None:
    """Journal, proceedings, book or website title; the publisher for theses and preprints."""
    venue = values.get("publicationTitle") or values.get("conferenceName")
    if not venue and item_type in PUBLISHER_IS_VENUE:
        venue = values.get("publisher")
    return venue or None


def doi_from_extra(extra: str | None) -> str | None:
    """A `DOI: 10.x/y` line in Extra, where Zotero keeps DOIs for types without a DOI field."""
    for line in (extra or "").splitlines():
        name, _, value = line.partition(":")
        if name.strip().upper() == "DOI" and value.strip().startswith("10."):
            return value.strip()
    return None
