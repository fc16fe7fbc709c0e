"""The library's records: documents (as a source gives them and as the catalog holds them),
sections, chunks, filters, hits and search results, the index fingerprint, graph neighbours.

Every store and every front end speaks in these types, so they carry no behaviour beyond
small derived properties and their JSON shapes (`SearchResult.to_dict`, `CatalogDocument.as_dict`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from datetime import datetime
from typing import Any, Literal

from workbench.text.safe import valid_text

SECTIONS: tuple[str, ...] = (
    "title",
    "abstract",
    "introduction",
    "methods",
    "results",
    "discussion",
    "conclusion",
    "references",
    "note",
    "annotation",
    "other",
)

FileStatus = Literal["indexed", "no-text", "failed", "duplicate"]

# The exact metadata filters: key -> (column, kind). Chunks (LanceDB) and documents (DuckDB)
# carry the same columns; `section` exists on chunks only. The kind decides the operators.
FILTER_FIELDS: dict[str, tuple[str, str]] = {
    "source": ("source", "text"),
    "folder": ("folder", "text"),
    "type": ("item_type", "text"),
    "section": ("section", "text"),
    "doc": ("doc_id", "text"),
    "citekey": ("citekey", "text"),
    "year": ("year", "int"),
    "tag": ("tags", "list"),
    "collection": ("collections", "list"),
    "author": ("authors", "author"),
}


@dataclass(frozen=True)
class Filter:
    """One parsed `key<op>value` metadata filter (see `workbench.query.filters.parse_filter`)."""

    key: str
    op: str
    value: str

    def __str__(self) -> str:
        return f"{self.key}{self.op}{self.value}"


def folder_doc_id(root_number: int, relative: str) -> str:
    """The id of a file's document in a watched folder: `file:<root number>/<path relative to the root>`.

    Each watched root gets a number of its own, once, in the catalog (`Catalog.root_numbers`), so
    two folders' `notes.md` are two documents while ids stay short and readable (`file:1/notes.md`).
    """
    return f"file:{root_number}/{valid_text(relative)}"


@dataclass(frozen=True)
class Section:
    """A run of text under one section heading, with the pages it spans (1-based)."""

    name: str
    text: str
    page_start: int = 1
    page_end: int = 1


@dataclass(frozen=True)
class ParsedDocument:
    """What a parser extracts from one file: metadata, sections and whether text was found."""

    title: str
    authors: tuple[str, ...] = ()
    year: int | None = None
    doi: str | None = None
    abstract: str = ""
    sections: tuple[Section, ...] = ()
    page_count: int = 0
    has_text: bool = True
    kind: str = "document"
    venue: str | None = None
    title_source: str = ""  # where the title came from: "page", "metadata", "file name"
    warnings: tuple[str, ...] = ()  # what a reader should know (a garbled text layer, how non-UTF-8 text was decoded)
    # Pages left out of the index, each with its reason (1-based): garbled, no text layer, ...
    dropped_pages: tuple[tuple[int, str], ...] = ()
    no_text_reason: str = ""  # why a file without usable text has none (set whenever has_text is False)
    # The title as the title page also prints it in another script (a Chinese paper's English title).
    other_titles: tuple[str, ...] = ()


@dataclass(frozen=True)
class Document:
    """One bibliographic item: a Zotero item or a file in a watched folder."""

    doc_id: str
    title: str
    source: str  # "folder" or "zotero"
    authors: tuple[str, ...] = ()
    year: int | None = None
    venue: str | None = None
    doi: str | None = None
    abstract: str = ""
    item_type: str = "document"
    tags: tuple[str, ...] = ()
    collections: tuple[str, ...] = ()
    citekey: str | None = None
    folder: str | None = None
    paths: tuple[str, ...] = ()
    content_hash: str = ""


@dataclass(frozen=True)
class CatalogDocument:
    """A paper's catalog row, every column in table order (`Document` is what a source gives to write).

    Built by the catalog store alone (`stores/catalog_documents.py`); `as_dict` is what `show --json` prints.
    """

    doc_id: str
    title: str = ""
    authors: tuple[str, ...] = ()
    year: int | None = None
    venue: str | None = None
    doi: str | None = None
    abstract: str = ""
    item_type: str = ""
    tags: tuple[str, ...] = ()
    collections: tuple[str, ...] = ()
    citekey: str | None = None
    source: str = ""  # "folder" or "zotero"
    folder: str | None = None
    content_hash: str = ""
    chunk_count: int = 0
    updated_at: datetime | None = None

    def as_dict(self) -> dict[str, Any]:
        """The row as a dict in column order, lists where the catalog holds lists (`show --json`)."""
        return {f.name: list(v) if isinstance(v := getattr(self, f.name), tuple) else v for f in fields(self)}


@dataclass(frozen=True)
class Chunk:
    """A section-aware passage of a document, the unit that is embedded and searched."""

    chunk_id: str
    doc_id: str
    section: str
    ordinal: int
    text: str
    page_start: int
    page_end: int
    token_count: int
    # Where each page of page_start..page_end begins in `text` (`workbench.text.pages`); () when unknown.
    page_offsets: tuple[int, ...] = ()

    @staticmethod
    def make_id(doc_id: str, section: str, ordinal: int, text: str) -> str:
        """A stable id: the same document, place and text always give the same id."""
        # surrogatepass: ids are hashed over bytes, so no text (a broken PDF's lone surrogate) can raise
        digest = hashlib.sha256(f"{doc_id}\x1f{section}\x1f{ordinal}\x1f{text}".encode("utf-8", "surrogatepass"))
        return digest.hexdigest()[:32]


@dataclass(frozen=True)
class Hit:
    """One search result: a chunk, its document's metadata and how it was found."""

    chunk_id: str
    doc_id: str
    title: str
    section: str
    text: str
    page_start: int
    page_end: int
    score: float
    backend: str  # "dense", "fts", "hybrid", "graph", "catalog"
    authors: tuple[str, ...] = ()
    year: int | None = None
    source: str = ""
    item_type: str = ""
    extra: dict[str, object] = field(default_factory=dict, compare=False, hash=False)
    page_offsets: tuple[int, ...] = ()  # where each of its pages begins in `text`; () when unknown
    snippet: str = ""  # where the passage meets the query (`query.snippet`); "" when not made
    # other documents that hold the same text, ranked below this one and folded into it (two Zotero
    # items of one paper: `ingest.text_sketch`)
    same_text: tuple[str, ...] = ()


