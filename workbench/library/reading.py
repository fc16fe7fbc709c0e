"""Reading a paper's own indexed text: its metadata, abstract and a page range or section of its passages.

What an agent (or a person) needs to check a quote against the paper. The text comes from
the index (the chunk table, in reading order), never from a file path, so nothing outside
the indexed sources can be read this way. Light on purpose: records and the selection of
passages; the engine fetches the rows (`Engine.read_document`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from workbench.errors import UsageError
from workbench.records import SECTIONS, CatalogDocument

DEFAULT_READ_CHARS = 20_000  # about 5k tokens: a few pages, enough to check a quote
MAX_READ_CHARS = 200_000


@dataclass(frozen=True)
class Passage:
    """One indexed passage of a paper, verbatim, with its section and pages."""

    chunk_id: str
    section: str
    page_start: int
    page_end: int
    text: str


@dataclass(frozen=True)
class DocumentText:
    """A paper's metadata, abstract and the passages asked for (a page range or a section)."""

    doc_id: str
    title: str
    authors: tuple[str, ...]
    year: int | None
    venue: str | None
    doi: str | None
    item_type: str
    source: str
    abstract: str
    sections: tuple[str, ...]  # every section the paper has, in reading order
    pages: tuple[int, int] | None  # the first and last page of the indexed text (None: no text)
    passages: tuple[Passage, ...]
    truncated: bool  # more passages matched than `max_chars` allowed


def check_read_request(page_from: int | None, page_to: int | None, section: str | None, max_chars: int) -> None:
    """Raise UsageError, naming the argument, when a read request cannot be met."""
    if page_from is not None and page_from < 1:
        raise UsageError(f"page_from must be at least 1, got {page_from}")
    if page_to is not None and page_to < 1:
        raise UsageError(f"page_to must be at least 1, got {page_to}")
    if page_from is not None and page_to is not None and page_to < page_from:
        raise UsageError(f"page_to ({page_to}) is before page_from ({page_from})")
    if section is not None and section not in SECTIONS:
        raise UsageError(f"unknown section {section!r} (use {', '.join(SECTIONS)})")
    if not 1 <= max_chars <= MAX_READ_CHARS:
        raise UsageError(f"max_chars must be between 1 and {MAX_READ_CHARS}, got {max_chars}")


def document_text(
    document: CatalogDocument,
    chunks: Sequence[Mapping[str, Any]],
    page_from: int | None = None,
    page_to: int | None = None,
    section: str | None = None,
    max_chars: int = DEFAULT_READ_CHARS,
) -> DocumentText:
    """A paper's catalog record and its chunks (in reading order) as the passages a read asks for.

    A passage is kept when it overlaps the page range and is in the section (either may be left
    out); passages are added whole, in reading order, until `max_chars` is reached (the first one
    always, cut to `max_chars`).
    """
    check_read_request(page_from, page_to, section, max_chars)
    low = page_from if page_from is not None else 1
    high = page_to if page_to is not None else 10**9
    chosen: list[Passage] = []
    used = 0
    truncated = False
    for chunk in chunks:
        start, end = int(chunk["page_start"]), int(chunk["page_end"])
        if end < low or start > high or (section is not None and chunk["section"] != section):
            continue
        text = str(chunk["text"])
        if used + len(text) > max_chars:
            truncated = True
            if chosen:
                break
            text = text[:max_chars]
        chosen.append(Passage(str(chunk["chunk_id"]), str(chunk["section"]), start, end, text))
        used += len(text)
        if truncated:
            break
    sections = tuple(dict.fromkeys(str(c["section"]) for c in chunks))
    pages = (min(int(c["page_start"]) for c in chunks), max(int(c["page_end"]) for c in chunks)) if chunks else None
    return DocumentText(
        doc_id=document.doc_id,
        title=document.title,
        authors=document.authors,
        year=document.year,
        venue=document.venue,
        doi=document.doi,
        item_type=document.item_type,
        source=document.source,
        abstract=document.abstract,
        sections=sections,
        pages=pages,
        passages=tuple(chosen),
        truncated=truncated,
    )
