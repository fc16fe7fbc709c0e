"""What the engine's door returns to front ends: status, a document's detail, doctor's checks, the
model. Each record's `as_dict` is its `--json` shape (the keys README documents). The records the
query path builds too (`GraphDescription`, `SearchResult`, `Answer`) are in `workbench.records`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from workbench.records import CatalogDocument


@dataclass(frozen=True)
class DoctorCheck:
    """One line of `workbench doctor`: what was checked, whether it holds, and a one-line detail."""

    name: str
    ok: bool
    detail: str

    def as_dict(self) -> dict[str, Any]:
        """The `doctor --json` shape of one check."""
        return asdict(self)


@dataclass(frozen=True)
class FileFailure:
    """A file that failed to index, with its reason."""

    path: str
    error: str


@dataclass(frozen=True)
class IndexStatus:
    """What is indexed (`workbench status`): documents, chunks, files by status, failures, where data lives."""

    documents: int
    chunks: int  # as the catalog counts them
    files: Mapping[str, int]  # files by status
    sources: Mapping[str, int]  # documents by source
    failures: tuple[FileFailure, ...]
    chunk_rows: int  # as the chunk table counts them
    data_dir: str

    def as_dict(self) -> dict[str, Any]:
        """The `status --json` object (keys in the order README documents)."""
        data = asdict(self)
        data["failures"] = [asdict(f) for f in self.failures]
        return data


@dataclass(frozen=True)
class FileDetail:
    """One file of a document: its index status, pages, and the pages left out grouped by reason."""

    path: str
    status: str
    error: str | None
    pages: int
    dropped_pages: Mapping[str, Sequence[int]]


@dataclass(frozen=True)
class TextTwin:
    """Another indexed document that holds the same text (two Zotero items of one paper)."""

    doc_id: str
    title: str
    resemblance: float  # the share of equal sketch values (`ingest.text_sketch`)


@dataclass(frozen=True)
class DocumentDetail:
    """A document's catalog row with its files, notes and annotations (`workbench show`)."""

    document: CatalogDocument  # the catalog row, as `Engine.document` gives it
    files: tuple[FileDetail, ...]
    notes: tuple[Mapping[str, Any], ...]  # each: text, section, page
    annotations: tuple[Mapping[str, Any], ...]
    same_text: tuple[TextTwin, ...] = ()

    def as_dict(self) -> dict[str, Any]:
        """The `show --json` object."""
        return {
            "document": self.document.as_dict(),
            "files": [
                {**asdict(f), "dropped_pages": {k: list(v) for k, v in f.dropped_pages.items()}} for f in self.files
            ],
            "notes": [dict(n) for n in self.notes],
            "annotations": [dict(n) for n in self.annotations],
            "same_text": [asdict(t) for t in self.same_text],
        }


@dataclass(frozen=True)
class ModelInfo:
    """The configured language model: its name and context size in tokens."""

    name: str
    context_size: int