@dataclass
class SearchResult:
    """Hits plus what it took to get them."""

    query: str
    mode: str
    hits: list[Hit]
    timings_ms: dict[str, float] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)

    def to_dict(self, filters: Sequence[str]) -> dict[str, Any]:
        """The stable JSON object `search --json` prints (documented in README), with the filters given."""
        return {
            "query": self.query,
            "mode": self.mode,
            "filters": list(filters),
            "timings_ms": self.timings_ms,
            "warnings": self.warnings,
            "results": [
                {
                    "rank": rank,
                    "doc_id": h.doc_id,
                    "chunk_id": h.chunk_id,
                    "title": h.title,
                    "authors": list(h.authors),
                    "year": h.year,
                    "source": h.source,
                    "item_type": h.item_type,
                    "section": h.section,
                    "pages": [h.page_start, h.page_end],
                    "score": round(h.score, 6),
                    "backend": h.backend,
                    "text": h.text,
                    "snippet": h.snippet,
                    "same_text": list(h.same_text),
                }
                for rank, h in enumerate(self.hits, start=1)
            ],
        }


@dataclass(frozen=True)
class ResultRow:
    """One row of a listing (search hits or the library): a paper, and how (and how well) it was found."""

    doc_id: str
    title: str
    authors: tuple[str, ...] = ()
    year: int | None = None
    source: str = ""
    score: float | None = None
    backend: str = ""
    section: str = ""
    page_start: int = 0
    page_end: int = 0
    text: str = ""
    same_text: tuple[str, ...] = ()  # other documents that hold the same text, folded into this row

    @property
    def first_author(self) -> str:
        """The first author's family name (or '')."""
        if not self.authors:
            return ""
        name = self.authors[0].strip()
        return name.split(",", 1)[0].strip() if "," in name else (name.split() or [""])[-1]


SEARCH_MODES = ("dense", "fts", "hybrid")


