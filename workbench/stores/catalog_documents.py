"""A document's catalog row as its record: the `documents` columns and the one function that reads them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from workbench.records import CatalogDocument

# The `documents` columns in table order, as `CatalogDocument` holds them (a test keeps them equal).
DOCUMENT_COLUMNS = (
    "doc_id, title, authors, year, venue, doi, abstract, item_type, tags, collections, citekey, source, folder, "
    "content_hash, chunk_count, updated_at"
)


def catalog_document(row: Sequence[Any]) -> CatalogDocument:
    """A `documents` row, selected as `DOCUMENT_COLUMNS`, as its record (NULL text and lists read as empty)."""
    doc_id, title, authors, year, venue, doi, abstract, item_type, tags, collections, *rest = row
    citekey, source, folder, content_hash, chunk_count, updated_at = rest
    return CatalogDocument(
        doc_id=str(doc_id),
        title=title or "",
        authors=tuple(authors or ()),
        year=year,
        venue=venue,
        doi=doi,
        abstract=abstract or "",
        item_type=item_type or "",
        tags=tuple(tags or ()),
        collections=tuple(collections or ()),
        citekey=citekey,
        source=source or "",
        folder=folder,
        content_hash=content_hash or "",
        chunk_count=int(chunk_count or 0),
        updated_at=updated_at,
    )
