"""Frozen records that cross module boundaries: documents, chunks, hits.

Every store and every front end speaks in these types, so they carry no behaviour beyond
small derived properties.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Literal

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
    warnings: tuple[str, ...] = ()  # what a reader should know (a garbled text layer, ...)


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

    @staticmethod
    def make_id(doc_id: str, section: str, ordinal: int, text: str) -> str:
        """A stable id: the same document, place and text always give the same id."""
        digest = hashlib.sha256(f"{doc_id}\x1f{section}\x1f{ordinal}\x1f{text}".encode())
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


DEPTHS: tuple[str, ...] = ("quick", "targeted", "comprehensive", "full")
ASPECTS: tuple[str, ...] = ("research_question", "methodology", "findings", "conclusions")


@dataclass(frozen=True)
class CostEstimate:
    """What one depth would send to the model, counted by the model's own tokenizer."""

    depth: str
    prompt_tokens: int
    completion_tokens: int  # the generation budget planned for this depth
    model_calls: int  # > 1 when the plan map-reduces to fit a small context
    fits_context: bool
    note: str = ""


@dataclass(frozen=True)
class Citation:
    """A numbered source an answer cites: which chunk, document, section and pages."""

    marker: str  # "1", "2", ... as written in the answer ([1])
    chunk_id: str
    doc_id: str
    title: str
    section: str
    page_start: int
    page_end: int
    text: str


@dataclass(frozen=True)
class Verdict:
    """The critic's judgement of an answer."""

    decision: str  # APPROVE, REVISE, REJECT
    score: float
    reasons: tuple[str, ...] = ()
    uncited: tuple[int, ...] = ()


@dataclass(frozen=True)
class Answer:
    """An answer (or summary) with its citations, verdict and real token cost."""

    status: str  # "answered", "abstained", "error"
    query: str
    intent: str
    depth: str
    text: str
    citations: tuple[Citation, ...] = ()
    verdict: Verdict | None = None
    estimate: CostEstimate | None = None
    prompt_tokens: int = 0
    completion_tokens: int = 0
    seconds: float = 0.0
    first_token_seconds: float | None = None
    warnings: tuple[str, ...] = ()
    aspects: dict[str, str] = field(default_factory=dict, compare=False, hash=False)