@dataclass(frozen=True)
class IndexFingerprint:
    """What built an index: the embedder (name and files), vector size, chunking and FTS settings.

    Stored in the catalog when an index is first built; a different fingerprint on open means
    the vectors or the BM25 index no longer match the settings, and the index must be rebuilt.
    """

    embedder: str
    embedder_files: str  # sha256 over the model files' digests; '' when the model is fetched by name
    vector_size: int
    chunking: str  # e.g. "chunker=1 chunk_tokens=220 max_chunk_tokens=256 min_chunk_tokens=40"
    fts: str  # e.g. "language=English stem=true remove_stop_words=true lower_case=true ascii_folding=true"

    def as_dict(self) -> dict[str, str]:
        """Every part as text (the catalog's key/value rows)."""
        return {
            "embedder": self.embedder,
            "embedder_files": self.embedder_files,
            "vector_size": str(self.vector_size),
            "chunking": self.chunking,
            "fts": self.fts,
        }

    @classmethod
    def from_dict(cls, values: dict[str, str]) -> IndexFingerprint:
        """The inverse of `as_dict` (missing parts read as empty)."""
        size = values.get("vector_size", "0")
        return cls(
            values.get("embedder", ""),
            values.get("embedder_files", ""),
            int(size) if size.isdigit() else 0,
            values.get("chunking", ""),
            values.get("fts", ""),
        )

    @property
    def digest(self) -> str:
        """A short hash of every part (shown by `doctor`)."""
        text = "\n".join(f"{k}={v}" for k, v in sorted(self.as_dict().items()))
        return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]

    def changes(self, current: IndexFingerprint) -> list[str]:
        """What differs from `current`, one phrase per part: `embedder 'a' -> 'b'`."""
        mine, theirs = self.as_dict(), current.as_dict()
        changed = []
        for key in mine:
            if mine[key] != theirs[key]:
                old, new = mine[key], theirs[key]
                if key == "embedder_files":
                    old, new = old[:12] or "none", new[:12] or "none"
                changed.append(f"{key.replace('_', ' ')} {old!r} -> {new!r}")
        return changed

    def only_fts_differs(self, current: IndexFingerprint) -> bool:
        """Whether `current` differs in the FTS settings alone (the keyword index rebuilds without re-embedding)."""
        return self != current and replace(self, fts=current.fts) == current

    def describe(self) -> str:
        """One line: `minilm-l6-v2-int8 (files 1a2b3c4d5e6f), 384-d; chunker=1 ...; language=English ...`."""
        files = f" (files {self.embedder_files[:12]})" if self.embedder_files else ""
        return f"{self.embedder}{files}, {self.vector_size}-d; {self.chunking}; {self.fts}"


@dataclass(frozen=True)
class Neighbour:
    """A paper next to another in the graph: how (relation: cites, similar, author…), how strongly and through what.

    The graph store returns these and the TUI's graph pane shows them as they are.
    """

    doc_id: str
    title: str
    year: int | None
    relation: str
    weight: float
    via: tuple[str, ...] = ()
    backend: str = "graph"


@dataclass(frozen=True)
class GraphDescription:
    """A paper's graph neighbourhood (`kind` "paper") or an author with co-authors (`kind` "author"): the graph's
    JSON-ready rows; parts of the other kind are None or empty, `second_hop` None unless depth 2 was asked for."""

    kind: Literal["paper", "author"]
    warnings: tuple[str, ...] = ()
    paper: Mapping[str, Any] | None = None
    neighbours: Mapping[str, Sequence[Mapping[str, Any]]] | None = None
    second_hop: Mapping[str, Any] | None = None
    author: Mapping[str, Any] | None = None
    other_matches: tuple[Mapping[str, Any], ...] = ()
    coauthors: tuple[Mapping[str, Any], ...] = ()

    def as_dict(self) -> dict[str, Any]:
        """The `graph --json` object, keys in the order README documents."""
        if self.kind == "author":
            return {
                "kind": "author",
                "author": self.author,
                "other_matches": list(self.other_matches),
                "coauthors": list(self.coauthors),
                "warnings": list(self.warnings),
            }
        data: dict[str, Any] = {
            "kind": "paper",
            "paper": self.paper,
            "neighbours": self.neighbours,
            "warnings": list(self.warnings),
        }
        if self.second_hop is not None:
            data["second_hop"] = self.second_hop
        return data
