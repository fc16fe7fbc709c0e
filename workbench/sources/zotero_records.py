"""Frozen records the Zotero reader returns, and the per-library change watermark.

See `workbench.sources.zotero` for how watermarks are compared and why they hold more than a
version number.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True)
class ZoteroCreator:
    """An author, editor or other contributor, as entered in Zotero."""

    first: str
    last: str
    creator_type: str
    single_field: bool

    @property
    def display(self) -> str:
        """ "Last, First", or the single-field name (institutions, pseudonyms)."""
        if self.single_field or not self.first:
            return self.last
        if not self.last:
            return self.first
        return f"{self.last}, {self.first}"


@dataclass(frozen=True)
class ZoteroAttachment:
    """A file or link attached to an item; `path` is resolved, `exists` checked on disk."""

    item_key: str
    library_id: int
    link_mode: str
    content_type: str | None
    title: str
    path: Path | None
    url: str | None
    exists: bool
    parent_key: str | None
    version: int
    date_modified: str
    raw_path: str = ""  # the path as Zotero stored it (`storage:F`, an absolute or Windows path)
    problem: str = ""  # why a stored or linked file cannot be opened here (a Windows path, no base folder)


@dataclass(frozen=True)
class ZoteroNote:
    """A child note, its HTML turned into plain text with paragraphs kept."""

    key: str
    text: str
    title: str


@dataclass(frozen=True)
class ZoteroAnnotation:
    """A highlight, note, underline or other annotation made in Zotero's PDF reader."""

    key: str
    attachment_key: str
    type: str
    text: str
    comment: str
    color: str | None
    page_label: str | None
    author: str | None


@dataclass(frozen=True)
class ZoteroItem:
    """One top-level item (a regular item or a standalone attachment) with all it carries."""

    library_id: int
    key: str
    item_id: int
    version: int
    date_modified: str
    item_type: str
    title: str
    abstract: str
    date: str | None
    year: int | None
    doi: str | None
    url: str | None
    venue: str | None
    extra: str | None
    creators: tuple[ZoteroCreator, ...]
    tags: tuple[str, ...]
    collections: tuple[str, ...]
    attachments: tuple[ZoteroAttachment, ...]
    notes: tuple[ZoteroNote, ...]
    annotations: tuple[ZoteroAnnotation, ...]
    related_keys: tuple[str, ...]
    citekey: str | None
    library_name: str

    @property
    def doc_id(self) -> str:
        """The stable document id: keys are unique only within a library."""
        return f"zotero:{self.library_id}:{self.key}"


@dataclass(frozen=True)
class Watermark:
    """How far a read got in one library: largest version, latest stamp, keys at that stamp."""

    version: int = 0
    date_modified: str = ""
    keys_at_date: frozenset[str] = frozenset()

    def is_before(self, version: int, stamp: str, key: str) -> bool:
        """Whether a row with this version, stamp and key changed after this watermark."""
        if version > self.version or stamp > self.date_modified:
            return True
        return stamp == self.date_modified and key not in self.keys_at_date

    def to_dict(self) -> dict[str, object]:
        """A JSON-ready form for the caller's catalog."""
        return {
            "version": self.version,
            "date_modified": self.date_modified,
            "keys_at_date": sorted(self.keys_at_date),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> Watermark:
        """The inverse of `to_dict`."""
        keys = data.get("keys_at_date") or []
        version = data.get("version") or 0
        return cls(
            version=int(version) if isinstance(version, (int, str)) else 0,
            date_modified=str(data.get("date_modified") or ""),
            keys_at_date=frozenset(str(k) for k in keys) if isinstance(keys, list) else frozenset(),
        )


@dataclass(frozen=True)
class ZoteroReadResult:
    """What one read returns: changed items, live keys, new watermarks and library facts."""

    items: tuple[ZoteroItem, ...]
    live_keys: dict[int, frozenset[str]]
    watermarks: dict[int, Watermark]
    schema_version: int
    libraries: dict[int, str]
    warnings: tuple[str, ...] = field(default=())
